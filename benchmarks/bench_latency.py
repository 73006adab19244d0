"""Live feed latency: controller publish -> coup applied -> frame flipped, through mosquitto.

Starts a private mosquitto on a free loopback port, the simulated controller
dealing at a fixed pace, and the kiosk (pygame, dummy video driver, 1920x1080,
journal on) reading the feed.  For each of 200 coups it takes the time just
before the controller's ``publish`` call, when the display applied it (after
validation and the fsync'd journal write) and when ``pygame.display.update``
that shows it returned.  Target (issue 5): p99 publish -> flip <= 50 ms.

Run: ``SDL_VIDEODRIVER=dummy python benchmarks/bench_latency.py [--coups N] [--pace S]``
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from scoreboard.app import Kiosk
from scoreboard.config import Endpoint, MqttConfig
from scoreboard.controller import Controller
from scoreboard.core.events import Event
from scoreboard.core.shoe import Dealer, timed
from scoreboard.core.table import Limits, TableState
from scoreboard.core.variants import VARIANTS
from scoreboard.feeds.mqtt import MqttFeed
from scoreboard.journal import Journal
from scoreboard.protocol import CoupReceived, Topics
from scoreboard.theme import load_theme


def start_mosquitto(directory: Path) -> tuple[subprocess.Popen, int]:
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


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


Key = tuple[str, int]


class Stamps:
    """When each coup was published, applied by the display and flipped onto the screen."""

    def __init__(self) -> None:
        self.published: dict[Key, float] = {}
        self.applied: dict[Key, float] = {}
        self.flipped: dict[Key, float] = {}
        self.last_flip = 0.0

    def on_applied(self, event: Event, _received: float) -> None:
        if isinstance(event, CoupReceived):
            self.applied[(event.shoe, event.game.number)] = time.perf_counter()


def timed_controller(endpoint: Endpoint, stamps: Stamps) -> Controller:
    """A controller that notes the time just before each coup's publish call."""

    class TimedController(Controller):
        def publish(self, event: Event, *, retain: bool = False) -> None:
            if isinstance(event, CoupReceived):
                stamps.published[(event.shoe, event.game.number)] = time.perf_counter()
            super().publish(event, retain=retain)

    return TimedController(endpoint, limits=Limits.default_for(VARIANTS["commission"]))


def watch_flips(stamps: Stamps) -> None:
    """Note when ``pygame.display.update`` returns: the frame is on its way to the screen."""
    real_update = pygame.display.update

    def timed_update(*rects: object) -> None:
        real_update(*rects)
        stamps.last_flip = time.perf_counter()

    pygame.display.update = timed_update


def deal(controller: Controller, coups: int, pace: float, done: threading.Event) -> None:
    """Deal shoe after shoe until ``coups`` coups are out, then flush."""
    controller.start()
    count = 0
    for event in Dealer(seed=2026):
        controller.deal(timed([event], pace, 0.0))
        if isinstance(event, CoupReceived):
            count += 1
            if count >= coups:
                break
    controller.flush(10)
    done.set()


def drive(kiosk: Kiosk, stamps: Stamps, done: threading.Event, coups: int, budget: float) -> None:
    """Run the kiosk loop until every coup was seen applied (or the budget is spent)."""
    seen: set[Key] = set()
    deadline = time.monotonic() + budget
    while time.monotonic() < deadline:
        kiosk.step(time.monotonic())
        for key in stamps.applied.keys() - seen:
            seen.add(key)
            if stamps.last_flip >= stamps.applied[key]:
                stamps.flipped[key] = stamps.last_flip
        if done.is_set() and len(seen) >= coups:
            return
        wait = kiosk.timeout(time.monotonic())
        pygame.event.wait(max(1, round(min(wait, 0.5) * 1000)))
        pygame.event.clear()


def report(stamps: Stamps, pace: float, width: int, height: int) -> int:
    """Print the latencies; the number of coups measured."""
    keys = [key for key in stamps.published if key in stamps.flipped]
    to_applied = [(stamps.applied[k] - stamps.published[k]) * 1000 for k in keys]
    to_flip = [(stamps.flipped[k] - stamps.published[k]) * 1000 for k in keys]
    print(f"coups measured: {len(keys)} of {len(stamps.published)} published, pace {pace}s, "
          f"{width}x{height}, MQTT 5 QoS 1, journal fsync on")  # fmt: skip
    for name, values in (("publish -> applied", to_applied), ("publish -> flip", to_flip)):
        print(
            f"{name:20s} p50 {statistics.median(values):6.2f} ms   "
            f"p99 {percentile(values, 0.99):6.2f} ms   max {max(values):6.2f} ms"
        )
    ok = percentile(to_flip, 0.99) <= 50.0
    print("target p99 publish -> flip <= 50 ms:", "met" if ok else "NOT met")
    return len(keys)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--coups", type=int, default=200)
    parser.add_argument("--pace", type=float, default=0.1, help="seconds between coups")
    parser.add_argument("--size", default="1920x1080")
    args = parser.parse_args()
    width, height = (int(x) for x in args.size.split("x"))

    work = Path(tempfile.mkdtemp(prefix="bench-latency-"))
    broker, port = start_mosquitto(work)
    endpoint = Endpoint(MqttConfig(port=port), Topics("bench/v1/T1"))
    stamps = Stamps()
    controller = timed_controller(endpoint, stamps)
    table = TableState()
    with Journal(work / "state") as journal:
        journal.replay(table)
        feed = MqttFeed(endpoint, display_id="bench", journal=journal)
        feed.session.on_applied = stamps.on_applied
        kiosk = Kiosk(feed, table, load_theme("classic"), windowed=True, size=(width, height))
        watch_flips(stamps)
        feed.start(kiosk.wake)
        while not feed.session.connected:
            feed.poll(table, time.monotonic())
            time.sleep(0.01)
        done = threading.Event()
        dealer = threading.Thread(
            target=deal, args=(controller, args.coups, args.pace, done), daemon=True
        )
        dealer.start()
        drive(kiosk, stamps, done, args.coups, args.coups * args.pace * 3 + 60)
        controller.stop()
        feed.stop()
    broker.terminate()
    broker.wait()
    shutil.rmtree(work, ignore_errors=True)
    return 0 if report(stamps, args.pace, width, height) >= args.coups else 1


if __name__ == "__main__":
    sys.exit(main())
