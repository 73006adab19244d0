"""The v2 feed across a mosquitto bridge: controllers on a pit broker, displays on the floor one.

Real brokers (:mod:`mosquitto_bridge`), a real ``scoreboard shoe`` process or an
in-process controller on the pit broker, :class:`~mqtt_broker.Display` feeds on
the floor broker.
"""

from __future__ import annotations

import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from mosquitto_bridge import running_bridge
from mqtt_broker import Display, needs_mosquitto

from scoreboard.controller import Controller
from scoreboard.game.events import CoupReceived
from scoreboard.game.limits import Limits
from scoreboard.game.shoe import Dealer, timed
from scoreboard.game.variants import VARIANTS
from scoreboard.table.applied import FeedStatus

pytestmark = [needs_mosquitto, pytest.mark.slow]

SEED, DECKS = 1717, 2
SHOE = list(Dealer(decks=DECKS, seed=SEED).shoe())
SHOE_COUPS = [e.game.coup for e in SHOE if isinstance(e, CoupReceived)]
SIXTH = [e for e in SHOE if isinstance(e, CoupReceived)][5]


def bridged_prefix() -> tuple[str, str]:
    """A topic root the bridge carries, and the table's prefix under it."""
    root = f"bridge/{uuid.uuid4().hex[:8]}"
    return root, f"{root}/T1"


def test_the_retained_snapshot_crosses_the_bridge(tmp_path: Path):
    root, prefix = bridged_prefix()
    with running_bridge(tmp_path, root) as brokers:
        controller = Controller(
            brokers.pit.endpoint(prefix), limits=Limits.default_for(VARIANTS["commission"])
        )
        display = None
        try:
            controller.start()
            controller.deal(timed(SHOE[: SHOE.index(SIXTH) + 1], 0.0, 0.0))  # then quiet
            assert controller.flush(10)
            display = Display(brokers.floor.settings(), prefix).start()
            assert display.until(lambda: len(display.table.games) == 6, 30)
            assert display.until(lambda: display.status() is FeedStatus.LIVE, 10)
            assert [g.coup for g in display.table.games] == SHOE_COUPS[:6]
            assert display.session.snapshot_requests == 0  # the floor broker had it retained
        finally:
            if display is not None:
                display.stop()
            controller.stop()


def test_the_pit_broker_restarted_mid_shoe_loses_nothing_and_doubles_nothing(tmp_path: Path):
    root, prefix = bridged_prefix()
    with running_bridge(tmp_path, root) as brokers:
        display = Display(brokers.floor.settings(), prefix).start()
        log_path = tmp_path / "shoe.log"
        with open(log_path, "wb") as log:
            shoe = subprocess.Popen(
                [
                    sys.executable, "-m", "scoreboard", "shoe", "--prefix", prefix,
                    "--mqtt", brokers.pit.address, "--seed", str(SEED), "--decks", str(DECKS),
                    "--pace", "0.3", "--shuffle-seconds", "0", "--shoes", "1", "--linger", "120",
                ],
                stderr=log,
            )  # fmt: skip
        try:
            assert display.until(lambda: len(display.table.games) >= 5, 60), log_path.read_text()
            restarted_at = time.monotonic()
            brokers.restart_pit()
            assert display.until(lambda: len(display.table.games) == len(SHOE_COUPS), 90), (
                display.table.missing,
                log_path.read_text(),
            )
            healed = time.monotonic() - restarted_at
            assert [g.coup for g in display.table.games] == SHOE_COUPS  # in order, once each
            assert [g.number for g in display.table.games] == list(range(1, len(SHOE_COUPS) + 1))
            assert display.session.rejected == 0
            assert display.until(lambda: display.status() is FeedStatus.LIVE, 30)
            print(f"\nbridge: shoe complete on the floor display {healed:.1f} s after the restart")
        finally:
            display.stop()
            shoe.terminate()
            shoe.wait(20)
