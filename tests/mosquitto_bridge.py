"""Two real mosquittos, a pit broker bridged to a floor broker, for the bridge tests.

The pit broker (where the pit's controllers connect) carries the bridge: a
``connection`` section to the floor broker with the table topics in both
directions, as ``kiosk/mosquitto`` would set up a pit.  Both run without
persistence, so restarting the pit broker loses its retained messages and
sessions, as a power-cycled pit box does; the bridge reconnects within a second.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from mqtt_broker import Broker, running_broker


def bridge_lines(floor: Broker, topic_root: str) -> tuple[str, ...]:
    """The pit broker's ``connection`` section to ``floor`` for ``topic_root/#``, both ways."""
    return (
        "connection pit-to-floor",
        f"address {floor.host}:{floor.port}",
        f"topic {topic_root}/# both 1",
        "bridge_protocol_version mqttv311",
        "try_private true",
        "cleansession true",
        "restart_timeout 1 2",
        "keepalive_interval 5",
    )


@dataclass
class Bridged:
    """The floor broker (displays) and the pit broker (controllers) bridged to it."""

    floor: Broker
    pit: Broker

    def restart_pit(self) -> None:
        """The pit box power-cycled: its broker forgets everything, the bridge comes back."""
        self.pit.stop()
        self.pit.start()


@contextlib.contextmanager
def running_bridge(directory: Path, topic_root: str) -> Iterator[Bridged]:
    """A floor broker and a pit broker bridged for ``topic_root/#``; both stopped afterwards."""
    with running_broker(directory / "floor") as floor:
        pit_dir = directory / "pit"
        pit_dir.mkdir(parents=True, exist_ok=True)
        pit = Broker(pit_dir, extra=bridge_lines(floor, topic_root))
        pit.start()
        try:
            yield Bridged(floor, pit)
        finally:
            pit.stop()
