"""The side-by-side benchmarks run end to end (tiny plans, small windows); nothing is timed.

Speed is judged by reading the benchmark's table (docs/benchmarks.md), never
asserted: this only keeps ``benchmarks/bench_frame.py``, ``bench_latency.py`` and
``bench_roads.py`` working as the kiosk's API moves, including
their side-by-side mode (the tree compared with itself), now that they measure
with ``scoreboard bench``'s own code (``scoreboard/bench``).
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIGURES = r"(\s+\d+\.\d\d){3}\s+\d+"  # median, p99, CPU median, samples


def test_the_frame_benchmark_prints_every_case_for_both_trees() -> None:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    command = [sys.executable, str(ROOT / "benchmarks" / "bench_frame.py"), "--smoke"]
    command += ["--sizes", "480x270", "--themes", "classic", "--compare", str(ROOT)]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    cases = ("coup, early (1-10)", "coup, late (3-12)", "coup, late in a 30-coup shoe")
    for case in (*cases, "full frame", "theme reload", "as shipped: coup, late"):
        line = next(line for line in done.stdout.splitlines() if line.startswith(case))
        assert re.search(FIGURES * 2, line), line  # the base's column, then now's
    assert "classic 480x270" in done.stdout


@pytest.mark.mosquitto
def test_the_latency_benchmark_prints_both_trees_through_its_own_broker() -> None:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    command = [sys.executable, str(ROOT / "benchmarks" / "bench_latency.py"), "--coups", "4"]
    command += ["--pace", "0.05", "--sizes", "480x270", "--compare", str(ROOT)]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("4 of 4 coups shown") == 2
    line = next(line for line in done.stdout.splitlines() if line.startswith("publish -> flip"))
    assert re.search(r"(\s+\d+\.\d\d){2}\s+\d+" * 2, line), line


def test_the_road_benchmark_prints_every_case_for_both_trees_and_their_ratio() -> None:
    command = [sys.executable, str(ROOT / "benchmarks" / "bench_roads.py"), "--shoes", "3"]
    command += ["--rounds", "1", "--compare", str(ROOT)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    for case in ("append one coup, everything updated", "whole-shoe rebuild, 80 coups"):
        line = next(line for line in done.stdout.splitlines() if line.startswith(case))
        assert re.search(r"(\s+\d+\.\d{3} \(\d+\.\d{3}\)){2}\s+\d+\.\d\dx$", line), line


def test_the_side_by_side_helpers_doctests_pass() -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import sidebyside
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    failed, tried = doctest.testmod(sidebyside)
    assert tried >= 2
    assert failed == 0
