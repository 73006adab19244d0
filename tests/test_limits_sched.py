"""Scheduled limits: announced ahead of time, switched to at that time (effective_at)."""

from __future__ import annotations

import json
import math
import time
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from scoreboard.game.events import CoupReceived, LimitsReceived, NewShoe, Origin
from scoreboard.game.limits import Limits, ScheduledLimits, limits_from_spec
from scoreboard.game.rules import Game, Winner, result_coup
from scoreboard.game.variants import VARIANTS
from scoreboard.journal import Journal
from scoreboard.protocol import (
    SchemaError,
    Topics,
    canonical_json,
    encode,
    parse_dict,
    parse_message,
    wire,
)
from scoreboard.protocol.contract import MAX_TIME
from scoreboard.table.state import TableState, apply_event

DAY = limits_from_spec("25-10000", VARIANTS["commission"])
NIGHT = limits_from_spec("50-20000", VARIANTS["commission"])
TEN_PM = 1_796_162_400.0  # 2026-12-01T22:00:00Z
#: For a restart, which replays the journal at the wall clock: a schedule still ahead of it.
LATER = float((int(time.time()) // 3600 + 24 * 30) * 3600)  # a whole hour, 30 days from now
TOPICS = Topics("test/v2/T1")


def table_showing(limits: Limits = DAY) -> TableState:
    table = TableState()
    apply_event(table, LimitsReceived(limits))
    return table


def test_a_limits_change_at_a_set_time() -> None:
    table = table_showing(DAY)
    table.switch_limits(TEN_PM - 3600)  # the kiosk's clock: 21:00
    version = table.version
    applied = apply_event(table, LimitsReceived(NIGHT, effective_at=TEN_PM))
    assert applied.changed and table.version > version  # the notice is news for the board
    assert table.limits == DAY and table.scheduled == ScheduledLimits(TEN_PM, NIGHT)
    assert table.switch_limits(TEN_PM - 0.001).changed is False and table.limits == DAY
    switched = table.switch_limits(TEN_PM)
    assert switched.changed and table.limits == NIGHT and table.scheduled is None
    assert table.switch_limits(TEN_PM + 60).changed is False


def test_limits_whose_time_is_past_apply_at_once() -> None:
    table = table_showing(DAY)
    table.switch_limits(TEN_PM + 60)
    apply_event(table, LimitsReceived(NIGHT, effective_at=TEN_PM))
    assert table.limits == NIGHT and table.scheduled is None


def test_before_the_kiosk_said_the_time_a_past_schedule_waits_for_its_first_step() -> None:
    table = table_showing(DAY)  # a journal replay at start: no wall clock yet
    apply_event(table, LimitsReceived(NIGHT, effective_at=0.0))
    assert table.scheduled == ScheduledLimits(0.0, NIGHT)
    assert table.switch_limits(TEN_PM).changed and table.limits == NIGHT


def test_a_later_scheduled_message_replaces_the_earlier_schedule() -> None:
    table = table_showing(DAY)
    table.switch_limits(TEN_PM - 7200)
    apply_event(table, LimitsReceived(NIGHT, effective_at=TEN_PM))
    later = limits_from_spec("100-50000", VARIANTS["commission"])
    apply_event(table, LimitsReceived(later, effective_at=TEN_PM + 3600))
    assert table.scheduled == ScheduledLimits(TEN_PM + 3600, later)
    assert table.switch_limits(TEN_PM).changed is False and table.limits == DAY


def test_an_immediate_message_keeps_the_schedule_unless_it_cancels_it() -> None:
    table = table_showing(DAY)
    table.switch_limits(TEN_PM - 7200)
    apply_event(table, LimitsReceived(NIGHT, effective_at=TEN_PM))
    now = limits_from_spec("10-5000", VARIANTS["commission"])
    apply_event(table, LimitsReceived(now))
    assert table.limits == now and table.scheduled == ScheduledLimits(TEN_PM, NIGHT)
    applied = apply_event(table, LimitsReceived(now, cancel_scheduled=True))
    assert applied.changed and table.scheduled is None and table.limits == now


def test_the_same_schedule_again_changes_nothing() -> None:
    table = table_showing(DAY)
    apply_event(table, LimitsReceived(NIGHT, effective_at=TEN_PM))
    assert apply_event(table, LimitsReceived(NIGHT, effective_at=TEN_PM)).changed is False


@pytest.mark.parametrize("at", [math.nan, math.inf, -math.inf])
def test_a_time_that_is_not_a_number_changes_nothing(at: float) -> None:
    table = table_showing(DAY)
    assert apply_event(table, LimitsReceived(NIGHT, effective_at=at)).changed is False
    assert table.limits == DAY and table.scheduled is None


def test_scheduled_limits_are_ordered_among_limits_in_v2() -> None:
    table = TableState()
    apply_event(table, LimitsReceived(NIGHT, origin=Origin(5, 9), effective_at=TEN_PM))
    assert apply_event(table, LimitsReceived(DAY, origin=Origin(5, 8))).stale
    assert table.limits_origin == Origin(5, 9) and table.scheduled is not None


def test_a_new_shoe_keeps_the_schedule() -> None:
    table = table_showing(DAY)
    apply_event(table, LimitsReceived(NIGHT, effective_at=TEN_PM))
    apply_event(table, NewShoe("S2"))
    assert table.scheduled == ScheduledLimits(TEN_PM, NIGHT)


def test_a_restart_still_knows_the_schedule(tmp_path: Path) -> None:
    live = TableState()
    with Journal(tmp_path) as journal:
        journal.replay(live)
        for event in (
            NewShoe("S1"),
            LimitsReceived(DAY),
            LimitsReceived(NIGHT, effective_at=LATER),
        ):
            journal.keep(event, live, apply_event(live, event))
    again = TableState()
    with Journal(tmp_path) as journal:
        journal.replay(again)
    assert again.limits == DAY and again.scheduled == ScheduledLimits(LATER, NIGHT)
    assert again.switch_limits(LATER).changed and again.limits == NIGHT


# -- on the wire -------------------------------------------------------------------------------
def limits_payload(**fields) -> dict:
    _kind, data = encode(LimitsReceived(DAY, origin=Origin(7, 3)))
    return {**data, **fields}


def test_effective_at_is_iso_8601_utc_and_round_trips() -> None:
    event = parse_dict("limits", limits_payload(effective_at="2026-12-01T22:00:00Z"), "here")
    assert event.effective_at == TEN_PM and event.limits == DAY
    assert encode(event)[1]["effective_at"] == "2026-12-01T22:00:00Z"
    topic, payload = wire(TOPICS, event)
    assert parse_message(TOPICS, topic, payload) == event


@given(st.integers(0, MAX_TIME), st.integers(0, 999_999))
def test_any_time_with_microseconds_round_trips(seconds: int, micros: int) -> None:
    at = seconds + micros / 1e6
    if at > MAX_TIME:
        return
    event = LimitsReceived(DAY, origin=Origin(7, 3), effective_at=at)
    again = parse_dict("limits", encode(event)[1], "here")
    assert again.effective_at is not None and abs(again.effective_at - at) < 1e-6
    assert encode(again) == encode(event)


def test_without_effective_at_the_payload_is_as_before() -> None:
    data = encode(LimitsReceived(DAY, origin=Origin(7, 3)))[1]
    assert "effective_at" not in data and "cancel_scheduled" not in data
    assert parse_dict("limits", data, "here") == LimitsReceived(DAY, origin=Origin(7, 3))


def test_1970_is_a_time_long_past() -> None:
    event = parse_dict("limits", limits_payload(effective_at="1970-01-01T00:00:00Z"), "here")
    assert event.effective_at == 0.0


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("2026-12-01T22:00:00+00:00", "expected an ISO 8601 UTC time"),
        ("2026-12-01 22:00:00Z", "expected an ISO 8601 UTC time"),
        ("2026-02-30T22:00:00Z", "day is out of range"),
        ("9999-12-31T23:59:59Z", "expected 1970 to 9999-12-30"),
        ("1969-12-31T23:59:59Z", "expected 1970 to 9999-12-30"),
        ("2026-12-01T22:00:00Z\x00", "U\\+0000 at position 20 is a control character"),
        ("2026-12-01T22:00:00.1234567Z", "expected an ISO 8601 UTC time"),
        ("x" * 65, "longer than 64 characters"),
        (1796162400, "expected str"),
        (True, "expected str"),
    ],
)
def test_a_bad_effective_at_is_rejected_naming_the_key(value, why: str) -> None:
    payload = json.dumps(limits_payload(effective_at=value)).encode()
    with pytest.raises(SchemaError, match=f"key effective_at: .*{why}"):
        parse_message(TOPICS, "test/v2/T1/limits", payload)


