"""Live feed latency: controller publish -> coup applied -> frame flipped, through mosquitto.

Starts a private mosquitto on a free loopback port, the simulated controller
dealing at a fixed pace (in a thread), and the kiosk (pygame, dummy video
driver, journal on) reading the feed, run by its own loop (``Kiosk.run``: it
sleeps until the feed's thread wakes it).  For each coup it takes the time
just before the controller's ``publish`` call, when the display applied it
(after validation and the fsync'd journal write) and when the
``pygame.display.update`` (or ``flip``) of the frame that shows it returned.
Publisher and display share one process and one clock.

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
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import sidebyside as sbs

SCRIPT = Path(__file__).resolve()
TARGETS = {(1920, 1080): 30.0, (3840, 2160): 50.0}
CASES = ("publish -> applied", "publish -> flip")

Key = tuple[str, int]


def start_mosquitto(directory: Path) -> tuple[subprocess.Popen[bytes], int]:
    binary = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    conf = directory / "mosquitto.conf"
    lines = [f"listener {port} 127.0.0.1", "persistence false", "allow_anonymous true"]
    if os.geteuid() == 0:
        lines.append("user root")
    conf.write_text("\n".join(lines) + "\n")
    process = subprocess.Popen([binary, "-c", str(conf)], stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return process, port
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise SystemExit("mosquitto did not start")


class Stamps:
    """When each coup was published, applied by the display and flipped onto the screen."""

    def __init__(self, coups: int) -> None:
        self.coups = coups
        self.published: dict[Key, float] = {}
        self.applied: dict[Key, float] = {}
        self.flipped: dict[Key, float] = {}
        self.dealt = threading.Event()

    def on_applied(self, event: object, _received: float) -> None:
        from scoreboard.core.events import CoupReceived

        if isinstance(event, CoupReceived):
            self.applied[(event.shoe, event.game.number)] = time.perf_counter()

    def on_flip(self) -> bool:
        """A frame reached the screen: it shows every coup applied before it; True when done."""
        now = time.perf_counter()
        for key in self.applied.keys() - self.flipped.keys():
            self.flipped[key] = now
        return self.dealt.is_set() and len(self.flipped) >= self.coups


def watch_flips(stamps: Stamps, kiosk: Any) -> None:
    """Note when ``pygame.display.update``/``flip`` returns; stop the kiosk once all are shown."""
    import pygame

    def timed(real: Any) -> Any:
        def call(*args: object) -> object:
            result = real(*args)
            if stamps.on_flip():
                kiosk.running = False
            return result

        return call

    pygame.display.update = timed(pygame.display.update)
    pygame.display.flip = timed(pygame.display.flip)


def table_limits() -> Any:
    """The controller's limits, built from public fields (no default the display might drop)."""
    from scoreboard.core.limits import Limits
    from scoreboard.core.variants import VARIANTS

    bets = {"player": (25, 10000), "banker": (25, 10000), "tie": (5, 1000)}
    return Limits(currency="USD", bets=bets, pays=VARIANTS["commission"].pays())


def deal(controller: Any, feed: Any, stamps: Stamps, coups: int, pace: float) -> None:
    """Wait for the display to connect, deal ``coups`` coups shoe after shoe, then flush."""
    from scoreboard.core.events import CoupReceived
    from scoreboard.core.shoe import Dealer, timed

    deadline = time.monotonic() + 30
    while not feed.session.connected and time.monotonic() < deadline:
        time.sleep(0.01)
    controller.start()
    count = 0
    for event in Dealer(seed=2026):
        controller.deal(timed([event], pace, 0.0))
        if isinstance(event, CoupReceived):
            count += 1
            if count >= coups:
                break
    controller.flush(10)
    stamps.dealt.set()


def timed_controller(endpoint: Any, stamps: Stamps) -> Any:
    """A controller that notes the time just before each coup's publish call."""
    from scoreboard.controller import Controller
    from scoreboard.core.events import CoupReceived

    class TimedController(Controller):
        def publish(self, event: Any, *, retain: bool = False) -> None:
            if isinstance(event, CoupReceived):
                stamps.published[(event.shoe, event.game.number)] = time.perf_counter()
            super().publish(event, retain=retain)

    return TimedController(endpoint, limits=table_limits())


def kiosk_options(motion: str) -> dict[str, Any]:
    """Nothing for the kiosk as shipped; a renderer with motion off (where it has motion)."""
    from kiosk_frames import renderer_factory

    return {} if motion == "shipped" else {"renderer": renderer_factory(False)}


def measure(size: tuple[int, int], coups: int, pace: float, motion: str) -> dict[str, Any]:
    """One run at one size in this interpreter's tree: the raw latencies in ms."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import scoreboard
    from scoreboard.app import Kiosk
    from scoreboard.config import Endpoint, MqttConfig
    from scoreboard.core.table import TableState
    from scoreboard.feeds.mqtt import MqttFeed
    from scoreboard.journal import Journal
    from scoreboard.protocol import Topics
    from scoreboard.theme import load_theme

    before = sbs.machine()
    work = Path(tempfile.mkdtemp(prefix="bench-latency-"))
    broker, port = start_mosquitto(work)
    endpoint = Endpoint(MqttConfig(port=port), Topics("bench/v1/T1"))
    stamps = Stamps(coups)
    controller = timed_controller(endpoint, stamps)
    table = TableState()
    try:
        with Journal(work / "state") as journal:
            journal.replay(table)
            feed = MqttFeed(endpoint, display_id="bench", journal=journal)
            feed.session.on_applied = stamps.on_applied
            kiosk = Kiosk(
                feed,
                table,
                load_theme("classic"),
                windowed=True,
                size=size,
                **kiosk_options(motion),
            )
            watch_flips(stamps, kiosk)
            dealer = threading.Thread(
                target=deal, args=(controller, feed, stamps, coups, pace), daemon=True
            )
            dealer.start()
            kiosk.run(run_for=coups * pace * 3 + 60)
            controller.stop()
    finally:
        broker.terminate()
        broker.wait()
        shutil.rmtree(work, ignore_errors=True)
    keys = [key for key in stamps.published if key in stamps.flipped and key in stamps.applied]
    applied = [(stamps.applied[k] - stamps.published[k]) * 1000 for k in keys]
    flipped = [(stamps.flipped[k] - stamps.published[k]) * 1000 for k in keys]
    return {
        "scoreboard": scoreboard.__file__,
        "published": len(stamps.published),
        "shown": len(keys),
        "samples": {CASES[0]: {"wall": applied}, CASES[1]: {"wall": flipped}},
        "load": [before["load"], sbs.machine()["load"]],
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
        figures = [sbs.Figure.of(r["samples"][case]["wall"]) for r in results]
        if case == CASES[1]:
            table.append(sbs.Row(case, figures, limit, f"p99 <= {limit:g} ms" if limit else ""))
        else:
            table.append(sbs.Row(case, figures))
    return table


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--compare",
        action="append",
        metavar="[LABEL=]TREE",
        help="a checkout to measure beside this one (repeat for more: base, then others)",
    )
    parser.add_argument("--tree", type=Path, help="the tree to measure (default: this one)")
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
