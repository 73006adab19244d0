"""What the display session refuses or ignores: counted every time, logged and journaled a little.

A flood of conflicting copies, of stale or replayed messages, must not become a
flood of log lines or journal lines, and must not hide that it happens: the
counters and the periodic summary say how many.  The v2 cases (a controller
session the table no longer follows, an unfinished previous shoe) are driven
through the core's own table, which orders events by origin.
"""

from __future__ import annotations

import json
import logging
from dataclasses import replace
from typing import Any

import pytest

import scoreboard.feeds._session as session_module
from scoreboard.feeds._session import DisplaySession
from scoreboard.feeds.repeats import JOURNALED_REFUSALS_PER_GAME, SUMMARY_INTERVAL
from scoreboard.game.events import ControllerStatus, CoupReceived, Event, Origin, Void
from scoreboard.game.rules import Game
from scoreboard.game.shoe import Dealer
from scoreboard.link.client import Connected, Message, Publish
from scoreboard.protocol import Topics, parse_message, wire
from scoreboard.settings.config import MqttConfig
from scoreboard.settings.endpoint import Endpoint
from scoreboard.table.applied import Applied, FeedStatus
from scoreboard.table.health import JournalHealth, JournalState
from scoreboard.table.state import TableState
from scoreboard.table.unfinished import UnfinishedShoe

TOPICS = Topics("unit/v1/T1")
STATUS = TOPICS.display_status("u1")
GAMES = [e.game for e in Dealer(seed=5).shoe() if isinstance(e, CoupReceived)]
SHOE = "S1"


class Keeper:
    """A journal that records what it was asked to keep, and says how it is."""

    def __init__(self, health: JournalHealth | None = None) -> None:
        self.lines: list[Event] = []
        if health is not None:
            self.health = health

    def keep(self, event: Event, _table: TableState, applied: Applied) -> None:
        if applied.worth_keeping:
            self.lines.append(event)


def new_session(keeper: Keeper | None = None) -> DisplaySession:
    return DisplaySession(
        Endpoint(MqttConfig(port=1), TOPICS), "u1", journal=keeper, clock=lambda: 0.0
    )


def message(event: Event) -> Message:
    return Message(*wire(TOPICS, event), received_at=0.0)


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def other_coups(number: int) -> list[Game]:
    """Coups for game ``number`` that differ from the dealt one, all different."""
    truth = GAMES[number - 1].coup
    coups = {g.coup for g in GAMES} - {truth}
    return [Game(number, coup) for coup in coups]


def test_a_flood_of_conflicting_copies_is_counted_every_time_logged_once_then_summarised(caplog):
    keeper = Keeper()
    s, table = new_session(keeper), TableState()
    s.step([Connected(False), *(message(CoupReceived(SHOE, g)) for g in GAMES[:12])], table, 0)
    copy = message(CoupReceived(SHOE, other_coups(12)[0]))
    with caplog.at_level(logging.INFO, logger="scoreboard"):
        for now in range(20):
            s.step([copy] * 1000, table, now)
        assert len(warnings(caplog)) == 1
        assert "game 12 is already recorded" in warnings(caplog)[0]
        s.step([copy], table, SUMMARY_INTERVAL)
        s.step([copy], table, SUMMARY_INTERVAL + 1)
    assert warnings(caplog)[1:] == ["mqtt: game 12: 20,000 more conflicting copies refused"]
    assert s.rejected == s.rejected_by_reason["conflict"] == 20_002
    assert table.games == tuple(GAMES[:12])
    assert len(keeper.lines) == 12 + 1  # the retired coup is news once
    assert s.next_deadline(SUMMARY_INTERVAL + 1) == 2 * SUMMARY_INTERVAL  # the last one owed


def test_different_refused_coups_of_one_game_are_journaled_a_few_times_only():
    keeper = Keeper()
    s, table = new_session(keeper), TableState()
    s.step([Connected(False), *(message(CoupReceived(SHOE, g)) for g in GAMES[:3])], table, 0)
    refused = other_coups(2)
    assert len(refused) > 3 * JOURNALED_REFUSALS_PER_GAME
    s.step([message(CoupReceived(SHOE, g)) for g in refused], table, 1)
    assert s.rejected_by_reason["conflict"] == len(refused)
    assert len(keeper.lines) == 3 + JOURNALED_REFUSALS_PER_GAME
    s.step([message(CoupReceived(SHOE, other_coups(3)[0]))], table, 2)  # another game: news
    assert len(keeper.lines) == 3 + JOURNALED_REFUSALS_PER_GAME + 1


def test_a_new_shoe_starts_the_conflict_log_afresh(caplog):
    s, table = new_session(), TableState()
    s.step([Connected(False), message(CoupReceived(SHOE, GAMES[0]))], table, 0)
    with caplog.at_level(logging.WARNING, logger="scoreboard"):
        s.step([message(CoupReceived(SHOE, other_coups(1)[0]))] * 3, table, 1)
        s.step([message(CoupReceived("S2", GAMES[0]))], table, 2)  # owed summary said at once
        s.step([message(CoupReceived("S2", other_coups(1)[0]))], table, 3)
    assert warnings(caplog)[1] == "mqtt: game 1: 2 more conflicting copies refused"
    assert "game 1 is already recorded" in warnings(caplog)[2]


# -- protocol v2: stale events, controller sessions, unfinished shoes ----------------------------
@pytest.fixture
def with_origins(monkeypatch):
    """Decode payloads as v2 will: each message maps to an event carrying its origin."""
    events: dict[bytes, Event] = {}

    def parse(topics, topic, payload, key=None):
        return events.get(payload) or parse_message(topics, topic, payload, key=key)

    monkeypatch.setattr(session_module, "parse_message", parse)

    def make(event: Any, session: int, seq: int) -> Message:
        topic, payload = wire(TOPICS, event)
        payload += f" {session}/{seq}".encode()  # one payload per origin
        events[payload] = replace(event, origin=Origin(session, seq))
        return Message(topic, payload, 0.0)

    return make


