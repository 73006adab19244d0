"""Where a frame's time goes: cProfile over the kiosk's own steps (a per-coup update, a full frame).

Uses ``kiosk_frames`` (the same scripted feed and kiosk as ``bench_frame.py``)
and prints the functions with the most cumulative and own time, so a change
is aimed at a measured cause.  Run::

    .venv/bin/python benchmarks/profile_frame.py --size 1920x1080 --case coup
    .venv/bin/python benchmarks/profile_frame.py --size 3840x2160 --case full --top 40
    .venv/bin/python benchmarks/profile_frame.py --case long   # coups 991-1,000 of one shoe
"""

from __future__ import annotations

import argparse
import cProfile
import pstats

import kiosk_frames as kf
import pygame

from scoreboard.game.events import CoupReceived, NewShoe
from scoreboard.table.state import TableState


def profile(theme: str, size: tuple[int, int], case: str, shoes: int, sort: str, top: int) -> None:
    pygame.display.init()
    pygame.font.init()
    feed = kf.ScriptedFeed()
    kiosk = kf.make_kiosk(feed, TableState(table_id="T1"), theme, size, motion=False)
    bench = kf.Bench(kiosk, feed)
    bench.step()
    profiler = cProfile.Profile()
    if case == "long":
        games = kf.shoe_games(7, 1000)
        bench.step(*kf.shoe_events("long", games[:990]))
        bench.settle(None)
        for game in games[990:]:
            feed.give(CoupReceived("long", game))
            profiler.runcall(kiosk.step, bench.now)
            bench.settle(None)
        shoes = 0
    for seed in range(1, shoes + 1):
        shoe = f"p-{seed}"
        bench.step(NewShoe(shoe))
        bench.settle(None)
        for game in kf.shoe_games(seed, 80):
            if case == "coup" and game.number > 40:
                feed.give(CoupReceived(shoe, game))
                profiler.runcall(kiosk.step, bench.now)
            else:
                bench.step(CoupReceived(shoe, game))
            bench.settle(None)
        if case == "full":
            for _ in range(20):
                kiosk.renderer.invalidate()
                profiler.runcall(kiosk.step, bench.now)
    stats = pstats.Stats(profiler)
    stats.sort_stats(sort).print_stats(top)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--theme", default="classic")
    parser.add_argument("--size", default="1920x1080")
    parser.add_argument("--case", choices=("coup", "full", "long"), default="coup")
    parser.add_argument("--shoes", type=int, default=2)
    parser.add_argument("--sort", default="tottime")
    parser.add_argument("--top", type=int, default=35)
    args = parser.parse_args()
    width, height = (int(part) for part in args.size.split("x"))
    profile(args.theme, (width, height), args.case, args.shoes, args.sort, args.top)


if __name__ == "__main__":
    main()
