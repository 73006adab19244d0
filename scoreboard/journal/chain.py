"""Verifying a state dir's hash chain: the archived shoes, then the live journal.

Every line names the hash of the line before it (:mod:`.links`); a new shoe's
journal chains to the last line of the shoe archived before it, so the chain
runs through ``shoes/`` into ``journal.jsonl``.  :func:`verify` follows it back
from the live journal by those hashes, file by file, and reports the first
broken link in chain order, with the file and line: a changed byte, a removed
or inserted line, a file cut short, an archive removed without a ``pruned``
record naming it, an archive renamed or swapped (its name says another shoe).

What the chain knows of itself is accepted, never hidden: a file that starts
with a ``gap`` or ``pruned`` record naming (``after``) where the chain was
before lines it lost or dropped; an oldest archive chained to a pruned file's
end; a late snapshot appended to an archive (a branch confirmed by a
``completed`` record naming its file, line and hash); lines of the old format
without ``prev`` before the chain began (legacy, unchained).  A torn last line
of the live journal is what a power cut leaves: noted, not a broken link.

What a hash chain without a key cannot prove: a line removed from the end of the
live journal, or a whole chain rewritten by someone who recomputes every hash.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scoreboard.journal.archive import ARCHIVE_DIR, named_for, shoe_of
from scoreboard.journal.links import ZERO, Line, read_lines, start_link
from scoreboard.journal.records import COMPLETED_KIND, GAP_KIND, PRUNED_KIND

JOURNAL_NAME = "journal.jsonl"


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
    """What :func:`verify` found: ``ok`` when no link is broken."""

    ok: bool
    files: tuple[Path, ...]
    records: int
    broken: BrokenLink | None
    gaps: tuple[Gap, ...]
    legacy: int = 0
    notes: tuple[str, ...] = ()
    held: tuple[Held, ...] = ()


@dataclass
class _File:
    path: Path
    name: str  # as records name it: journal.jsonl, shoes/<file>
    lines: tuple[Line, ...] = ()
    main: list[Line] = field(default_factory=list)
    legacy: int = 0
    torn: int = 0
    start: str | None = None

    @property
    def end(self) -> str | None:
        return self.main[-1].hash if self.main else None


def verify(state_dir: str | os.PathLike[str]) -> ChainReport:
    """Verify the whole chain of ``state_dir``; raises :class:`NotAStateDir`.

    >>> import tempfile
    >>> verify(tempfile.mkdtemp()).ok
    Traceback (most recent call last):
    ...
    scoreboard.journal.chain.NotAStateDir: ... holds neither journal.jsonl nor shoes/
    """
    return _Verifier(_state_dir(Path(state_dir))).run()


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
    def __init__(self, state_dir: Path) -> None:
        self.state_dir = state_dir
        self.problems: list[tuple[Path, int, str]] = []
        self.notes: list[str] = []
        self.files: list[_File] = []
        self.live: _File | None = None

    def problem(self, path: Path, line: int, why: str) -> None:
        self.problems.append((path, line, why))

    # -- reading -----------------------------------------------------------------
    def read(self) -> None:
        folder = self.state_dir / ARCHIVE_DIR
        archives = sorted(folder.glob("*.jsonl")) if folder.is_dir() else []
        paths = [*archives, self.state_dir / JOURNAL_NAME]
        for path in paths:
            name = path.name if path.parent == self.state_dir else f"{ARCHIVE_DIR}/{path.name}"
            if not path.exists():
                self.notes.append(f"{name}: missing (the display has not started since?)")
                continue
            each = _File(path, name)
            try:
                if path.is_dir():
                    raise IsADirectoryError(21, "a directory where a journal file should be")
                read = read_lines(path)
            except OSError as error:
                self.problem(path, 1, f"unreadable ({error.strerror or error})")
                continue
            each.lines, each.torn = read.lines, read.torn
            if read.cut is not None:
                self.problem(path, read.cut, "longer than any journal line: the rest is not read")
            if read.torn and name == JOURNAL_NAME:
                self.notes.append(
                    f"{name}: a torn last line of {read.torn} bytes (a power cut "
                    "mid-write; the display cuts it and records a gap)"
                )
            elif read.torn:
                self.problem(path, len(read.lines) + 1, "an incomplete line: the file was cut")
            self.files.append(each)
        self.live = next((f for f in self.files if f.name == JOURNAL_NAME), None)
        for aside in sorted(self.state_dir.glob(f"{JOURNAL_NAME}.aside-*")):
            self.notes.append(f"{aside.name}: set aside by the display, not on the chain")

    # -- the lines of each file ----------------------------------------------------
    def branches(self) -> dict[tuple[str, int], tuple[str, Path, int]]:
        """The archive lines ``completed`` records confirm: (file, line) -> hash, where."""
        found = {}
        for each in self.files:
            for line in each.lines:
                for data in _mentioned(line.kind, line.data, COMPLETED_KIND):
                    key = (str(data.get("file")), data.get("line"))
                    found[key] = (str(data.get("hash")), each.path, line.number)
        return found  # type: ignore[return-value]

    def check_file(self, each: _File, branches: dict[tuple[str, int], Any]) -> None:
        main = []
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
    def pruned(self) -> set[str]:
        """The hashes pruned files ended with, as the chain's records name them."""
        return {
            data[key]
            for each in self.files
            for line in each.main
            for data in _mentioned(line.kind, line.data, PRUNED_KIND)
            for key in ("tip", "last")
            if isinstance(data.get(key), str)
        }

    def walk(self) -> list[_File]:
        """The files in chain order, followed back from the live journal by their links."""
        nodes = [each for each in self.files if each.main]
        ends = {each.end: each for each in nodes}
        starts = {each.start for each in nodes}
        heads = [each for each in nodes if each is self.live] or [
            each for each in nodes if each.end not in starts
        ]
        where = {line.hash: (each, line) for each in nodes for line in each.main}
        pruned = self.pruned()
        placed: list[_File] = []
        current = heads[-1] if heads else None
        while current is not None and current not in placed:
            placed.append(current)
            link = current.start
            if current.legacy or link is None or link == ZERO or link in pruned:
                break
            earlier = ends.get(link)
            if earlier is None and link in where:
                earlier, line = where[link]
                self.problem(
                    earlier.path,
                    line.number + 1,
                    f"not on the chain: {current.name} "
                    f"goes on from line {line.number}; the lines after it were added",
                )
            if earlier is None:
                left = [each for each in nodes if each not in placed and each is not self.live]
                earlier = left[-1] if left else None
                self.problem(current.path, current.main[0].number, _unlinked(earlier))
            current = earlier
        rest = [each for each in nodes if each not in placed]
        for each in rest:
            if not each.legacy or len(each.main) > each.legacy:
                self.problem(each.path, 1, "not on the chain: no later file chains to it")
        return [*rest, *reversed(placed)]

    def run(self) -> ChainReport:
        self.read()
        branches = self.branches()
        for each in self.files:
            self.check_file(each, branches)
            self.check_names(each)
        order = self.walk()
        ranks = {each.path: rank for rank, each in enumerate(order)}
        first = min(self.problems, key=lambda p: (ranks.get(p[0], -1), p[1]), default=None)
        order = [*(each for each in self.files if each.lines and not each.main), *order]
        held = [
            Held(each.path, line, line.number not in {own.number for own in each.main})
            for each in order
            for line in each.lines
        ]
        gaps = [
            Gap(h.path, h.line.number, h.line.data)
            for h in held
            if h.line.kind == GAP_KIND and isinstance(h.line.data, dict)
        ]
        return ChainReport(
            ok=first is None,
            files=tuple(each.path for each in order),
            records=len(held),
            broken=None if first is None else BrokenLink(*first),
            gaps=tuple(gaps),
            legacy=sum(each.legacy for each in order),
            notes=tuple(self.notes),
            held=tuple(held),
        )


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
