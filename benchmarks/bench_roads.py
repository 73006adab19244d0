"""Benchmarks of the road engine, side by side with a baseline tree (issues 3 and 24).

Run: ``.venv/bin/python benchmarks/bench_roads.py [--compare BASE] [--shoes 2000]
[--rounds 3] [--cli]``.  Figures go to docs/benchmarks.md by hand; nothing here
asserts a time.  Each tree is measured in its own interpreter (``sidebyside.py``)
by this tree's measuring code (``scoreboard/bench/roads.py``), in ``--rounds``
alternating runs so that a neighbour's load falls on both columns alike; each
figure is the median over all rounds' samples, and the last column is base / now.
On a loaded box read the CPU lines: the wall clock there counts other processes' turns.

- append one coup with everything updated: the append plus reading ``counts``,
  ``streaks`` and ``predictions`` (the ask road), per coup, over whole 80-coup
  shoes; target <= 20 us, and (issue 24) 2.5 times faster than the baseline;
- the same plus reading the entries each road gained, as the board's scroll does;
- the naive alternative for comparison: rebuilding the shoe so far per coup;
- a whole-shoe rebuild of an 80-coup shoe (``Roads.build``; target <= 0.4 ms, and
  2.5 times faster than the baseline), and the same plus ``to_json`` (the CLI);
- with ``--cli``: ``scoreboard roads`` on 10,000 shoes from stdin, wall time of the
  real command, process start included.

Shoes are random with the game's frequencies (B 45.9 %, P 44.6 %, T 9.5 %, each
pair 7.5 %, natural 34 %), from a fixed seed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sidebyside as sbs
import this_tree

SCRIPT = Path(__file__).resolve()
COUPS = 80  # a shoe of scoreboard/bench/roads.py
APPEND = "append one coup, everything updated (us)"
CASES = (
    APPEND,
    "  + the new road entries read (us)",
    "naive: rebuild the shoe so far per coup (us)",
    "whole-shoe rebuild, 80 coups (ms)",
    "  + to_json (ms)",
    "CPU: append, everything updated (us/coup)",
    "CPU: whole-shoe rebuild (ms)",
)


def cpu_times(shoes: list[Any], action: Callable[[Any], object]) -> list[float]:
    """This process's CPU seconds per shoe for ``action(games)``: what a neighbour on shared
    cores moves least (the wall clock also counts the time another process had the core)."""
    clock = time.process_time
    times = []
    for games in shoes:
        start = clock()
        action(games)
        times.append(clock() - start)
    return times


def measure(shoes: int, cli: bool) -> dict[str, Any]:
    """Every case in this interpreter's tree: the raw samples."""
    import scoreboard
    from scoreboard.roads.engine import Roads

    roads = this_tree.bench("roads")
    sample = roads.random_shoes(shoes + roads.WARM_UP_SHOES)
    warm, sample = sample[shoes:], sample[:shoes]
    roads.append_times(warm)
    roads.rebuild_times(warm)
    micro, milli = 1e6, 1e3

    def everything(games: list[Any]) -> None:
        built = Roads()
        for game in games:
            built.append(game)
            built.counts  # noqa: B018 - reading is part of "everything updated"
            built.streaks  # noqa: B018
            built.predictions  # noqa: B018

    naive = []
    for games in sample[:50]:
        start = time.perf_counter()
        for count in range(1, len(games) + 1):
            Roads.build(games[:count])
        naive.append((time.perf_counter() - start) / len(games))
    samples = {
        CASES[0]: [t * micro for t in roads.append_times(sample)],
        CASES[1]: [t * micro for t in roads.append_times(sample, cells=True)],
        CASES[2]: [t * micro for t in naive],
        CASES[3]: [t * milli for t in roads.rebuild_times(sample)],
        CASES[4]: [t * milli for t in roads.rebuild_times(sample, to_json=True)],
        CASES[5]: [t * micro / COUPS for t in cpu_times(sample, everything)],
        CASES[6]: [t * milli for t in cpu_times(sample, Roads.build)],
    }
    result: dict[str, Any] = {"scoreboard": scoreboard.__file__, "samples": samples}
    if cli:
        result["cli"] = cli_wall()
    return result


def cli_wall() -> float:
    """Seconds ``scoreboard roads`` takes on 10,000 shoes of 80 coups from stdin."""
    rng = random.Random(this_tree.bench("roads").SEED)
    lines = [this_tree.bench("roads").random_shoe(rng)[1] for _ in range(10_000)]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "shoes.txt"
        path.write_text("\n".join(lines) + "\n")
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
        with path.open() as stdin:
            start = time.perf_counter()
            command = [sys.executable, "-m", "scoreboard", "roads"]
            subprocess.run(command, stdin=stdin, stdout=subprocess.DEVNULL, env=env, check=True)
            return time.perf_counter() - start


def table(labels: list[str], merged: list[dict[str, list[float]]]) -> list[str]:
    """One line per case: each tree's median (p99), then first tree / last tree."""
    width = max(map(len, CASES)) + 2
    head = "".join(f"{label[:22]:>24}" for label in labels)
    lines = [
        f"{'case':<{width}}{head}{'ratio':>8}",
        f"{'':<{width}}" + f"{'median (p99)':>24}" * len(labels),
    ]
    for case in CASES:
        figures = [sbs.figure(samples[case]) for samples in merged]
        cells = "".join(
            f"{'n/a':>24}" if f is None else f"{f'{f.median:.3f} ({f.p99:.3f})':>24}"
            for f in figures
        )
        first, last = figures[0], figures[-1]
        ratio = f"{first.median / last.median:>7.2f}x" if first and last and last.median else ""
        lines.append(f"{case:<{width}}{cells}{ratio if len(figures) > 1 else ''}")
    return lines


def main() -> int:
    parser = sbs.parser((__doc__ or "").splitlines()[0])
    parser.add_argument("--shoes", type=int, default=2000, help="80-coup shoes a round")
    parser.add_argument("--rounds", type=int, default=3, help="alternating runs of each tree")
    parser.add_argument("--cli", action="store_true", help="also time `scoreboard roads`")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.shoes, args.cli)))
        return 0
    where = sbs.trees(args.compare, args.tree)
    before = sbs.machine()
    merged: list[dict[str, list[float]]] = [{case: [] for case in CASES} for _ in where]
    walls: list[list[float]] = [[] for _ in where]
    argv = ["--shoes", str(args.shoes), *(["--cli"] if args.cli else [])]
    for _ in range(args.rounds):
        for index, tree in enumerate(where):
            result = sbs.run_child(tree, SCRIPT, argv)
            for case in CASES:
                merged[index][case] += result["samples"][case]
            if args.cli:
                walls[index].append(result["cli"])
    print(sbs.describe(where, before, sbs.machine()))
    print(f"{args.rounds} rounds of {args.shoes:,} shoes of 80 coups per tree, alternating")
    print("\n".join(table([t.label for t in where], merged)))
    for tree, wall in zip(where, walls, strict=True):
        if wall:
            print(
                f"scoreboard roads, 10,000 shoes from stdin, {tree.label}: best {min(wall):.2f} s"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
