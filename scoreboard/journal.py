"""The display's memory: an append-only, fsync'd log of what it applied.

A kiosk loses power without warning.  Every event that changed the table is
appended to ``journal.jsonl`` in the state directory and flushed to disk before
the next frame, so on start the display replays it and shows the same roads it
showed before the cut, then catches up from the retained snapshot.

One line per event: ``{"at": <unix time>, "kind": <payload kind>, "data": <payload>}``,
the payload in the wire format of :mod:`scoreboard.protocol` (validated again on
replay).  A torn last line, as a power cut mid-write leaves it, is dropped.
When a new shoe starts, the finished shoe's journal moves to ``shoes/`` (the
audit trail, the most recent ``keep_shoes`` kept) and the new one begins with
the current limits and a ``history`` record (the shoe number so far and the
recently finished shoe ids).
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
from pathlib import Path
from typing import Any, BinaryIO

from scoreboard.core.events import Event, LimitsReceived
from scoreboard.core.table import Applied, TableState, apply_event
from scoreboard.protocol import ProtocolError, canonical_json, encode, parse_dict

log = logging.getLogger(__name__)

JOURNAL_NAME = "journal.jsonl"
ARCHIVE_DIR = "shoes"
#: The record a rotated journal holds after the limits: the shoes before this one
#: (their count and recent ids), so a restart shows the right shoe number and a
#: late message of a finished shoe still cannot restart it.
HISTORY_KIND = "history"


class JournalError(OSError):
    """The state directory cannot be used (not writable, not a directory)."""


class Journal:
    """Append-only event log of one display, in ``state_dir``.

    >>> import tempfile
    >>> from scoreboard.protocol import NewShoe
    >>> state = tempfile.mkdtemp()
    >>> table = TableState()
    >>> with Journal(state) as journal:
    ...     journal.replay(table)
    ...     journal.keep(NewShoe("S1"), table, apply_event(table, NewShoe("S1")))
    0
    >>> again = TableState()
    >>> with Journal(state) as journal:
    ...     journal.replay(again), again.shoe_id
    (1, 'S1')
    """

    def __init__(self, state_dir: str | os.PathLike[str], *, keep_shoes: int = 200) -> None:
        self.state_dir = Path(state_dir)
        self.keep_shoes = keep_shoes
        try:
            self.state_dir.mkdir(parents=True, exist_ok=True)
            (self.state_dir / ARCHIVE_DIR).mkdir(exist_ok=True)
        except OSError as error:
            raise JournalError(f"state dir {self.state_dir}: cannot create it ({error})") from None
        self.path = self.state_dir / JOURNAL_NAME
        self._file: BinaryIO | None = None
        self._shoe: str | None = None

    # -- start ---------------------------------------------------------------
    def replay(self, table: TableState) -> int:
        """Apply the journal to ``table``; returns the number of records replayed.

        Unreadable lines are skipped with a warning; a torn last line is cut off
        the file so the next append starts on a clean line.
        """
        if not self.path.exists():
            self._open()
            return 0
        raw = self.path.read_bytes()
        complete = raw.rfind(b"\n") + 1
        if complete < len(raw):
            log.warning(
                "journal %s: dropping a torn last line of %d bytes (power cut mid-write?)",
                self.path,
                len(raw) - complete,
            )
            with open(self.path, "r+b") as handle:
                handle.truncate(complete)
                handle.flush()
                os.fsync(handle.fileno())
        count = 0
        for number, line in enumerate(raw[:complete].splitlines(), start=1):
            if not line.strip():
                continue
            where = f"journal {self.path} line {number}"
            try:
                record = json.loads(line)
                if record["kind"] == HISTORY_KIND:
                    _restore_history(table, record["data"], where)
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
        self._shoe = table.shoe_id
        self._open()
        log.info("journal %s: replayed %d events, shoe %s", self.path, count, table.shoe_id)
        return count

    # -- recording -----------------------------------------------------------
    def keep(self, event: Event, table: TableState, applied: Applied) -> None:
        """Record ``event`` if applying it must survive a restart; a disk error is logged.

        That is when it changed the table, and also when it was refused but taught
        the table that a coup is not a game's truth (``applied.retired``).
        """
        if not applied.worth_keeping:
            return
        try:
            self.record(event, table)
        except OSError as error:
            log.error("journal: cannot record (%s); the roads stay on screen", error)

    def record(self, event: Event, table: TableState) -> None:
        """Append an event that changed ``table`` (call after applying it).

        If the event started a new shoe, the previous shoe's journal is archived
        first and the new journal opens with the current limits.
        """
        if table.shoe_id != self._shoe:
            if self._shoe is not None:
                self._rotate(table)
            self._shoe = table.shoe_id
        self._append(event)

    def _append(self, event: Event) -> None:
        if self._file is None:
            self._open()
        self._write(*encode(event))

    def _write(self, kind: str, data: dict[str, Any]) -> None:
        line = canonical_json({"at": round(time.time(), 3), "kind": kind, "data": data}) + b"\n"
        assert self._file is not None
        self._file.write(line)
        self._file.flush()
        os.fsync(self._file.fileno())

    def _open(self) -> None:
        try:
            self._file = open(self.path, "ab")  # noqa: SIM115 - held open for appends
        except OSError as error:
            raise JournalError(f"journal {self.path}: cannot open for writing ({error})") from None
        _fsync_dir(self.state_dir)

    def _rotate(self, table: TableState) -> None:
        """Move the finished shoe's journal to ``shoes/`` and start a fresh one."""
        self.close()
        stem = f"{time.strftime('%Y%m%d-%H%M%S')}-{_safe(self._shoe or 'none')}"
        target = self.state_dir / ARCHIVE_DIR / f"{stem}.jsonl"
        suffix = 1
        while target.exists():
            suffix += 1
            target = target.with_name(f"{stem}-{suffix}.jsonl")
        if self.path.exists():
            os.replace(self.path, target)
            _fsync_dir(self.state_dir / ARCHIVE_DIR)
        self._open()
        self._append(LimitsReceived(table.limits))
        self._write(
            HISTORY_KIND, {"shoe_number": table.shoe_number - 1, "archived": list(table.archived)}
        )
        self._prune()

    def _prune(self) -> None:
        archived = sorted(
            (self.state_dir / ARCHIVE_DIR).glob("*.jsonl"),
            key=lambda path: (path.stat().st_mtime_ns, path.name),
        )
        for old in archived[: max(0, len(archived) - self.keep_shoes)]:
            try:
                old.unlink()
            except OSError as error:
                log.warning("journal: cannot remove old shoe %s (%s)", old, error)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def _restore_history(table: TableState, data: dict, where: str) -> None:
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


def _safe(shoe_id: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", shoe_id)[:64]


def _fsync_dir(path: Path) -> None:
    """Make a created or renamed file's directory entry durable too."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
