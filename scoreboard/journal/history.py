"""A state directory's shoes as history: per game number, every change the board took.

``scoreboard export`` (and the audit) read what the journal holds as values:
one :class:`ShoeHistory` per shoe, and per game number a :class:`GameHistory`
with every :class:`Change` in order (dealt, voided, corrected, or restated by a
controller's snapshot), its time, reason and what it replaced.

The rules stay the table's: :func:`histories` replays the records through
:func:`~scoreboard.table.state.apply_event` on a fresh
:class:`~scoreboard.table.state.TableState`, as a restarting kiosk does, and
notes how each game number's place on the board moved; so what it ends with is
what the table showed.  It is a pure function of decoded records (time, event);
:func:`read_state` reads the files apart: the archived shoes in ``shoes/``
oldest first, then the live ``journal.jsonl``, each replayed fresh (each file
opens with its own limits and history).  A line that cannot be read is skipped
with a warning naming its file and line and is kept in the shoe's ``skipped``,
never dropped unsaid; journal-only kinds the history does not need (``gap``,
``alert``, ``refused``...) and fields it does not read (``prev``, ``mono``) are
passed over.

>>> from scoreboard.game.events import CoupReceived, NewShoe, Void
>>> from scoreboard.game.rules import Game, Winner, result_coup
>>> banker = result_coup(Winner.BANKER)
>>> shoe, = histories([(1.0, NewShoe("S1")), (2.0, CoupReceived("S1", Game(1, banker))),
...                    (3.0, Void("S1", 1, "misdeal"))])
>>> game, = shoe.games
>>> game.status, [change.kind.value for change in game.changes], game.reasons
('voided', ['dealt', 'voided'], ('misdeal',))
"""

from __future__ import annotations

import enum
import json
import logging
import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NamedTuple

from scoreboard.game.events import Correct, CoupReceived, Event, Snapshot, Void
from scoreboard.game.rules import Coup
from scoreboard.journal._replay import RESTORERS
from scoreboard.journal.archive import ARCHIVE_DIR
from scoreboard.journal.writer import JOURNAL_NAME
from scoreboard.protocol import Kind, ProtocolError, parse_dict
from scoreboard.regular_file import read_all
from scoreboard.table.state import TableState, apply_event

log = logging.getLogger(__package__)  # the journal logs under one name: scoreboard.journal

_WIRE_KINDS = frozenset(kind.value for kind in Kind)


class HistoryError(Exception):
    """The state directory cannot be read as one (missing, or holding no journal)."""


class ChangeKind(enum.Enum):
    """How a game number's place on the board changed."""

    DEALT = "dealt"  # a coup for a number the board did not show (first deal, redeal, fill-in)
    VOIDED = "voided"  # a void event (or a snapshot's void of a number the board did not show)
    # (The values of these two have no reader: export writes a game's ``status``.)
    CORRECTED = "corrected"  # pragma: no mutate (a correct event replaced or supplied the coup)
    RESTATED = "restated"  # pragma: no mutate (a snapshot changed what the board showed)


@dataclass(frozen=True, slots=True)
class Change:
    """One change of a game number: the board after it and what it replaced.

    ``coup``: the coup on the board after it (None: voided, or removed by a
    snapshot whose shoe has no such game).  ``replaced``: the coup the board
    showed before (None: nothing, or the game was voided).  ``source``: the
    record it came from (``coup``, ``void``, ``correct``, ``snapshot``), at
    ``file`` line ``line``.
    """

    at: float
    kind: ChangeKind
    coup: Coup | None
    voided: bool
    replaced: Coup | None
    reason: str = ""  # pragma: no mutate (_change passes every field)
    source: str = ""  # pragma: no mutate (_change passes every field)
    file: str = ""  # pragma: no mutate (_change passes every field)
    line: int = 0  # pragma: no mutate (_change passes every field)


