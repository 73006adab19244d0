"""``verify`` on a state dir the display's journal wrote, tampered as tests/audited.py
does, in process: what it names broken, what it names off the chain, what it accepts
(the tampering of test_audit_examines.py, whose audits are real processes on a real
demo's state dir, at the speed mutation testing needs), and the ways of the old
format, pruning and loss it must still accept.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import audited as tamper
import pytest
from test_chain import feed, shoe, started

from scoreboard.journal import ARCHIVE_DIR, JOURNAL_NAME
from scoreboard.journal import records as journal_records
from scoreboard.journal.chain import BrokenLink, verify
from scoreboard.protocol import canonical_json


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> Path:
    return tamper.journaled(tmp_path_factory.mktemp("journaled") / "state")


@pytest.fixture
def state(written, tmp_path) -> Path:
    copy = tmp_path / "state"
    shutil.copytree(written, copy)
    return copy


STRAY = "not on the chain: not a file the display writes (not examined)"


def broken(state: Path, **options) -> tuple[str, int, str]:
    report = verify(state, **options)
    assert not report.ok and report.broken is not None
    found = report.broken
    return found.path.relative_to(state).as_posix(), found.line, found.why


def off(state: Path) -> list[tuple[str, int]]:
    return [(each.path.relative_to(state).as_posix(), each.line) for each in verify(state).off]


def test_the_untouched_record_is_intact_with_its_tip_and_nothing_off(state):
    report = verify(state)
    assert report.ok and report.off == () and report.legacy == 0 and report.gaps == ()
    assert report.files == (*tamper.archives(state), state / JOURNAL_NAME)
    assert report.tip is not None and report.tip.path == state / JOURNAL_NAME
    assert not report.tip.branch and not any(held.branch for held in report.held)
    assert (report.tip.line.hash, report.tip.line.number) == (
        tamper.tip_of(state),
        len(tamper.lines_of(state / JOURNAL_NAME)),
    )
    assert report.records == sum(len(tamper.lines_of(path)) for path in report.files)
    assert report.notes == ()


@pytest.mark.parametrize("later", [True, False])
def test_unchained_lines_dropped_into_shoes_are_off_the_chain(state, later):
    at = tamper.records(state / JOURNAL_NAME)[-1]["at"] + 60 if later else 1.0
    path, _ = tamper.drop_unchained_shoe(state, at=at)
    assert broken(state)[:2] == (f"shoes/{path.name}", 1)
    report = verify(state)
    assert report.legacy == 0 and report.files[0] == path
    assert [each.path for each in report.off] == [path]


@pytest.mark.parametrize("chained", [False, True])
def test_a_forged_coup_confirmed_off_the_chain_is_off_the_chain_from_its_line(state, chained):
    target, number, _ = tamper.forge_confirmed_coup(state, chained=chained)
    assert (f"shoes/{target.name}", number) in off(state)
    assert ("shoes/29990101-000000-confirm.jsonl", 1) in off(state)
    report = verify(state)
    assert not any(held.branch for held in report.held)


def test_a_pruned_record_off_the_chain_excuses_nothing(state):
    tamper.forge_pruned(state)
    report = verify(state)
    assert not report.ok
    assert ("shoes/29990101-000000-pruned.jsonl", 1) in off(state)


def test_a_missing_or_emptied_live_journal_with_archives_is_broken(state):
    (state / JOURNAL_NAME).write_bytes(b"")
    assert broken(state)[:2] == (JOURNAL_NAME, 1)
    assert (JOURNAL_NAME, 1) in off(state)
    (state / JOURNAL_NAME).unlink()
    assert off(state) == []  # the archives are still followed, from the newest
    assert verify(state).files == tuple(tamper.archives(state))
    assert broken(state) == (
        JOURNAL_NAME,
        1,
        "missing, yet shoes/ holds archives: the live journal after them was deleted "
        "(the display, started again, records a gap saying so)",
    )


def test_a_state_dir_before_its_first_shoe_or_with_one_shoe_is_intact(state, tmp_path):
    tamper.journal_alone(state)
    report = verify(state)
    assert report.ok and report.files == (state / JOURNAL_NAME,)
    (tmp_path / "fresh" / ARCHIVE_DIR).mkdir(parents=True)
    fresh = verify(tmp_path / "fresh")
    assert fresh.ok and fresh.tip is None and fresh.files == ()
    assert fresh.notes == ("journal.jsonl: missing (the display has not started since?)",)
    (tmp_path / "fresh" / JOURNAL_NAME).write_bytes(b"")  # empty, no archives: nothing lost
    assert verify(tmp_path / "fresh").ok


def test_an_empty_archive_is_off_the_chain(state):
    (state / ARCHIVE_DIR / "20300101-000000-x.jsonl").write_bytes(b"")
    assert broken(state) == (
        "shoes/20300101-000000-x.jsonl",
        1,
        "not on the chain: empty (the display never archives an empty journal)",
    )


def test_the_state_dir_alone_is_audited_and_its_journal_without_archives_breaks(state):
    for path in tamper.archives(state):
        path.unlink()
    assert broken(state) == (
        JOURNAL_NAME,
        1,
        "chains to a line no file here holds: the file before it was removed without a "
        "pruned record",
    )


def test_a_deleted_archive_is_named_where_the_chain_breaks(state):
    before, gone, after = tamper.archives(state)[:3]
    gone.unlink()
    assert broken(state) == (
        f"shoes/{after.name}",
        1,
        f"chains to a line no file here holds: shoes/{before.name}, before it, ends at line "
        f"{len(tamper.lines_of(before))}: lines were cut from its end or its last line changed, "
        "or a file between them was removed without a pruned record",
    )
    assert off(state) == []


def test_a_changed_second_to_last_line_is_named_at_the_last(state):
    count = tamper.edit_second_to_last(state)
    assert broken(state) == (
        JOURNAL_NAME,
        count,
        f"does not chain to line {count - 1}: "
        "inserted, or one of them changed, or lines between them removed",
    )


@pytest.mark.parametrize("chained", [False, True])
def test_a_line_appended_to_an_archive_is_named(state, chained):
    target, after, count = tamper.append_to_archive(state, chained=chained)
    name, line, why = broken(state)
    assert (name, line) == (f"shoes/{target.name}", count + 1)
    if chained:
        assert why == (
            f"not on the chain: shoes/{after.name} goes on from line {count}; "
            "the lines after it were added"
        )
    else:
        assert why.startswith(f"does not chain to line {count}")
    assert off(state) == [(name, count + 1)]


def test_a_copy_of_an_archive_is_off_the_chain(state):
    source, copy = tamper.copy_archive(state)
    name, line, why = broken(state)
    assert (line, why) == (1, "not on the chain: no later file chains to it")
    assert off(state) == [(name, 1)] and name in (f"shoes/{source.name}", f"shoes/{copy.name}")


INSERTED = "inserted: line 6 chains to line 4"
CHANGED = "changed: it does not chain to line 4 and line 6 does not chain to it"
REMOVED = "changed, or the line after it removed: line 5 does not chain to it"


def linked_before_second(lines: list[bytes]) -> None:
    """A line linked to the first inserted before the second (which still names the first)."""
    lines.insert(1, tamper.linked(lines[0], 1.0, "alert", {}))


def linked_before_fifth(lines: list[bytes]) -> None:
    """A line linked to the fourth inserted before the fifth (which still names the fourth)."""
    lines.insert(4, tamper.linked(lines[3], 1.0, "alert", {}))


@pytest.mark.parametrize(
    ("where", "edit", "why"),
    [
        (5, lambda lines: lines.insert(4, lines[2]), INSERTED),
        (5, lambda lines: lines.__setitem__(4, lines[2]), CHANGED),
        (5, linked_before_fifth, INSERTED),
        (4, lambda lines: lines.__delitem__(4), REMOVED),
        (2, linked_before_second, "inserted: line 3 chains to line 1"),
    ],
    ids=["copy inserted", "changed", "linked line inserted", "removed", "second inserted"],
)
def test_what_most_likely_happened_is_said(state, where, edit, why):
    target = tamper.archives(state)[1]
    lines = tamper.lines_of(target)
    edit(lines)
    target.write_bytes(b"".join(lines))
    assert broken(state) == (f"shoes/{target.name}", where, why)


def test_a_copy_inserted_before_the_last_line_is_named_as_inserted(state):
    target = tamper.archives(state)[1]
    lines = tamper.lines_of(target)
    count = len(lines)
    lines.insert(count - 1, lines[2])  # the last line, now count + 1, still names count - 1
    target.write_bytes(b"".join(lines))
    assert broken(state) == (
        f"shoes/{target.name}",
        count,
        f"inserted: line {count + 1} chains to line {count - 1}",
    )


def test_a_line_that_is_no_journal_record_is_named(state):
    target = tamper.archives(state)[1]
    lines = tamper.lines_of(target)
    lines[2] = b"[1, 2]\n"
    target.write_bytes(b"".join(lines))
    assert broken(state) == (f"shoes/{target.name}", 3, "not a journal line: not a journal record")


def test_the_last_line_of_the_live_journal_changed_is_named_by_its_bytes(state):
    target = state / JOURNAL_NAME
    lines = tamper.lines_of(target)
    lines[-1] = lines[-1].replace(b'"at":', b'"at": ', 1)  # no line after it names its hash
    target.write_bytes(b"".join(lines))
    assert broken(state) == (
        JOURNAL_NAME,
        len(lines),
        "changed: its bytes are not as the display writes a line (canonical JSON)",
    )


def test_a_line_of_the_old_format_after_the_chain_began_is_named(state):
    target = tamper.archives(state)[1]
    lines = tamper.lines_of(target)
    lines.insert(3, tamper.unchained([json.loads(lines[2])]))
    target.write_bytes(b"".join(lines))
    assert broken(state) == (
        f"shoes/{target.name}",
        4,
        "no prev: a line of the old format after the chain began (inserted?)",
    )


@pytest.mark.parametrize(
    "name", ["notes.txt", "shoes/notes.txt", "shoes/x.jsonl.exported.tmp", "journal.jsonl.aside-1"]
)
def test_a_file_the_display_never_writes_is_off_the_chain(state, name):
    (state / name).write_text("{}\n")
    assert broken(state) == (name, 1, STRAY)
    assert off(state) == [(name, 1)]


def test_a_stray_directory_is_named_too(state):
    (state / ARCHIVE_DIR / "old").mkdir()
    assert broken(state) == ("shoes/old", 1, STRAY)


def test_a_file_where_shoes_should_be_is_named(state):
    tamper.journal_alone(state)
    (state / ARCHIVE_DIR).write_text("")
    assert broken(state) == (ARCHIVE_DIR, 1, STRAY)


def test_what_the_display_writes_beside_the_chain_is_no_stray(state):
    (state / "controller.json").write_text("{}")
    (state / "controller.tmp").write_text("{")
    (state / "shoe_hand.json").write_text("{}")  # the shoe bridge's open hand
    (state / "shoe_hand.json.tmp").write_text("{")
    first = tamper.archives(state)[0]
    first.with_name(first.name + ".exported").write_text("{}")
    (state / f"{JOURNAL_NAME}.aside-20261201-120000").write_text("x\n")
    (state / f"{JOURNAL_NAME}.aside-20261201-120000-2").mkdir()
    report = verify(state)
    assert report.ok, report.broken
    assert report.notes == (
        f"{JOURNAL_NAME}.aside-20261201-120000: set aside by the display, not on the chain",
        f"{JOURNAL_NAME}.aside-20261201-120000-2: set aside by the display, not on the chain",
    )


def test_the_first_broken_link_in_chain_order_is_named(state):
    for path, number in ((state / JOURNAL_NAME, 1), (tamper.archives(state)[0], 3)):
        lines = tamper.lines_of(path)
        lines[number] = lines[number].replace(b'"at":', b'"at": ', 1)
        path.write_bytes(b"".join(lines))
    assert broken(state)[:2] == (f"shoes/{tamper.archives(state)[0].name}", 4)


def test_two_swapped_archives_are_named_by_the_shoe_they_hold(state):
    first, second = tamper.archives(state)[1:3]
    first.rename(state / "x")
    second.rename(first)
    (state / "x").rename(second)
    number, shoe = next(
        (number, row["data"]["shoe"])
        for number, row in enumerate(tamper.records(second), start=1)
        if row["kind"] == "event" and "shoe" in row["data"]
    )
    lines = tamper.lines_of(second)
    lines[-3] = lines[-3].replace(b'"at":', b'"at": ', 1)  # a broken link after its name's line
    second.write_bytes(b"".join(lines))
    assert broken(state) == (  # the one named for the later shoe holds the earlier: first on
        f"shoes/{second.name}",
        number,
        f"holds shoe {shoe!r} but its name says another (renamed, or swapped with another "
        "archive?)",
    )


def test_a_file_off_the_chain_is_named_before_a_broken_link_on_it(state):
    first = tamper.archives(state)[0]
    lines = tamper.lines_of(first)
    row = json.loads(lines[0])
    row["mono"] += 1
    lines[0] = canonical_json(row) + b"\n"
    first.write_bytes(b"".join(lines))
    assert broken(state)[:2] == (f"shoes/{first.name}", 1)
    source, copy = tamper.copy_archive(state)
    assert broken(state)[:2] in ((f"shoes/{source.name}", 1), (f"shoes/{copy.name}", 1))


def test_unreadable_cut_and_overlong_archives_are_named(state):
    folder = state / ARCHIVE_DIR
    (folder / "20000101-000000-dir.jsonl").mkdir()
    assert broken(state) == (
        "shoes/20000101-000000-dir.jsonl",
        1,
        "unreadable (a directory where a journal file should be)",
    )
    (folder / "20000101-000000-dir.jsonl").rmdir()
    target = tamper.archives(state)[0]
    count = len(tamper.lines_of(target))
    target.write_bytes(target.read_bytes()[:-20])
    assert broken(state) == (f"shoes/{target.name}", count, "an incomplete line: the file was cut")
    target.write_bytes(b"x" * (1024 * 1024 + 10))
    assert broken(state) == (
        f"shoes/{target.name}",
        1,
        "longer than any journal line: the rest is not read",
    )


def test_a_torn_last_line_of_the_live_journal_is_noted_not_broken(state):
    with open(state / JOURNAL_NAME, "ab") as handle:
        handle.write(b'{"at":1,"kind":"coup"')
    report = verify(state)
    assert report.ok and report.notes == (
        "journal.jsonl: a torn last line of 21 bytes (a power cut mid-write; "
        "the display cuts it and records a gap)",
    )


# -- the tip kept off the box ----------------------------------------------------------


def test_a_kept_tip_on_the_chain_passes_and_says_where(state):
    count = len(tamper.lines_of(state / JOURNAL_NAME))
    report = verify(state, expect_tip=tamper.tip_of(state))
    assert report.ok
    assert report.notes == (
        f"the tip kept off the box is {JOURNAL_NAME} line {count} (0 lines after it in that file)",
    )
    older = tamper.archives(state)[1]
    report = verify(state, expect_tip=tamper.sha(tamper.lines_of(older)[3]))
    assert report.ok
    assert report.notes == (
        f"the tip kept off the box is shoes/{older.name} line 4 "
        f"({len(tamper.lines_of(older)) - 4} lines after it in that file)",
    )


@pytest.mark.parametrize("cut", [True, False])
def test_a_kept_tip_cut_off_or_rewritten_breaks_the_chain(state, cut):
    kept = tamper.tip_of(state)
    tamper.cut_or_rewrite_tail(state, cut=cut)
    assert verify(state).ok
    count = len(tamper.lines_of(state / JOURNAL_NAME))
    assert broken(state, expect_tip=kept) == (
        JOURNAL_NAME,
        count + 1,
        f"the tip kept off the box ({kept[:16]}...) is not on the chain: lines were cut "
        "from its end, or it was rewritten from there",
    )


def test_a_kept_tip_with_no_chain_left_breaks_at_the_journal(tmp_path):
    (tmp_path / ARCHIVE_DIR).mkdir()
    found = verify(tmp_path, expect_tip="a" * 64).broken
    assert found == BrokenLink(tmp_path / JOURNAL_NAME, 1, found.why)


def test_a_kept_tip_the_chain_pruned_or_lost_is_said_so(tmp_path):
    journal, table = started(tmp_path, keep_shoes=1)
    feed(journal, table, shoe("S0", 2))
    kept = tamper.tip_of(tmp_path)
    feed(journal, table, shoe("S1", 2) + shoe("S2", 2) + shoe("S3", 1))  # S0 pruned
    lost = tamper.tip_of(tmp_path)
    (tmp_path / JOURNAL_NAME).unlink()
    feed(journal, table, shoe("S3", 3)[2:])
    journal.close()
    report = verify(tmp_path, expect_tip=kept)
    assert report.ok, report.broken
    assert report.notes[-1].startswith("the tip kept off the box was the end of shoes/")
    assert report.notes[-1].endswith("-S0.jsonl, pruned (a pruned record names it)")
    report = verify(tmp_path, expect_tip=lost)
    assert report.ok, report.broken
    assert report.notes[-1] == (
        "the tip kept off the box was the end of journal.jsonl, lost (a gap says so)"
    )


# -- the old format --------------------------------------------------------------------

OLD = [
    {"at": 10, "kind": "event", "data": {"v": 1, "type": "new_shoe", "shoe": "OLD"}},
    {"at": 20, "kind": "coup", "data": {"v": 1, "shoe": "OLD", "game": 1, "result": "B"}},
]


def upgraded(state: Path, monkeypatch) -> None:
    """A state dir of an older release (an archive and a journal without ``prev``), then
    dealt on by this one: its lines at 100, 110, 120..."""
    (state / ARCHIVE_DIR).mkdir(parents=True)
    (state / ARCHIVE_DIR / "20200101-000000-OLD.jsonl").write_bytes(tamper.unchained(OLD))
    (state / JOURNAL_NAME).write_bytes(tamper.unchained(OLD).replace(b"OLD", b"OLD2"))
    clock = iter(range(100, 10_000, 10))
    monkeypatch.setattr(journal_records.time, "time", lambda: next(clock))
    journal, table = started(state)
    feed(journal, table, shoe("NEW", 2))
    journal.close()
    monkeypatch.undo()


def test_the_old_format_where_the_chain_began_is_legacy(tmp_path, monkeypatch):
    upgraded(tmp_path, monkeypatch)
    report = verify(tmp_path)
    assert report.ok and report.legacy == 4 and report.off == ()


def test_an_old_archive_alone_before_the_chain_is_legacy(tmp_path):
    (tmp_path / ARCHIVE_DIR).mkdir()
    (tmp_path / ARCHIVE_DIR / "20200101-000000-OLD.jsonl").write_bytes(tamper.unchained(OLD))
    journal, table = started(tmp_path)
    feed(journal, table, shoe("NEW", 2))
    journal.close()
    report = verify(tmp_path)
    assert report.ok and report.legacy == 2


@pytest.mark.parametrize(
    ("at", "ok"),
    [(5, True), (110, True), (115, False), (10**10, False), ("5", False), (True, False)],
    ids=["before", "as it began", "after", "much after", "no time", "a boolean time"],
)
def test_an_old_format_file_is_legacy_only_when_dated_before_the_chain(
    tmp_path, monkeypatch, at, ok
):
    upgraded(tmp_path, monkeypatch)
    began, then = tamper.records(tmp_path / JOURNAL_NAME)[:2]  # the chain's first lines
    assert (began["at"], then["at"]) == (110, 120)
    dropped = [{**OLD[0], "at": 1}, {**OLD[1], "at": at}]
    text = tamper.unchained(dropped).replace(b"OLD", b"OLD3")
    (tmp_path / ARCHIVE_DIR / "20190101-000000-OLD3.jsonl").write_bytes(text)
    report = verify(tmp_path)
    assert report.ok is ok, report.broken
    assert report.legacy == (6 if ok else 4)
    if not ok:
        assert report.broken.why.startswith("not on the chain: lines of the old format")


def test_a_gap_of_the_old_format_is_no_gap_on_the_chain(tmp_path, monkeypatch):
    upgraded(tmp_path, monkeypatch)
    first = sorted((tmp_path / ARCHIVE_DIR).glob("*.jsonl"))[-1]  # OLD2, chained on
    gap = {"at": 1, "kind": "gap", "data": {"why": "x", "from": 1, "to": 2}}
    first.write_bytes(tamper.unchained([gap]) + first.read_bytes())
    report = verify(tmp_path)
    assert report.ok and report.legacy == 5 and report.gaps == ()


def test_a_gap_on_the_chain_is_listed_where_it_is(tmp_path):
    journal, table = started(tmp_path)
    feed(journal, table, shoe("A", 2))
    os.unlink(tmp_path / JOURNAL_NAME)
    feed(journal, table, shoe("A", 4)[3:])
    journal.close()
    (gap,) = verify(tmp_path).gaps
    assert (gap.path, gap.line, gap.data["why"]) == (
        tmp_path / JOURNAL_NAME,
        1,
        "journal.jsonl was deleted",
    )
