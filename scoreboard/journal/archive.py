"""The audit trail: finished shoes' journals in ``shoes/`` of the state directory.

A finished shoe's journal moves there under ``<time>-<shoe id>.jsonl`` when the
next shoe starts (if it holds games; a shoe of limits and history alone is not
worth a file), a late snapshot that completes a finished shoe is appended to
its file, and pruning keeps the newest ``keep_shoes`` shoes with games and
everything newer than them: nothing with games is dropped to make room for a
shoe without.
"""

from __future__ import annotations

import logging
import os
import re
import time
from pathlib import Path

from scoreboard.journal.disk import append_durably, free_name, why
from scoreboard.protocol import canonical_json

log = logging.getLogger(__package__)  # the journal logs under one name: scoreboard.journal

ARCHIVE_DIR = "shoes"
#: What marks an archived shoe as one with games (a real shoe, worth keeping).
_GAME_MARKS = (b'"kind":"coup"', b'"kind":"snapshot"', b'"type":"correct"')


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


def complete(state_dir: Path, shoe: str | None, lines: bytes) -> None:
    """Append a late snapshot to its finished shoe's archived file (a new one if none)."""
    target = _archived_file(state_dir / ARCHIVE_DIR, shoe or "none")
    if target is None:
        target = new_archive_file(state_dir, shoe)
    make_dirs(state_dir)
    fd = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        append_durably(fd, lines)
    finally:
        os.close(fd)


def prune(state_dir: Path, keep_shoes: int) -> None:
    """Keep the newest ``keep_shoes`` shoes with games and everything newer than them."""
    folder = state_dir / ARCHIVE_DIR
    real = 0
    for path in sorted(folder.glob("*.jsonl"), key=_age, reverse=True):
        if real < keep_shoes:
            real += _has_games(path)
            continue
        try:
            path.unlink()
        except OSError as error:
            log.warning("journal: cannot remove old shoe %s (%s)", path, why(error))


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


def _safe(shoe_id: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", shoe_id)[:64]
