"""Verifying a state dir's hash chain: the archived shoes, then the live journal.

Every line names the hash of the line before it (:mod:`.links`); a new shoe's
journal chains to the last line of the shoe archived before it, so the chain
runs through ``shoes/`` into ``journal.jsonl``.  :func:`verify` follows it back
from the live journal by those hashes, file by file, and reports the first
broken link in chain order, with the file and line: a changed byte, a removed
or inserted line, a file cut short, an archive removed without a ``pruned``
record naming it, an archive renamed or swapped (its name says another shoe).
Every file of the state dir is examined: one the chain does not reach, or one
the display does not write, is named as not on the chain (``off``).

What the chain knows of itself is accepted, never hidden: a file that starts
with a ``gap`` or ``pruned`` record naming (``after``) where the chain was
before lines it lost or dropped; an oldest archive chained to a pruned file's
end; a late snapshot appended to an archive (a branch confirmed by a
``completed`` record naming its file, line and hash); a file the display set
aside (named in a note, never read); lines of the old format without ``prev``
before the chain began (legacy: only where the chain begins on them, and dated
before its first chained line).  Only chained lines count as records: a ``completed``, ``gap``
or ``pruned`` line without ``prev`` says nothing.  A torn last line of the live
journal is what a power cut leaves: noted, not a broken link.

What a hash chain without a key cannot prove: a line removed from the end of the
live journal, or a whole chain rewritten by someone who recomputes every hash.
The chain's ``tip`` (its last line's hash) kept off the box proves both:
``verify(state_dir, expect_tip=...)`` says when that line is no longer on it.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scoreboard.journal._links import ZERO, Line, read_lines, start_link
from scoreboard.journal.archive import ARCHIVE_DIR, named_for, shoe_of
from scoreboard.journal.exports import MARKER_SUFFIX
from scoreboard.journal.records import COMPLETED_KIND, GAP_KIND, PRUNED_KIND

JOURNAL_NAME = "journal.jsonl"
#: Files of a state dir that are not records: a controller's session store
#: (``scoreboard.controller.sessions.STATE_NAME``), the shoe bridge's open hand
#: (``scoreboard.controller.open_hand.HAND_NAME``), and their temporaries.
COMPANIONS = frozenset(
    {"controller.json", "controller.tmp", "shoe_hand.json", "shoe_hand.json.tmp"}
)


class NotAStateDir(Exception):
    """The path is not a display's state dir (no journal, no ``shoes/``)."""


@dataclass(frozen=True, slots=True)
class BrokenLink:
    """Where the chain breaks: ``path``, its 1-based ``line``, and ``why``."""

    path: Path
    line: int
    why: str


@dataclass(frozen=True, slots=True)
class Gap:
    """A ``gap`` record on the chain: where, and what it says."""

    path: Path
    line: int
    data: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Held:
    """One line of the chain, in chain order; ``branch``: a late completion's line."""

    path: Path
    line: Line
    branch: bool = False


@dataclass(frozen=True, slots=True)
class ChainReport:
    """What :func:`verify` found: ``ok`` when no link is broken.

    ``off``: what is not on the chain, each from its ``line`` on (1: the whole
    file), and why.  ``tip``: the chain's last line (None: it holds none).
    """

    ok: bool
    files: tuple[Path, ...]
    records: int
    broken: BrokenLink | None
    gaps: tuple[Gap, ...]
    legacy: int = 0  # pragma: no mutate (every report names it)
    notes: tuple[str, ...] = ()
    held: tuple[Held, ...] = ()
    off: tuple[BrokenLink, ...] = ()
    tip: Held | None = None


@dataclass
class _File:
    path: Path
    name: str  # as records name it: journal.jsonl, shoes/<file>
    lines: tuple[Line, ...] = ()
    main: list[Line] = field(default_factory=list)
    legacy: int = 0  # pragma: no mutate (check_file counts it from 0)
    start: str | None = None

    @property
    def end(self) -> str | None:
        return self.main[-1].hash if self.main else None

    @property
    def chained(self) -> list[Line]:
        """Its lines that count as records: those after its old-format prefix."""
        return self.main[self.legacy :]


