"""journal/disk.py: each durable step reaches the disk whole or leaves the file as it was."""

from __future__ import annotations

import os
import resource
import signal
from pathlib import Path

import pytest

from scoreboard.journal.disk import (
    append_durably,
    blocker,
    free_name,
    fsync_dir,
    identity,
    replace_durably,
    truncate,
    why,
)


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.fixture
def synced(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files fsync'd (by name), the real fsync still done: a spy, not a stand-in."""
    names: list[str] = []
    real = os.fsync

    def spy(fd: int) -> None:
        names.append(os.readlink(f"/proc/self/fd/{fd}"))
        real(fd)

    monkeypatch.setattr(os, "fsync", spy)
    return names


def test_a_replaced_file_is_written_synced_renamed_and_its_folder_synced(
    tmp_path: Path, synced: list[str]
) -> None:
    target = tmp_path / "journal.jsonl"
    target.write_bytes(b"old\n")
    before = open_fds()
    found = replace_durably(target, b"new\n")
    assert target.read_bytes() == b"new\n" and not (tmp_path / "journal.jsonl.tmp").exists()
    seen = target.stat()
    assert found == identity(seen) == (seen.st_dev, seen.st_ino, seen.st_size)
    assert open_fds() == before
    assert synced == [str(tmp_path / "journal.jsonl.tmp"), str(tmp_path)]
    assert target.stat().st_mode & 0o777 == 0o644 & ~_umask()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_a_replace_that_fails_leaves_the_file_and_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "shoes"
    target.mkdir()
    (target / "inside").write_bytes(b"")  # a non-empty directory cannot be replaced by a file
    before = open_fds()
    with pytest.raises(OSError):
        replace_durably(target, b"data")
    assert target.is_dir() and not (tmp_path / "shoes.tmp").exists()
    assert open_fds() == before


def test_an_append_is_synced(tmp_path: Path, synced: list[str]) -> None:
    path = tmp_path / "a.jsonl"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        append_durably(fd, b"one\n")
    finally:
        os.close(fd)
    assert path.read_bytes() == b"one\n" and synced == [str(path)]


def test_an_append_cut_short_is_cut_back_so_no_torn_line_stays(tmp_path: Path) -> None:
    """A file size limit lets the first bytes in and refuses the rest (EFBIG), as a full disk."""
    path = tmp_path / "j.jsonl"
    path.write_bytes(b"whole\n")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND)
    limits = resource.getrlimit(resource.RLIMIT_FSIZE)
    handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    try:
        resource.setrlimit(resource.RLIMIT_FSIZE, (10, limits[1]))
        with pytest.raises(OSError):
            append_durably(fd, b"a line too long for the limit\n")
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, limits)
        signal.signal(signal.SIGXFSZ, handler)
        os.close(fd)
    assert path.read_bytes() == b"whole\n"


def test_truncate_cuts_syncs_and_closes(tmp_path: Path, synced: list[str]) -> None:
    path = tmp_path / "j.jsonl"
    path.write_bytes(b"whole\ntorn")
    before = open_fds()
    truncate(path, 6)
    assert path.read_bytes() == b"whole\n" and synced == [str(path)] and open_fds() == before


def test_a_folder_sync_closes_what_it_opened_and_skips_what_it_cannot_open(tmp_path: Path) -> None:
    before = open_fds()
    fsync_dir(tmp_path)
    fsync_dir(tmp_path / "missing")
    assert open_fds() == before


def test_a_free_name_counts_from_2_past_the_names_taken(tmp_path: Path) -> None:
    assert free_name(tmp_path, "S1", ".jsonl") == tmp_path / "S1.jsonl"
    (tmp_path / "S1.jsonl").write_bytes(b"")
    assert free_name(tmp_path, "S1", ".jsonl") == tmp_path / "S1-2.jsonl"
    (tmp_path / "S1-2.jsonl").write_bytes(b"")
    assert free_name(tmp_path, "S1", ".jsonl") == tmp_path / "S1-3.jsonl"


def test_the_blocker_is_the_file_where_a_folder_should_be(tmp_path: Path) -> None:
    state = tmp_path / "state"
    assert blocker(state, "shoes") == state  # nothing there at all: the folder itself
    state.mkdir()
    (state / "shoes").write_bytes(b"")
    assert blocker(state, "shoes") == state / "shoes"
    (state / "shoes").unlink()
    (state / "shoes").mkdir()
    assert blocker(state, "shoes") == state
    (tmp_path / "file").write_bytes(b"")
    assert blocker(tmp_path / "file" / "state", "shoes") == tmp_path / "file"


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        (OSError(28, "No space left on device"), "No space left on device"),
        (OSError("plain words"), "plain words"),
        (OSError(), "OSError"),
        (PermissionError(), "PermissionError"),
    ],
)
def test_why_is_the_shortest_true_reason(error: OSError, reason: str) -> None:
    assert why(error) == reason
