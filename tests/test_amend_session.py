"""A correction storm through the display session: all counted, the log held, the status agrees."""

from __future__ import annotations

import json
import logging

from scoreboard.feeds._session import DisplaySession
from scoreboard.feeds.repeats import AMENDMENTS_LOGGED, SUMMARY_INTERVAL
from scoreboard.game.events import Correct, CoupReceived, Event
from scoreboard.game.rules import Game
from scoreboard.game.shoe import Dealer
from scoreboard.link.client import Connected, Message
from scoreboard.protocol import Topics, wire
from scoreboard.settings.config import MqttConfig
from scoreboard.settings.endpoint import Endpoint
from scoreboard.table.state import TableState

TOPICS = Topics("unit/v1/T1")
STATUS = TOPICS.display_status("u1")
GAMES = [e.game for e in Dealer(seed=5).shoe() if isinstance(e, CoupReceived)]


def message(event: Event) -> Message:
    return Message(*wire(TOPICS, event), received_at=0.0)


def last_status(publishes) -> dict | None:
    statuses = [json.loads(p.payload) for p in publishes if p.topic == STATUS]
    return statuses[-1] if statuses else None


def test_a_correction_storm_is_counted_whole_and_logged_a_little(caplog) -> None:
    session = DisplaySession(Endpoint(MqttConfig(port=1), TOPICS), "u1", clock=lambda: 0.0)
    session.budget = 1e9  # one step takes the whole storm
    table = TableState()
    session.step([Connected(False), *(message(CoupReceived("S1", g)) for g in GAMES[:5])], table, 0)
    storm = [
        message(Correct("S1", Game(3, GAMES[index % 2].coup), f"storm {index}"))
        for index in range(2_000)
    ]
    with caplog.at_level(logging.INFO, logger="scoreboard.feeds._session"):
        published = session.step(storm, table, 1.0)
        later = session.step([], table, 1.0 + SUMMARY_INTERVAL)
    corrections = len(table.amendments)
    assert 1_000 <= corrections <= 2_000  # the same coup twice in a row is no correction
    status = last_status(published + later) or {}
    assert status.get("corrections") == corrections
    lines = [r.getMessage() for r in caplog.records if "corrected" in r.getMessage()]
    assert len(lines) == AMENDMENTS_LOGGED
    summaries = [
        r.getMessage() for r in caplog.records if "more in the last minute" in r.getMessage()
    ]
    assert summaries == [
        f"mqtt: amendments: {corrections - AMENDMENTS_LOGGED:,} more in the last minute"
        " (not logged one by one)"
    ]
