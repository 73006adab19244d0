"""journal/_tip.py: the writer's place in the chain and the gap and pruned records it owes."""

from __future__ import annotations

import time
from pathlib import Path

from dealt import dealt_shoe

from scoreboard.journal import JOURNAL_NAME, Journal
from scoreboard.journal._links import ZERO, Record, digest, parse, seal
from scoreboard.journal._tip import ChainTip
from scoreboard.protocol import CoupReceived, NewShoe, apply_event
from scoreboard.table.state import TableState

GAMES = list(dealt_shoe(5).games)


def lines_of(*records: Record, tip: str = ZERO) -> bytes:
    return seal(list(records), tip)[0]


def rec(kind: str, data: object, at: float = 5.0) -> Record:
    return Record(at, 1.0, kind, data)


def test_reasons_are_said_once_and_the_gap_begins_at_the_earliest() -> None:
    tip = ChainTip()
    tip.trouble("disk full", since=20.0)
    tip.trouble("disk full", since=10.0)
    tip.trouble("read-only", since=15.0)
    tip.trouble("read-only")
    before = time.time()
    (gap,) = tip.owed(held=4)
    assert gap.kind == "gap" and gap.data["why"] == "disk full; read-only"
    assert (gap.data["from"], gap.data["held"], gap.data["dropped"]) == (10.0, 4, 0)
    assert before - 0.001 <= gap.data["to"] <= time.time() + 0.001 and "lost" not in gap.data


def test_dropped_events_alone_owe_a_gap_that_says_so() -> None:
    tip = ChainTip()
    assert tip.owed() == []
    tip.dropped(3)
    tip.dropped(2)
    (gap,) = tip.owed()
    assert (gap.data["why"], gap.data["dropped"], gap.data["from"]) == (
        "events dropped from memory",
        5,
        None,
    )


def test_what_was_written_is_owed_no_more_and_moves_the_tip() -> None:
    tip = ChainTip()
    tip.trouble("disk full", since=1.0)
    data, count, last = tip.sealed([rec("coup", {})], held=1)
    assert count == 2 and last == digest(data.splitlines()[-1])
    assert [parse(n, raw).kind for n, raw in enumerate(data.splitlines(), 1)] == ["gap", "coup"]
    tip.wrote(count, last, [rec("coup", {})])
    assert (tip.tip, tip.lines, tip.owed()) == (last, 2, [])
    assert tip.last_at is not None and abs(tip.last_at - time.time()) < 60
    tip.wrote(1, "f" * 64, [])
    assert tip.lines == 3


def test_lost_lines_are_named_with_where_the_chain_was_before_them() -> None:
    tip = ChainTip(tip="a" * 64, anchor="b" * 64, lines=7, last_at=3.0)
    tip.lose("journal.jsonl was deleted")
    (gap,) = tip.owed()
    assert gap.data["lost"] == {"file": "journal.jsonl", "lines": 7, "last": "a" * 64}
    assert (gap.data["after"], gap.data["from"], gap.data["why"]) == (
        "b" * 64,
        3.0,
        "journal.jsonl was deleted",
    )
    assert tip.lines == 0


def test_a_file_with_none_of_our_lines_is_lost_silently_unless_asked() -> None:
    tip = ChainTip()
    tip.lose("replaced")
    assert tip.owed() == []
    tip.lose("replaced", always=True)
    (gap,) = tip.owed()
    assert gap.data["why"] == "replaced" and "lost" not in gap.data


def test_a_replaced_journal_without_games_is_pruned_with_its_carried_records() -> None:
    tip = ChainTip(tip="a" * 64, anchor="b" * 64, lines=3, shoe="S1")
    tip.carry("completed", {"file": "shoes/x.jsonl", "line": 9, "hash": "c", "extra": 1})
    tip.replace("no games")
    (pruned,) = tip.owed()
    assert pruned.kind == "pruned" and pruned.data == {
        "file": "journal.jsonl",
        "lines": 3,
        "last": "a" * 64,
        "completed": [{"file": "shoes/x.jsonl", "line": 9, "hash": "c"}],
        "shoe": "S1",
        "tip": "a" * 64,
        "why": "no games",
        "after": "b" * 64,
    }
    empty = ChainTip()
    empty.replace("no games")
    assert empty.owed() == []


def test_carried_records_nest_and_keep_only_their_keys() -> None:
    tip = ChainTip()
    inner = {"file": "old.jsonl", "tip": "t", "junk": 1}
    tip.carry("pruned", {"file": "j.jsonl", "tip": "u", "pruned": [inner, "not a dict"]})
    assert tip.carried == {
        "pruned": [{"file": "j.jsonl", "tip": "u"}, {"file": "old.jsonl", "tip": "t"}]
    }


