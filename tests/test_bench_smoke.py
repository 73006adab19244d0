"""The frame benchmark runs end to end (tiny plan, small window); it times nothing here.

Speed is judged by reading the benchmark's table (docs/benchmarks.md), never
asserted: this only keeps ``benchmarks/bench_frame.py`` working as the kiosk's
API moves, including its side-by-side mode (the tree compared with itself).
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

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


def test_the_side_by_side_helpers_doctests_pass() -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import sidebyside
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    failed, tried = doctest.testmod(sidebyside)
    assert tried >= 2
    assert failed == 0