@dataclass(frozen=True, slots=True)
class GameHistory:
    """Every change of one game number, in the order the board took them (never empty)."""

    number: int
    changes: tuple[Change, ...]

    @property
    def coup(self) -> Coup | None:
        """The coup on the board at the end (None when voided or removed)."""
        return self.changes[-1].coup

    @property
    def voided(self) -> bool:
        return self.changes[-1].voided

    @property
    def status(self) -> str:
        """``dealt``, ``corrected`` (set by a correction or a snapshot), ``voided``, ``removed``."""
        last = self.changes[-1]
        if last.voided:
            return "voided"
        if last.coup is None:
            return "removed"
        return "dealt" if last.kind is ChangeKind.DEALT else "corrected"

    @property
    def replaced(self) -> tuple[Coup, ...]:
        """The coups the board showed that later changes replaced, oldest first."""
        return tuple(change.replaced for change in self.changes if change.replaced is not None)

    @property
    def reasons(self) -> tuple[str, ...]:
        """The reasons the voids and corrections gave, in order."""
        return tuple(change.reason for change in self.changes if change.reason)

    @property
    def first_at(self) -> float:
        return self.changes[0].at

    @property
    def last_at(self) -> float:
        return self.changes[-1].at


@dataclass(frozen=True, slots=True)
class Skipped:
    """A journal line that could not be read, and why."""

    file: str
    line: int
    why: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.why}"


@dataclass(frozen=True, slots=True)
class ShoeHistory:
    """One shoe as the journal holds it.

    ``files``: those its records came from, in chain order.  ``games``: every
    game number it ever showed, in game order.  ``missing``: numbers below its
    highest game that it never had.  ``skipped``: unreadable lines of its files.
    ``live``: it comes from the live journal (not finished, not archived yet).
    """

    shoe: str
    files: tuple[str, ...]
    games: tuple[GameHistory, ...]
    missing: tuple[int, ...] = ()
    skipped: tuple[Skipped, ...] = ()
    live: bool = False


@dataclass(frozen=True, slots=True)
class Restore:
    """A journal-only record that sets the table's state (``history``, ``position``...)."""

    kind: str
    data: Any


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A line that could not be read (kept so the shoe it falls in says so)."""

    why: str


class Entry(NamedTuple):
    """One record: its time, what it holds, where it stands (a ``(time, event)`` pair will do)."""

    at: float
    item: Event | Restore | Unreadable
    file: str = ""
    line: int = 0


#: A game number's place on the board: its coup (None: none) and whether it is voided.
Board = tuple[Coup | None, bool]
ABSENT: Board = (None, False)


def board(table: TableState, number: int) -> Board:
    """Where game ``number`` stands on ``table``'s board."""
    record = table.record(number)
    if record is None:
        return ABSENT
    return (None, True) if record.voided else (record.coup, False)


@dataclass
class _Shoe:
    """A shoe's history while it is being read."""

    shoe: str
    files: list[str] = field(default_factory=list)
    changes: dict[int, list[Change]] = field(default_factory=dict)
    skipped: list[Skipped] = field(default_factory=list)
    missing: tuple[int, ...] = ()
    # Changed since ``missing`` was taken from the table (set by the event that starts it):
    # only spares taking it again, which gives the same while the table is on this shoe.
    unsettled: bool = False  # pragma: no mutate (that event changes the table: set at once)

    def settle(self, table: TableState) -> None:
        """Take the missing numbers from ``table`` while it is still on this shoe."""
        if self.unsettled and table.shoe_id == self.shoe:
            self.missing, self.unsettled = table.missing, False  # pragma: no mutate (a cache)

    def board(self, number: int) -> Board:
        changes = self.changes.get(number)
        return ABSENT if not changes else (changes[-1].coup, changes[-1].voided)

    def note_file(self, file: str) -> None:
        if file and file not in self.files:
            self.files.append(file)

    def finish(self) -> ShoeHistory:
        games = tuple(GameHistory(n, tuple(self.changes[n])) for n in sorted(self.changes))
        missing = tuple(n for n in self.missing if n not in self.changes)
        return ShoeHistory(self.shoe, tuple(self.files), games, missing, tuple(self.skipped))


def histories(entries: Iterable[Entry | tuple[float, Event]]) -> tuple[ShoeHistory, ...]:
    """The shoes ``entries`` hold, replayed in order on a fresh table (one per new shoe)."""
    reader = _Reader()
    for each in entries:
        reader.take(Entry(*each))
    return reader.finish()


