"""The hand as it is dealt, end to end: ``scoreboard shoe`` publishes a ``deal`` for each
card before its coup, and a real ``scoreboard run --headless`` shows the hand forming
(its status's ``dealing``) and then the coup, on a real mosquitto."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from cli import scoreboard
from mqtt_broker import (
    DisplayProcess,
    Recorder,
    needs_mosquitto,
    publisher,
    running_broker,
    unique_prefix,
    wait_for,
)

from scoreboard.game.events import ControllerStatus, Origin, ShoeHealth
from scoreboard.protocol import NewShoe, Topics, wire

pytestmark = [needs_mosquitto, pytest.mark.slow]


def test_the_display_shows_the_hand_forming_then_its_coup(tmp_path):
    with running_broker(tmp_path / "broker") as broker:
        prefix = unique_prefix()
        topics = Topics(prefix)
        wire = Recorder(broker.settings(), f"{prefix}/#").start()
        display = DisplayProcess(tmp_path, broker, prefix).start()
        shoe = None
        try:
            assert wait_for(lambda: display.status().get("online") is True, 30), display.log_text()
            argv = [sys.executable, "-m", "scoreboard", "shoe", "--mqtt", broker.address,
                    "--prefix", prefix, "--decks", "1", "--seed", "8", "--pace", "1.4",
                    "--shoes", "1"]  # fmt: skip
            with open(tmp_path / "shoe.log", "wb") as log:
                shoe = subprocess.Popen(argv, stderr=log)
            assert wait_for(lambda: display.status().get("games", 0) >= 3, 40), display.status()
        finally:
            if shoe is not None:
                shoe.terminate()
                shoe.wait(20)
            display.stop()
            wire.stop()
    statuses = [json.loads(p) for p in display.recorder.on(display.status_topic) if p[:1] == b"{"]
    forming = [s for s in statuses if s.get("dealing")]
    assert forming, "the display never showed a hand being dealt"
    # Seats grow card by card within a game, each game's hand before its coup is on the board.
    for status in forming:
        assert status["dealing"]["game"] == (status["last_game"] or 0) + 1, status
    games_seen = {s["dealing"]["game"] for s in forming}
    assert {1, 2} <= games_seen
    after = [s for s in statuses if s.get("last_game") == 2]
    assert after and (after[0]["dealing"] or {"game": 3})["game"] == 3  # game 2's hand is over
    # On the wire: each coup comes after its cards, each card without its face.
    events = [
        (m.topic, json.loads(m.payload))
        for m in wire.messages
        if m.topic in (topics.event, topics.coup)
    ]
    first_coup = next(i for i, (topic, _) in enumerate(events) if topic == topics.coup)
    deals = [data for _, data in events[:first_coup] if data.get("type") == "deal"]
    assert [d["game"] for d in deals] == [1] * len(deals) and 4 <= len(deals) <= 6
    assert [f"{d['side'][0].upper()}{d['card_number']}" for d in deals][:4] == [
        "P1",
        "B1",
        "P2",
        "B2",
    ]
    assert all(d["card"] is None for d in deals)
    coup = events[first_coup][1]
    assert len(deals) == len(coup["cards"]["player"]) + len(coup["cards"]["banker"])
    assert "Traceback" not in display.log_text() + (tmp_path / "shoe.log").read_text()


def test_a_display_joining_late_shows_shoe_offline_and_audit_lists_the_health(tmp_path):
    """The retained status's ``raised`` reaches a display started after it; events clear it."""
    with running_broker(tmp_path / "broker") as broker:
        prefix = unique_prefix()
        topics = Topics(prefix)
        session = 1_790_000_000_000
        gone = ShoeHealth("device", "raised", "/dev/ttyUSB0 is gone")
        client = publisher(broker.settings())
        try:
            for event, retain in (
                (ControllerStatus(True, Origin(session, 1)), True),
                (NewShoe("S1", origin=Origin(session, 2)), False),
                (ControllerStatus(True, Origin(session, 3), (gone,)), True),
            ):
                client.publish(*wire(topics, event), qos=1, retain=retain).wait_for_publish(10)
            display = DisplayProcess(tmp_path, broker, prefix).start()
            try:
                marked = wait_for(
                    lambda: display.status().get("shoe_health", {}).get("mark") == "offline", 30
                )
                assert marked, (display.status(), display.log_text())
                back = ShoeHealth("device", "cleared", "back", origin=Origin(session, 4))
                client.publish(*wire(topics, back), qos=1).wait_for_publish(10)
                cleared = wait_for(
                    lambda: display.status().get("shoe_health", {}).get("mark") is None, 30
                )
                assert cleared, display.status()
            finally:
                display.stop()
        finally:
            client.disconnect()
            client.loop_stop()
    done = scoreboard("audit", str(tmp_path / "state"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "shoe health: device cleared: back" in done.stdout
    assert "Traceback" not in display.log_text()
