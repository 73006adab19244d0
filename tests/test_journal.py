"""The journal: a power cut loses nothing the display showed."""

from __future__ import annotations

import json
import logging
import os

from dealt import dealt_shoe

from scoreboard.game.limits import Limits
from scoreboard.game.rules import Game
from scoreboard.journal import ARCHIVE_DIR, JOURNAL_NAME, Journal
from scoreboard.journal._links import digest
from scoreboard.journal.archive import chain_end
from scoreboard.protocol import (
    CoupReceived,
    LimitsReceived,
    NewShoe,
    Snapshot,
    Void,
    apply_event,
)
from scoreboard.table.state import TableState

SHOE, GAMES = dealt_shoe(5).shoe, list(dealt_shoe(5).games)
LIMITS = Limits("EUR", {"tie": (5, 500)}, {"tie": "8:1"})


def feed(journal: Journal, table: TableState, events) -> None:
    """What the MQTT feed does: apply, and journal what changed."""
    for event in events:
        journal.keep(event, table, apply_event(table, event))


def replayed(state_dir) -> TableState:
    table = TableState()
    journal = Journal(state_dir)
    journal.replay(table)
    journal.close()
    return table


def test_a_restart_replays_the_shoe_the_limits_and_the_voids(tmp_path):
    table = TableState()
    journal = Journal(tmp_path)
    journal.replay(table)
    feed(journal, table, [
        LimitsReceived(LIMITS), NewShoe(SHOE),
        *(CoupReceived(SHOE, g) for g in GAMES[:12]), Void(SHOE, 4, "misdeal"),
    ])  # fmt: skip
    journal.close()
    again = replayed(tmp_path)
    assert again.shoe_id == SHOE
    assert again.games == table.games and again.voided == (4,)
    assert again.limits == LIMITS
    assert again.roads.to_json() == table.roads.to_json()


def test_only_changes_are_journaled(tmp_path):
    table = TableState()
    journal = Journal(tmp_path)
    journal.replay(table)
    coups = [CoupReceived(SHOE, g) for g in GAMES[:3]]
    feed(journal, table, coups + coups + [Snapshot(SHOE, tuple(GAMES[:3]))])
    journal.close()
    lines = (tmp_path / JOURNAL_NAME).read_text().splitlines()
    assert len(lines) == 3
    assert json.loads(lines[0])["kind"] == "coup"


def test_a_torn_last_line_is_dropped_and_the_journal_goes_on(tmp_path, caplog):
    table = TableState()
    journal = Journal(tmp_path)
    journal.replay(table)
    feed(journal, table, [CoupReceived(SHOE, g) for g in GAMES[:5]])
    journal.close()
    path = tmp_path / JOURNAL_NAME
    with open(path, "ab") as handle:  # the power went out in the middle of game 6
        handle.write(b'{"at":1,"kind":"coup","data":{"v":1,"shoe":"')
    with caplog.at_level(logging.WARNING):
        table = TableState()
        journal = Journal(tmp_path)
        assert journal.replay(table) == 5
    assert "torn" in caplog.text
    assert path.read_bytes().endswith(b"\n")
    feed(journal, table, [CoupReceived(SHOE, GAMES[5])])
    journal.close()
    assert replayed(tmp_path).games == tuple(GAMES[:6])


def test_an_unreadable_line_in_the_middle_is_skipped(tmp_path, caplog):
    table = TableState()
    journal = Journal(tmp_path)
    journal.replay(table)
    feed(journal, table, [CoupReceived(SHOE, g) for g in GAMES[:2]])
    journal.close()
    path = tmp_path / JOURNAL_NAME
    lines = path.read_bytes().splitlines(keepends=True)
    conflict = json.dumps({"at": 1, "kind": "coup", "data": {"v": 1, "shoe": SHOE, "game": 1,
                                                              "result": "T"}})  # fmt: skip
    path.write_bytes(lines[0] + b"garbage\n" + conflict.encode() + b"\n" + lines[1])
    with caplog.at_level(logging.INFO):
        assert replayed(tmp_path).games == tuple(GAMES[:2])
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert any("line 2" in w for w in warnings)  # garbage: skipped
    # A conflicting coup (journaled because the live table remembered it) changes nothing.
    assert "line 3: a rejected coup, remembered" in caplog.text