def test_cancel_scheduled_is_a_boolean() -> None:
    event = parse_dict("limits", limits_payload(cancel_scheduled=True), "here")
    assert event.cancel_scheduled is True
    assert encode(event)[1]["cancel_scheduled"] is True
    with pytest.raises(SchemaError, match="key cancel_scheduled: expected bool"):
        parse_dict("limits", limits_payload(cancel_scheduled="yes"), "here")


def test_the_schema_takes_what_the_display_takes() -> None:
    schema = json.loads(resources.files("scoreboard.schemas").joinpath("limits.json").read_text())
    validator = Draft202012Validator(schema)
    assert validator.is_valid(limits_payload(effective_at="2026-12-01T22:00:00Z"))
    assert validator.is_valid(limits_payload(effective_at="2026-12-01T22:00:00.25Z"))
    assert validator.is_valid(limits_payload(cancel_scheduled=True))
    for bad in ("2026-12-01T22:00:00+01:00", 1796162400, "tomorrow"):
        assert not validator.is_valid(limits_payload(effective_at=bad)), bad


def test_a_restart_after_a_new_shoe_still_knows_the_schedule(tmp_path: Path) -> None:
    live = TableState()
    events = (
        NewShoe("S1"),
        LimitsReceived(DAY),
        LimitsReceived(NIGHT, effective_at=LATER),
        CoupReceived("S1", Game(1, result_coup(Winner.BANKER))),
        NewShoe("S2"),
    )
    with Journal(tmp_path) as journal:
        journal.replay(live)
        for event in events:
            journal.keep(event, live, apply_event(live, event))
    again = TableState()
    with Journal(tmp_path) as journal:
        journal.replay(again)
    assert again.shoe_id == "S2" and again.scheduled == ScheduledLimits(LATER, NIGHT)


def test_a_replay_switches_a_schedule_when_the_journal_says_it_was_due(tmp_path: Path) -> None:
    now = limits_from_spec("10-5000", VARIANTS["commission"])
    kept = [
        (TEN_PM - 7200, NewShoe("S1")),
        (TEN_PM - 7200, LimitsReceived(DAY)),
        (TEN_PM - 3600, LimitsReceived(NIGHT, effective_at=TEN_PM)),  # shown from 22:00
        (TEN_PM + 3600, LimitsReceived(now)),  # at 23:00, after the switch: these win
    ]
    lines = [
        canonical_json({"at": at, "kind": kind.value, "data": data})
        for at, (kind, data) in ((at, encode(event)) for at, event in kept)
    ]
    (tmp_path / "journal.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    again = TableState()
    with Journal(tmp_path) as journal:
        journal.replay(again)
    again.switch_limits(TEN_PM + 7200)  # the kiosk's first step after the restart
    assert again.limits == now and again.scheduled is None
