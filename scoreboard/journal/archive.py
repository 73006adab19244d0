"""The audit trail: finished shoes' journals in ``shoes/`` of the state directory.

A finished shoe's journal moves there under ``<time>-<shoe id>.jsonl`` when the
next shoe starts (if it holds games; a shoe of limits and history alone is not
worth a file), a late snapshot that completes a finished shoe is appended to
its file, and pruning keeps the newest ``keep_shoes`` shoes with games and
everything newer than them: nothing with games is dropped to make room for a
shoe without, and with ``require_export`` no shoe with games goes before
``scoreboard export`` wrote it out.

The hash chain runs through these files: a new shoe's journal chains to the
last line of the shoe archived before it.  A late snapshot appended to an
archived file is a branch off the chain (its ``prev`` names the live tip when it
was written, and a ``completed`` record on the live chain confirms its hash), so
an archive's own chain ends at its last line that is not such a branch:
:func:`own_end`.  What pruning removes is first named on the live chain.
"""

from __future__ import annotations

import logging
import os
import re
import time
from pathlib import Path

from scoreboard.journal._links import ZERO, Line, read_lines, start_link
from scoreboard.journal.disk import append_durably, free_name, fsync_dir, why
from scoreboard.journal.exports import was_exported
from scoreboard.protocol import canonical_json
from scoreboard.regular_file import read_all

log = logging.getLogger(__package__)  # the journal logs under one name: scoreboard.journal

ARCHIVE_DIR = "shoes"
#: What marks an archived shoe as one with games (a real shoe, worth keeping).
_GAME_MARKS = (b'"kind":"coup"', b'"kind":"snapshot"', b'"type":"correct"')
_CHUNK = 1 << 16  # pragma: no mutate (any size counts the same lines)


def make_dirs(state_dir: Path) -> None:
    """The state directory and its ``shoes/``."""
    state_dir.mkdir(parents=True, exist_ok=True)
    (state_dir / ARCHIVE_DIR).mkdir(exist_ok=True)


def new_archive_file(state_dir: Path, shoe: str | None) -> Path:
    """A free name in ``shoes/`` for shoe ``shoe``: the time now and the shoe id.

    >>> new_archive_file(Path("/nowhere"), "S 1/a").name[-12:]
    '-S_1_a.jsonl'
    """
    stem = f"{time.strftime('%Y%m%d-%H%M%S')}-{_safe(shoe or 'none')}"
    return free_name(state_dir / ARCHIVE_DIR, stem, ".jsonl")


def move_away(state_dir: Path, path: Path, shoe: str | None, *, ours: bool) -> Path:
    """Move the journal at ``path`` out of the way; returns where it went.

    ``ours``: it is the display's own journal of ``shoe``, archived in ``shoes/``;
    else whatever stands there is set aside next to it, never deleted.
    """
    if ours:
        target = new_archive_file(state_dir, shoe)
    else:
        target = free_name(state_dir, f"{path.name}.aside-{time.strftime('%Y%m%d-%H%M%S')}", "")
        log.warning("journal %s: what was there is set aside as %s", path, target.name)
    make_dirs(state_dir)
    os.replace(path, target)
    fsync_dir(target.parent)
    return target