def test_writing_a_pruned_or_completed_record_carries_it() -> None:
    tip = ChainTip()
    done = rec("completed", {"file": "shoes/a.jsonl", "line": 2, "hash": "h"})
    tip.wrote(1, "f" * 64, [done, rec("coup", {"file": "no"}), rec("pruned", "not a dict")])
    assert tip.carried == {"completed": [{"file": "shoes/a.jsonl", "line": 2, "hash": "h"}]}
    tip.archived()
    assert (tip.anchor, tip.lines, tip.carried) == ("f" * 64, 0, {})


def test_reading_a_journal_takes_its_tip_count_anchor_time_and_carried(tmp_path: Path) -> None:
    after = rec("gap", {"after": "e" * 64, "why": "x"}, at=2.0)
    pruned = rec("pruned", {"file": "j", "tip": "t"}, at=3.0)
    raw = lines_of(after, pruned, rec("coup", {}, at=4.5))
    tip = ChainTip()
    tip.read(raw, tmp_path)
    assert (tip.tip, tip.lines, tip.anchor) == (digest(raw.splitlines()[-1]), 3, "e" * 64)
    assert tip.last_at == 4.5 and tip.carried == {"pruned": [{"file": "j", "tip": "t"}]}
    tip.read(lines_of(rec("coup", {}, at=True)) + b"torn", tmp_path)
    assert tip.lines == 1 and tip.carried == {}


def test_an_empty_journal_chains_from_the_archives_end(tmp_path: Path) -> None:
    tip = ChainTip(lines=5)
    tip.read(b"", tmp_path)
    assert (tip.tip, tip.anchor, tip.lines) == (ZERO, ZERO, 0)


def test_start_says_what_it_found_wrong(tmp_path: Path) -> None:
    tip = ChainTip()
    tip.start(None, tmp_path)
    assert tip.owed() == []  # a first start: nothing before it
    tip.start(None, tmp_path, unreadable="Permission denied")
    (gap,) = tip.owed()
    assert gap.data["why"] == "journal.jsonl was unreadable (Permission denied)"
    torn = ChainTip()
    torn.start(lines_of(rec("coup", {}, at=7.0)), tmp_path, torn=12)
    (gap,) = torn.owed()
    assert gap.data["why"] == "a torn last line of 12 bytes was cut (a power cut mid-write?)"
    assert gap.data["from"] == 7.0


def test_archives_without_a_journal_after_them_are_a_gap_at_start(tmp_path: Path) -> None:
    table, journal = TableState(), Journal(tmp_path)
    journal.replay(table)
    for event in [NewShoe("A"), CoupReceived("A", GAMES[0]), NewShoe("B")]:
        journal.keep(event, table, apply_event(table, event))
    journal.close()
    (tmp_path / JOURNAL_NAME).unlink()
    tip = ChainTip()
    tip.start(None, tmp_path)
    assert tip.tip != ZERO and tip.anchor == tip.tip
    (gap,) = tip.owed()
    assert gap.data["why"] == "journal.jsonl was missing at start; the board started empty"


def test_the_last_write_is_timed_to_the_millisecond() -> None:
    """As the lines' own times; twenty writes all ending in 0 by chance is 1e-20."""
    tip, stamps = ChainTip(), []
    for _ in range(20):
        tip.wrote(1, "f" * 64, [])
        stamps.append(tip.last_at)
        time.sleep(0.0003)  # a new fourth decimal each time
    assert all(stamp is not None and round(stamp, 3) == stamp for stamp in stamps)


def test_a_gap_ends_at_the_millisecond_it_is_written() -> None:
    tip, ends = ChainTip(), []
    tip.trouble("disk full")
    for _ in range(20):
        ends.append(tip.owed()[0].data["to"])
        time.sleep(0.0003)  # a new fourth decimal each time
    assert all(round(end, 3) == end for end in ends)


def test_a_gap_never_ends_before_it_begins() -> None:
    """The write that failed was timed to the microsecond, the gap's end to the millisecond:
    within one millisecond (or after the clock stepped back) the end must not fall before
    the start; both are said to the millisecond, as the lines' own times."""
    for since in (time.time(), time.time() + 0.0009, time.time() + 30.0):
        tip = ChainTip()
        tip.trouble("disk full", since=since)
        (gap,) = tip.owed()
        assert gap.data["from"] <= gap.data["to"], (since, gap.data)
        assert round(gap.data["from"], 3) == gap.data["from"]
