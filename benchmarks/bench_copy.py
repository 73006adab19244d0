"""What a rectangle copy costs by where its rows start (why ``canvas.copy_area`` splits some).

SDL copies rows that start 16-byte aligned with streaming stores, 64 bytes at
a time, and the rest of each row with ordinary stores; when the rows start off
a 64-byte line and are not a multiple of 64 bytes long, that costs about
0.5 µs a row on the development machine.  This times ``frame.blit(static,
rect, rect)`` for a few shapes with the rows starting on a 64-byte line,
16-byte aligned only (the slow case), one pixel further (unaligned: an
ordinary copy), and ``copy_area`` in the slow case (it copies such a
rectangle as its first column, then the rest).  Best of 7 runs of 20 copies,
process CPU time, warm caches (the kiosk's copies run colder).

    .venv/bin/python benchmarks/bench_copy.py [--size 3840x2160]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import pygame

from scoreboard.screen.board.canvas import copy_area

SHAPES = ((57, 57), (120, 300), (248, 355), (256, 355), (1371, 164), (892, 355))
"""Shapes a coup copies: a road cell, a counter, a card, the same 64 bytes wider, a
hand's head strip, a hand's cards."""
HEADS = ("64-aligned", "16-aligned", "unaligned", "copy_area")


def best(call: Callable[[], object], count: int = 20, runs: int = 7) -> float:
    """The best of ``runs`` means of ``count`` calls, in microseconds of process CPU time."""
    means = []
    for _ in range(runs):
        begun = time.process_time()
        for _ in range(count):
            call()
        means.append((time.process_time() - begun) / count * 1e6)
    return min(means)


def start(frame: pygame.Surface, x: int) -> int:
    """The address of pixel ``x`` of the frame's row 40."""
    address: int = frame._pixels_address
    return address + 40 * frame.get_pitch() + 4 * x


def row(frame: pygame.Surface, static: pygame.Surface, w: int, h: int) -> str:
    """One shape's timings, in the order of :data:`HEADS`."""
    lined = next(x for x in range(40, 80) if start(frame, x) % 64 == 0)
    slow = next(x for x in range(40, 80) if start(frame, x) % 64 == 16)
    cells = [pygame.Rect(x, 40, w, h) for x in (lined, slow, slow + 1)]
    times = [best(lambda r=r: frame.blit(static, r, r)) for r in cells]  # type: ignore[misc]
    times.append(best(lambda: copy_area(frame, static, cells[1])))
    return "".join(f" {t:>10.1f}" for t in times)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--size", default="1920x1080,3840x2160")
    args = parser.parse_args()
    print(f"{'frame':>10} {'w x h':>11}" + "".join(f" {h:>10}" for h in HEADS) + "  (us)")
    for text in args.size.split(","):
        width, height = (int(part) for part in text.split("x"))
        frame, static = pygame.Surface((width, height)), pygame.Surface((width, height))
        frame.fill((10, 20, 30))
        static.fill((40, 50, 60))
        for w, h in SHAPES:
            print(f"{text:>10} {w:>4} x {h:<4}" + row(frame, static, w, h))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
