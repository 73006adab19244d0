"""``scoreboard audit`` as a process, on a state dir the real demo wrote.

The demo deals shoe after shoe into its journal (``demo --state-dir``); each test
takes a copy, tampers with it as someone with a text editor would (one byte, a
line removed or inserted, two archives swapped, one deleted, a file cut), and
runs ``scoreboard audit`` in a subprocess: it must exit 1 naming the place, and
0 on the untouched copy.  Bad input never shows a traceback.
"""

from __future__ import annotations

import json
import os

import audited
import pytest
from audited import archives, audit, broken, lines_of

from scoreboard.journal import ARCHIVE_DIR, JOURNAL_NAME

dealt, state = audited.dealt, audited.state  # the fixtures


def test_the_untouched_record_is_intact_and_lists_every_shoe(state):
    done = audit(state)
    assert done.returncode == 0, done.stdout
    assert done.stdout.startswith(f"{state}: chain intact (")
    report = json.loads(audit(state, "--json").stdout)
    assert report["ok"] is True and report["broken"] is None
    assert report["files"] == [f"shoes/{p.name}" for p in archives(state)] + [JOURNAL_NAME]
    shoes = [shoe["shoe"] for shoe in report["shoes"]]
    assert [shoe.rsplit("-", 1)[1] for shoe in shoes[:3]] == ["001", "002", "003"]
    assert all(shoe.startswith("T1-3-") for shoe in shoes)  # table, seed, this run's tag
    assert all(shoe["games"] > 0 for shoe in report["shoes"][:-1])


def test_one_changed_digit_is_named_by_file_and_line(state):
    target = archives(state)[2]
    lines = lines_of(target)
    lines[4] = lines[4].replace(b'"v":1', b'"v":2', 1)  # still canonical JSON
    target.write_bytes(b"".join(lines))
    assert broken(state) == {
        "file": f"shoes/{target.name}",
        "line": 5,
        "why": "changed, or the line after it removed: line 6 does not chain to it",
    }


def test_one_changed_byte_is_named_by_file_and_line(state):
    target = archives(state)[2]
    lines = lines_of(target)
    lines[4] = lines[4].replace(b'"game":', b'"game": ', 1)  # the JSON still reads the same
    target.write_bytes(b"".join(lines))
    assert broken(state)["file"] == f"shoes/{target.name}" and broken(state)["line"] == 5
    assert f"BROKEN at shoes/{target.name} line 5" in audit(state).stdout


def test_a_changed_last_line_of_the_live_journal_is_named(state):
    target = state / JOURNAL_NAME
    lines = lines_of(target)
    assert len(lines) >= 3
    lines[-2] = lines[-2].replace(b'"at":', b'"at": ', 1)
    target.write_bytes(b"".join(lines))
    found = broken(state)
    assert (found["file"], found["line"]) == (JOURNAL_NAME, len(lines) - 1)


def test_a_removed_line_is_named(state):
    target = archives(state)[1]
    lines = lines_of(target)
    del lines[3]
    target.write_bytes(b"".join(lines))
    found = broken(state)
    assert (found["file"], found["line"]) == (f"shoes/{target.name}", 3)
    assert "removed" in found["why"]


def test_an_inserted_line_is_named(state):
    target = archives(state)[1]
    lines = lines_of(target)
    lines.insert(4, lines[2])  # a copy of a real line, its prev untouched
    target.write_bytes(b"".join(lines))
    found = broken(state)
    assert (found["file"], found["line"]) == (f"shoes/{target.name}", 5)
    assert found["why"] == "inserted: line 6 chains to line 4"


def test_two_swapped_archives_are_named(state):
    first, second = archives(state)[1:3]
    os.rename(first, state / "x")
    os.rename(second, first)
    os.rename(state / "x", second)
    found = broken(state)
    assert found["file"] in (f"shoes/{first.name}", f"shoes/{second.name}")
    assert "swapped" in found["why"]


def test_a_deleted_archive_is_named_where_the_chain_breaks(state):
    gone, after = archives(state)[1:3]
    gone.unlink()
    found = broken(state)
    assert (found["file"], found["line"]) == (f"shoes/{after.name}", 1)
    assert "removed without a pruned record" in found["why"]


def test_an_archive_cut_short_is_named(state):
    target = archives(state)[1]
    raw = target.read_bytes()
    target.write_bytes(raw[:-20])  # mid-line
    found = broken(state)
    assert (found["file"], found["line"]) == (f"shoes/{target.name}", len(lines_of(target)))
    assert "cut" in found["why"]


def test_an_archive_cut_at_a_line_end_is_named_at_the_next_file(state):
    target, after = archives(state)[1:3]
    target.write_bytes(b"".join(lines_of(target)[:-2]))
    found = broken(state)
    assert (found["file"], found["line"]) == (f"shoes/{after.name}", 1)
    assert f"shoes/{target.name}, before it, ends at line" in found["why"]


def test_a_torn_last_line_of_the_live_journal_is_a_power_cut_not_tampering(state):
    with open(state / JOURNAL_NAME, "ab") as handle:
        handle.write(b'{"at":1,"kind":"coup","data":{"v":1,"shoe":"')
    done = audit(state)
    assert done.returncode == 0, done.stdout
    assert "journal.jsonl: a torn last line of" in done.stdout


def test_a_path_that_is_not_a_state_dir_is_exit_2_in_one_line(tmp_path):
    (tmp_path / "file").write_text("hello")
    for path, says in [
        (tmp_path / "nothing", "no such directory"),
        (tmp_path / "file", "not a directory"),
        (tmp_path, "not a display's state dir"),
    ]:
        done = audit(path)
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.strip() == f"scoreboard audit: {path}: {says}" or (
            done.stderr.startswith(f"scoreboard audit: {path}: {says}")
            and done.stderr.count("\n") == 1
        )


@pytest.mark.parametrize(
    "garbage",
    [b"\x00\x01\x02 not json\n", b'{"at":1,"kind":"co\x00up","data":{}}\n', bytes(range(256))],
)
def test_garbage_in_an_archive_is_a_broken_link_never_a_traceback(state, garbage):
    target = archives(state)[1]
    lines = lines_of(target)
    target.write_bytes(b"".join(lines[:2]) + garbage + b"".join(lines[2:]))
    found = broken(state)
    assert (found["file"], found["line"]) == (f"shoes/{target.name}", 3)


def test_a_two_gigabyte_line_is_read_bounded(state):
    huge = state / ARCHIVE_DIR / "29990101-000000-huge.jsonl"
    with open(huge, "wb") as handle:
        handle.truncate(2 * 1024**3)  # sparse: 2 GB of NUL bytes and no newline
    done = audit(state, "--json")
    assert done.returncode == 1
    found = json.loads(done.stdout)["broken"]
    assert (found["file"], found["line"]) == (f"shoes/{huge.name}", 1)
    assert "longer than any journal line" in found["why"]


def test_a_directory_where_a_file_should_be_is_named(state):
    (state / ARCHIVE_DIR / "20000101-000000-dir.jsonl").mkdir()
    found = broken(state)
    assert found["file"] == "shoes/20000101-000000-dir.jsonl"
    assert "a directory" in found["why"]
