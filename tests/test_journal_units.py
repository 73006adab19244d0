"""The journal's small parts at their edges: disk-fault backoff, what waits, export markers."""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path

import pytest

from scoreboard.game.events import CutCard, NewShoe, Origin, Shuffle
from scoreboard.game.limits import Limits
from scoreboard.game.notation import result_games
from scoreboard.game.rules import Game
from scoreboard.game.variants import VARIANTS
from scoreboard.journal._links import Record
from scoreboard.journal._replay import apply_lines, read_back
from scoreboard.journal.exports import mark_exported, marker, was_exported
from scoreboard.journal.faults import RETRY_MAX_SECONDS, DiskFaults
from scoreboard.journal.pending import MAX_PENDING, Entry, Waiting
from scoreboard.journal.records import alert_records, line, state_records, unfinished_records
from scoreboard.table.health import JournalState
from scoreboard.table.integrity import AlertKind, IntegrityAlert
from scoreboard.table.state import TableState, apply_event
from scoreboard.table.unfinished import UnfinishedShoe

FULL = OSError(28, "No space left on device")
READ_ONLY = OSError(30, "Read-only file system")


def faults_at(now: list[float]) -> DiskFaults:
    return DiskFaults(Path("journal.jsonl"), clock=lambda: now[0])


def test_a_healthy_disk_is_ok_and_due() -> None:
    faults = faults_at([0.0])
    assert (faults.failing, faults.health.state, faults.health.reason) == (
        False,
        JournalState.OK,
        "",
    )
    assert faults.retry_due() is True


def test_retries_wait_1_then_2_then_4_seconds_up_to_a_minute() -> None:
    now = [10.0]
    faults = faults_at(now)
    waits = []
    for _ in range(9):
        faults.failed(FULL)
        start = now[0]
        assert faults.retry_due() is False
        while not faults.retry_due():
            now[0] += 0.5
        waits.append(now[0] - start)
    assert waits == [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, RETRY_MAX_SECONDS, 60.0, 60.0]
    assert (faults.failing, faults.health.state) == (True, JournalState.FAILING)


def test_what_was_lost_comes_first_in_the_reason() -> None:
    faults = faults_at([0.0])
    faults.failed(FULL, lost="shoes/S1.jsonl")
    assert faults.health.reason == "shoes/S1.jsonl; No space left on device"


def test_a_new_reason_is_logged_once_and_recovery_clears_it(caplog) -> None:
    caplog.set_level(logging.INFO, logger="scoreboard.journal")
    faults = faults_at([0.0])
    faults.failed(FULL)
    faults.failed(FULL)
    assert [r.levelno for r in caplog.records] == [logging.ERROR]
    faults.failed(READ_ONLY)
    assert [r.levelno for r in caplog.records] == [logging.ERROR, logging.WARNING]
    faults.recovered()
    assert faults.failing is False and faults.health.state is JournalState.OK
    assert caplog.records[-1].levelno == logging.INFO
    faults.recovered()
    assert len(caplog.records) == 3


def entry(lines: int = 1, **flags: bool) -> Entry:
    return Entry("S1", tuple(Record(0.0, 0.0, "coup", {}) for _ in range(lines)), **flags)


def test_an_entry_is_plain_unless_it_starts_or_archives_a_shoe() -> None:
    plain = Entry("S1", ())
    assert (plain.fresh, plain.archive, plain.games, plain.kept) == (False,) * 4
    assert plain.plain and not entry(fresh=True).plain and not entry(archive=True).plain


def test_the_waiting_line_overflows_past_max_pending_entries() -> None:
    waiting = Waiting(entry(0) for _ in range(MAX_PENDING))
    assert MAX_PENDING == 10_000 and waiting.overflowing is False
    waiting.append(entry(0))
    assert waiting.overflowing is True


def test_dropping_events_keeps_archives_and_chain_records_and_counts_the_lines() -> None:
    kept, archived = entry(2, kept=True), entry(3, archive=True)
    waiting = Waiting([entry(4), kept, entry(1, fresh=True), archived, entry(5)])
    assert waiting.held() == 15
    assert waiting.drop_events() == 10
    assert list(waiting) == [kept, archived] and waiting.held() == 5


def test_an_export_marker_says_when_how_and_where(tmp_path: Path) -> None:
    shoe = tmp_path / "20261201-120000-S1.jsonl"
    shoe.write_bytes(b"")
    mark_exported(shoe, "csv", "out.csv", at=1.23456)
    assert json.loads(marker(shoe).read_bytes()) == {"at": 1.235, "format": "csv", "to": "out.csv"}
    before = time.time()
    mark_exported(shoe, "json", "-")
    at = json.loads(marker(shoe).read_bytes())["at"]
    assert before - 0.001 <= at <= time.time() + 0.001 and was_exported(shoe)


