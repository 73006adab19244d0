"""journal/contents.py: what a verified chain holds, read back shoe by shoe from a real journal."""

from __future__ import annotations

import json
from pathlib import Path

from dealt import dealt_shoe

from scoreboard.game.cards import parse_cards
from scoreboard.journal import ARCHIVE_DIR, JOURNAL_NAME, Journal
from scoreboard.journal._links import Record, digest, seal
from scoreboard.journal.chain import verify
from scoreboard.journal.contents import shoes_held
from scoreboard.protocol import Burn, Correct, CoupReceived, NewShoe, Snapshot, Void, apply_event
from scoreboard.table.state import TableState

GAMES = list(dealt_shoe(5).games)


def written(state: Path, events) -> None:
    table, journal = TableState(), Journal(state)
    journal.replay(table)
    for event in events:
        journal.keep(event, table, apply_event(table, event))
    journal.close()


def times(path: Path) -> list[float]:
    return [json.loads(line)["at"] for line in path.read_bytes().splitlines()]


def test_each_shoe_spans_the_times_of_its_own_files_lines(tmp_path: Path) -> None:
    written(tmp_path, [NewShoe("A"), *(CoupReceived("A", g) for g in GAMES[:3]), NewShoe("B")])
    held = shoes_held(verify(tmp_path).held)
    archived = next((tmp_path / ARCHIVE_DIR).glob("*.jsonl"))
    assert [(h.shoe, h.games) for h in held] == [("A", 3), ("B", 0)]
    assert (held[0].first_at, held[0].last_at) == (min(times(archived)), max(times(archived)))
    live = times(tmp_path / JOURNAL_NAME)
    assert (held[1].first_at, held[1].last_at) == (min(live), max(live))


def test_changes_say_which_line_made_them_and_whether_a_snapshot_did(tmp_path: Path) -> None:
    fixed = (GAMES[0], GAMES[1].__class__(2, GAMES[5].coup))
    written(
        tmp_path,
        [
            NewShoe("A"),
            *(CoupReceived("A", g) for g in GAMES[:4]),
            Void("A", 4, "misdeal"),
            Correct("A", fixed[1], "misread"),
            Snapshot("A", (GAMES[0], fixed[1]), voided=(3, 4)),  # game 3 voided by the snapshot
            CoupReceived("A", GAMES[0].__class__(1, GAMES[6].coup)),  # contradicts game 1
        ],
    )
    (shoe,) = shoes_held(verify(tmp_path).held)
    assert [game for game, _ in shoe.refused] == [1] and shoe.refused[0][1] > shoe.changes[-1].line
    assert [(c.game, c.kind, c.reason, c.by_snapshot) for c in shoe.changes] == [
        (4, "void", "misdeal", False),
        (2, "correct", "misread", False),
        (3, "void", "", True),
    ]
    assert [c.line for c in shoe.changes] == sorted(c.line for c in shoe.changes)
    assert shoe.voided == (3, 4) and shoe.numbers == (1, 2, 3, 4)


def test_the_alerts_are_the_chains_alert_lines_and_nothing_else(tmp_path: Path) -> None:
    written(tmp_path, [NewShoe("A", decks=1), Burn(tuple(parse_cards(["AS", "AS"])), shoe="A")])
    (shoe,) = shoes_held(verify(tmp_path).held)
    assert [(a["kind"], a["game"]) for a in shoe.alerts] == [("overcount", 0)]


def test_a_chained_line_whose_data_is_not_an_object_is_passed_over(tmp_path: Path) -> None:
    """Audit replays what the chain holds; a line it cannot read changes nothing, and no crash."""
    written(tmp_path, [NewShoe("A"), *(CoupReceived("A", g) for g in GAMES[:2])])
    journal = tmp_path / JOURNAL_NAME
    tip = digest(journal.read_bytes().splitlines()[-1])
    lines, _ = seal([Record(1.0, 1.0, "coup", [1, 2]), Record(2.0, 2.0, "event", "x")], tip)
    with journal.open("ab") as handle:
        handle.write(lines)
    report = verify(tmp_path)
    (shoe,) = shoes_held(report.held)
    assert (shoe.shoe, shoe.games, shoe.changes, shoe.refused) == ("A", 2, (), ())


def test_a_late_coup_of_an_archived_shoe_does_not_reopen_it_in_the_next_file(
    tmp_path: Path,
) -> None:
    """The live file's ``history`` line is replayed too: shoe A is archived, so its stray coup
    (delayed on the network, kept after B began) is refused, as the display refused it."""
    written(tmp_path, [NewShoe("A"), *(CoupReceived("A", g) for g in GAMES[:3]), NewShoe("B")])
    journal = tmp_path / JOURNAL_NAME
    written(tmp_path, [CoupReceived("B", GAMES[0])])
    late = {"cards": {"banker": ["7C", "AS"], "player": ["KH", "TS"]}, "game": 4, "shoe": "A"}
    lines, _ = seal(
        [Record(9.0, 9.0, "coup", {**late, "v": 1})], digest(journal.read_bytes().splitlines()[-1])
    )
    with journal.open("ab") as handle:
        handle.write(lines)
    report = verify(tmp_path)
    assert report.ok
    assert [(h.shoe, h.numbers) for h in shoes_held(report.held)] == [("A", (1, 2, 3)), ("B", (1,))]