def test_stale_and_replayed_events_are_counted_by_reason_never_journaled(with_origins, caplog):
    keeper = Keeper()
    s, table = new_session(keeper), TableState()
    live = [with_origins(CoupReceived(SHOE, g), 7, n) for n, g in enumerate(GAMES[:5], 1)]
    s.step([Connected(False), *live], table, 0)
    old_session = with_origins(Void(SHOE, 2), 6, 99)
    with caplog.at_level(logging.INFO, logger="scoreboard.feeds._session"):
        s.step(live * 100 + [old_session] * 50, table, 1)
        s.step([], table, 1 + SUMMARY_INTERVAL)
    assert (s.ignored["replay"], s.ignored["stale"]) == (500, 50)
    assert s.rejected == 0 and len(keeper.lines) == 5
    assert table.games == tuple(GAMES[:5])
    lines = [r.getMessage() for r in caplog.records if "ignored" in r.getMessage()]
    assert len(lines) == 4  # the first of each, then one summary of each
    assert "mqtt: 499 more replay messages ignored" in lines


def test_the_will_of_a_controller_session_the_table_left_is_stale_not_offline(with_origins):
    s, table = new_session(), TableState()
    birth = with_origins(ControllerStatus(True), 8, 1)
    s.step([Connected(False), birth], table, 0)
    assert table.position == Origin(8, 1)  # the birth reached the core, which adopted it
    assert s.status(0) is FeedStatus.LIVE
    s.step([with_origins(ControllerStatus(False), 7, 40)], table, 1)  # the old session's will
    assert s.status(1) is FeedStatus.LIVE and s.ignored["stale"] == 1
    assert table.position == Origin(8, 1)
    s.step([with_origins(ControllerStatus(False), 8, 2)], table, 2)  # the current one's
    assert s.status(2) is FeedStatus.CONTROLLER_OFFLINE


def test_a_controller_status_without_origin_still_sets_the_mark():
    s, table = new_session(), TableState()
    s.step([Connected(False), message(ControllerStatus(False))], table, 0)
    assert s.status(0) is FeedStatus.CONTROLLER_OFFLINE


def resyncs(published: list[Publish]) -> list[Any]:
    return [
        parse_message(TOPICS, p.topic, p.payload) for p in published if p.topic == TOPICS.resync
    ]


def test_an_unfinished_previous_shoe_is_asked_for_with_backoff():
    s, table = new_session(), TableState()
    published = s.step([Connected(False), message(CoupReceived("S2", GAMES[0]))], table, 0)
    assert resyncs(published) == []
    table.unfinished = UnfinishedShoe("S1", (), (), (79, 80), 80)
    published = s.step([], table, 10)
    [request] = resyncs(published)
    assert (request.display, request.shoe, request.missing) == ("u1", "S1", (79, 80))
    assert s.next_deadline(10) == 12
    assert resyncs(s.step([], table, 11)) == []
    assert len(resyncs(s.step([], table, 12))) == 1 and s.next_deadline(12) == 16
    [status] = [json.loads(p.payload) for p in published if p.topic == STATUS]
    assert status["unfinished"] == {"shoe": "S1", "missing": [79, 80]}
    table.unfinished = None
    s.step([], table, 13)
    assert s.next_deadline(13) is None


def test_the_status_names_the_position_and_the_journals_health():
    keeper = Keeper(JournalHealth(JournalState.FAILING, "No space left on device"))
    s, table = new_session(keeper), TableState()
    table.position = Origin(3, 41)
    [status] = [json.loads(p.payload) for p in s.step([Connected(False)], table, 0)]
    assert status["position"] == {"session": 3, "seq": 41}
    assert status["journal"] == {"state": "failing", "reason": "No space left on device"}
    assert s.journal_health() == keeper.health
    assert new_session(Keeper()).journal_health() == JournalHealth()  # a keeper without one


def test_a_flood_of_malformed_payloads_is_counted_every_time_and_logged_a_few_a_minute(caplog):
    """10,000 bad payloads must not write 10,000 log lines; a few in full, then a count."""
    s, table = new_session(), TableState()
    s.step([Connected(False)], table, 0)
    bad = [Message(TOPICS.coup, b"{not json %d" % n, received_at=0.0) for n in range(500)]
    with caplog.at_level(logging.INFO, logger="scoreboard"):
        s.step(bad, table, 1.0)
        while s.backlog:
            s.step([], table, 1.0)
        shown = [line for line in warnings(caplog) if "rejected" in line]
        assert len(shown) == 10 and "payload is not JSON" in shown[0]
        s.step([], table, 1.0 + SUMMARY_INTERVAL)
    assert s.rejected == 500
    assert warnings(caplog)[-1] == (
        "mqtt: rejected (not json): 490 more in the last minute (not logged one by one)"
    )


def test_a_rejection_quotes_a_hostile_value_shortly(caplog):
    s, table = new_session(), TableState()
    s.step([Connected(False)], table, 0)
    cards = {"player": ["A" * 60_000, "2h"], "banker": ["3d", "4c"]}
    huge = json.dumps({"v": 1, "shoe": "S1", "game": 1, "result": "B", "cards": cards})
    with caplog.at_level(logging.WARNING, logger="scoreboard"):
        s.step([Message(TOPICS.coup, huge.encode(), received_at=0.0)], table, 1.0)
    (line,) = [w for w in warnings(caplog) if "rejected" in w]
    assert s.rejected == 1 and len(line) < 400 and line.endswith("…")