def test_a_marker_is_a_file_beside_the_shoe_not_a_directory(tmp_path: Path) -> None:
    shoe = tmp_path / "S1.jsonl"
    marker(shoe).mkdir()
    assert marker(shoe) == tmp_path / "S1.jsonl.exported" and was_exported(shoe) is False


@pytest.mark.parametrize("lines", [0, 1, 7])
def test_held_counts_lines_not_entries(lines: int) -> None:
    assert Waiting([entry(lines), entry(lines)]).held() == 2 * lines


def test_a_clean_journal_is_read_back_whole_and_untouched(tmp_path: Path, caplog) -> None:
    path = tmp_path / "journal.jsonl"
    path.write_bytes(b'{"a": 1}\n{"b": 2}\n')
    found = read_back(path)
    assert found is not None and (found.lines, found.torn, found.cut_failed) == (
        b'{"a": 1}\n{"b": 2}\n',
        0,
        None,
    )
    assert found.identity[2] == path.stat().st_size and caplog.records == []


def test_a_torn_last_line_is_cut_off_the_file_and_said(tmp_path: Path, caplog) -> None:
    path = tmp_path / "journal.jsonl"
    path.write_bytes(b'{"a": 1}\n{"b": ')
    found = read_back(path)
    assert found is not None and (found.lines, found.torn) == (b'{"a": 1}\n', 6)
    assert path.read_bytes() == b'{"a": 1}\n' and found.identity[2] == 9
    assert "dropping a torn last line of 6 bytes" in caplog.text


def test_no_journal_is_none(tmp_path: Path) -> None:
    assert read_back(tmp_path / "journal.jsonl") is None


def replayed(*records: object, table: TableState | None = None) -> tuple[TableState, int]:
    table = TableState() if table is None else table
    raw = b"".join(json.dumps(r).encode() + b"\n" if r != "" else b"\n" for r in records)
    return table, apply_lines(table, raw, Path("journal.jsonl"))


def history(shoe_number: object, archived: object) -> dict:
    return {
        "at": 1.0,
        "kind": "history",
        "data": {"shoe_number": shoe_number, "archived": archived},
    }


def test_replay_counts_the_records_it_applied_not_blanks_gaps_or_bad_lines(caplog) -> None:
    new_shoe = {"at": 1.0, "kind": "event", "data": {"v": 1, "type": "new_shoe", "shoe": "S9"}}
    gap = {"at": 1.0, "kind": "gap", "data": {}}
    table, count = replayed(history(0, []), "", new_shoe, gap, {"kind": "coup", "data": {}})
    assert count == 2 and table.shoe_id == "S9" and table.shoe_number == 1
    assert "journal.jsonl line 5: skipped" in caplog.text


@pytest.mark.parametrize(
    ("shoe_number", "archived"),
    [(-1, []), (True, []), ("3", []), (3.0, []), (3, "S1"), (3, ["S1", 2])],
)
def test_a_malformed_history_record_is_skipped(shoe_number, archived, caplog) -> None:
    table, count = replayed(history(shoe_number, archived))
    assert count == 0 and table.shoe_number == 0 and "history record" in caplog.text


def test_a_history_record_gives_the_shoe_count_and_the_finished_shoes() -> None:
    table, count = replayed(history(4, ["S3", "S4"]))
    assert count == 1 and table.shoe_number == 4 and table.is_archived("S4")


@pytest.mark.parametrize(
    ("at", "switched"), [(2.0, True), (True, False), ("2", False), ("inf", False)]
)
def test_scheduled_limits_switch_at_a_lines_finite_time(at, switched) -> None:
    table = TableState()
    later = Limits.default_for(VARIANTS["commission"])
    table.set_limits(later, effective_at=0.5)  # True would read as 1.0
    stamp = float("inf") if at == "inf" else at
    replayed({"at": stamp, "kind": "gap", "data": {}}, table=table)
    assert (table.limits == later) is switched


# -- the record kinds: a state dir written by an earlier version must replay the same --


@pytest.mark.parametrize("kind", ["gap", "alert", "pruned", "completed"])
def test_the_informational_records_are_passed_over_quietly(kind: str, caplog) -> None:
    table, count = replayed({"at": 1.0, "kind": kind, "data": {"v": 1, "type": "new_shoe"}})
    assert count == 0 and table.shoe_id is None and caplog.records == []


def test_a_position_record_puts_the_stream_position_back() -> None:
    data = {"position": [3, 9], "games": [3, 7], "limits": None}
    table, count = replayed({"at": 1.0, "kind": "position", "data": data})
    assert count == 1 and (table.position, table.games_origin) == (Origin(3, 9), Origin(3, 7))
    assert table.limits_origin is None


