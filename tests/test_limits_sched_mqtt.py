"""Scheduled limits over a real mosquitto: a retained limits message with effective_at."""

from __future__ import annotations

from mqtt_broker import Display, needs_mosquitto, publisher, unique_prefix

from scoreboard.game.events import ControllerStatus, LimitsReceived, Origin
from scoreboard.game.limits import ScheduledLimits, limits_from_spec
from scoreboard.game.variants import VARIANTS
from scoreboard.protocol import Topics, wire

pytestmark = needs_mosquitto

DAY = limits_from_spec("25-10000", VARIANTS["commission"])
NIGHT = limits_from_spec("50-20000", VARIANTS["commission"])
TEN_PM = 1_796_162_400.0  # 2026-12-01T22:00:00Z


def test_a_display_shows_the_current_limits_until_the_scheduled_ones_are_due(broker) -> None:
    prefix = unique_prefix()
    topics = Topics(prefix)
    display = Display(broker.settings(), prefix).start()
    try:
        assert display.until(lambda: display.session.subscribed, 15)
        display.table.switch_limits(TEN_PM - 3600)  # the kiosk's clock: 21:00
        client = publisher(broker.settings())
        for seq, event in enumerate(
            [
                ControllerStatus(True),
                LimitsReceived(DAY),
                LimitsReceived(NIGHT, effective_at=TEN_PM),
            ],
            start=1,
        ):
            topic, payload = wire(topics, _stamped(event, seq))
            client.publish(topic, payload, qos=1, retain=True).wait_for_publish(5)
        client.loop_stop()
        client.disconnect()
        assert display.until(lambda: display.table.scheduled is not None, 20)
        assert display.table.limits == DAY
        assert display.table.scheduled == ScheduledLimits(TEN_PM, NIGHT)
        assert display.session.rejected == 0
        assert display.table.switch_limits(TEN_PM).changed and display.table.limits == NIGHT
    finally:
        display.stop()


def _stamped(event, seq: int):
    from dataclasses import replace

    return replace(event, origin=Origin(1_764_585_600_000, seq))
