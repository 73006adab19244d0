"""The keypad as the table's controller publishes the limits it was configured with, or none.

Never the limits the board shows from another controller (a failed shoe's), which
would otherwise go out again as if the keypad knew them.
"""

from __future__ import annotations

import json
import uuid

from keypad_kiosk import WALL, keypad_kiosk
from mqtt_broker import Recorder, needs_mosquitto, running_broker, unique_prefix, wait_for
from test_keypad_mqtt import until_live

from scoreboard.game.events import LimitsReceived
from scoreboard.game.limits import limits_from_spec
from scoreboard.game.variants import VARIANTS
from scoreboard.keypad.feed import KeypadFeed
from scoreboard.keypad.publish import KeypadPublisher
from scoreboard.protocol import Topics
from scoreboard.settings.config import MqttConfig
from scoreboard.settings.endpoint import Endpoint
from scoreboard.table.state import TableState

pytestmark = needs_mosquitto

COMMISSION = VARIANTS["commission"]
ANOTHER_CONTROLLERS = limits_from_spec("25-10000", COMMISSION, currency="USD")
CONFIGURED = limits_from_spec("50-20000", COMMISSION, currency="EUR")


def published_limits(tmp_path, configured) -> list[dict]:
    """The limits payloads a keypad (configured with ``configured``) published on its start."""
    prefix = unique_prefix()
    with running_broker(tmp_path / "broker") as broker:
        recorder = Recorder(broker.settings(), f"{prefix}/#").start()
        try:
            publisher = KeypadPublisher(
                broker.endpoint(prefix),
                client_id=f"keypad-{uuid.uuid4().hex[:6]}",
                limits=configured,
                state_dir=tmp_path / "keypad",
            )
            feed = KeypadFeed(publisher=publisher, wall_clock=lambda: WALL)
            table = TableState(limits=ANOTHER_CONTROLLERS)  # what the board showed before
            with keypad_kiosk(feed, table) as pad:
                until_live(pad)
                pad.type("[3] [6]", pad.clock.now)  # a coup: published after the announcement
                assert wait_for(lambda: bool(recorder.on(f"{prefix}/coup")))
        finally:
            recorder.stop()
    return [json.loads(payload) for payload in recorder.on(f"{prefix}/limits")]


def test_a_keypad_without_configured_limits_publishes_none(tmp_path):
    assert published_limits(tmp_path, None) == []


def test_a_keypad_publishes_its_configured_limits(tmp_path):
    limits = published_limits(tmp_path, CONFIGURED)
    assert [(p["currency"], p["bets"]["banker"]) for p in limits] == [("EUR", [50, 20000])]


def test_limits_the_keypad_itself_sends_are_its_own_from_then_on():
    """A limits entry of its own (the pit's, through the keypad) is what it announces next."""
    publisher = KeypadPublisher(
        Endpoint(MqttConfig(), Topics("doc/v2/T1")), client_id="keypad-t", limits=CONFIGURED
    )
    publisher.send(LimitsReceived(ANOTHER_CONTROLLERS), TableState())
    assert publisher.limits == ANOTHER_CONTROLLERS
    later = LimitsReceived(CONFIGURED, effective_at=2_000_000_000.0)
    publisher.send(later, TableState())  # announced ahead: not the limits of now
    assert publisher.limits == ANOTHER_CONTROLLERS
