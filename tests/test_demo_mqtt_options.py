"""``scoreboard demo --mqtt`` with table options: its controller publishes them, mid-shoe.

A real subprocess against a real mosquitto; a plain paho subscriber checks the
retained limits and snapshot on the wire, and the display's own status says how
many games it shows.
"""

from __future__ import annotations

import json

from mqtt_broker import Recorder, needs_mosquitto, running_broker, unique_prefix, wait_for
from test_demo_mqtt import demo_command, games_shown, start_demo, statuses

pytestmark = needs_mosquitto


def test_the_demos_controller_publishes_its_limits_and_variant_and_starts_mid_shoe(tmp_path):
    prefix = unique_prefix()
    with running_broker(tmp_path / "broker") as broker:
        recorder = Recorder(broker.settings(), f"{prefix}/#").start()
        try:
            log = tmp_path / "demo.log"
            options = [
                "--variant", "super6", "--currency", "GBP", "--limits", "player=10-900,tie=1-90",
                "--start-at", "17", "--decks", "8", "--pace", "60", "--duration", "8",
            ]  # fmt: skip
            demo = start_demo(demo_command(broker.address, prefix, *options), log)
            try:
                assert wait_for(lambda: games_shown(recorder, prefix) >= 17, 60), log.read_text(
                    errors="replace"
                )
                limits = [json.loads(p) for p in recorder.on(f"{prefix}/limits") if p]
                snapshots = [json.loads(p) for p in recorder.on(f"{prefix}/snapshot") if p]
            finally:
                demo.terminate()
                demo.wait(timeout=60)
            assert limits, "the controller published no limits"
            assert limits[-1]["currency"] == "GBP"
            assert limits[-1]["bets"] == {"player": [10, 900], "tie": [1, 90]}
            assert limits[-1]["pays"]["banker"] == "1:1 (6 pays 1:2)"  # super6's pay table
            # The pre-dealt shoe went out whole in the first snapshot: history, not a burst.
            assert len(snapshots[0]["coups"]) == 17
            assert not [p for p in recorder.on(f"{prefix}/coup") if p]  # none dealt at the pace
            assert games_shown(recorder, prefix) == 17, statuses(recorder, prefix)
            output = log.read_text(errors="replace")
            assert "controller: starting mid-shoe, 17 games dealt" in output
            assert "Traceback" not in output
        finally:
            recorder.stop()
