"""Integrity alerts end to end: a stacked shoe over a real mosquitto; the status says so."""

from __future__ import annotations

import dataclasses
import json
import logging

from integrity_shoes import shoe_events, shuffled, with_a_ninth_ace_of_spades
from mqtt_broker import Display, Recorder, needs_mosquitto, publisher, unique_prefix

from scoreboard.game.events import ControllerStatus, Correct, CoupReceived, Event, Origin
from scoreboard.game.rules import Game, Winner, result_coup
from scoreboard.protocol import Topics, wire

pytestmark = needs_mosquitto

SESSION = 1_764_585_600_000


def stamped(events: list[Event]) -> list[Event]:
    """The controller's birth, then ``events``, each with the next seq of one session (v2)."""
    birth: Event = ControllerStatus(True)
    return [
        dataclasses.replace(event, origin=Origin(SESSION, seq))  # type: ignore[type-var]
        for seq, event in enumerate([birth, *events], start=1)
    ]


def run(broker, events: list[Event], until) -> tuple[Display, list[dict]]:
    """Publish ``events`` as a v2 controller would, to a display; returns it and its statuses."""
    prefix = unique_prefix()
    topics = Topics(prefix)
    display = Display(broker.settings(), prefix).start()
    recorder = Recorder(broker.settings(), topics.display_status("d1")).start()
    try:
        assert display.until(lambda: display.session.subscribed, 15), "display never connected"
        client = publisher(broker.settings())
        for event in stamped(events):
            topic, payload = wire(topics, event)
            client.publish(topic, payload, qos=1).wait_for_publish(5)
        client.loop_stop()
        client.disconnect()
        assert display.until(lambda: until(display.table), 20)
        assert display.until(lambda: bool(recorder.on(topics.display_status("d1"))), 5)
        display.until(lambda: False, 0.8)  # let the paced status go out
        statuses = [json.loads(p) for p in recorder.on(topics.display_status("d1"))]
        return display, statuses
    finally:
        display.stop()
        recorder.stop()


def test_a_ninth_ace_of_spades_over_mqtt_is_one_alert_logged_once_and_in_the_status(
    broker, caplog
) -> None:
    events = shoe_events(with_a_ninth_ace_of_spades(seed=5), shoe="T1-stacked")
    coups = sum(isinstance(e, CoupReceived) for e in events)
    with caplog.at_level(logging.INFO, logger="scoreboard.feeds._session"):
        display, statuses = run(broker, events, lambda table: len(table.games) == coups)
    table = display.table
    assert table.decks == 8 and len(table.alerts) == 1
    alert = table.alerts[0]
    assert alert.detail == "A♠ seen 9 times in 8 decks"
    status = statuses[-1]
    assert status["alerts"] == [{"kind": "overcount", "game": alert.game, "detail": alert.detail}]
    assert status["games"] == coups and status["corrections"] == 0 and status["rejected"] == 0
    warnings = [r.getMessage() for r in caplog.records if "integrity alert" in r.getMessage()]
    assert warnings == [
        f"mqtt: integrity alert (overcount): shoe T1-stacked, game {alert.game}:"
        " A♠ seen 9 times in 8 decks"
    ]
    assert all(r.levelno == logging.WARNING for r in caplog.records if "integrity" in r.message)


def test_a_correction_over_mqtt_is_counted_in_the_status_and_logged(broker, caplog) -> None:
    events = shoe_events(shuffled(seed=9), shoe="T1-fine")[:12]
    coups = sum(isinstance(e, CoupReceived) for e in events)
    fixed = Correct("T1-fine", Game(3, result_coup(Winner.TIE)), "misread")
    with caplog.at_level(logging.INFO, logger="scoreboard.feeds._session"):
        display, statuses = run(broker, [*events, fixed], lambda table: len(table.amendments) == 1)
    assert len(display.table.games) == coups and display.table.corrected(3)
    assert statuses[-1]["corrections"] == 1 and statuses[-1]["alerts"] == []
    lines = [r.getMessage() for r in caplog.records if "corrected" in r.getMessage()]
    before = next(e for e in events if isinstance(e, CoupReceived) and e.game.number == 3)
    assert lines == [f"mqtt: game 3 corrected: {before.game.coup.winner.value} -> T (misread)"]
