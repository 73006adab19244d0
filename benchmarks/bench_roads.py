"""Benchmarks of the road engine (issue 3).

Run: ``.venv/bin/python benchmarks/bench_roads.py [--runs 3]``.  Figures go to
docs/benchmarks.md by hand; nothing here asserts a time.  ``--runs`` is how
many times the command is timed (default 1, so ``make bench`` stays short; the
documented figure is the best of 3).

- appending one coup with every road, counter, streak and prediction updated
  (the append plus reading ``counts``, ``streaks`` and ``predictions``, which are
  computed lazily), per coup, median over whole 80-coup shoes; target <= 20 us;
- the naive alternative for comparison: rebuilding the whole shoe per coup;
- a full rebuild of an 80-coup shoe (``Roads.build``), and the same plus
  ``to_json`` (what the CLI does per line); target <= 0.4 ms for the rebuild;
- ``scoreboard roads`` on 10,000 shoes of 80 coups from stdin: wall time of the
  real command, process start included.

Shoes are random with the game's frequencies (B 45.9 %, P 44.6 %, T 9.5 %,
each pair 7.5 %, natural 34 %), from a fixed seed; the shoes and the timed
append are ``scoreboard bench``'s (``scoreboard/bench/roads.py``).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

from one_core import pin_to_one_core

from scoreboard.bench.roads import COUPS_PER_SHOE, SEED, append_times, random_shoe
from scoreboard.core.roads import Roads
from scoreboard.core.rules import Game


def per_shoe(shoes: list[list[Game]], action) -> list[float]:
    clock = time.perf_counter
    times = []
    for games in shoes:
        start = clock()
        action(games)
        times.append(clock() - start)
    return times


def naive_append(games: list[Game]) -> None:
    """The naive way: every coup rebuilds the shoe so far."""
    for count in range(1, len(games) + 1):
        Roads.build(games[:count])


def us(seconds: float) -> str:
    return f"{seconds * 1e6:,.1f} us"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="timed runs of the command")
    runs = parser.parse_args().runs
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, {pin_to_one_core()}")
    rng = random.Random(SEED)
    shoes, lines = zip(*(random_shoe(rng) for _ in range(10_000)), strict=True)
    sample = list(shoes[:2000])

    append_times(sample[:200])  # warm up
    times = append_times(sample)
    print(
        f"append one coup, everything updated: median {us(statistics.median(times))}, "
        f"p90 {us(statistics.quantiles(times, n=10)[-1])} over {len(times):,} appends "
        "(target <= 20 us)"
    )
    bare = append_times(sample, read=False)
    print(f"append alone (counts, streaks, predictions not read): {us(statistics.median(bare))}")
    naive = per_shoe(sample[:50], naive_append)
    print(
        f"naive rebuild per coup (for comparison): median "
        f"{us(statistics.median(naive) / COUPS_PER_SHOE)} per coup"
    )
    build = per_shoe(sample, Roads.build)
    print(
        f"full rebuild of an {COUPS_PER_SHOE}-coup shoe: median "
        f"{statistics.median(build) * 1e3:.3f} ms (target <= 0.4 ms)"
    )
    to_json = per_shoe(sample, lambda games: Roads.build(games).to_json())
    print(f"rebuild + to_json: median {statistics.median(to_json) * 1e3:.3f} ms")

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "shoes.txt")
        with open(path, "w") as file:
            file.write("\n".join(lines) + "\n")
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
        command = [sys.executable, "-m", "scoreboard", "roads"]
        walls = []
        for _ in range(runs):
            with open(path) as stdin:
                start = time.perf_counter()
                subprocess.run(command, stdin=stdin, stdout=subprocess.DEVNULL, env=env, check=True)
                walls.append(time.perf_counter() - start)
        print(
            f"scoreboard roads, {len(lines):,} shoes of {COUPS_PER_SHOE} coups from stdin: "
            f"wall {min(walls):.2f} s best of {runs} (median {statistics.median(walls):.2f} s)"
        )


if __name__ == "__main__":
    main()
