"""Coup 1 after a shuffle mark, and the new shoe after one: CPU ms through ``Kiosk.step``.

``bench_frame.py`` deals no shuffle mark; this times the two steps a mark makes
dear (the shuffle screen going away), beside coup 1 with no mark.  Run it with
each tree's own interpreter (it imports that tree's ``scoreboard``)::

    SDL_VIDEODRIVER=dummy /work/wt-base/.venv/bin/python benchmarks/shuffle_coup.py 1920x1080
    SDL_VIDEODRIVER=dummy .venv/bin/python benchmarks/shuffle_coup.py 3840x2160
"""

from __future__ import annotations

import statistics
import sys

import pygame

import scoreboard
from scoreboard.bench.kiosk import Bench, ScriptedFeed, make_kiosk, shoe_games
from scoreboard.game.events import CoupReceived, NewShoe, Shuffle
from scoreboard.kiosk.loop import Kiosk
from scoreboard.table.state import TableState

SHOES = 24


def main() -> None:
    size = tuple(int(v) for v in (sys.argv[1] if len(sys.argv) > 1 else "1920x1080").split("x"))
    pygame.display.init()
    pygame.font.init()
    feed = ScriptedFeed()
    kiosk = make_kiosk(Kiosk, feed, TableState(table_id="T1"), "classic", (size[0], size[1]), False)
    bench = Bench(kiosk, feed)
    bench.step()
    bench.settle(None)
    cases: dict[str, list[float]] = {
        "coup 1 after a shuffle mark": [],
        "coup 1, no shuffle mark": [],
        "new shoe after a shuffle mark": [],
    }
    for seed in range(1, SHOES + 1):
        games = shoe_games(seed, 12)
        if seed % 4 == 3:  # the mark ends the shoe before: the new shoe takes the screen away
            bench.step(Shuffle(f"s{seed - 1}"))
            bench.settle(None)
            cases["new shoe after a shuffle mark"].append(bench.step(NewShoe(f"s{seed}")).cpu)
        else:
            bench.step(NewShoe(f"s{seed}"))
        bench.settle(None)
        marked = seed % 2 == 0
        if marked:  # the mark after the new shoe: the screen over its empty board
            bench.step(Shuffle(f"s{seed}"))
            bench.settle(None)
        cost = bench.step(CoupReceived(f"s{seed}", games[0])).cpu
        cases["coup 1 after a shuffle mark" if marked else "coup 1, no shuffle mark"].append(cost)
        bench.settle(None)
        for game in games[1:10]:
            bench.step(CoupReceived(f"s{seed}", game))
            bench.settle(None)
    pygame.display.quit()
    print(f"{scoreboard.__file__} {size[0]}x{size[1]}")
    for case, costs in cases.items():
        print(f"{case:32s} {statistics.median(costs):6.2f} ms cpu (median of {len(costs)})")


if __name__ == "__main__":
    main()
