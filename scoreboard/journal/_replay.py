"""Reading a journal back: its complete lines, applied to a table one by one.

A torn last line, as a power cut mid-write leaves it, is cut off the file so the
next append starts on a clean line; a line that cannot be read is skipped with
a warning naming it.  Each payload is validated again by :mod:`scoreboard.protocol`.
The chain's fields (``prev``, ``mono``) and its informational records (``gap``,
``alert``, ``pruned``, ``completed``) change nothing on the table: replay skips them.
"""

from __future__ import annotations

import json
import logging
import math
import os
from dataclasses import dataclass
from pathlib import Path

from scoreboard.journal.disk import Identity, truncate
from scoreboard.journal.records import (
    HISTORY_KIND,
    INFORMATIONAL,
    POSITION_KIND,
    UNFINISHED_KIND,
    restore_ordering,
    restore_unfinished,
)
from scoreboard.protocol import ProtocolError, parse_dict
from scoreboard.regular_file import read_all
from scoreboard.table.state import TableState, apply_event

log = logging.getLogger(__package__)  # the journal logs under one name: scoreboard.journal


@dataclass(frozen=True, slots=True)
class Found:
    """A journal read back: its complete ``lines`` and the file's identity as they end.

    ``torn``: the bytes of a torn last line dropped; ``cut_failed``: it could not be
    cut off the file.
    """

    lines: bytes
    identity: Identity
    torn: int = 0  # pragma: no mutate (read_back, its one maker, always says)
    cut_failed: OSError | None = None


def read_back(path: Path) -> Found | None:
    """The journal at ``path``, None if there is none; raises OSError if it cannot be read."""
    try:
        raw = read_all(path)  # a FIFO is unreadable, not waited on: set aside as one
        seen = os.stat(path)
    except FileNotFoundError:
        return None
    complete = raw.rfind(b"\n") + 1
    cut_failed = None
    if complete < len(raw):
        log.warning(
            "journal %s: dropping a torn last line of %d bytes (power cut mid-write?)",
            path,
            len(raw) - complete,
        )
        try:
            truncate(path, complete)
        except OSError as error:
            cut_failed = error
    torn = len(raw) - complete
    return Found(raw[:complete], (seen.st_dev, seen.st_ino, complete), torn, cut_failed)


def apply_lines(table: TableState, raw: bytes, path: Path) -> int:
    """Apply the records of ``raw`` (the journal at ``path``) to ``table``; returns how many."""
    count = 0
    for number, line in enumerate(raw.split(b"\n"), start=1):
        if not line.strip():
            continue
        where = f"journal {path} line {number}"
        try:
            record = json.loads(line)
            _as_it_was_then(table, record)
            if record["kind"] in INFORMATIONAL:
                continue
            if record["kind"] in RESTORERS:
                RESTORERS[record["kind"]](table, record["data"], where)
                count += 1
                continue
            event = parse_dict(record["kind"], record["data"], where)
            applied = apply_event(table, event)
            if applied.conflicts:
                # A rejected coup is journaled so the table remembers it, as live.
                log.info("%s: a rejected coup, remembered (game %s)", where,
                         list(applied.conflicts))  # fmt: skip
            count += 1
        except (ValueError, KeyError, TypeError, ProtocolError) as error:
            log.warning("%s: skipped (%s)", where, error)
    return count


def _as_it_was_then(table: TableState, record: dict) -> None:
    """Give ``table`` the wall clock the line was kept at, as the kiosk gave it then: limits
    scheduled for a time before that switch before the line applies, as they did live."""
    at = record.get("at") if isinstance(record, dict) else None
    if isinstance(at, int | float) and not isinstance(at, bool) and math.isfinite(at):
        table.switch_limits(float(at))


def restore_history(table: TableState, data: dict, where: str) -> None:
    """Give ``table`` the shoes before this one, as a ``history`` record holds them."""
    shoe_number = data["shoe_number"]
    archived = data["archived"]
    if (
        isinstance(shoe_number, bool)
        or not isinstance(shoe_number, int)
        or shoe_number < 0
        or not isinstance(archived, list)
        or not all(isinstance(shoe_id, str) for shoe_id in archived)
    ):
        raise ValueError(f"{where}: history record {data!r:.80} is malformed")
    table.restore_history(shoe_number, archived)


#: The records that set the table's state directly rather than through an event.
RESTORERS = {
    HISTORY_KIND: restore_history,
    POSITION_KIND: restore_ordering,
    UNFINISHED_KIND: restore_unfinished,
}
