"""The hash chain through every path that writes: appends, new shoes, restarts, rewrites,
a late completion, pruning, old-format journals, alerts.  Each ends in ``verify`` (or
``scoreboard audit`` as a process) saying the record is intact and what it holds."""

from __future__ import annotations

import hashlib
import json
import logging
import os
from pathlib import Path

from cli import scoreboard
from dealt import dealt_shoe

from scoreboard.game.cards import parse_cards
from scoreboard.game.rules import Game
from scoreboard.journal import ARCHIVE_DIR, JOURNAL_NAME, Journal
from scoreboard.journal.chain import verify
from scoreboard.journal.exports import mark_exported
from scoreboard.protocol import Burn, Correct, CoupReceived, NewShoe, Snapshot, Void, apply_event
from scoreboard.table.applied import Applied
from scoreboard.table.state import TableState

GAMES = list(dealt_shoe(5).games)
ZERO = "0" * 64


def feed(journal: Journal, table: TableState, events) -> None:
    for event in events:
        journal.keep(event, table, apply_event(table, event))


def shoe(name: str, count: int = 6) -> list:
    return [NewShoe(name), *(CoupReceived(name, game) for game in GAMES[:count])]


def started(state: Path, **options) -> tuple[Journal, TableState]:
    table = TableState()
    journal = Journal(state, **options)
    journal.replay(table)
    return journal, table


def chain_files(state: Path) -> list[Path]:
    return [*sorted((state / ARCHIVE_DIR).glob("*.jsonl")), state / JOURNAL_NAME]


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_bytes().splitlines()]


def intact(state: Path):
    report = verify(state)
    assert report.ok, report.broken
    return report


def test_every_line_names_the_hash_of_the_line_before_through_archives_and_restarts(tmp_path):
    journal, table = started(tmp_path)
    feed(journal, table, shoe("A") + shoe("B") + [Void("B", 2, "misdeal")])
    journal.close()
    journal, table = started(tmp_path)  # a restart goes on from the tip it finds
    feed(journal, table, [CoupReceived("B", GAMES[6]), *shoe("C", 2)])
    journal.close()
    previous = ZERO
    for path in chain_files(tmp_path):
        for line in path.read_bytes().splitlines():
            record = json.loads(line)
            assert record["prev"] == previous, (path.name, record)
            assert isinstance(record["mono"], float) and isinstance(record["at"], float)
            previous = hashlib.sha256(line).hexdigest()
    assert [p.name.rsplit("-", 1)[-1] for p in chain_files(tmp_path)] == [
        "A.jsonl", "B.jsonl", JOURNAL_NAME,
    ]  # fmt: skip
    assert intact(tmp_path).records == sum(len(records(p)) for p in chain_files(tmp_path))


