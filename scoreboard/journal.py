"""The display's memory: an append-only, fsync'd log of what it applied.

A kiosk loses power without warning.  Every event that changed the table is
appended to ``journal.jsonl`` in the state directory and flushed to disk before
the next frame, so on start the display replays it and shows the same roads it
showed before the cut, then catches up from the retained snapshot.

One line per event: ``{"at": <unix time>, "kind": <payload kind>, "data": <payload>}``,
the payload in the wire format of :mod:`scoreboard.protocol` (validated again on
replay).  A torn last line, as a power cut mid-write leaves it, is dropped.
When a new shoe starts, the finished shoe's journal moves to ``shoes/`` (the
audit trail: the most recent ``keep_shoes`` shoes with games are kept) and the
new one begins with the current limits and a ``history`` record (the shoe
number so far and the recently finished shoe ids).

The disk may fail under a kiosk (full, remounted read-only, the file deleted):
the board then runs from memory, :attr:`Journal.health` says why, one ERROR is
logged, and the disk is tried again with a backoff.  What it could not take
waits in memory and is written when it can; if the file was lost meanwhile,
the journal is rewritten from the table, which is the truth.  Nothing is ever
deleted to make room: a shoe without games is not archived, pruning counts only
shoes with games, and whatever unreadable thing sits where the journal should
be is set aside, not overwritten.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import logging
import os
import re
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scoreboard.core.events import CutCard, Event, LimitsReceived, NewShoe, Shuffle, Snapshot
from scoreboard.core.table import Applied, TableState, apply_event
from scoreboard.health import JournalHealth, JournalState
from scoreboard.protocol import ProtocolError, canonical_json, encode, parse_dict

log = logging.getLogger(__name__)

JOURNAL_NAME = "journal.jsonl"
ARCHIVE_DIR = "shoes"
#: The record a rotated journal holds after the limits: the shoes before this one
#: (their count and recent ids), so a restart shows the right shoe number and a
#: late message of a finished shoe still cannot restart it.
HISTORY_KIND = "history"
#: A failing disk is tried again after 1 s, then 2, 4 ... at most every minute.
RETRY_FIRST_SECONDS = 1.0
RETRY_MAX_SECONDS = 60.0
#: Beyond this many entries waiting for the disk, the journal is rewritten from the table.
MAX_PENDING = 10_000
#: What marks an archived shoe as one with games (a real shoe, worth keeping).
_GAME_MARKS = (b'"kind":"coup"', b'"kind":"snapshot"', b'"type":"correct"')


class JournalError(OSError):
    """The state directory is plainly not one (a file stands in its way): a setup mistake."""


@dataclass(frozen=True, slots=True)
class _Entry:
    """What one kept event adds to the disk, held in memory until the disk takes it.

    ``fresh``: the event began shoe ``shoe``, so the finished shoe's journal leaves
    and a new one starts with ``lines``.  ``archive``: ``lines`` complete the
    archived file of the finished shoe ``shoe``.  ``games``: the shoe has games.
    """

    shoe: str | None
    lines: bytes
    fresh: bool = False
    archive: bool = False
    games: bool = False


class Journal:
    """Append-only event log of one display, in ``state_dir``.

    >>> import tempfile
    >>> from scoreboard.protocol import NewShoe
    >>> state = tempfile.mkdtemp()
    >>> table = TableState()
    >>> with Journal(state) as journal:
    ...     journal.replay(table)
    ...     journal.keep(NewShoe("S1"), table, apply_event(table, NewShoe("S1")))
    ...     journal.health.state.value
    0
    'ok'
    >>> again = TableState()
    >>> with Journal(state) as journal:
    ...     journal.replay(again), again.shoe_id
    (1, 'S1')
    """

    def __init__(
        self,
        state_dir: str | os.PathLike[str],
        *,
        keep_shoes: int = 200,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.state_dir = Path(state_dir)
        self.keep_shoes = keep_shoes
        self.path = self.state_dir / JOURNAL_NAME
        self._clock = clock
        self._synced: tuple[int, int, int] | None = None  # device, inode, size as last written
        self._disk_shoe: str | None = None  # the shoe of the file on disk
        self._queued_shoe: str | None = None  # ... once what is pending is written
        self._games_kept = False  # the file on disk holds games: archive it, never drop it
        self._pending: deque[_Entry] = deque()
        self._rewrite = False  # the disk lost track: write the journal afresh from the table
        self._table: TableState | None = None
        self._fault: str | None = None
        self._lost: str | None = None
        self._backoff = 0.0
        self._retry_at = 0.0
        self._prune_due = False
        try:
            self._make_dirs()
        except (FileExistsError, NotADirectoryError):
            raise JournalError(
                f"state dir {self.state_dir}: {_blocker(self.state_dir)} is not a directory"
            ) from None
        except OSError as error:
            self._failed(error)

    # -- health --------------------------------------------------------------
    @property
    def health(self) -> JournalHealth:
        """``OK`` while the disk takes every event; ``FAILING`` (with why) while it does not."""
        if self._fault is None:
            return JournalHealth(JournalState.OK)
        return JournalHealth(JournalState.FAILING, self._fault)

    def heal(self) -> JournalHealth:
        """Try a failing disk again if the backoff allows, without waiting for an event.

        An idle loop calls it, so a fault clears even while the table is quiet.
        """
        if self._fault is not None and self._table is not None and self._retry_due():
            self._flush()
        return self.health

    # -- start ---------------------------------------------------------------
    def replay(self, table: TableState) -> int:
        """Apply the journal to ``table``; returns the number of records replayed.

        Nothing here raises: unreadable lines are skipped with a warning naming
        their line, a torn last line is cut off the file so the next append starts
        on a clean line, and a journal that cannot be read at all leaves the table
        empty and is set aside when the disk allows.
        """
        self._table = table
        raw = self._read()
        count = 0 if raw is None else self._apply_lines(table, raw)
        self._disk_shoe = self._queued_shoe = table.shoe_id
        self._games_kept = _holds_games(table)
        if self._fault is None:
            self._flush()
        if self._fault is None:
            self._probe()
        log.info("journal %s: replayed %d events, shoe %s", self.path, count, table.shoe_id)
        return count

    def _read(self) -> bytes | None:
        """The complete lines of the journal, None if there is none readable."""
        try:
            raw = self.path.read_bytes()
            seen = os.stat(self.path)
        except FileNotFoundError:
            self._pending.append(_Entry(None, b"", fresh=True))
            return None
        except OSError as error:
            log.warning(
                "journal %s: unreadable (%s); the board starts empty", self.path, _why(error)
            )
            self._rewrite = True
            return None
        complete = raw.rfind(b"\n") + 1
        self._synced = (seen.st_dev, seen.st_ino, complete)
        if complete < len(raw):
            log.warning(
                "journal %s: dropping a torn last line of %d bytes (power cut mid-write?)",
                self.path,
                len(raw) - complete,
            )
            try:
                _truncate(self.path, complete)
            except OSError as error:
                self._rewrite = True
                self._failed(error)
        return raw[:complete]

    def _apply_lines(self, table: TableState, raw: bytes) -> int:
        count = 0
        for number, line in enumerate(raw.split(b"\n"), start=1):
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
        return count

    # -- recording -----------------------------------------------------------
    def keep(self, event: Event, table: TableState, applied: Applied) -> None:
        """Record ``event`` if applying it must survive a restart; never raises.

        That is when it changed the table, and also when it was refused but taught
        the table that a coup is not a game's truth (``applied.retired``).  A late
        snapshot that completed a finished shoe (``applied.completed``) goes to
        that shoe's archived file.  While the disk fails the entry waits in memory.
        """
        completed: str | None = getattr(applied, "completed", None)
        if not (applied.worth_keeping or completed):
            return
        if self._table is None:
            self._adopt()
        self._table = table
        self._queue(_line(*encode(event)), table, completed)
        if self._fault is None or self._retry_due():
            self._flush()

    def _adopt(self) -> None:
        """Take the file found at ``path`` as this journal's (``keep`` before any ``replay``)."""
        try:
            seen = os.stat(self.path)
        except OSError:
            self._pending.append(_Entry(None, b"", fresh=True))
            return
        self._synced = (seen.st_dev, seen.st_ino, seen.st_size)

    def _queue(self, line: bytes, table: TableState, completed: str | None) -> None:
        if completed:
            self._push(_Entry(completed, line, archive=True))
            return
        games = _holds_games(table)
        if table.shoe_id != self._queued_shoe:
            fresh = self._queued_shoe is not None
            self._queued_shoe = table.shoe_id
            if fresh and not self._rewrite:
                self._push(_Entry(table.shoe_id, _opening(table) + line, fresh=True, games=games))
                return
        if not self._rewrite:  # else the rewrite writes the table as it is by then
            self._push(_Entry(table.shoe_id, line, games=games))

    def _push(self, entry: _Entry) -> None:
        self._pending.append(entry)
        if len(self._pending) > MAX_PENDING:
            log.warning(
                "journal %s: %d events wait for the disk; it will be rewritten from the table",
                self.path,
                len(self._pending),
            )
            self._pending.clear()
            self._rewrite = True

    def _retry_due(self) -> bool:
        return self._clock() >= self._retry_at

    # -- writing ---------------------------------------------------------------
    def _flush(self) -> None:
        """Give the disk what waits for it, in order; a failure leaves it waiting."""
        try:
            while True:
                head = self._pending[0] if self._pending else None
                if self._rewrite:
                    self._rewrite_from_table()
                elif head is not None and (head.fresh or head.archive):
                    self._perform(head)
                elif not self._in_step():
                    self._lose_track()
                elif head is not None:
                    self._perform(head)
                else:
                    break
            if self._prune_due:
                self._prune()
        except OSError as error:
            self._failed(error)
            return
        self._recovered()

    def _perform(self, entry: _Entry) -> None:
        """Write the head of what waits (the appends that follow it in one fsync)."""
        if entry.archive:
            self._complete_archive(entry)
            self._pending.popleft()
        elif entry.fresh:
            self._clear_the_way(entry.shoe)
            self._write_fresh(entry.lines)
            self._disk_shoe, self._games_kept = entry.shoe, entry.games
            self._prune_due = True
            self._pending.popleft()
        else:
            batch = list(itertools.takewhile(_plain, self._pending))
            self._append(b"".join(each.lines for each in batch))
            self._games_kept |= any(each.games for each in batch)
            self._disk_shoe = batch[-1].shoe
            for _ in batch:
                self._pending.popleft()

    def _in_step(self) -> bool:
        """Whether the file at ``path`` is still the one written here, as long as written."""
        if self._synced is None:
            self._lost = f"{JOURNAL_NAME} is not this display's"
            return False
        try:
            seen = os.stat(self.path)
        except FileNotFoundError:
            self._lost = f"{JOURNAL_NAME} was deleted"
            return False
        if _identity(seen) != self._synced:
            self._lost = f"{JOURNAL_NAME} was replaced or changed"
            return False
        return True

    def _append(self, data: bytes) -> None:
        # Opened for each write, not held: nothing of the display keeps the disk busy.
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        try:
            _append_durably(fd, data)
            self._synced = _identity(os.fstat(fd))
        finally:
            os.close(fd)

    def _probe(self) -> None:
        """Open the journal for writing once, so a read-only disk is known from the start."""
        try:
            os.close(os.open(self.path, os.O_WRONLY | os.O_APPEND))
        except OSError as error:
            self._failed(error)

    def _lose_track(self) -> None:
        log.warning("journal %s: %s; rewriting it from memory", self.path, self._lost)
        self._pending = deque(entry for entry in self._pending if entry.archive)
        self._rewrite = True

    def _rewrite_from_table(self) -> None:
        """Write the journal afresh as the table is: limits, history, the shoe's snapshot."""
        table = self._table
        assert table is not None  # replay or keep set it
        self._clear_the_way(table.shoe_id)
        self._write_fresh(b"".join(_line(*line) for line in _state_records(table)))
        self._disk_shoe = self._queued_shoe = table.shoe_id
        self._games_kept = _holds_games(table)
        self._rewrite, self._lost, self._prune_due = False, None, True
        log.info(
            "journal %s: rewritten from memory (shoe %s, %d games)",
            self.path,
            table.shoe_id,
            len(table.games),
        )

    def _clear_the_way(self, shoe: str | None) -> None:
        """Make room for a new journal of ``shoe``; whatever was there is kept, not deleted.

        The finished shoe's journal goes to ``shoes/`` when it holds games (else it
        is replaced: it held only limits and history); anything that is not this
        journal's file is set aside next to it.
        """
        try:
            seen = os.stat(self.path)
        except FileNotFoundError:
            return
        ours = self._synced is not None and _identity(seen)[:2] == self._synced[:2]
        if ours and (not self._games_kept or self._disk_shoe == shoe):
            return
        if ours:
            stem = f"{time.strftime('%Y%m%d-%H%M%S')}-{_safe(self._disk_shoe or 'none')}"
            target = _free_name(self.state_dir / ARCHIVE_DIR, stem, ".jsonl")
        else:
            target = _free_name(
                self.state_dir, f"{JOURNAL_NAME}.aside-{time.strftime('%Y%m%d-%H%M%S')}", ""
            )
            log.warning("journal %s: what was there is set aside as %s", self.path, target.name)
        self._make_dirs()
        os.replace(self.path, target)
        _fsync_dir(target.parent)
        self._synced, self._games_kept = None, False

    def _write_fresh(self, data: bytes) -> None:
        """Replace the journal by ``data`` at once: a temporary file, fsync'd, renamed."""
        self._make_dirs()
        temporary = self.path.with_name(JOURNAL_NAME + ".tmp")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o644)
        try:
            _append_durably(fd, data)
            os.replace(temporary, self.path)
            self._synced = _identity(os.fstat(fd))
        except OSError:
            _remove_quietly(temporary)
            raise
        finally:
            os.close(fd)
        _fsync_dir(self.state_dir)

    def _complete_archive(self, entry: _Entry) -> None:
        """Append a late snapshot to its finished shoe's archived file (a new one if none)."""
        folder = self.state_dir / ARCHIVE_DIR
        target = _archived_file(folder, entry.shoe or "none")
        if target is None:
            stem = f"{time.strftime('%Y%m%d-%H%M%S')}-{_safe(entry.shoe or 'none')}"
            target = _free_name(folder, stem, ".jsonl")
        self._make_dirs()
        fd = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            _append_durably(fd, entry.lines)
        finally:
            os.close(fd)

    def _prune(self) -> None:
        """Keep the newest ``keep_shoes`` shoes with games and everything newer than them."""
        self._prune_due = False
        folder = self.state_dir / ARCHIVE_DIR
        real = 0
        for path in sorted(folder.glob("*.jsonl"), key=_age, reverse=True):
            if real < self.keep_shoes:
                real += _has_games(path)
                continue
            try:
                path.unlink()
            except OSError as error:
                log.warning("journal: cannot remove old shoe %s (%s)", path, _why(error))

    def _make_dirs(self) -> None:
        self.state_dir.mkdir(parents=True, exist_ok=True)
        (self.state_dir / ARCHIVE_DIR).mkdir(exist_ok=True)

    # -- faults --------------------------------------------------------------
    def _failed(self, error: OSError) -> None:
        """Note a disk fault: one ERROR when it starts, then retry later and later."""
        reason = _why(error) if self._lost is None else f"{self._lost}; {_why(error)}"
        if self._fault is None:
            log.error(
                "journal %s: cannot write (%s); the board runs from memory and retries",
                self.path,
                reason,
            )
            self._backoff = RETRY_FIRST_SECONDS
        else:
            if reason != self._fault:
                log.warning("journal %s: still cannot write, now: %s", self.path, reason)
            self._backoff = min(2 * self._backoff, RETRY_MAX_SECONDS)
        self._fault = reason
        self._retry_at = self._clock() + self._backoff

    def _recovered(self) -> None:
        if self._fault is not None:
            log.info("journal %s: writing again (it was: %s)", self.path, self._fault)
            self._fault = None

    def close(self) -> None:
        """Give a failing disk one last try (the journal holds no file open between writes)."""
        if self._fault is not None and self._table is not None:
            self._flush()

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


