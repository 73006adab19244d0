"""Soak test of demo mode: the kiosk dealing shoe after shoe as fast as it can.

A trade-show board runs for days; this deals hundreds of shoes in minutes
(``--pace`` near zero, real rendering with the dummy video driver) and samples
the process's resident memory, so a leak shows as a steady climb instead of a
plateau.  Run: ``.venv/bin/python benchmarks/soak_demo.py [--seconds 180]``.
Not part of ``make bench`` (it takes minutes); figures go to docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

from scoreboard.bench.memory import status_mib


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=180)
    parser.add_argument("--size", default="1920x1080")
    args = parser.parse_args()
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    command = [sys.executable, "-m", "scoreboard", "demo", "--windowed", "--size", args.size]
    command += ["--pace", "0.005", "--shuffle-seconds", "0.01", "--seed", "1"]
    command += ["--duration", str(args.seconds)]
    log = Path("/tmp/scoreboard-soak.log")
    with log.open("w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
        start = time.monotonic()
        samples = []
        while process.poll() is None:
            time.sleep(min(10, args.seconds / 12))
            if process.poll() is None:
                shoes = log.read_text().count("; shuffling")  # one line per finished shoe
                samples.append((time.monotonic() - start, shoes, status_mib("VmRSS", process.pid)))
                print(f"{samples[-1][0]:6.0f} s  {shoes:5d} shoes  {samples[-1][2]:7.1f} MiB")
    if process.returncode != 0 or "Traceback" in log.read_text():
        print(f"demo failed (exit {process.returncode}); see {log}")
        return 1
    if len(samples) >= 4:
        half = len(samples) // 2
        print(
            f"RSS second half vs first half: {samples[half][2]:.1f} -> {samples[-1][2]:.1f} MiB "
            f"over {samples[-1][1] - samples[half][1]} shoes"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
