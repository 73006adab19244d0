"""Run ``scoreboard bench``, then every ``benchmarks/bench_*.py`` in turn (``make bench``).

``scoreboard bench`` comes first: the figures and the PASS/FAIL verdict a
technician gets on the box, from the same code (``scoreboard/bench/``) the
side-by-side benchmarks measure with.  ``--quick`` passes ``--quick`` to it
and to the benchmarks that have it (fewer samples) and skips the ones that
only take long (see ``SLOW``); ``--compare BASE`` runs the side-by-side
benchmarks (``bench_frame.py``, ``bench_latency.py``, ``bench_roads.py``) against the baseline
checkout ``BASE`` as well, one table with both columns; ``--only`` picks some
(``box`` is ``scoreboard bench``).  Each step's wall time is printed after it;
the exit status is non-zero when any step failed (``scoreboard bench``: a
FAIL verdict).  Figures go to docs/benchmarks.md by hand.

    .venv/bin/python benchmarks/run_all.py                              # everything
    .venv/bin/python benchmarks/run_all.py --quick --compare /work/wt-base
    .venv/bin/python benchmarks/run_all.py --only box,frame
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
SIDE_BY_SIDE = frozenset({"bench_frame.py", "bench_latency.py", "bench_roads.py"})
"""Benchmarks that take ``--compare BASE``."""
SLOW = frozenset({"bench_roads.py", "bench_fuzz.py", "bench_floor_restart.py"})
"""Skipped by ``--quick``: long, and not about the display."""
BOX = "box"
"""The ``--only`` name of ``scoreboard bench``."""


def steps(args: argparse.Namespace, here: Path) -> list[tuple[str, list[str]]]:
    """(name, command) of each step to run, in order.

    The benchmarks draw with SDL's dummy driver; ``scoreboard bench`` chooses
    its own (the real one where there is a display), as on the box.
    """
    only = {name.strip() for name in args.only.split(",") if name.strip()}
    found = []
    if not only or BOX in only:
        box = [sys.executable, "-m", "scoreboard", "bench", *(["--quick"] if args.quick else [])]
        found.append(("scoreboard bench", box))
    for script in sorted(here.glob("bench_*.py")):
        name = script.name.removeprefix("bench_").removesuffix(".py")
        if (only and name not in only) or (args.quick and script.name in SLOW):
            continue
        command = [sys.executable, str(script)]
        if args.quick and script.name in QUICK:
            command.append("--quick")
        if args.compare and script.name in SIDE_BY_SIDE:
            for other in args.compare:
                command += ["--compare", other]
        found.append((script.name, command))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples, slow ones skipped")
    parser.add_argument(
        "--compare", action="append", metavar="[LABEL=]TREE", help="checkouts to measure beside"
    )
    parser.add_argument("--only", default="", help="comma-separated names, e.g. box,frame,latency")
    args = parser.parse_args()
    dummy = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    status = 0
    started = time.monotonic()
    for name, command in steps(args, Path(__file__).resolve().parent):
        options = command[4:] if name == "scoreboard bench" else command[2:]
        print(f"== {name} {' '.join(options)}".rstrip(), flush=True)
        env = os.environ if name == "scoreboard bench" else dummy
        begun = time.monotonic()
        status |= subprocess.run(command, env=env, check=False).returncode
        print(f"== {name}: {time.monotonic() - begun:.0f} s", flush=True)
    print(f"== all: {time.monotonic() - started:.0f} s")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
