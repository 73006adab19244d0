"""Run every ``benchmarks/bench_*.py`` in turn (``make bench``).

``--quick`` passes ``--quick`` to the benchmarks that have it (fewer samples)
and skips the ones that only take long (see ``SLOW``); ``--compare BASE`` runs
the side-by-side benchmarks (``bench_frame.py``, ``bench_latency.py``) against
the baseline checkout ``BASE`` as well, one table with both columns.  Each
benchmark's wall time is printed after it.  Figures go to docs/benchmarks.md by
hand.

    .venv/bin/python benchmarks/run_all.py                              # everything
    .venv/bin/python benchmarks/run_all.py --quick --compare /work/wt-base
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

QUICK = frozenset({"bench_frame.py", "bench_latency.py", "bench_render.py"})
"""Benchmarks that take ``--quick``."""
SIDE_BY_SIDE = frozenset({"bench_frame.py", "bench_latency.py"})
"""Benchmarks that take ``--compare BASE``."""
SLOW = frozenset({"bench_roads.py", "bench_fuzz.py"})
"""Skipped by ``--quick``: long, and not about the display."""


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples, slow ones skipped")
    parser.add_argument(
        "--compare", action="append", metavar="[LABEL=]TREE", help="checkouts to measure beside"
    )
    parser.add_argument("--only", default="", help="comma-separated names, e.g. frame,latency")
    args = parser.parse_args()
    here = Path(__file__).resolve().parent
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    only = {f"bench_{name.strip()}.py" for name in args.only.split(",") if name.strip()}
    status = 0
    started = time.monotonic()
    for script in sorted(here.glob("bench_*.py")):
        if (only and script.name not in only) or (args.quick and script.name in SLOW):
            continue
        command = [sys.executable, str(script)]
        if args.quick and script.name in QUICK:
            command.append("--quick")
        if args.compare and script.name in SIDE_BY_SIDE:
            for other in args.compare:
                command += ["--compare", other]
        print(f"== {script.name} {' '.join(command[2:])}".rstrip(), flush=True)
        begun = time.monotonic()
        status |= subprocess.run(command, env=env, check=False).returncode
        print(f"== {script.name}: {time.monotonic() - begun:.0f} s", flush=True)
    print(f"== all: {time.monotonic() - started:.0f} s")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
