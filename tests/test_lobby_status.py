"""The lobby's retained status: its payload meets the shipped schema; when it goes out."""

from __future__ import annotations

import json
from importlib import resources

from jsonschema import Draft202012Validator

from scoreboard.game.events import ControllerStatus, Origin
from scoreboard.lobby import SortKey, arrange
from scoreboard.lobby.sample import sample_floor
from scoreboard.lobby.status import (
    LOBBY_OFFLINE,
    MIN_INTERVAL,
    REFRESH_SECONDS,
    StatusSchedule,
    lobby_status,
)

NOW = 1_800_000_000.0


def validator() -> Draft202012Validator:
    text = resources.files("scoreboard.schemas").joinpath("lobby_status.json").read_text()
    schema = json.loads(text)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def status_of(floor, now: float) -> dict:
    views = arrange(floor.views(now, 300), SortKey.PIT)
    return lobby_status("L1", views, rejected=3, page=(1, 1), now=now)


def test_the_status_and_the_will_meet_the_shipped_schema() -> None:
    floor = sample_floor(5, now=NOW)
    floor.entry("T9")  # heard of, nothing applied: waiting
    floor.entry("T2").take(ControllerStatus(False, Origin(1, 0)), NOW)  # its will
    status = json.loads(json.dumps(status_of(floor, NOW + 12)))
    check = validator()
    assert [e.message for e in check.iter_errors(status)] == []
    assert [e.message for e in check.iter_errors(json.loads(LOBBY_OFFLINE))] == []
    tables = {t["table"]: t for t in status["tables"]}
    assert tables["T2"]["state"] == "offline" and tables["T9"]["state"] == "waiting"
    assert tables["T1"]["age"] == 12 and tables["T9"]["age"] is None
    assert tables["T1"]["games"] == tables["T1"]["last_game"] > 0
    assert status["rejected"] == 3 and status["ts"].endswith("Z")
    assert check.is_valid({**status, "tables": [{"table": "T1"}]}) is False


def test_a_status_goes_out_on_change_paced_and_refreshed_for_ages() -> None:
    floor = sample_floor(2, now=NOW)
    schedule = StatusSchedule()
    assert schedule.offer(status_of(floor, NOW), 0.0) is not None  # the first
    assert schedule.offer(status_of(floor, NOW + 5), 5.0) is None  # only ages moved
    floor.entry("T1").take(ControllerStatus(False, Origin(1, 0)), NOW + 5)
    assert schedule.offer(status_of(floor, NOW + 5), 5.0 + MIN_INTERVAL / 2) is not None
    floor.entry("T2").take(ControllerStatus(False, Origin(1, 0)), NOW + 5)
    assert schedule.offer(status_of(floor, NOW + 5), 5.6) is None  # paced
    assert schedule.offer(status_of(floor, NOW + 5), 5.6 + MIN_INTERVAL) is not None
    assert schedule.offer(status_of(floor, NOW + 40), 7.0 + REFRESH_SECONDS) is not None
    assert schedule.offer(status_of(floor, NOW + 40), 8.0 + REFRESH_SECONDS) is None
    schedule.reconnected()  # a new connection: the status again at once
    assert schedule.offer(status_of(floor, NOW + 40), 8.0 + REFRESH_SECONDS) is not None
