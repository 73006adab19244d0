"""No controller invents limits: a display keeps its configured ones until a controller's come.

From the outside: a real mosquitto, ``scoreboard run --headless`` configured with
EUR 50-20,000, and ``scoreboard shoe`` processes with and without ``--limits``.
"""

from __future__ import annotations

import json
import subprocess
import sys

from cli import scoreboard
from mqtt_broker import DisplayProcess, Recorder, needs_mosquitto, running_broker, wait_for

pytestmark = needs_mosquitto

PREFIX = "baccarat/v2/T1"
CONFIG = "table:\n  id: T1\n  limits:\n    currency: EUR\n    bets: 50-20000\n"


def shoe(broker, *flags: str) -> subprocess.CompletedProcess:
    argv = [sys.executable, "-m", "scoreboard", "shoe", "--mqtt", broker.address]
    argv += ["--prefix", PREFIX, "--pace", "0.05", "--shoes", "1", "--decks", "1", *flags]
    return subprocess.run(argv, capture_output=True, text=True, timeout=90)


def shown(status: dict) -> tuple[str, list[int], str] | None:
    limits = status.get("limits")
    if not limits:
        return None
    return limits["currency"], limits["bets"]["player"], limits["from"]


def test_a_shoe_without_limits_leaves_the_display_its_configured_ones(tmp_path):
    config = tmp_path / "display.yaml"
    config.write_text(CONFIG)
    with running_broker(tmp_path / "broker") as broker:
        display = DisplayProcess(tmp_path, broker, PREFIX, "--config", str(config)).start()
        recorder = Recorder(broker.settings(), f"{PREFIX}/limits").start()
        try:
            assert wait_for(lambda: shown(display.status()) == ("EUR", [50, 20000], "config"))
            done = shoe(broker)
            assert done.returncode == 0, done.stderr
            assert wait_for(lambda: display.status().get("games", 0) >= 5)
            assert wait_for(lambda: display.status().get("feed") == "controller offline")
            assert shown(display.status()) == ("EUR", [50, 20000], "config")
            assert recorder.on(f"{PREFIX}/limits") == []  # the shoe published none
            assert "mqtt: limits" not in display.log_text()

            done = shoe(broker, "--limits", "25-5000", "--currency", "GBP")
            assert done.returncode == 0, done.stderr
            assert wait_for(lambda: shown(display.status()) == ("GBP", [25, 5000], "controller"))
            published = json.loads(recorder.on(f"{PREFIX}/limits")[-1])
            assert published["currency"] == "GBP"
            assert published["bets"]["banker"] == [25, 5000]
        finally:
            recorder.stop()
            display.stop()
    changes = [line for line in display.log_text().splitlines() if "mqtt: limits" in line]
    assert len(changes) == 1, changes
    assert "INFO" in changes[0]
    assert "EUR 50-20,000" in changes[0] and "GBP 25-5,000" in changes[0], changes[0]


def test_limits_need_a_currency_and_a_currency_limits():
    for flags, word in (
        (["--limits", "25-10000"], "--limits needs --currency"),
        (["--currency", "EUR"], "--currency needs --limits"),
        (["--limits", "25-10", "--currency", "EUR"], "--limits"),
        (["--limits", "25-10000", "--currency", "eur"], "--currency"),
    ):
        done = scoreboard("shoe", "--mqtt", "127.0.0.1:9", *flags)
        assert done.returncode == 2, (flags, done.stderr)
        assert word in done.stderr, (flags, done.stderr)
        assert "Traceback" not in done.stderr