def complete(state_dir: Path, shoe: str, line: bytes) -> tuple[Path, int]:
    """Append a late snapshot to its finished shoe's archived file (a new one if none).

    Returns the file and the number of the line appended.
    """
    target = _archived_file(state_dir / ARCHIVE_DIR, shoe)
    if target is None:
        target = new_archive_file(state_dir, shoe)
    make_dirs(state_dir)
    fd = os.open(target, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        number = _count_lines(fd) + 1
        append_durably(fd, line)
    finally:
        os.close(fd)
    return target, number


def doomed(
    state_dir: Path, keep_shoes: int, *, require_export: bool, told: set[Path] | None = None
) -> list[Path]:
    """The archived files pruning removes, oldest first.

    The newest ``keep_shoes`` shoes with games stay, and everything newer than them;
    with ``require_export`` a shoe with games that was never exported stays too (logged
    once per file in ``told``).
    """
    folder = state_dir / ARCHIVE_DIR
    real, going = 0, []
    for path in sorted(folder.glob("*.jsonl"), key=_age, reverse=True):
        games = _has_games(path)
        if real < keep_shoes:
            real += games
            continue
        if games and require_export and not was_exported(path):
            if told is None or path not in told:
                log.info("journal: keeping old shoe %s: it was never exported", path.name)
                if told is not None:
                    told.add(path)
            continue
        going.append(path)
    return going[::-1]


def remove(paths: list[Path]) -> None:
    for path in paths:
        try:
            path.unlink()
        except OSError as error:
            log.warning("journal: cannot remove old shoe %s (%s)", path, why(error))


def describe(path: Path) -> dict[str, object]:
    """What a ``pruned`` record says of a file about to go: name, lines, hashes, shoe.

    ``tip`` is the hash of the archive's own last line (where the chain went on
    from), ``last`` that of its last line (a late completion's branch, if any).
    """
    try:
        lines = read_lines(path).lines
    except OSError:
        lines = ()
    return {
        "file": name_in(path),
        "shoe": shoe_of(lines),
        "lines": len(lines),
        "tip": own_end(lines) or ZERO,
        "last": lines[-1].hash if lines else ZERO,
    }


def own_end(lines: tuple[Line, ...]) -> str | None:
    """The hash of the last line of a file's own chain (before any appended branch).

    A line whose ``prev`` does not name the line before it starts a branch.
    """
    end = None
    for number, each in enumerate(lines):
        if number and each.prev is not None and each.prev != lines[number - 1].hash:
            break
        end = each.hash
    return end


def shoe_of(lines: tuple[Line, ...]) -> str | None:
    """The shoe a journal file holds: that of its first event or snapshot naming one."""
    for each in lines:
        data = each.data
        if each.kind in ("event", "snapshot", "coup") and isinstance(data, dict):
            shoe = data.get("shoe")
            if isinstance(shoe, str):
                return shoe
    return None


def named_for(path: Path, shoe: str) -> bool:
    """Whether an archived file's name is one the journal gives a file of ``shoe``.

    >>> named_for(Path("20261201-120000-S_1.jsonl"), "S 1"), named_for(Path("x-S2.jsonl"), "S1")
    (True, True)
    >>> named_for(Path("20261201-120000-S1-2.jsonl"), "S1")
    True
    >>> named_for(Path("20261201-120000-S2.jsonl"), "S1")
    False
    """
    found = re.fullmatch(r"\d{8}-\d{6}-(.*)\.jsonl", path.name)
    if found is None:
        return True  # not a name the journal gave: nothing to compare
    rest, safe = found.group(1), _safe(shoe)
    return rest == safe or re.fullmatch(re.escape(safe) + r"-\d+", rest) is not None


def chain_end(state_dir: Path) -> str:
    """The hash the next line of a state dir with no live journal chains to.

    The own end of the archive no other archive chains from (the newest such by
    age if several: a broken chain, which audit names); :data:`ZERO` with none.
    """
    ends: dict[str, Path] = {}
    starts: set[str | None] = set()
    try:
        found = sorted((state_dir / ARCHIVE_DIR).glob("*.jsonl"), key=_age)
    except OSError:  # a path that cannot be listed (a name too long) is never written
        return ZERO  # pragma: no mutate (no line is ever chained to it)
    for path in found:
        try:
            lines = read_lines(path).lines
        except OSError:
            continue
        end = own_end(lines)
        if end is not None:
            ends[end] = path
            starts.add(start_link(lines[0]))
    open_ends = [end for end in ends if end not in starts]
    return (open_ends or list(ends) or [ZERO])[-1]


def name_in(path: Path) -> str:
    """``shoes/<file>``: how a record names an archived file."""
    return f"{ARCHIVE_DIR}/{path.name}"


def _count_lines(fd: int) -> int:
    """The lines of the file just opened at ``fd`` (read from its start)."""
    count = 0
    while chunk := os.read(fd, _CHUNK):
        count += chunk.count(b"\n")
    return count


def _has_games(path: Path) -> bool:
    """Whether an archived shoe's file records a game (an unreadable one counts: keep it)."""
    try:
        data = read_all(path)
    except OSError:
        return True
    return records_games(data)


def records_games(data: bytes) -> bool:
    """Whether the journal lines ``data`` record a game (a coup, a snapshot, a correction)."""
    return any(mark in data for mark in _GAME_MARKS)


def _archived_file(folder: Path, shoe: str) -> Path | None:
    """The newest archived file of ``shoe``, found by its name and its content."""
    needle = canonical_json({"shoe": shoe})[1:-1]
    for path in sorted(folder.glob(f"*-{_safe(shoe)}*.jsonl"), key=_age, reverse=True):
        try:
            if needle in read_all(path):
                return path
        except OSError:
            continue
    return None


def _age(path: Path) -> tuple[int, str]:
    """When ``path`` was last written; one gone or a dangling link sorts as the oldest."""
    try:
        written = path.stat().st_mtime_ns
    except OSError:
        written = 0  # pragma: no mutate (0 or 1: older than any file)
    return written, path.name


def _safe(shoe_id: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", shoe_id)[:64]