def _line(kind: str, data: dict[str, Any]) -> bytes:
    return canonical_json({"at": round(time.time(), 3), "kind": kind, "data": data}) + b"\n"


def _opening(table: TableState) -> bytes:
    """The first lines of a new shoe's journal: the limits and the shoes before it."""
    history = {"shoe_number": table.shoe_number - 1, "archived": list(table.archived)}
    return _line(*encode(LimitsReceived(table.limits))) + _line(HISTORY_KIND, history)


def _state_records(table: TableState) -> list[tuple[str, dict[str, Any]]]:
    """The records that rebuild ``table`` on replay: what a rewritten journal holds."""
    shoe = table.shoe_id
    history = {
        "shoe_number": table.shoe_number - (shoe is not None),
        "archived": list(table.archived),
    }
    events: list[Event] = [LimitsReceived(table.limits)]
    if shoe is not None:
        events.append(NewShoe(shoe))
        if _holds_games(table):
            origin = getattr(table, "position", None)  # protocol v2: the newest event applied
            events.append(Snapshot(shoe, table.games, table.voided, origin=origin))
    if table.cut_card_out:
        events.append(CutCard(shoe=shoe))
    if table.shuffling:
        events.append(Shuffle(shoe=shoe))
    records = [encode(event) for event in events]
    return [records[0], (HISTORY_KIND, history), *records[1:]]


