"""The appending file: what waits for the disk, how it is written, and when the disk lost track.

Every kept event waits in memory as an entry until the disk takes it; entries
are written in order, appends in one fsync.  Before each write the file at the
journal's path is checked to be the one written here, as long as written: if it
was deleted, replaced or changed meanwhile, what is there is set aside and the
journal is rewritten from the table, which is the truth.

Each line is sealed into the hash chain as it is written (:mod:`.tip` keeps the
tip): whatever happened on the way (a disk fault, a lost file, a torn line cut,
events dropped from memory, a journal without games replaced, old shoes pruned)
is written down on the chain by the first write after it.
"""

from __future__ import annotations

import itertools
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path

from scoreboard.game.events import Event
from scoreboard.journal import archive, records
from scoreboard.journal._links import Record, digest, seal
from scoreboard.journal._replay import Found, apply_lines, read_back
from scoreboard.journal._tip import ChainTip
from scoreboard.journal.archive import ARCHIVE_DIR, make_dirs
from scoreboard.journal.disk import (
    Identity,
    append_durably,
    blocker,
    identity,
    replace_durably,
    why,
)
from scoreboard.journal.faults import DiskFaults
from scoreboard.journal.pending import MAX_PENDING, Entry, Waiting
from scoreboard.protocol import encode
from scoreboard.table.applied import Applied
from scoreboard.table.health import JournalHealth
from scoreboard.table.state import TableState

log = logging.getLogger(__package__)  # the journal logs under one name: scoreboard.journal

JOURNAL_NAME = "journal.jsonl"


class JournalError(OSError):
    """The state directory is plainly not one (a file stands in its way): a setup mistake."""


