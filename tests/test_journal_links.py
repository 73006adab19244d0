"""journal/_links.py: lines read back, whatever the bytes; what a file's first line chains from."""

from __future__ import annotations

from pathlib import Path

import pytest

from scoreboard.journal._links import (
    _CHUNK,
    MAX_LINE,
    ZERO,
    Line,
    Record,
    digest,
    last_line,
    parse,
    read_lines,
    seal,
    start_link,
)


def sealed(*kinds: str, tip: str = ZERO) -> bytes:
    return seal([Record(1.5, 2.25, kind, {"n": i}) for i, kind in enumerate(kinds)], tip)[0]


def test_a_sealed_line_names_the_hash_of_the_one_before_and_reads_back_canonical() -> None:
    lines = sealed("coup", "event").splitlines()
    first, second = parse(1, lines[0]), parse(2, lines[1])
    assert (first.prev, first.kind, first.data, first.canonical) == (ZERO, "coup", {"n": 0}, True)
    assert second.prev == digest(lines[0]) == first.hash and second.number == 2
    assert (first.record["at"], first.record["mono"]) == (1.5, 2.25)
    assert seal([], ZERO) == (b"", ZERO)
    assert seal([Record(0, 0, "x", None)], ZERO)[1] == digest(
        seal([Record(0, 0, "x", None)], ZERO)[0]
    )


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        (b"{not json", "not JSON"),
        (b"[1, 2]", "not a journal record"),
        (b'{"kind": 3}', "not a journal record"),
        (b'{"data": {}}', "not a journal record"),
    ],
)
def test_a_line_that_is_no_record_says_why_and_still_has_its_hash(raw: bytes, problem: str) -> None:
    line = parse(7, raw)
    assert line.record is None and line.problem.startswith(problem) and line.hash == digest(raw)
    assert (line.prev, line.kind, line.data, line.number) == (None, "", None, 7)


def test_a_record_not_written_canonically_is_read_but_marked() -> None:
    line = parse(1, b'{"kind": "coup",  "prev": 5}')
    assert line.record is not None and line.canonical is False and line.problem == ""
    assert line.prev is None and line.kind == "coup"  # a prev that is not a hash names nothing
    assert parse(1, b'{"kind":"coup"}').canonical is True
    assert parse(1, b'{"kind":"coup","v":NaN}').canonical is False  # no canonical form at all


def test_read_lines_numbers_the_lines_and_counts_a_torn_tail(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    path.write_bytes(sealed("a", "b", "c") + b'{"kind": "d"')
    read = read_lines(path)
    assert [line.number for line in read.lines] == [1, 2, 3] and read.torn == 12
    assert [line.kind for line in read.lines] == ["a", "b", "c"] and read.cut is None


def test_a_line_longer_than_the_limit_is_cut_there_and_named(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    path.write_bytes(sealed("a") + b"x" * 101)  # no newline within the limit
    read = read_lines(path, limit=100)
    assert read.cut == 2 and [line.number for line in read.lines] == [1, 2]
    assert read.lines[1].record is None and read.lines[1].problem == "longer than 100 bytes"
    assert (read.lines[1].hash, read.torn) == ("", 0)
    exactly = tmp_path / "k.jsonl"
    exactly.write_bytes(b"y" * 100)  # a torn tail of exactly the limit is no cut
    assert (read_lines(exactly, limit=100).cut, read_lines(exactly, limit=100).torn) == (None, 100)


def test_lines_across_read_chunks_are_whole(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    body = b'{"kind": "coup", "pad": "' + b"p" * (_CHUNK - 10) + b'"}\n'
    path.write_bytes(body * 3)
    read = read_lines(path)
    assert len(read.lines) == 3 and all(line.kind == "coup" for line in read.lines)
    assert last_line(path) == (body[:-1], 3)
    assert MAX_LINE > _CHUNK


def test_the_last_line_and_the_count(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    path.write_bytes(b"")
    assert last_line(path) is None
    path.write_bytes(b"torn")
    assert last_line(path) is None
    path.write_bytes(b"one\ntwo\ntorn")
    assert last_line(path) == (b"two", 2)


@pytest.mark.parametrize(
    ("record", "link"),
    [
        ({"kind": "gap", "data": {"after": "abc"}, "prev": "def"}, "abc"),
        ({"kind": "pruned", "data": {"after": "abc"}, "prev": "def"}, "abc"),
        ({"kind": "gap", "data": {"after": 5}, "prev": "def"}, None),
        ({"kind": "gap", "data": {}, "prev": "def"}, "def"),
        ({"kind": "gap", "data": ["after"], "prev": "def"}, "def"),
        ({"kind": "alert", "data": {"after": "abc"}, "prev": "def"}, "def"),
        ({"kind": "coup", "data": {}}, None),
    ],
)
def test_a_file_chains_from_its_first_lines_after_or_prev(record: dict, link: str | None) -> None:
    line = Line(1, "h", record)
    assert start_link(line) == link


def test_no_first_line_chains_from_nothing() -> None:
    assert start_link(None) is None


def test_the_first_prev_ever_has_the_shape_of_a_hash() -> None:
    assert "0" * len(digest(b"")) == ZERO and set(ZERO) == {"0"}


def test_the_longest_line_read_is_one_mebibyte(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    path.write_bytes(b"x" * MAX_LINE)
    assert MAX_LINE == 1024 * 1024 and read_lines(path).cut is None
    path.write_bytes(b"x" * (MAX_LINE + 1))
    assert read_lines(path).cut == 1
