"""Where the log goes and how it looks: journald when systemd reads stderr, else a terminal.

Under systemd, stderr is a stream into the journal and systemd says so in
``JOURNAL_STREAM`` (the device and inode of that stream).  The journal stamps
every line itself, so the board leaves the time out and starts each line with the
syslog priority in angle brackets (``<4>`` for a warning), which journald turns
into the entry's priority: ``journalctl -u scoreboard -p warning`` then shows the
rejected payloads and faults without the chatter.  Anywhere else (a terminal, a
file, a test's pipe) lines carry the time and the level name.

>>> JournalFormatter().format(logging.makeLogRecord(
...     {"name": "scoreboard.kiosk.loop", "levelno": logging.WARNING, "msg": "disk full"}))
'<4>scoreboard.kiosk.loop: disk full'
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping
from typing import TextIO

TERMINAL_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

#: Python's levels as syslog priorities (sd-daemon's ``<N>`` prefixes).
PRIORITIES = {logging.CRITICAL: 2, logging.ERROR: 3, logging.WARNING: 4, logging.INFO: 6}


class JournalFormatter(logging.Formatter):
    """``<priority>name: message``; a traceback's lines stay in the same entry's text."""

    def __init__(self) -> None:
        super().__init__("%(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        priority = next((p for level, p in PRIORITIES.items() if record.levelno >= level), 7)
        text = super().format(record)
        # journald splits entries on newlines: a traceback would lose its priority
        # after the first line, so each continuation line carries it too.
        return "\n".join(f"<{priority}>{line}" for line in text.splitlines() or [""])


def to_journal(stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """Whether ``stream`` is the journal stream systemd names in ``JOURNAL_STREAM``."""
    value = (os.environ if environ is None else environ).get("JOURNAL_STREAM", "")
    device, _, inode = value.partition(":")
    try:
        info = os.fstat(stream.fileno())
        return (info.st_dev, info.st_ino) == (int(device), int(inode))
    except (OSError, ValueError, AttributeError):
        return False


def configure(verbose: bool, stream: TextIO = sys.stderr) -> None:
    """The root logger for a ``scoreboard`` command: DEBUG with ``-v``, else INFO."""
    handler = logging.StreamHandler(stream)
    if to_journal(stream):
        handler.setFormatter(JournalFormatter())
    else:
        handler.setFormatter(logging.Formatter(TERMINAL_FORMAT))
    logging.basicConfig(level=logging.DEBUG if verbose else logging.INFO, handlers=[handler])