def verify(state_dir: str | os.PathLike[str], *, expect_tip: str | None = None) -> ChainReport:
    """Verify the whole chain of ``state_dir``; raises :class:`NotAStateDir`.

    ``expect_tip``: a hash kept off the box; the chain is broken when no line of it
    (nor a ``pruned`` or ``gap`` record on it) has that hash any more.

    >>> import tempfile
    >>> verify(tempfile.mkdtemp()).ok
    Traceback (most recent call last):
    ...
    scoreboard.journal.chain.NotAStateDir: ... holds neither journal.jsonl nor shoes/
    """
    return _Verifier(_state_dir(Path(state_dir)), expect_tip).run()


def _state_dir(path: Path) -> Path:
    if not path.exists():
        raise NotAStateDir(f"{path}: no such directory")
    if not path.is_dir():
        raise NotAStateDir(f"{path}: not a directory")
    if not (path / JOURNAL_NAME).exists() and not (path / ARCHIVE_DIR).is_dir():
        raise NotAStateDir(
            f"{path}: not a display's state dir: it holds neither {JOURNAL_NAME} nor {ARCHIVE_DIR}/"
        )
    return path


class _Verifier:
    def __init__(self, state_dir: Path, expect_tip: str | None = None) -> None:
        self.state_dir = state_dir
        self.expect_tip = expect_tip
        self.problems: list[tuple[Path, int, str]] = []
        self.off: list[BrokenLink] = []
        self.notes: list[str] = []
        self.files: list[_File] = []
        self.live: _File | None = None

    def problem(self, path: Path, line: int, why: str) -> None:
        self.problems.append((path, line, why))

    def not_on_chain(self, path: Path, line: int, why: str) -> None:
        """``path`` from ``line`` on is not on the chain: a broken link, and named in ``off``."""
        self.problem(path, line, why)
        self.off.append(BrokenLink(path, line, why))

    # -- reading -----------------------------------------------------------------
    def read(self) -> None:
        folder = self.state_dir / ARCHIVE_DIR
        archives = sorted(folder.glob("*.jsonl")) if folder.is_dir() else []
        self.strays(archives)
        paths = [*archives, self.state_dir / JOURNAL_NAME]
        for path in paths:
            name = path.name if path.parent == self.state_dir else f"{ARCHIVE_DIR}/{path.name}"
            if not path.exists():
                self.missing(path, archives)
                continue
            each = _File(path, name)
            try:
                if path.is_dir():
                    why = "a directory where a journal file should be"
                    raise IsADirectoryError(21, why)  # pragma: no mutate (errno unread)
                read = read_lines(path)
            except OSError as error:
                self.problem(path, 1, f"unreadable ({error.strerror or error})")
                continue
            each.lines = read.lines
            if read.cut is not None:
                self.problem(path, read.cut, "longer than any journal line: the rest is not read")
            if read.torn and name == JOURNAL_NAME:
                self.notes.append(
                    f"{name}: a torn last line of {read.torn} bytes (a power cut "
                    "mid-write; the display cuts it and records a gap)"
                )
            elif read.torn:
                self.problem(path, len(read.lines) + 1, "an incomplete line: the file was cut")
            if not read.lines and not read.torn and archives:
                self.not_on_chain(path, 1, _EMPTY_LIVE if name == JOURNAL_NAME else _EMPTY)
            self.files.append(each)
        self.live = next((f for f in self.files if f.name == JOURNAL_NAME), None)

    def missing(self, path: Path, archives: list[Path]) -> None:
        """The live journal is not there: before any shoe, or deleted while the display was off."""
        if not archives:
            self.notes.append(f"{path.name}: missing (the display has not started since?)")
            return
        self.problem(
            path,
            1,
            f"missing, yet {ARCHIVE_DIR}/ holds archives: the live journal after them was "
            "deleted (the display, started again, records a gap saying so)",
        )

    def strays(self, archives: list[Path]) -> None:
        """The other files of the state dir: set aside, a companion, or not the display's."""
        folder = self.state_dir / ARCHIVE_DIR
        known = {JOURNAL_NAME, *COMPANIONS, *([ARCHIVE_DIR] if folder.is_dir() else [])}
        for path in sorted(self.state_dir.iterdir()):
            if re.fullmatch(rf"{re.escape(JOURNAL_NAME)}\.aside-\d{{8}}-\d{{6}}(-\d+)?", path.name):
                self.notes.append(f"{path.name}: set aside by the display, not on the chain")
            elif path.name not in known:
                self.stray(path)
        if folder.is_dir():
            known = {path.name for path in archives}
            for path in sorted(folder.iterdir()):
                if path.name not in known and not path.name.endswith(f".jsonl{MARKER_SUFFIX}"):
                    self.stray(path)

    def stray(self, path: Path) -> None:
        self.not_on_chain(path, 1, "not on the chain: not a file the display writes (not examined)")

    # -- the lines of each file ----------------------------------------------------
    def branches(self, files: list[_File]) -> dict[tuple[str, int], tuple[str, Path, int]]:
        """The archive lines ``completed`` records of ``files`` confirm: (file, line) -> hash,
        where.  Only chained lines confirm: the old format never wrote ``completed``."""
        found = {}
        for each in files:
            for line in each.lines:
                if line.prev is None:
                    continue
                for data in _mentioned(line.kind, line.data, COMPLETED_KIND):
                    key = (str(data.get("file")), data.get("line"))
                    found[key] = (str(data.get("hash")), each.path, line.number)
        return found  # type: ignore[return-value]

    def check_file(self, each: _File, branches: dict[tuple[str, int], Any]) -> None:
        main, each.legacy = [], 0
        for line in each.lines:
            named = branches.get((each.name, line.number))
            if named is None:
                main.append(line)
            elif named[0] != line.hash:
                self.problem(
                    each.path,
                    line.number,
                    "changed: the completed record at "
                    f"{_where(named[1], named[2], self.state_dir)} names another hash",
                )
        each.main = main
        while (
            each.legacy < len(main)
            and main[each.legacy].record is not None
            and (main[each.legacy].prev is None)
        ):
            each.legacy += 1
        each.start = None if each.legacy or not main else start_link(main[0])
        for index, line in enumerate(main[each.legacy :], start=each.legacy):
            if line.record is None:
                self.problem(each.path, line.number, f"not a journal line: {line.problem}")
                continue
            if not line.canonical:
                why = "changed: its bytes are not as the display writes a line (canonical JSON)"
                self.problem(each.path, line.number, why)
            if line.prev is None:
                why = "no prev: a line of the old format after the chain began (inserted?)"
                self.problem(each.path, line.number, why)
            elif index and line.prev != main[index - 1].hash:
                self.diagnose(each, main, index)

    def diagnose(self, each: _File, main: list[Line], index: int) -> None:
        """Say what most likely happened where ``main[index]`` does not chain to the line before."""
        line, before = main[index], main[index - 1]
        after = main[index + 1] if index + 1 < len(main) else None
        if after is None:
            self.problem(
                each.path,
                line.number,
                f"does not chain to line {before.number}: "
                "inserted, or one of them changed, or lines between them removed",
            )
        elif after.prev == before.hash:
            self.problem(
                each.path,
                line.number,
                f"inserted: line {after.number} chains to line {before.number}",
            )
        elif after.prev != line.hash:
            self.problem(
                each.path,
                line.number,
                "changed: it does not chain to line "
                f"{before.number} and line {after.number} does not chain to it",
            )
        elif index >= 2 and line.prev == main[index - 2].hash:
            self.problem(
                each.path,
                before.number,
                f"inserted: line {line.number} chains to line {main[index - 2].number}",
            )
        else:
            self.problem(
                each.path,
                before.number,
                f"changed, or the line after it removed: line {line.number} does not chain to it",
            )

    def check_names(self, each: _File) -> None:
        shoe = shoe_of(tuple(each.main))
        if each.name != JOURNAL_NAME and shoe is not None and not named_for(each.path, shoe):
            where = next(line.number for line in each.main if shoe_of((line,)) == shoe)
            self.problem(
                each.path,
                where,
                f"holds shoe {shoe!r} but its name says another "
                "(renamed, or swapped with another archive?)",
            )

    # -- the chain across files ------------------------------------------------------
    def pruned(self) -> dict[str, str]:
        """The hashes pruned files' own chains ended with (``tip``; their ``last`` line, when
        it is another, is a late completion's branch, which nothing chains from), as the
        chain's records name them: hash -> what."""
        return {
            data["tip"]: f"{data.get('file')}, pruned (a pruned record names it)"
            for each in self.files
            for line in each.chained
            for data in _mentioned(line.kind, line.data, PRUNED_KIND)
            if isinstance(data.get("tip"), str)
        }

    def walk(self) -> tuple[list[_File], list[_File]]:
        """The files in chain order, followed back from the live journal by their links,
        and the files of old-format lines before the chain began."""
        nodes = [each for each in self.files if each.main]
        ends = {each.end: each for each in nodes}
        starts = {each.start for each in nodes}
        heads = [each for each in nodes if each is self.live] or [
            each for each in nodes if each.end not in starts
        ]
        where = {line.hash: (each, line) for each in nodes for line in each.main}
        pruned = self.pruned()
        placed: list[_File] = []
        current = next(reversed(heads), None)
        while current is not None and current not in placed:
            placed.append(current)
            link = current.start
            if current.legacy or link is None or link == ZERO or link in pruned:
                break
            earlier = ends.get(link)
            if earlier is None and link in where:
                earlier, line = where[link]
                self.not_on_chain(
                    earlier.path,
                    line.number + 1,
                    f"not on the chain: {current.name} "
                    f"goes on from line {line.number}; the lines after it were added",
                )
            if earlier is None:
                left = [
                    each
                    for each in nodes
                    if each not in placed and each is not self.live and each.chained
                ]
                earlier = next(reversed(left), None)
                self.problem(current.path, current.main[0].number, _unlinked(earlier))
            current = earlier
        chain = placed[::-1]
        rest = [each for each in nodes if each not in placed]
        legacy = [each for each in rest if _before(each, chain)]
        for each in rest:
            if each in legacy:
                continue
            if len(each.main) > each.legacy:
                self.not_on_chain(each.path, 1, "not on the chain: no later file chains to it")
            else:
                self.not_on_chain(each.path, 1, _LATE_LEGACY)
        return chain, legacy

    def expected(self, chain: list[_File], gaps: list[Gap]) -> None:
        """Is the tip kept off the box still a line of the chain (or named by its records)?"""
        wanted = self.expect_tip
        if wanted is None:
            return
        found = {
            line.hash: (each, line, len(each.main) - index - 1)
            for each in chain
            for index, line in enumerate(each.main)
        }
        if wanted in found:
            each, line, after = found[wanted]
            self.notes.append(
                f"the tip kept off the box is {each.name} line {line.number} "
                f"({after} lines after it in that file)"
            )
            return
        named = self.pruned().get(wanted) or self.lost(gaps).get(wanted)
        if named is not None:
            self.notes.append(f"the tip kept off the box was the end of {named}")
            return
        last = chain[-1] if chain else None
        self.problem(
            last.path if last is not None else self.state_dir / JOURNAL_NAME,
            last.main[-1].number + 1 if last is not None else 1,
            f"the tip kept off the box ({wanted[:16]}...) is not on the chain: lines were cut "
            "from its end, or it was rewritten from there",
        )

    @staticmethod
    def lost(gaps: list[Gap]) -> dict[str, str]:
        """The last hashes of journals the chain's ``gap`` records say were lost: hash -> what."""
        return {
            str(lost.get("last")): f"{lost.get('file')}, lost (a gap says so)"
            for lost in (gap.data.get("lost") for gap in gaps)
            if isinstance(lost, dict)
        }

    def check(self, branches: dict[tuple[str, int], Any]) -> tuple[list[_File], list[_File]]:
        """Every file's lines, then the chain across them (:meth:`walk`)."""
        for each in self.files:
            self.check_file(each, branches)
            self.check_names(each)
        return self.walk()

    def run(self) -> ChainReport:
        self.read()
        read = list(self.problems), list(self.off)
        chain, _ = self.check(self.branches(self.files))
        # Again with the completions the chain's own files confirm: one confirmed off the
        # chain confirms nothing (the line it names stays in its file's own chain).
        self.problems, self.off = list(read[0]), list(read[1])
        chain, legacy = self.check(self.branches(chain))
        order = [*legacy, *chain]
        on = {each.path for each in order}
        gaps = [
            Gap(each.path, line.number, line.data)
            for each in chain
            for line in each.chained
            if line.kind == GAP_KIND and isinstance(line.data, dict)
        ]
        self.expected(chain, gaps)
        ranks = {each.path: rank for rank, each in enumerate(order)}
        first = min(self.problems, key=lambda p: (ranks.get(p[0], -1), p[1]), default=None)
        stray = [each for each in self.files if each.path not in on and each.main]
        order = [*(each for each in self.files if each.lines and not each.main), *stray, *order]
        held = [
            Held(each.path, line, line.number not in {own.number for own in each.main})
            for each in order
            for line in each.lines
        ]
        tip = chain[-1] if chain else None
        return ChainReport(
            ok=first is None,
            files=tuple(each.path for each in order),
            records=len(held),
            broken=None if first is None else BrokenLink(*first),
            gaps=tuple(gaps),
            legacy=sum(each.legacy for each in [*legacy, *chain[:1]]),
            notes=tuple(self.notes),
            held=tuple(held),
            off=tuple(self.off),
            tip=None if tip is None else Held(tip.path, tip.main[-1]),
        )