class _Reader:
    """One fresh table, the shoes read so far and the one being read."""

    def __init__(self) -> None:
        self.table = TableState()
        self.done: list[ShoeHistory] = []
        self.current: _Shoe | None = None
        self.waiting: list[Skipped] = []  # unreadable lines before the first shoe go to it

    def take(self, entry: Entry) -> None:
        item = entry.item
        if isinstance(item, Restore | Unreadable):
            skipped = (
                _restore(self.table, entry, item)
                if isinstance(item, Restore)
                else Skipped(entry.file, entry.line, item.why)
            )
            if skipped is not None:
                (self.waiting if self.current is None else self.current.skipped).append(skipped)
            return
        table = self.table
        if self.current is not None and getattr(item, "shoe", None) not in (None, table.shoe_id):
            self.current.settle(table)  # the event may start another shoe: this one ends as is
        shoe_number = table.shoe_number
        applied = apply_event(table, item)
        if table.shoe_number != shoe_number:  # the event started a shoe
            self.finish()
            self.current = _Shoe(str(table.shoe_id), skipped=self.waiting)
            self.waiting = []
            self.current.note_file(entry.file)
        shoe = self.current
        if shoe is None:
            return
        amended = applied.changed and isinstance(item, Void | Correct)
        for number in _touched(item, shoe):
            after = board(table, number)
            if after != shoe.board(number) or amended:
                shoe.changes.setdefault(number, []).append(_change(entry, shoe, number, after))
                shoe.note_file(entry.file)
        shoe.unsettled |= applied.changed

    def finish(self) -> tuple[ShoeHistory, ...]:
        """The shoes read; the one being read is finished too."""
        if self.current is not None:
            self.current.settle(self.table)
            self.done.append(self.current.finish())
            self.current = None
        return tuple(self.done)


def _touched(event: Event, shoe: _Shoe) -> Iterator[int]:
    """The game numbers ``event`` may have moved on the board (of the shoe it is in)."""
    match event:
        case CoupReceived(game=game) | Correct(game=game):
            yield game.number
        case Void(game=number):
            yield number
        case Snapshot(games=games, voided=voided):
            yield from sorted({*shoe.changes, *(g.number for g in games), *voided})


def _change(entry: Entry, shoe: _Shoe, number: int, after: Board) -> Change:
    event = entry.item
    replaced, _ = shoe.board(number)
    coup, voided = after
    source, reason = "coup", ""
    if isinstance(event, Void | Correct):
        kind = ChangeKind.VOIDED if isinstance(event, Void) else ChangeKind.CORRECTED
        source, reason = "void" if isinstance(event, Void) else "correct", event.reason
    elif isinstance(event, Snapshot):
        source = "snapshot"
        if shoe.board(number) != ABSENT:
            kind = ChangeKind.RESTATED
        else:
            kind = ChangeKind.VOIDED if voided else ChangeKind.DEALT
    else:
        kind = ChangeKind.DEALT
    return Change(entry.at, kind, coup, voided, replaced, reason, source, entry.file, entry.line)


def _restore(table: TableState, entry: Entry, record: Restore) -> Skipped | None:
    """Apply a journal-only record as the replay does; a malformed one is skipped."""
    where = f"{entry.file}:{entry.line}"
    try:
        RESTORERS[record.kind](table, record.data, where)
    except (ValueError, KeyError, TypeError) as error:
        why = str(error).removeprefix(f"{where}: ")
        log.warning("%s: skipped (%s)", where, why)
        return Skipped(entry.file, entry.line, why)
    return None


# -- the files -----------------------------------------------------------------


