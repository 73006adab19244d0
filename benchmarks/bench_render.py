"""Render benchmarks: full frames at 1080p and 4K, one coup's update, idle CPU.

Run with ``SDL_VIDEODRIVER=dummy python benchmarks/bench_render.py [--quick]``
(``make bench`` does).  Targets (issue 4): full frame median <= 10 ms at
1920x1080 and <= 30 ms at 3840x2160; idle CPU of the demo between coups < 2 %
of one core (``scoreboard bench``'s own measure: ``scoreboard/bench/idle.py``).
These frames are the renderer's alone, from warm caches, without the copy to
the display: what the screen sees, through the kiosk's loop, is
``bench_frame.py`` (and ``scoreboard bench``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from scoreboard.bench.idle import idle_cpu
from scoreboard.bench.kiosk import Board, shoe_events, shoe_games
from scoreboard.game.events import CoupReceived
from scoreboard.game.shoe import Dealer
from scoreboard.kiosk.loop import Kiosk
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.loading import load_theme
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState, apply_event

REPEAT = 30


def full_frames(theme_name: str, size: tuple[int, int]) -> tuple[float, float]:
    """Median ms of a full frame (everything redrawn) and of one coup's update."""
    renderer = Renderer(load_theme(theme_name), size)
    table = TableState(table_id="T1")
    for event in shoe_events("bench", shoe_games(seed=1, coups=60)):
        apply_event(table, event)  # type: ignore[arg-type]
    renderer.render(table, FeedStatus.DEMO, clock="12:00")  # warm the caches
    full = []
    for _ in range(REPEAT):
        start = time.perf_counter()
        renderer.render(table, FeedStatus.DEMO, clock="12:00")
        full.append((time.perf_counter() - start) * 1000)
    coups = []
    games = [e.game for e in Dealer(seed=2).shoe() if isinstance(e, CoupReceived)]
    table = TableState()
    table.new_shoe("bench")
    renderer.render(table, FeedStatus.DEMO, clock="12:00")
    for game in games[:REPEAT]:
        table.add_game(game)
        start = time.perf_counter()
        renderer.update(table, FeedStatus.DEMO, clock="12:00")
        coups.append((time.perf_counter() - start) * 1000)
    return statistics.median(full), statistics.median(coups)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="classic only, shorter idle runs")
    quick = parser.parse_args().quick
    pygame.display.init()
    pygame.font.init()
    print("renderer only (no copy to the display), warm caches, medians")
    print(f"{'theme':<10} {'size':<10} {'full frame ms':>14} {'one coup ms':>12}")
    for theme in ("classic",) if quick else ("classic", "midnight", "contrast"):
        for size in ((1920, 1080), (3840, 2160), (1080, 1920)):
            full, coup = full_frames(theme, size)
            print(f"{theme:<10} {size[0]}x{size[1]:<5} {full:>14.1f} {coup:>12.1f}")
    print(f"video driver: {os.environ['SDL_VIDEODRIVER']}")
    idle, dealing = (5.0, 8.0) if quick else (10.0, 20.0)
    between = idle_cpu(Board(Kiosk), idle)
    print(f"idle CPU of the demo between coups: {between.percent:.2f} % of one core")
    busy = idle_cpu(Board(Kiosk), dealing, pace=4.0)
    print(f"CPU of the demo dealing every 4 s ({dealing:g} s): {busy.percent:.2f} % of one core")
    pygame.display.quit()


if __name__ == "__main__":
    main()
