"""benchmarks/bench_lobby.py runs end to end (a few repeats); it times nothing here."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_lobby_benchmark_prints_every_case() -> None:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    command = [sys.executable, str(ROOT / "benchmarks" / "bench_lobby.py"), "--smoke"]
    command += ["--sizes", "960x540"]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    for case in ("page of 48, whole, 960x540", "48 tables, a coup", "200 tables, a coup"):
        line = next(line for line in done.stdout.splitlines() if line.startswith(case))
        assert re.search(r"(\s+\d+\.\d\d){3}", line), line
    assert re.search(r"200 tables at a coup every 30 s\s+\d+\.\d\d %", done.stdout)
    assert "memory over 20 shoes" in done.stdout