def _before(each: _File, chain: list[_File]) -> bool:
    """Whether ``each``, of old-format lines alone, was written before the chain began:
    the chain begins on old-format lines, and every line of ``each`` is dated before its
    first chained line."""
    if not chain or not chain[0].legacy or len(each.main) > each.legacy:
        return False
    chained = [line for file in chain for line in file.chained]
    began = _at(chained[0]) if chained else math.inf
    return all(_at(line) <= began for line in each.main)


def _at(line: Line) -> float:
    """A line's wall-clock time; NaN (never before anything) when it has none."""
    at = line.record.get("at") if line.record is not None else None
    return float(at) if isinstance(at, int | float) and not isinstance(at, bool) else math.nan


_LATE_LEGACY = (
    "not on the chain: lines of the old format (no prev), yet the chain does not begin on "
    "old lines, or these are dated after it began (placed here later?)"
)
_EMPTY_LIVE = (
    "empty, yet shoes/ holds archives: its lines were removed (the display never leaves "
    "its journal empty)"
)
_EMPTY = "not on the chain: empty (the display never archives an empty journal)"


def _unlinked(earlier: _File | None) -> str:
    if earlier is None:
        return (
            "chains to a line no file here holds: the file before it was removed "
            "without a pruned record"
        )
    return (
        f"chains to a line no file here holds: {earlier.name}, before it, ends at line "
        f"{earlier.main[-1].number}: lines were cut from its end or its last line changed, "
        "or a file between them was removed without a pruned record"
    )


def _mentioned(kind: str, data: object, wanted: str) -> list[dict[str, Any]]:
    """What a record says of ``wanted`` (pruned files, completions): itself when it is one,
    and the ones a lost or replaced journal held (carried in lists, in it or in ``lost``)."""
    if not isinstance(data, dict):
        return []
    found = [data] if kind == wanted else []
    holders = [data, data.get("lost")] if kind in (GAP_KIND, PRUNED_KIND) else []
    for holder in holders:
        if isinstance(holder, dict):
            found += _listed(holder.get(wanted))
    return found


def _listed(value: object) -> list[dict[str, Any]]:
    return [each for each in value if isinstance(each, dict)] if isinstance(value, list) else []


def _where(path: Path, line: int, state_dir: Path) -> str:
    return f"{path.relative_to(state_dir) if path.is_relative_to(state_dir) else path}:{line}"
