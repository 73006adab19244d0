"""The reconnect-storm benchmark runs end to end on a tiny floor; it times nothing here.

Speed is read from the benchmark's own output (figures in the report and
docs/deploy.md), never asserted: this only keeps ``benchmarks/bench_storm.py``
working as the feed's API moves, in both topologies.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from mqtt_broker import needs_mosquitto

ROOT = Path(__file__).resolve().parent.parent

pytestmark = [needs_mosquitto, pytest.mark.slow]


@pytest.mark.parametrize("topology", [[], ["--bridge"]], ids=["one broker", "bridged"])
def test_the_storm_benchmark_heals_a_tiny_floor_and_prints_its_figures(topology) -> None:
    command = [sys.executable, str(ROOT / "benchmarks" / "bench_storm.py"), "--tables", "3"]
    command += ["--pace", "1", "--settle", "1", "--down", "1", "--timeout", "60", *topology]
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"time to heal: \d+\.\d s", done.stdout), done.stdout
    for name in ("broker (mosquitto)", "controllers (shoe --tables)", "displays (this process)"):
        assert re.search(rf"{re.escape(name)}\s+\d+\.\d %\s+\d+\.\d %", done.stdout), done.stdout
    assert re.search(r"resyncs after the restart: \d+ \(\d+ for no snapshot", done.stdout)