def _plain(entry: _Entry) -> bool:
    return not (entry.fresh or entry.archive)


def _holds_games(table: TableState) -> bool:
    return bool(table.games or table.voided)


def _has_games(path: Path) -> bool:
    """Whether an archived shoe's file records a game (an unreadable one counts: keep it)."""
    try:
        data = path.read_bytes()
    except OSError:
        return True
    return any(mark in data for mark in _GAME_MARKS)


def _archived_file(folder: Path, shoe: str) -> Path | None:
    """The newest archived file of ``shoe``, found by its name and its content."""
    needle = canonical_json({"shoe": shoe})[1:-1]
    for path in sorted(folder.glob(f"*-{_safe(shoe)}*.jsonl"), key=_age, reverse=True):
        try:
            if needle in path.read_bytes():
                return path
        except OSError:
            continue
    return None


def _age(path: Path) -> tuple[int, str]:
    try:
        return path.stat().st_mtime_ns, path.name
    except OSError:
        return 0, path.name


def _free_name(folder: Path, stem: str, suffix: str) -> Path:
    target = folder / f"{stem}{suffix}"
    number = 1
    while target.exists():
        number += 1
        target = folder / f"{stem}-{number}{suffix}"
    return target


def _identity(seen: os.stat_result) -> tuple[int, int, int]:
    return seen.st_dev, seen.st_ino, seen.st_size


def _why(error: OSError) -> str:
    """The short reason a technician reads: "No space left on device"."""
    return error.strerror or str(error) or type(error).__name__


def _append_durably(fd: int, data: bytes) -> None:
    """Append ``data`` and fsync it; on failure cut the file back so no torn line stays."""
    size = os.fstat(fd).st_size
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    except OSError:
        with contextlib.suppress(OSError):  # else the next write sees the size differ
            os.ftruncate(fd, size)
        raise


def _truncate(path: Path, size: int) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.ftruncate(fd, size)
        os.fsync(fd)
    finally:
        os.close(fd)


def _remove_quietly(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink()


def _blocker(path: Path) -> Path:
    """The file standing where ``path`` or one of its parents should be a directory."""
    for each in [*reversed(path.parents), path, path / ARCHIVE_DIR]:
        if each.exists() and not each.is_dir():
            return each
    return path


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
