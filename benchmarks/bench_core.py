"""Benchmarks of the rules engine and the simulated shoe (issue 2).

Run: ``.venv/bin/python benchmarks/bench_core.py``.  Figures go to
docs/benchmarks.md by hand; nothing here asserts a time.

- ``scoreboard simulate`` throughput in coups per second on one core (the
  process is pinned to one CPU where the OS allows it);
- ``scoreboard odds`` wall time, as a user runs it (process start included),
  and the enumeration alone;
- dealing coups as full ``Coup`` values from the demo ``Dealer``.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

from one_core import pin_to_one_core


def best_of(runs: int, action: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    from scoreboard.game.events import CoupReceived
    from scoreboard.game.odds import exact_odds
    from scoreboard.game.shoe import Dealer
    from scoreboard.game.simulation import simulate

    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, {pin_to_one_core()}")

    shoes = 5000
    rates = []
    for seed in range(3):
        start = time.perf_counter()
        tally = simulate(decks=8, shoes=shoes, seed=seed)
        rates.append(tally.coups / (time.perf_counter() - start))
    print(
        f"simulate: {statistics.median(rates):,.0f} coups/s median of 3 runs of {shoes} "
        f"8-deck shoes (best {max(rates):,.0f})"
    )

    dealer = Dealer(seed=1)
    start = time.perf_counter()
    coups = 0
    for _ in range(500):
        coups += sum(1 for event in dealer.shoe() if isinstance(event, CoupReceived))
    rate = coups / (time.perf_counter() - start)
    print(f"Dealer (full Coup values, demo path): {rate:,.0f} coups/s")

    for decks in (8, 6):
        exact_odds.cache_clear()
        seconds = best_of(5, lambda d=decks: (exact_odds.cache_clear(), exact_odds(d)))
        print(f"odds enumeration, {decks} decks: {seconds * 1000:.0f} ms (best of 5)")

    command = [sys.executable, "-m", "scoreboard", "odds", "--json"]
    walls = []
    for _ in range(5):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        walls.append(time.perf_counter() - start)
    print(
        f"`scoreboard odds --json` wall time: median {statistics.median(walls) * 1000:.0f} ms "
        f"of 5 (process start included)"
    )


if __name__ == "__main__":
    main()