class Journal:
    """Append-only event log of one display, in ``state_dir``.

    >>> import tempfile
    >>> from scoreboard.table.state import TableState, apply_event
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
        require_export: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.state_dir = Path(state_dir)
        self.keep_shoes = keep_shoes
        #: Never prune an archived shoe with games that ``scoreboard export`` did not write.
        self.require_export = require_export
        self._told: set[Path] = set()  # shoes kept for want of an export, logged once
        self._chain = ChainTip()
        self.path = self.state_dir / JOURNAL_NAME
        self._faults = DiskFaults(self.path, clock)
        self._synced: Identity | None = None  # device, inode, size as last written
        self._disk_shoe: str | None = None  # the shoe of the file on disk
        self._queued_shoe: str | None = None  # ... once what is pending is written
        self._ordering = records.ordering(TableState())  # the position as last queued
        # The file on disk holds games: archive it, never drop it.
        self._games_kept = False  # pragma: no mutate (replay, _adopt or a fresh write set it first)
        self._pending = Waiting()
        self._rewrite = False  # the disk lost track: write the journal afresh from the table
        self._table: TableState | None = None
        self._lost: str | None = None
        self._prune_due = False
        try:
            make_dirs(self.state_dir)
        except (FileExistsError, NotADirectoryError):
            found = blocker(self.state_dir, ARCHIVE_DIR)
            raise JournalError(f"state dir {self.state_dir}: {found} is not a directory") from None
        except OSError as error:
            self._failed(error)

    # -- health --------------------------------------------------------------
    @property
    def health(self) -> JournalHealth:
        """``OK`` while the disk takes every event; ``FAILING`` (with why) while it does not."""
        return self._faults.health

    def heal(self) -> JournalHealth:
        """Try a failing disk again if the backoff allows, without waiting for an event.

        An idle loop calls it, so a fault clears even while the table is quiet.
        """
        if self._faults.failing and self._table is not None and self._faults.retry_due():
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
        count = 0 if raw is None else apply_lines(table, raw, self.path)
        self._disk_shoe = self._queued_shoe = table.shoe_id
        self._ordering = records.ordering(table)
        self._games_kept = records.holds_games(table)
        if not self._faults.failing:
            self._flush()
        if not self._faults.failing:
            self._probe()
        log.info("journal %s: replayed %d events, shoe %s", self.path, count, table.shoe_id)
        return count

    def _read(self) -> bytes | None:
        """The complete lines of the journal, None if there is none readable."""
        try:
            found = read_back(self.path)
        except OSError as error:
            log.warning(
                "journal %s: unreadable (%s); the board starts empty", self.path, why(error)
            )
            self._rewrite = True
            self._chain.start(None, self.state_dir, unreadable=why(error))
            return None
        if found is None:
            self._pending.append(Entry(None, (), fresh=True))
            self._chain.start(None, self.state_dir)
            return None
        return self._take(found)

    def _take(self, found: Found) -> bytes:
        """Take the journal read back as this one's: its chain, and a torn line cut."""
        self._synced = found.identity
        self._chain.start(found.lines, self.state_dir, torn=found.torn)
        if found.cut_failed is not None:
            self._rewrite = True
            self._failed(found.cut_failed)
        return found.lines

    # -- recording -----------------------------------------------------------
    def keep(self, event: Event, table: TableState, applied: Applied) -> None:
        """Record ``event`` if applying it must survive a restart; never raises.

        That is when it changed the table, and also when it was refused but taught
        the table that a coup is not a game's truth (``applied.retired``).  A late
        snapshot that completed a finished shoe (``applied.completed``) goes to
        that shoe's archived file.  Each integrity alert the event raised gets an
        ``alert`` line.  While the disk fails the entry waits in memory.
        """
        completed = applied.completed
        alerts = applied.alerts
        ordering = records.ordering(table)
        line: Record | None = None
        if applied.worth_keeping or completed:
            line = records.line(*encode(event))
        elif ordering != self._ordering:  # the position moved with nothing else to keep
            line = records.line(records.POSITION_KIND, ordering)
        elif not alerts:
            return
        self._ordering = ordering
        if self._table is None:
            self._adopt()
        self._table = table
        if line is not None:
            self._queue(line, table, completed)
        if alerts:
            self._push(Entry(table.shoe_id, tuple(records.alert_records(alerts)), kept=True))
        if not self._faults.failing or self._faults.retry_due():
            self._flush()

    def _adopt(self) -> None:
        """Take the file found at ``path`` as this journal's (``keep`` before any ``replay``):
        as ``replay`` does, a torn last line is cut, so the next line starts a clean one."""
        try:
            found = read_back(self.path)
        except OSError:
            found = None
        if found is None:
            self._pending.append(Entry(None, (), fresh=True))
            self._chain.read(b"", self.state_dir)
            return
        self._games_kept = archive.records_games(self._take(found))  # archived, not replaced

    def _queue(self, line: Record, table: TableState, completed: str | None) -> None:
        if completed:
            self._push(Entry(completed, (line,), archive=True))
            # ... and the current journal forgets it, so a restart stops asking for it.
            line = records.line(records.UNFINISHED_KIND, None)
        games = records.holds_games(table)
        if table.shoe_id != self._queued_shoe:
            fresh = self._queued_shoe is not None
            self._queued_shoe = table.shoe_id
            if fresh and not self._rewrite:
                opened = tuple(records.opening(table, line))
                self._push(Entry(table.shoe_id, opened, fresh=True, games=games))
                return
        if not self._rewrite:  # else the rewrite writes the table as it is by then
            self._push(Entry(table.shoe_id, (line,), games=games))

    def _push(self, entry: Entry) -> None:
        self._pending.append(entry)
        if self._pending.overflowing:
            log.warning(
                "journal %s: %d events wait for the disk; it will be rewritten from the table",
                self.path,
                len(self._pending),
            )
            self._chain.trouble(f"more than {MAX_PENDING:,} events waited for the disk")
            self._drop_pending()
            self._rewrite = True

    def _drop_pending(self) -> None:
        self._chain.dropped(self._pending.drop_events())

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
                elif head is None and not self._chain.owed():
                    break
                elif not self._in_step():
                    self._lose_track()
                else:
                    self._perform(head)
            if self._prune_due:
                self._prune()
                self._prune_due = False
        except OSError as error:
            self._failed(error)
            return
        self._faults.recovered()

    def _perform(self, entry: Entry | None) -> None:
        """Write the head of what waits (the appends that follow it in one fsync)."""
        if entry is not None and entry.archive:
            self._branch(entry)
        elif entry is not None and entry.fresh:
            self._clear_the_way(entry.shoe, fresh=True)
            self._write_fresh(list(entry.lines))
            self._disk_shoe, self._games_kept = entry.shoe, entry.games
            self._chain.shoe = entry.shoe
            self._prune_due = True
            self._pending.popleft()
        else:
            batch = list(itertools.takewhile(lambda each: each.plain, self._pending))
            self._append_records([line for each in batch for line in each.lines])
            self._games_kept |= any(each.games for each in batch)
            shoes = [each.shoe for each in batch if not each.kept]
            if shoes:
                self._disk_shoe = self._chain.shoe = shoes[-1]
            for _ in batch:
                self._pending.popleft()

    def _branch(self, entry: Entry) -> None:
        """Append a late snapshot to its archived shoe: a branch off the live tip, then
        a ``completed`` record on the live chain confirming its file, line and hash."""
        assert entry.shoe is not None  # a late snapshot completes a shoe it names
        data, _ = seal(entry.lines, self._chain.tip)
        path, number = archive.complete(self.state_dir, entry.shoe, data)
        confirm = {"shoe": entry.shoe, "file": archive.name_in(path), "line": number}
        confirm["hash"] = digest(data)
        line = records.line(records.COMPLETED_KIND, confirm)
        self._pending[0] = Entry(self._disk_shoe, (line,), kept=True)

    def _append_records(self, lines: list[Record]) -> None:
        data, count, tip = self._chain.sealed(lines, self._pending.held())
        self._append(data)
        self._chain.wrote(count, tip, lines)

    def _prune(self) -> None:
        """Name the old shoes going on the live chain, then remove them."""
        going = archive.doomed(
            self.state_dir, self.keep_shoes, require_export=self.require_export, told=self._told
        )
        if going and self._in_step():
            described = [archive.describe(path) for path in going]
            self._append_records([records.line(records.PRUNED_KIND, each) for each in described])
            archive.remove(going)

    def _in_step(self) -> bool:
        """Whether the file at ``path`` is still the one written here, as long as written."""
        if self._synced is None:
            self._lost = f"{JOURNAL_NAME} is not this display's"
            return False  # pragma: no mutate (unreached: a fresh write or rewrite sets it first)
        try:
            seen = os.stat(self.path)
        except FileNotFoundError:
            self._lost = f"{JOURNAL_NAME} was deleted"
            return False
        if identity(seen) != self._synced:
            self._lost = f"{JOURNAL_NAME} was replaced or changed"
            return False
        return True

    def _append(self, data: bytes) -> None:
        # Opened for each write, not held: nothing of the display keeps the disk busy.
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        try:
            append_durably(fd, data)
            self._synced = identity(os.fstat(fd))
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
        self._drop_pending()
        self._rewrite = True

    def _rewrite_from_table(self) -> None:
        """Write the journal afresh as the table is: limits, history, the shoe's snapshot."""
        table = self._table
        assert table is not None  # replay or keep set it
        self._clear_the_way(table.shoe_id, fresh=False)
        self._write_fresh([records.line(*record) for record in records.state_records(table)])
        self._disk_shoe = self._queued_shoe = self._chain.shoe = table.shoe_id
        self._games_kept = records.holds_games(table)
        self._rewrite, self._lost, self._prune_due = False, None, True
        log.info(
            "journal %s: rewritten from memory (shoe %s, %d games)",
            self.path,
            table.shoe_id,
            len(table.games),
        )

    def _clear_the_way(self, shoe: str | None, *, fresh: bool) -> None:
        """Make room for a new journal of ``shoe``; whatever was there is kept, not deleted.

        The finished shoe's journal goes to ``shoes/`` when it holds games (else it
        is replaced: it held only limits and history); anything that is not this
        journal's file is set aside next to it.  The chain is told which.
        """
        lost = self._lost or "rewritten from memory"
        try:
            seen = os.stat(self.path)
        except FileNotFoundError:
            self._chain.lose(self._lost or f"{JOURNAL_NAME} was deleted")
            return
        ours = self._synced is not None and identity(seen)[:2] == self._synced[:2]
        if ours and (not self._games_kept or self._disk_shoe == shoe):
            if fresh:  # a new shoe's journal: the one on disk is another shoe's, without games
                self._chain.replace("it held no games")
            else:
                self._chain.lose(lost)
            return
        target = archive.move_away(self.state_dir, self.path, self._disk_shoe, ours=ours)
        if ours:
            self._chain.archived()
        else:
            self._chain.lose(f"{lost}; what was there is set aside as {target.name}", always=True)
        self._synced, self._games_kept = None, False  # pragma: no mutate (set again before read)

    def _write_fresh(self, lines: list[Record]) -> None:
        data, count, tip = self._chain.sealed(lines, self._pending.held())
        make_dirs(self.state_dir)
        self._synced = replace_durably(self.path, data)
        self._chain.lines = 0
        self._chain.wrote(count, tip, lines)

    # -- faults --------------------------------------------------------------
    def _failed(self, error: OSError) -> None:
        """Note a disk fault, with what the disk lost track of if it did (and on the chain)."""
        self._faults.failed(error, self._lost)
        self._chain.trouble(f"the journal could not be written ({why(error)})", time.time())

    def close(self) -> None:
        """Give a failing disk one last try (the journal holds no file open between writes)."""
        if self._faults.failing and self._table is not None:
            self._flush()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
