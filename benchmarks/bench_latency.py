"""Live feed latency: controller publish -> coup applied -> frame flipped, through mosquitto.

The measuring is ``scoreboard bench``'s (``scoreboard/bench/latency.py`` and
its private mosquitto on a free loopback port, ``broker.py``): the simulated
controller dealing at a fixed pace (in a thread), and the kiosk (pygame, dummy
video driver, journal on) reading the feed, run by its own loop.  For each
coup: just before the controller's ``publish`` call, when the display applied
it (after validation and the fsync'd journal write) and when the
``pygame.display.update`` of the frame that shows it returned.  Publisher and
display share one process and one clock.

Each size runs in a fresh process per tree, like ``bench_frame.py``; with
``--compare BASE`` the baseline tree runs the same script in its own venv and
both columns print in one table.  Targets (issue 10, 2-core machine): p99
publish -> flip <= 30 ms at 1920x1080 and <= 50 ms at 3840x2160.  The load
average before and after is printed: on a shared 2-core box it moves p99 most.

Run: ``.venv/bin/python benchmarks/bench_latency.py [--compare BASE] [--sizes
1920x1080,3840x2160] [--coups N] [--pace S] [--motion shipped|off] [--quick]``;
it exits non-zero if a coup was never shown.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import sidebyside as sbs
import this_tree

SCRIPT = Path(__file__).resolve()
TARGETS = {(1920, 1080): 30.0, (3840, 2160): 50.0}
CASES = ("publish -> applied", "publish -> flip")


def measure(size: tuple[int, int], coups: int, pace: float, motion: str) -> dict[str, Any]:
    """One run at one size in this interpreter's tree: the raw latencies in ms.

    The broker and the measuring are ``scoreboard bench``'s own (this tree's,
    see ``this_tree.py``); the kiosk, the feed and the controller are the tree's.
    """
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import scoreboard
    from scoreboard.kiosk.loop import Kiosk

    broker, latency = this_tree.bench("broker"), this_tree.bench("latency")
    shipped = None if motion == "shipped" else False  # None: the kiosk as shipped
    board = this_tree.bench("kiosk").Board(Kiosk, "classic", size, motion=shipped)
    before = sbs.machine()
    with (
        tempfile.TemporaryDirectory(prefix="bench-latency-") as work,
        broker.private_broker(Path(work) / "broker") as running,
    ):
        samples = latency.measure_latency(
            board, port=running.port, state_dir=Path(work) / "state", coups=coups, pace=pace
        )
    if samples.failure:
        print(f"bench_latency: {samples.failure}", file=sys.stderr)
    return {
        "scoreboard": scoreboard.__file__,
        "published": samples.published,
        "shown": len(samples.flipped_ms),
        "samples": {CASES[0]: {"wall": samples.applied_ms}, CASES[1]: {"wall": samples.flipped_ms}},
        "load": [before["load_average"], sbs.machine()["load_average"]],
    }


def child(args: argparse.Namespace) -> int:
    result = measure(size_of(args.size), args.coups, args.pace, args.motion)
    print(json.dumps(result))
    return 0


def size_of(text: str) -> tuple[int, int]:
    width, height = (int(part) for part in text.lower().split("x"))
    return width, height


def rows(results: list[dict[str, Any]], size: tuple[int, int]) -> list[sbs.Row]:
    limit = TARGETS.get(size)
    table = []
    for case in CASES:
        figures = [sbs.figure(r["samples"][case]["wall"]) for r in results]
        if case == CASES[1]:
            table.append(sbs.Row(case, figures, limit, f"p99 <= {limit:g} ms" if limit else ""))
        else:
            table.append(sbs.Row(case, figures))
    return table


def main() -> int:
    parser = sbs.parser((__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", "--size", default="1920x1080,3840x2160")
    parser.add_argument("--coups", type=int, default=200)
    parser.add_argument("--pace", type=float, default=0.1, help="seconds between coups")
    parser.add_argument("--motion", choices=("shipped", "off"), default="shipped")
    parser.add_argument("--quick", action="store_true", help="60 coups instead of 200")
    parser.add_argument("--markdown", type=Path, metavar="FILE", help="also write the tables")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.quick:
        args.coups = min(args.coups, 60)
    if args.child:
        args.size = args.sizes
        return child(args)
    where = sbs.trees(args.compare, args.tree)
    blocks, status, loads = [], 0, []
    argv = ["--coups", str(args.coups), "--pace", str(args.pace), "--motion", args.motion]
    for size_text in args.sizes.split(","):
        results = [sbs.run_child(t, SCRIPT, [*argv, "--sizes", size_text]) for t in where]
        for t, result in zip(where, results, strict=True):
            load = "load average {} -> {}".format(*result["load"])
            loads.append(f"{t.label} {size_text}: {result['shown']} of {result['published']} "
                         f"coups shown; {load}")  # fmt: skip
            print(loads[-1])
            status |= result["shown"] < args.coups
        blocks.append((f"classic {size_text}", rows(results, size_of(size_text))))
    print(
        f"{args.coups} coups a run at one every {args.pace} s, MQTT 5 QoS 1, journal fsync on, "
        f"motion: {args.motion}; {'; '.join(f'{t.label} = {t.path}' for t in where)}"
    )
    labels = [t.label for t in where]
    for title, block in blocks:
        sbs.print_table(title, labels, block, p99_only=True)
    if args.markdown is not None:
        text = "\n".join(sbs.markdown(t, labels, b, p99_only=True) for t, b in blocks)
        args.markdown.write_text("\n".join(loads) + "\n\n" + text)
    return status


if __name__ == "__main__":
    sys.exit(main())