def test_audit_lists_voids_corrections_and_refused_coups(tmp_path):
    journal, table = started(tmp_path)
    fixed = Game(2, GAMES[7].coup)
    feed(journal, table, shoe("A", 8))
    feed(journal, table, [Void("A", 4, "misdeal"), Correct("A", fixed, "dealer error")])
    feed(journal, table, [CoupReceived("A", Game(1, GAMES[9].coup))])  # contradicts game 1
    feed(journal, table, shoe("B", 2))
    journal.close()
    done = scoreboard("audit", str(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr
    text = done.stdout
    assert "shoe A, 7 games (1-8), 1 voided, 1 corrected, 1 refused, 0 alerts" in text
    assert "game 4 voided: misdeal" in text and "game 2 corrected: dealer error" in text
    assert "game 1: a refused coup" in text
    assert "shoe B, 2 games (1-2)" in text and "gaps: none" in text


def test_a_journal_deleted_under_the_display_is_a_gap_saying_what_was_lost(tmp_path):
    journal, table = started(tmp_path)
    feed(journal, table, shoe("A") + shoe("B", 4))
    (tmp_path / JOURNAL_NAME).unlink()
    feed(journal, table, [CoupReceived("B", GAMES[4])])
    journal.close()
    (gap,) = intact(tmp_path).gaps
    assert gap.line == 1 and gap.data["why"] == "journal.jsonl was deleted"
    assert gap.data["lost"]["lines"] == 7 and gap.data["dropped"] == 1


def test_a_journal_deleted_or_emptied_while_the_display_was_off_is_a_gap(tmp_path):
    for what in ("missing", "empty"):
        journal, table = started(tmp_path)
        feed(journal, table, shoe(f"A{what}") + shoe(f"B{what}", 2))
        journal.close()
        assert intact(tmp_path)
        if what == "missing":
            (tmp_path / JOURNAL_NAME).unlink()
        else:
            (tmp_path / JOURNAL_NAME).write_bytes(b"")
        assert not verify(tmp_path).ok  # audit says so while the display is off...
        journal, table = started(tmp_path)
        feed(journal, table, shoe(f"C{what}", 1))
        journal.close()
        gap = intact(tmp_path).gaps[-1]  # ... and the display's next start writes it down
        assert gap.data["why"] == f"journal.jsonl was {what} at start; the board started empty"


def test_a_journal_replaced_under_the_display_is_set_aside_and_the_gap_says_so(tmp_path):
    journal, table = started(tmp_path)
    feed(journal, table, shoe("A", 3))
    old = (tmp_path / JOURNAL_NAME).read_bytes()
    feed(journal, table, [CoupReceived("A", g) for g in GAMES[3:5]])
    (tmp_path / "copy").write_bytes(old)
    os.replace(tmp_path / "copy", tmp_path / JOURNAL_NAME)
    feed(journal, table, [CoupReceived("A", GAMES[5])])
    journal.close()
    report = intact(tmp_path)
    (gap,) = report.gaps
    assert (
        "replaced or changed; what was there is set aside as journal.jsonl.aside-"
        in (gap.data["why"])
    )
    assert any("set aside by the display" in note for note in report.notes)


def test_a_torn_line_cut_at_start_is_recorded_as_a_gap(tmp_path):
    journal, table = started(tmp_path)
    feed(journal, table, shoe("A", 3))
    journal.close()
    torn = b'{"at":1,"kind":"coup","data":{"v":1,"shoe":"'
    with open(tmp_path / JOURNAL_NAME, "ab") as handle:
        handle.write(torn)
    journal, table = started(tmp_path)
    journal.close()
    (gap,) = intact(tmp_path).gaps
    assert gap.data["why"].startswith(f"a torn last line of {len(torn)} bytes was cut")


def test_a_journal_of_the_old_format_is_unchained_legacy_and_the_chain_starts_after_it(tmp_path):
    old = [
        {"at": 1, "kind": "event", "data": {"v": 1, "type": "new_shoe", "shoe": "OLD"}},
        {"at": 2, "kind": "coup", "data": {"v": 1, "shoe": "OLD", "game": 1, "result": "B"}},
    ]
    (tmp_path / ARCHIVE_DIR).mkdir()
    text = "".join(json.dumps(r, separators=(",", ":"), sort_keys=True) + "\n" for r in old)
    (tmp_path / ARCHIVE_DIR / "20200101-000000-OLD.jsonl").write_text(text)
    (tmp_path / JOURNAL_NAME).write_text(text.replace("OLD", "OLD2"))
    journal, table = started(tmp_path)
    assert table.shoe_id == "OLD2"
    feed(journal, table, [CoupReceived("OLD2", GAMES[1]), *shoe("NEW", 2)])
    journal.close()
    report = intact(tmp_path)
    assert report.legacy == 4
    done = scoreboard("audit", str(tmp_path))
    assert done.returncode == 0 and "4 unchained lines of the old format" in done.stdout
    # ... and an old-format line after the chain began is no upgrade: it was inserted
    path = tmp_path / JOURNAL_NAME
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join([*lines[:2], text.splitlines(keepends=True)[0].encode(), *lines[2:]]))
    assert verify(tmp_path).broken.line == 3


def late(shoe: str) -> Applied:
    """What apply_event says of a snapshot that completed the finished shoe ``shoe``."""
    return Applied(completed=shoe)


def test_a_late_completion_is_a_confirmed_branch_of_its_archive(tmp_path):
    journal, table = started(tmp_path)
    feed(journal, table, shoe("S1", 4) + shoe("S2", 1))
    journal.keep(Snapshot("S1", tuple(GAMES[:6])), table, late("S1"))
    feed(journal, table, [CoupReceived("S2", GAMES[1])])
    journal.close()
    report = intact(tmp_path)
    (archived,) = sorted((tmp_path / ARCHIVE_DIR).glob("*.jsonl"))
    assert records(archived)[-1]["kind"] == "snapshot"
    confirm = [r for r in records(tmp_path / JOURNAL_NAME) if r["kind"] == "completed"]
    assert confirm[0]["data"]["file"] == f"shoes/{archived.name}"
    assert confirm[0]["data"]["line"] == len(records(archived))
    assert sum(held.branch for held in report.held) == 1
    lines = archived.read_bytes().splitlines(keepends=True)
    archived.write_bytes(b"".join(lines[:-1]) + lines[-1].replace(b'"game":1', b'"game":9'))
    found = verify(tmp_path).broken
    assert (found.path, found.line) == (archived, len(lines))
    number = 1 + [r["kind"] for r in records(tmp_path / JOURNAL_NAME)].index("completed")
    assert (
        found.why == f"changed: the completed record at journal.jsonl:{number} names another hash"
    )


def test_a_deleted_journal_carries_on_what_its_pruned_and_completed_records_named(tmp_path):
    journal, table = started(tmp_path, keep_shoes=1)
    feed(journal, table, shoe("S1", 3) + shoe("S2", 2) + shoe("S3", 1))  # S1 pruned
    journal.keep(Snapshot("S2", tuple(GAMES[:4])), table, late("S2"))
    (tmp_path / JOURNAL_NAME).unlink()  # both records were in it
    feed(journal, table, [CoupReceived("S3", GAMES[1])])
    journal.close()
    (gap,) = intact(tmp_path).gaps
    assert [each["file"].rsplit("-", 1)[-1] for each in gap.data["lost"]["pruned"]] == ["S1.jsonl"]
    (completed,) = gap.data["lost"]["completed"]
    assert completed["file"].endswith("-S2.jsonl") and completed["line"] == 6  # after 5 lines


def test_pruned_shoes_are_named_on_the_chain_and_a_removal_without_is_not(tmp_path):
    journal, table = started(tmp_path, keep_shoes=2)
    for number in range(5):
        feed(journal, table, shoe(f"S{number}", 2))
    journal.close()
    pruned = [
        r["data"]["file"].rsplit("-", 1)[-1]
        for path in chain_files(tmp_path)
        for r in records(path)
        if r["kind"] == "pruned"
    ]
    assert pruned == ["S0.jsonl", "S1.jsonl"]
    intact(tmp_path)
    sorted((tmp_path / ARCHIVE_DIR).glob("*.jsonl"))[0].unlink()  # S2: nothing names it
    assert "removed without a pruned record" in verify(tmp_path).broken.why


def test_journals_without_games_replaced_by_the_next_shoe_are_named_too(tmp_path):
    journal, table = started(tmp_path)
    feed(journal, table, [*shoe("A", 2), NewShoe("B"), NewShoe("C"), *shoe("D", 1)])
    journal.close()
    kinds = [r["kind"] for r in records(tmp_path / JOURNAL_NAME)]
    assert kinds[0] == "pruned" and kinds[1:4] == ["limits", "history", "event"]
    assert intact(tmp_path).files[-1] == tmp_path / JOURNAL_NAME


def test_with_exports_required_an_unexported_shoe_is_never_pruned(tmp_path, caplog):
    journal, table = started(tmp_path, keep_shoes=1, require_export=True)
    feed(journal, table, shoe("S0", 2) + shoe("S1", 2))
    (first,) = sorted((tmp_path / ARCHIVE_DIR).glob("*.jsonl"))
    with caplog.at_level(logging.INFO, logger="scoreboard.journal"):
        feed(journal, table, shoe("S2", 2) + shoe("S3", 2))
    kept = sorted((tmp_path / ARCHIVE_DIR).glob("*.jsonl"))
    assert len(kept) == 3  # S0, S1 were never exported; S2 is the newest
    told = [r.getMessage() for r in caplog.records if "never exported" in r.getMessage()]
    assert told == [f"journal: keeping old shoe {first.name}: it was never exported",
                    f"journal: keeping old shoe {kept[1].name}: it was never exported"]  # fmt: skip
    for path in kept[:2]:
        mark_exported(path, "csv", "out.csv")
    feed(journal, table, shoe("S4", 2))
    journal.close()
    names = sorted(p.name.rsplit("-", 1)[-1] for p in (tmp_path / ARCHIVE_DIR).glob("*.jsonl"))
    assert names == ["S2.jsonl", "S3.jsonl"]  # S2 was never exported
    intact(tmp_path)


def test_each_integrity_alert_is_a_journal_line_and_audit_lists_it(tmp_path, caplog):
    journal, table = started(tmp_path)
    feed(journal, table, [NewShoe("A", decks=8), *(CoupReceived("A", g) for g in GAMES[:3])])
    feed(journal, table, [Burn(parse_cards(["AS"] * 9), shoe="A")])  # nine A♠ in 8 decks
    journal.close()
    (alert,) = table.alerts
    last = records(tmp_path / JOURNAL_NAME)[-2:]
    assert [r["kind"] for r in last] == ["event", "alert"]
    assert last[1]["data"] == {"shoe": "A", "game": alert.game, "kind": "overcount",
                               "detail": alert.detail}  # fmt: skip
    done = scoreboard("audit", str(tmp_path))
    assert f"shoe A game {alert.game}: overcount: {alert.detail}" in done.stdout
    assert "1 alerts" in done.stdout
    again = TableState()
    with caplog.at_level(logging.WARNING), Journal(tmp_path) as reopened:
        assert reopened.replay(again) == 5  # the alert line changes nothing on replay
    assert caplog.records == []  # ... nor is it a line replay could not read
    assert again.alerts == table.alerts  # the replayed events raise it again