@pytest.mark.parametrize("value", [[3], [3, 9, 1], [3, -1], [True, 9], "3,9", [3, 9.0]])
def test_a_malformed_position_is_skipped(value: object, caplog) -> None:
    data = {"position": value, "games": None, "limits": None}
    table, count = replayed({"at": 1.0, "kind": "position", "data": data})
    assert count == 0 and table.position is None and "position record" in caplog.text


def test_a_position_of_zero_is_a_position() -> None:
    data = {"position": [0, 0], "games": None, "limits": [0, 1]}
    table, _ = replayed({"at": 1.0, "kind": "position", "data": data})
    assert (table.position, table.limits_origin) == (Origin(0, 0), Origin(0, 1))


def test_an_unfinished_record_puts_the_missing_games_back_and_null_clears_them() -> None:
    data = {"shoe": "S1", "missing": [1, 3], "final": 3}
    table, count = replayed({"at": 1.0, "kind": "unfinished", "data": data})
    assert count == 1 and table.unfinished is not None
    assert (table.unfinished.shoe, table.unfinished.missing, table.unfinished.final) == (
        "S1",
        (1, 3),
        3,
    )
    replayed({"at": 2.0, "kind": "unfinished", "data": None}, table=table)
    assert table.unfinished is None


@pytest.mark.parametrize(
    "data",
    [
        {"shoe": 1, "missing": [1], "final": 3},
        {"shoe": "S1", "missing": [1], "final": True},
        {"shoe": "S1", "missing": [1], "final": "3"},
        {"shoe": "S1", "missing": "1", "final": 3},
        {"shoe": "S1", "missing": [0], "final": 3},
        {"shoe": "S1", "missing": [4], "final": 3},
        {"shoe": "S1", "missing": [True], "final": 3},
        {"shoe": "S1", "missing": ["1"], "final": 3},
    ],
)
def test_a_malformed_unfinished_record_is_skipped(data: dict, caplog) -> None:
    table, count = replayed({"at": 1.0, "kind": "unfinished", "data": data})
    assert count == 0 and table.unfinished is None and "unfinished record" in caplog.text


def test_a_line_keeps_its_times_to_the_millisecond() -> None:
    """Three decimals: the lines stay short; twenty lines all ending in 0 by chance is 1e-20."""
    kept = []
    for _ in range(20):
        kept.append(line("gap", {}))
        time.sleep(0.0003)  # a new fourth decimal each time
    assert all(round(r.at, 3) == r.at and round(r.mono, 3) == r.mono for r in kept)
    assert any(round(r.at, 2) != r.at or round(r.mono, 2) != r.mono for r in kept)


def test_an_alert_line_holds_what_audit_lists() -> None:
    alert = IntegrityAlert("S1", 4, AlertKind.OVERCOUNT, "A♠ seen 9 times in 8 decks")
    (record,) = alert_records([alert])
    assert (record.kind, record.data) == (
        "alert",
        {"shoe": "S1", "game": 4, "kind": "overcount", "detail": "A♠ seen 9 times in 8 decks"},
    )


def test_the_unfinished_record_written_is_the_one_replay_puts_back() -> None:
    table = TableState()
    assert unfinished_records(table) == []
    table.unfinished = UnfinishedShoe("S1", (), (), (2, 3), 3)
    ((kind, data),) = unfinished_records(table)
    restored, count = replayed({"at": 1.0, "kind": kind, "data": data})
    assert count == 1 and restored.unfinished == table.unfinished


def rewritten(table: TableState) -> list[dict]:
    return [{"at": 1.0, "kind": kind, "data": data} for kind, data in state_records(table)]


def test_the_records_a_rewritten_journal_holds_rebuild_the_table() -> None:
    table = TableState()
    for event in [NewShoe("A"), NewShoe("B"), CutCard(shoe="B")]:
        apply_event(table, event)
    for number, coup in enumerate(result_games("BPT"), start=1):
        table.add_game(Game(number, coup.coup))
    apply_event(table, Shuffle(shoe="B"))
    rebuilt, _ = replayed(*rewritten(table))
    assert (rebuilt.shoe_id, rebuilt.shoe_number, rebuilt.games) == ("B", 2, table.games)
    assert rebuilt.is_archived("A") and rebuilt.cut_card_out and rebuilt.shuffling
    apply_event(table, NewShoe("C"))  # a shoe with no games yet
    rebuilt, _ = replayed(*rewritten(table))
    assert (rebuilt.shoe_id, rebuilt.shoe_number, rebuilt.games) == ("C", 3, ())
    empty, _ = replayed(
        *({"at": 1.0, "kind": k, "data": d} for k, d in state_records(TableState()))
    )
    assert (empty.shoe_id, empty.shoe_number) == (None, 0)