def test_a_new_shoe_archives_the_finished_one_and_starts_with_the_limits(tmp_path):
    table = TableState()
    journal = Journal(tmp_path)
    journal.replay(table)
    feed(journal, table, [LimitsReceived(LIMITS), *(CoupReceived(SHOE, g) for g in GAMES)])
    feed(journal, table, [NewShoe("NEXT"), CoupReceived("NEXT", GAMES[0])])
    journal.close()
    archived = list((tmp_path / ARCHIVE_DIR).glob("*.jsonl"))
    assert len(archived) == 1 and SHOE in archived[0].name
    assert len(archived[0].read_text().splitlines()) == len(GAMES) + 1
    current = [json.loads(line) for line in (tmp_path / JOURNAL_NAME).read_text().splitlines()]
    assert [r["kind"] for r in current] == ["limits", "history", "event", "coup"]
    assert current[1]["data"] == {"shoe_number": 1, "archived": [SHOE]}
    again = replayed(tmp_path)
    assert (again.shoe_id, again.games, again.limits) == ("NEXT", (GAMES[0],), LIMITS)
    assert again.shoe_number == table.shoe_number == 2 and again.is_archived(SHOE)


def test_old_shoes_are_pruned(tmp_path):
    table = TableState()
    journal = Journal(tmp_path, keep_shoes=2)
    journal.replay(table)
    for number in range(5):
        feed(journal, table, [NewShoe(f"S{number}"), CoupReceived(f"S{number}", GAMES[0])])
    journal.close()
    kept = sorted((tmp_path / ARCHIVE_DIR).glob("*.jsonl"))
    assert len(kept) == 2
    assert ["S2" in kept[0].name, "S3" in kept[1].name] == [True, True]


def test_a_replayed_table_keeps_its_gap(tmp_path):
    table = TableState()
    journal = Journal(tmp_path)
    journal.replay(table)
    feed(journal, table, [CoupReceived(SHOE, GAMES[0]), CoupReceived(SHOE, Game(3, GAMES[2].coup))])
    journal.close()
    assert replayed(tmp_path).missing == (2,)


def test_limits_scheduled_for_later_survive_a_new_shoe_and_a_rewrite(tmp_path):
    later = Limits("USD", {"tie": (10, 1000)}, {"tie": "8:1"})
    at = 4_102_444_800.0  # 2100-01-01: still ahead when the test runs
    table = TableState()
    journal = Journal(tmp_path)
    journal.replay(table)
    feed(journal, table, [LimitsReceived(LIMITS), LimitsReceived(later, effective_at=at)])
    feed(journal, table, [NewShoe(SHOE), CoupReceived(SHOE, GAMES[0]), NewShoe("NEXT")])
    assert replayed(tmp_path).scheduled == table.scheduled is not None  # the new shoe's journal
    (tmp_path / JOURNAL_NAME).unlink()
    feed(journal, table, [CoupReceived("NEXT", GAMES[0])])  # rewritten from the table
    journal.close()
    again = replayed(tmp_path)
    assert (again.limits, again.scheduled) == (LIMITS, table.scheduled)
    again.switch_limits(at)
    assert again.limits == later


def test_with_no_live_journal_the_next_line_chains_to_the_archive_no_other_continues(tmp_path):
    """A late snapshot appended to shoe A after B began makes A's file the newest by age;
    the end that counts is still B's, the one no other archive starts from."""
    table, journal = TableState(), Journal(tmp_path)
    feed(journal, table, [NewShoe("A"), CoupReceived("A", GAMES[0]), NewShoe("B")])
    feed(journal, table, [CoupReceived("B", GAMES[1]), NewShoe("C")])
    journal.close()
    (tmp_path / JOURNAL_NAME).unlink()
    a, b = sorted((tmp_path / ARCHIVE_DIR).glob("*.jsonl"), key=lambda p: "-B" in p.name)
    os.utime(a, (b.stat().st_mtime + 60,) * 2)
    assert chain_end(tmp_path) == digest(b.read_bytes().splitlines()[-1])
