"""The reconnect-storm benchmark runs end to end on a tiny floor; it times nothing here.

Speed is read from the benchmark's own output (figures in the report and
docs/deploy.md), never asserted: this only keeps ``benchmarks/bench_storm.py``
working as the feed's API moves, in both topologies.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from mqtt_broker import needs_mosquitto

ROOT = Path(__file__).resolve().parent.parent

pytestmark = [needs_mosquitto, pytest.mark.slow]


TOPOLOGIES = {"one broker": (), "bridged": ("--bridge",)}


@pytest.fixture(scope="module")
def storms() -> Iterator[dict[str, subprocess.Popen[str]]]:
    """Both topologies' benchmarks started at once: each its own brokers, ports and floor.

    They mostly wait (the floor coming up, the settle window, the broker down, the
    heal), so side by side the file takes one run's time, not two.
    """
    started = {name: storm(topology) for name, topology in TOPOLOGIES.items()}
    yield started
    for process in started.values():
        if process.poll() is None:
            process.kill()
            process.wait()


def storm(topology: tuple[str, ...]) -> subprocess.Popen[str]:
    command = [sys.executable, str(ROOT / "benchmarks" / "bench_storm.py"), "--tables", "3"]
    command += ["--pace", "1", "--settle", "1", "--down", "1", "--timeout", "60", *topology]
    return subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT
    )


@pytest.mark.parametrize("topology", TOPOLOGIES)
def test_the_storm_benchmark_heals_a_tiny_floor_and_prints_its_figures(storms, topology) -> None:
    process = storms[topology]
    stdout, stderr = process.communicate(timeout=180)
    assert process.returncode == 0, stdout + stderr
    assert re.search(r"time to heal: \d+\.\d s", stdout), stdout
    for name in ("broker (mosquitto)", "controllers (shoe --tables)", "displays (this process)"):
        assert re.search(rf"{re.escape(name)}\s+\d+\.\d %\s+\d+\.\d %", stdout), stdout
    assert re.search(r"resyncs after the restart: \d+ \(\d+ for no snapshot", stdout)
