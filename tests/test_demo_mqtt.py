"""``scoreboard demo --mqtt``: a controller and a display of the same table, through a broker.

The demo runs as a real subprocess (SDL's dummy driver) against a real mosquitto;
a plain paho subscriber checks what went over the wire.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from mqtt_broker import Recorder, needs_mosquitto, running_broker, unique_prefix, wait_for

pytestmark = needs_mosquitto

ROOT = Path(__file__).resolve().parents[1]


def demo_command(address: str, prefix: str, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "scoreboard",
        "demo",
        "--mqtt",
        address,
        "--prefix",
        prefix,
        "--windowed",
        "--size",
        "640x360",
        "--pace",
        "0.02",
        "--decks",
        "1",
        "--seed",
        "3",
        *extra,
    ]


def start_demo(command: list[str], log: Path) -> subprocess.Popen:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    with open(log, "wb") as out:
        return subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)


def statuses(recorder: Recorder, prefix: str) -> list[dict]:
    with recorder.lock:
        payloads = [
            bytes(m.payload)
            for m in recorder.messages
            if m.topic.startswith(f"{prefix}/display/") and m.topic.endswith("/status")
        ]
    return [json.loads(p) for p in payloads if p]


def games_shown(recorder: Recorder, prefix: str) -> int:
    return max((s.get("games", 0) for s in statuses(recorder, prefix)), default=0)


def controller_said(recorder: Recorder, prefix: str) -> list[bool]:
    return [json.loads(p)["online"] for p in recorder.on(f"{prefix}/controller/status")]


def test_demo_over_mqtt_publishes_coups_and_its_display_shows_them(tmp_path):
    prefix = unique_prefix()
    with running_broker(tmp_path / "broker") as broker:
        recorder = Recorder(broker.settings(), f"{prefix}/#").start()
        try:
            log = tmp_path / "demo.log"
            demo = start_demo(demo_command(broker.address, prefix, "--duration", "4"), log)
            try:
                assert demo.wait(timeout=120) == 0, log.read_text(errors="replace")
            finally:
                if demo.poll() is None:
                    demo.kill()
            assert wait_for(lambda: controller_said(recorder, prefix)[-1:] == [False], 20)
            coups = [json.loads(p) for p in recorder.on(f"{prefix}/coup")]
            assert coups, "the demo's controller published no coup"
            assert {"shoe", "game", "cards"} <= set(coups[0])
            assert games_shown(recorder, prefix) > 0, statuses(recorder, prefix)
            shown = [s for s in statuses(recorder, prefix) if s.get("games")]
            assert shown[-1]["display"].startswith("demo-")
            assert shown[-1]["feed"] in ("live", "connected")
            output = log.read_text(errors="replace")
            assert "Traceback" not in output
            assert "did not stop" not in output
        finally:
            recorder.stop()


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_demo_over_mqtt_stops_cleanly_on_a_signal(tmp_path, signum):
    prefix = unique_prefix()
    with running_broker(tmp_path / "broker") as broker:
        recorder = Recorder(broker.settings(), f"{prefix}/#").start()
        try:
            log = tmp_path / "demo.log"
            demo = start_demo(demo_command(broker.address, prefix), log)
            try:
                assert wait_for(lambda: games_shown(recorder, prefix) > 0, 90), log.read_text(
                    errors="replace"
                )
                demo.send_signal(signum)
                returncode = demo.wait(timeout=60)
            finally:
                if demo.poll() is None:
                    demo.kill()
            output = log.read_text(errors="replace")
            assert returncode in (0, 130), output
            assert "Traceback" not in output
            assert "did not stop" not in output
            # The controller said goodbye (its thread ended through stop(), not a kill),
            # and so did the display.
            assert wait_for(lambda: controller_said(recorder, prefix)[-1:] == [False], 20)
            assert wait_for(lambda: statuses(recorder, prefix)[-1].get("online") is False, 20)
        finally:
            recorder.stop()


def test_demo_without_mqtt_needs_no_broker():
    from scoreboard.cli import main

    args = ["demo", "--windowed", "--size", "640x360", "--pace", "0.05", "--duration", "0.3"]
    assert main(args) == 0
