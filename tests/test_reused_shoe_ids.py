"""A controller dealing on under a finished shoe's id does not leave the board saying LIVE.

Found by the floor review: a controller restarted with its shoe numbering reset
(the simulated one did so with the same ``--seed``) names shoes the board has
finished.  The board ignores those payloads, as it must (a late redelivery of a
finished shoe never restarts it), but it went on saying LIVE over its old shoe
while the controller dealt.  Through a real mosquitto: a plain MQTT client
publishes as such a controller would, a display's real ``MqttFeed`` follows.  The
display's time runs on its own clock, moved ahead while the controller deals
instead of slept through; every payload reaches it through the broker first.
"""

from __future__ import annotations

import logging

import paho.mqtt.client as mqtt
import pytest
from mqtt_broker import AheadClock, Display, needs_mosquitto, running_broker, unique_prefix
from paho.mqtt.enums import CallbackAPIVersion

from scoreboard.game.events import ControllerStatus, CoupReceived, NewShoe, Origin
from scoreboard.game.shoe import Dealer
from scoreboard.protocol import Topics, wire
from scoreboard.table.applied import FeedStatus
from scoreboard.table.behind import LEFT_BEHIND_SPAN

pytestmark = needs_mosquitto
GAMES = [e.game for e in Dealer(seed=21).shoe() if isinstance(e, CoupReceived)]


@pytest.fixture
def scene(tmp_path):
    with running_broker(tmp_path / "broker") as broker:
        prefix = unique_prefix()
        publisher = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="reusing-controller")
        publisher.connect("127.0.0.1", broker.port)
        publisher.loop_start()
        clock = AheadClock()
        display = Display(broker.settings(), prefix, clock=clock).start()
        topics = Topics(prefix)

        def send(event, retain: bool = False) -> None:
            topic, payload = wire(topics, event)
            publisher.publish(topic, payload, qos=1, retain=retain).wait_for_publish(5)

        try:
            assert display.until(lambda: display.session.subscribed, 15)
            yield display, send, clock
        finally:
            display.stop()
            publisher.disconnect()  # at once; loop_stop alone waits out paho's 1 s poll
            publisher.loop_stop()


def test_a_controller_reusing_a_finished_shoe_id_takes_the_board_off_live(scene, caplog):
    display, send, clock = scene
    send(ControllerStatus(True, Origin(5, 1)), retain=True)
    send(NewShoe("S-001", origin=Origin(5, 2)))
    send(CoupReceived("S-001", GAMES[0], origin=Origin(5, 3)))
    send(NewShoe("S-002", previous="S-001", previous_games=1, origin=Origin(5, 4)))
    send(CoupReceived("S-002", GAMES[0], origin=Origin(5, 5)))
    assert display.until(lambda: display.table.shoe_id == "S-002" and display.table.games, 10)
    assert display.until(lambda: display.status() is FeedStatus.LIVE, 5)
    # The controller restarts (a new session) with its numbering reset: S-001 again.
    send(ControllerStatus(True, Origin(6, 1)), retain=True)
    send(NewShoe("S-001", origin=Origin(6, 2)))
    with caplog.at_level(logging.ERROR, logger="scoreboard"):
        seq, started = 3, clock()
        while clock() - started < LEFT_BEHIND_SPAN + 2:
            handled = display.handled()
            send(CoupReceived("S-001", GAMES[seq - 3], origin=Origin(6, seq)))
            seq += 1
            assert display.until(lambda before=handled: display.handled() > before, 10)
            clock.ahead += 0.3
            if display.status() is not FeedStatus.LIVE:
                break
    assert display.table.shoe_id == "S-002"  # the core's rule stands: nothing restarted
    assert display.status() is FeedStatus.CONTROLLER_OFFLINE
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert any("keeps publishing shoe S-001" in e for e in errors), errors
    # A new shoe id from it: the board follows again.
    send(NewShoe("S-003", previous="S-002", origin=Origin(6, seq)))
    send(CoupReceived("S-003", GAMES[0], origin=Origin(6, seq + 1)))
    assert display.until(lambda: display.table.shoe_id == "S-003", 10)
    assert display.until(lambda: display.status() is FeedStatus.LIVE, 5)


def test_a_late_redelivery_of_a_finished_shoe_leaves_live_alone(scene):
    display, send, clock = scene
    send(ControllerStatus(True, Origin(5, 1)), retain=True)
    send(NewShoe("S-001", origin=Origin(5, 2)))
    late = CoupReceived("S-001", GAMES[0], origin=Origin(5, 3))
    send(late)
    send(NewShoe("S-002", previous="S-001", previous_games=1, origin=Origin(5, 4)))
    seq = 5
    for game in GAMES[:8]:  # the shoe goes on; a copy of the finished shoe's coup now and then
        handled = display.handled()
        send(CoupReceived("S-002", game, origin=Origin(5, seq)))
        send(late)
        seq += 1
        assert display.until(lambda before=handled: display.handled() >= before + 2, 10)
        clock.ahead += 0.8
    assert display.status() is FeedStatus.LIVE
    assert len(display.table.games) == 8
