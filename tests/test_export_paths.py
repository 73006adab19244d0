"""``scoreboard export -o`` never writes into the record it reads, nor replaces what is not a file.

The lab exported a shoe onto its own archived file (and onto ``journal.jsonl``):
the record became CSV, and the archive even got its "exported" marker, which
made it prunable.  A link to a device was replaced by a regular file.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cli import scoreboard
from test_export_command import archived_file, build


@pytest.fixture
def state(tmp_path, monkeypatch):
    return build(tmp_path / "state", monkeypatch)


def record_bytes(path: Path) -> dict[str, bytes]:
    files = [p for p in sorted(path.rglob("*")) if p.is_file()]
    return {str(p.relative_to(path)): p.read_bytes() for p in files}


@pytest.mark.parametrize("where", ["archive", "journal", "new file", "link"])
def test_an_export_into_the_state_dir_is_refused_and_the_record_untouched(state, tmp_path, where):
    before = record_bytes(state.path)
    targets = {
        "archive": archived_file(state),
        "journal": state.path / "journal.jsonl",
        "new file": state.path / "shoes" / "export.csv",
        "link": tmp_path / "innocent.csv",
    }
    target = targets[where]
    if where == "link":
        target.symlink_to(state.path / "journal.jsonl")
    done = scoreboard("export", str(state.path), "--shoe", "all", "-o", str(target))
    assert done.returncode == 2, done.stderr
    message = done.stderr.strip()
    assert "inside the state directory" in message and "\n" not in message
    assert "Traceback" not in done.stderr
    assert record_bytes(state.path) == before  # nothing written, no marker
    assert not list(state.path.rglob("*.exported"))


def test_an_export_through_a_link_to_a_file_elsewhere_keeps_the_link(state, tmp_path):
    real = tmp_path / "exports" / "shoe.csv"
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / "latest.csv"
    link.symlink_to(real)
    done = scoreboard("export", str(state.path), "-o", str(link))
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and real.read_bytes().startswith(b"\xef\xbb\xbfshoe,game")


def test_an_export_to_a_pipe_writes_into_it_and_leaves_it_a_pipe(state, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        done = scoreboard("export", str(state.path), "-o", str(fifo))
        assert done.returncode == 0, done.stderr
        got = os.read(reader, 1 << 20)
    finally:
        os.close(reader)
    assert got.startswith(b"\xef\xbb\xbfshoe,game")
    assert fifo.exists() and not fifo.is_file()


def test_an_export_to_a_full_device_is_one_line_and_leaves_no_marker(state):
    if not Path("/dev/full").exists():
        pytest.skip("this system has no /dev/full")
    done = scoreboard("export", str(state.path), "--shoe", "all", "-o", "/dev/full")
    assert done.returncode == 2
    assert "No space left on device" in done.stderr and "Traceback" not in done.stderr
    assert Path("/dev/full").is_char_device()
    assert not list(state.path.rglob("*.exported"))


def test_an_export_to_a_pipe_no_program_reads_is_refused_at_once(state, tmp_path):
    """Nothing hangs on a FIFO: with no reader the export says so instead of waiting."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    done = scoreboard("export", str(state.path), "-o", str(fifo), timeout=20)
    assert done.returncode == 2
    assert "a FIFO with no reader" in done.stderr and "Traceback" not in done.stderr
    assert fifo.exists() and not fifo.is_file()  # left a pipe, nothing written beside it
