"""Run every ``benchmarks/bench_*.py`` in turn (``make bench``).

Figures go to docs/benchmarks.md by hand.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def main() -> int:
    here = Path(__file__).resolve().parent
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    status = 0
    for script in sorted(here.glob("bench_*.py")):
        print(f"== {script.name}", flush=True)
        status |= subprocess.run([sys.executable, str(script)], env=env, check=False).returncode
    return status


if __name__ == "__main__":
    raise SystemExit(main())
