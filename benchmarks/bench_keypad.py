"""The dealer keypad through the real kiosk loop: how late a key is stamped, at what cost.

pygame-ce's key events carry no time, so the kiosk stamps each when it takes it
and the keypad's debounce (a press within 50 ms of the same key's release is the
same press) judges those stamps.  Where SDL cannot wait for input (KMSDRM, the
dummy driver used here) the sleeping kiosk looks for keys every 20 ms, every
5 ms while a key is in play; before issue 22 it looked every 0.1 s.  For both
cadences this runs ``Kiosk.run`` (1920x1080, ``classic``, motion on) while a
thread posts ``--pairs`` pairs of real presses of keypad 1 (each held 50-120 ms,
released 60-100 ms before the next: two coups a pair), and reports:

- the stamp lag (stamp minus the moment the event was posted) of each pair's
  first press, and of the three events after it (a key in play);
- the coups entered, of the two per pair typed;
- the idle CPU of the same kiosk over ``--seconds`` with no key.

The box's load shows in the lags: it is printed with them.

Run: ``.venv/bin/python benchmarks/bench_keypad.py [--pairs 30] [--seconds 20] [--seed 7]``
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import threading
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame

import scoreboard.kiosk.loop as app
import scoreboard.kiosk.window as window
from scoreboard.keypad.feed import KeypadFeed
from scoreboard.screen.theme.loading import load_theme
from scoreboard.table.state import TableState

CADENCES = {"every 0.1 s (before)": (0.1, 0.1), "20 ms, 5 ms in play": (0.02, 0.005)}


class StampedFeed(KeypadFeed):
    """The keypad feed, keeping every stamp the kiosk gave a key."""

    def __init__(self) -> None:
        super().__init__(wall_clock=time.time)
        self.stamps: list[float] = []

    def key(self, key: str, down: bool, now: float) -> None:
        self.stamps.append(now)
        super().key(key, down, now)


def kiosk_over(feed: KeypadFeed, table: TableState) -> app.Kiosk:
    return app.Kiosk(feed, table, load_theme("classic"), windowed=True, size=(1920, 1080))


def typed(pairs: int, seed: int) -> tuple[list[float], list[float], int]:
    """Lags (ms) of first presses and of keys in play, and the coups entered."""
    rng = random.Random(seed)
    table, feed = TableState(), StampedFeed()
    kiosk = kiosk_over(feed, table)
    posted: list[float] = []

    def typist() -> None:
        for _ in range(pairs):
            time.sleep(rng.uniform(0.3, 0.6))
            for down, then in ((1, (0.05, 0.12)), (0, (0.06, 0.1)), (1, (0.05, 0.12)), (0, (0, 0))):
                posted.append(time.monotonic())
                kind = pygame.KEYDOWN if down else pygame.KEYUP
                pygame.event.post(pygame.event.Event(kind, key=pygame.K_KP1))
                time.sleep(rng.uniform(*then))

    thread = threading.Thread(target=typist)
    thread.start()
    while thread.is_alive():
        kiosk.run(run_for=1.0)
    kiosk.run(run_for=0.5)
    pygame.display.quit()
    lags = [1000 * (stamp - at) for stamp, at in zip(feed.stamps, posted, strict=True)]
    return lags[0::4], [lag for n, lag in enumerate(lags) if n % 4], len(table.games)


def idle_cpu(seconds: float) -> float:
    """Percent of one core the keypad kiosk takes waiting for a key."""
    kiosk = kiosk_over(KeypadFeed(), TableState())
    kiosk.run(run_for=2.0)
    cpu, wall = time.process_time(), time.monotonic()
    kiosk.run(run_for=seconds)
    used = 100 * (time.process_time() - cpu) / (time.monotonic() - wall)
    pygame.display.quit()
    return used


def spread(lags: list[float]) -> str:
    return f"{statistics.median(lags):.1f} / {max(lags):.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--pairs", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} at start")
    print("| sleep looks for keys | first press lag, ms (median / max) "
          "| in play lag, ms | coups entered | idle CPU, % of a core |")  # fmt: skip
    print("|---|---:|---:|---:|---:|")
    for name, (idle, in_play) in CADENCES.items():
        window.KEY_IDLE_SECONDS, window.KEY_POLL_SECONDS = idle, in_play
        first, rest, coups = typed(args.pairs, args.seed)
        cpu = idle_cpu(args.seconds)
        print(f"| {name} | {spread(first)} | {spread(rest)} | {coups} of {2 * args.pairs} "
              f"| {cpu:.2f} |")  # fmt: skip
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