def read_state(
    state_dir: Path, off: Mapping[str, tuple[int, str]] | None = None
) -> tuple[ShoeHistory, ...]:
    """Every shoe of ``state_dir`` in chain order (archived oldest first, then the live one).

    ``off``: what is not on the hash chain (``shoes/<file>`` -> the line it leaves it
    from, 1: the whole file, and why): a whole file is left out, the lines of the rest
    come as unreadable, never as games.  Raises :class:`HistoryError` when it is no directory
    or holds no journal.
    """
    off = off or {}
    if not state_dir.is_dir():
        what = "does not exist" if not state_dir.exists() else "is not a directory"
        raise HistoryError(f"state dir {state_dir} {what}")
    files = sorted((state_dir / ARCHIVE_DIR).glob("*.jsonl"))
    if (state_dir / JOURNAL_NAME).is_file():
        files.append(state_dir / JOURNAL_NAME)
    if not files:
        raise HistoryError(
            f"state dir {state_dir} holds no journal ({JOURNAL_NAME} or {ARCHIVE_DIR}/*.jsonl)"
        )
    names = {path: path.relative_to(state_dir).as_posix() for path in files}
    whole = {name for name, (line, _) in off.items() if line == 1}
    entries = {
        path: list(read_entries(path, name, off.get(name)))
        for path, name in names.items()
        if name not in whole
    }
    found = {path: histories(held) for path, held in entries.items()}
    by_shoe: dict[str, list[Path]] = {}
    for path, shoes in found.items():
        for shoe in shoes:
            by_shoe.setdefault(shoe.shoe, []).append(path)
    result: list[ShoeHistory] = []
    for shoe_id, paths in by_shoe.items():
        if len(paths) == 1:
            held = found[paths[0]]
        else:  # a shoe in several files (a late snapshot archived apart): replayed as one
            held = histories(entry for path in paths for entry in entries[path])
        result += [replace(s, live=JOURNAL_NAME in s.files) for s in held if s.shoe == shoe_id]
    return tuple(result)


def read_entries(path: Path, name: str, off: tuple[int, str] | None = None) -> Iterator[Entry]:
    """The records of the journal file ``path`` (called ``name`` in the history).

    A line that cannot be read comes as :class:`Unreadable` and is logged as a
    warning naming ``path`` and its line; an unreadable file, as one such line 0;
    so does every line from ``off``'s on (not on the hash chain), with its why.
    """
    try:
        raw = read_all(path)
    except OSError as error:
        log.warning("%s: cannot be read (%s); its shoe is left out", path, error.strerror)
        yield Entry(math.nan, Unreadable(f"the file cannot be read ({error.strerror})"), name)
        return
    lines = raw.split(b"\n")
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        if number == len(lines):  # no newline after it: a power cut mid-write
            entry: Entry | None = Entry(math.nan, Unreadable("a torn last line (power cut?)"))
        elif off is not None and number >= off[0]:
            entry = Entry(math.nan, Unreadable(off[1]))
        else:
            entry = _decode(line, name, number)
        if entry is None:
            continue
        if isinstance(entry.item, Unreadable):
            log.warning("%s:%d: skipped (%s)", path, number, entry.item.why)
        yield entry._replace(file=name, line=number)


def _decode(line: bytes, name: str, number: int) -> Entry | None:
    """One journal line as an entry (None: a kind the history does not need)."""
    where = f"{name}:{number}"
    try:
        record = json.loads(line)
    except (ValueError, UnicodeDecodeError) as error:
        return Entry(math.nan, Unreadable(f"not JSON ({error})"))
    if not isinstance(record, dict) or not isinstance(record.get("kind"), str):
        return Entry(math.nan, Unreadable("not a journal record (no kind)"))
    at, kind, data = record.get("at"), record["kind"], record.get("data")
    if isinstance(at, bool) or not isinstance(at, int | float) or not math.isfinite(at):
        return Entry(math.nan, Unreadable(f"no valid time ('at' is {at!r:.40})"))
    if kind in RESTORERS:
        return Entry(at, Restore(kind, data))
    if kind not in _WIRE_KINDS:
        return None  # informational journal-only kinds: gap, alert, refused, pruned...
    if not isinstance(data, dict):
        return Entry(at, Unreadable(f"{kind} record without a payload"))
    try:
        return Entry(at, parse_dict(kind, data, where))
    except ProtocolError as error:
        return Entry(at, Unreadable(str(error).removeprefix(f"{where}: ")))
    except (ValueError, KeyError, TypeError) as error:  # unreached: it raises ProtocolError
        return Entry(at, Unreadable(str(error)))  # pragma: no mutate (kept: never a traceback)
