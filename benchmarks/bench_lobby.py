"""The lobby's costs (issue 13): a page of 48 tiles, a coup on one table, 200 tables, memory.

Cases, each timed ``--repeat`` times (median and 90th percentile in ms, and
the process CPU time of the median's kind), on a floor of simulated tables
(``scoreboard.lobby.sample``: seeded shoes dealt by the real rules):

- **page of 48, whole**: a new page of 48 tiles drawn from nothing (what a page
  turn costs), at each ``--sizes``;
- **one coup, one tile**: a table of a 48-tile page gets a coup (its retained
  snapshot, one game longer, as bytes: validated as a display validates them,
  then applied) and the lobby's loop step runs: every table's view, the sort,
  the page, the one dirty tile drawn;
- **200 tables, a step**: the same step on a floor of 200 tables (pages of 48);
- **200 tables at a coup every 30 s**: the step's cost x 200/30 coups a second,
  as a share of one core (issue 13's target: under 10 %);
- **memory over 1,000 shoes**: one table fed a whole shoe's snapshots after
  another; the Python heap (tracemalloc) after 100 and after 1,000 shoes.

Speed is measured here, never asserted.  Run:
``.venv/bin/python benchmarks/bench_lobby.py [--sizes 1920x1080,3840x2160] [--repeat N] [--smoke]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import tracemalloc

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from scoreboard.game.events import Origin, Snapshot
from scoreboard.lobby import Listing, LobbyTable, SortKey, arrange, paged
from scoreboard.lobby.sample import dealt_games, sample_floor
from scoreboard.protocol import Topics, parse_message, wire
from scoreboard.screen.theme.loading import load_theme
from scoreboard.screen.wall.renderer import LobbyRenderer

NOW = 1_800_000_000.0


def timed(run, repeat: int) -> tuple[float, float, float]:
    """(median ms, p90 ms, median CPU ms) of ``repeat`` calls of ``run``."""
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        run()
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    walls.sort()
    return statistics.median(walls), walls[int(0.9 * (len(walls) - 1))], statistics.median(cpus)


def line(case: str, figures: tuple[float, float, float], note: str = "") -> None:
    median, p90, cpu = figures
    print(f"{case:<40} {median:8.2f} {p90:8.2f} {cpu:8.2f}  {note}")


def whole_page(theme, size: tuple[int, int], repeat: int) -> None:
    floor = sample_floor(48, now=NOW)
    views = arrange(floor.views(NOW, 300), SortKey.PIT)
    renderer = LobbyRenderer(theme, size)
    renderer.draw(views, page=0, pages=2, connected=True)  # fonts and sprites warm
    turn = iter(range(1, 10**9))
    figures = timed(
        lambda: renderer.draw(views, page=next(turn) % 2, pages=2, connected=True), repeat
    )
    line(f"page of 48, whole, {size[0]}x{size[1]}", figures, "target < 20 ms at 1080p")


class Step:
    """The lobby loop's step after one coup: views, sort, page, draw what changed."""

    def __init__(self, theme, size, tables: int) -> None:
        self.floor = sample_floor(tables, now=NOW)
        self.renderer = LobbyRenderer(theme, size)
        self.coups = 0
        self.step()

    def step(self) -> None:
        views = arrange(self.floor.views(NOW, 300), SortKey.PIT)
        pages = paged(views, 48)
        self.renderer.draw(pages[0], page=0, pages=len(pages), connected=True)

    def coup(self) -> None:
        """One more game on a table of the page shown: its next retained snapshot as it
        arrives (bytes validated as a display validates them, then applied), and the step."""
        entry = self.floor.tables["T4"]
        self.coups += 1
        topic, payload = self.payloads[self.coups % len(self.payloads)]
        entry.take(parse_message(self.topics, topic, payload), NOW)
        self.step()

    def prepare(self, count: int) -> None:
        """The snapshots a table publishes over ``count`` coups, encoded beforehand."""
        shoe, games = dealt_games(4, 80)
        self.topics = Topics("baccarat/v2/T4")
        self.payloads = [
            wire(self.topics, Snapshot(shoe, games[: 10 + n % 70], origin=Origin(2, 10 + n)))
            for n in range(1, count + 1)
        ]


def one_coup(theme, size, tables: int, repeat: int) -> float:
    step = Step(theme, size, tables)
    step.prepare(repeat)
    figures = timed(step.coup, repeat)
    line(f"{tables} tables, a coup, one tile", figures, "snapshot parsed, applied, drawn")
    return figures[2]


def memory(shoes: int) -> None:
    entry = LobbyTable(Listing("T1"))
    tracemalloc.start()
    marks = {}
    for number in range(1, shoes + 1):
        shoe, games = dealt_games(number, 70)
        entry.take(Snapshot(f"S{number}-{shoe}", games, origin=Origin(1, number)), NOW)
        entry.view(NOW, 300)
        if number in (shoes // 10, shoes):
            marks[number] = tracemalloc.get_traced_memory()[0] / 1024
    tracemalloc.stop()
    first, last = marks[shoes // 10], marks[shoes]
    print(
        f"{'memory over ' + str(shoes) + ' shoes':<40} {first:8.0f} KiB after {shoes // 10},"
        f" {last:8.0f} KiB after {shoes}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1920x1080,3840x2160")
    parser.add_argument("--theme", default="classic")
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--shoes", type=int, default=1000)
    parser.add_argument("--smoke", action="store_true", help="a few repeats (the test's run)")
    args = parser.parse_args(argv)
    if args.smoke:
        args.repeat, args.shoes = 3, 20
    sizes = [tuple(int(n) for n in size.split("x")) for size in args.sizes.split(",")]
    pygame.display.init()
    pygame.display.set_mode((1, 1))
    theme = load_theme(args.theme)
    print(
        f"lobby benchmark, theme {args.theme}, load {os.getloadavg()[0]:.1f}, "
        f"{args.repeat} runs; median p90 cpu-median (ms)"
    )
    for size in sizes:
        whole_page(theme, size, args.repeat)
    first = sizes[0]
    one_coup(theme, first, 48, args.repeat)
    cpu = one_coup(theme, first, 200, args.repeat)
    share = cpu / 1000 * 200 / 30 * 100
    print(f"{'200 tables at a coup every 30 s':<40} {share:8.2f} % of a core  target < 10 %")
    memory(args.shoes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
