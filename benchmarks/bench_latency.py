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
from scoreboard.config import MqttConfig
from scoreboard.core.shoe import Dealer, timed
from scoreboard.core.table import Limits, TableState
from scoreboard.core.variants import VARIANTS
from scoreboard.feeds.controller import Controller
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--coups", type=int, default=200)
    parser.add_argument("--pace", type=float, default=0.1, help="seconds between coups")
    parser.add_argument("--size", default="1920x1080")
    args = parser.parse_args()
    width, height = (int(x) for x in args.size.split("x"))

    work = Path(tempfile.mkdtemp(prefix="bench-latency-"))
    broker, port = start_mosquitto(work)
    settings = MqttConfig(port=port)
    topics = Topics("bench/v1/T1")
    published: dict[tuple[str, int], float] = {}
    applied: dict[tuple[str, int], float] = {}
    flipped: dict[tuple[str, int], float] = {}

    class TimedController(Controller):
        def publish(self, event, *, retain=False):
            if isinstance(event, CoupReceived):
                published[(event.shoe, event.game.number)] = time.perf_counter()
            super().publish(event, retain=retain)

    controller = TimedController(
        settings, topics=topics, limits=Limits.default_for(VARIANTS["commission"])
    )
    table = TableState()
    journal = Journal(work / "state")
    journal.replay(table)
    feed = MqttFeed(settings, topics=topics, display_id="bench", journal=journal)

    def on_applied(event, received):
        if isinstance(event, CoupReceived):
            applied[(event.shoe, event.game.number)] = time.perf_counter()

    feed.on_applied = on_applied
    kiosk = Kiosk(feed, table, load_theme("classic"), windowed=True, size=(width, height))
    real_update = pygame.display.update
    last_flip = [0.0]

    def timed_update(*rects):
        real_update(*rects)
        last_flip[0] = time.perf_counter()

    pygame.display.update = timed_update
    feed.start(kiosk.wake)
    while not feed.connected:
        feed.poll(table, time.monotonic())
        time.sleep(0.01)

    done = threading.Event()

    def deal():
        controller.start()
        dealer = Dealer(seed=2026)
        # Enough shoes for the coups asked for; stop as soon as they are out.
        events = iter(dealer)
        count = 0
        for event in events:
            controller.deal(timed([event], args.pace, 0.0))
            if isinstance(event, CoupReceived):
                count += 1
                if count >= args.coups:
                    break
        controller.flush(10)
        done.set()

    dealer_thread = threading.Thread(target=deal, daemon=True)
    dealer_thread.start()
    seen: set[tuple[str, int]] = set()
    deadline = time.monotonic() + args.coups * args.pace * 3 + 60
    while time.monotonic() < deadline:
        kiosk.step(time.monotonic())
        for key in applied.keys() - seen:
            seen.add(key)
            if last_flip[0] >= applied[key]:
                flipped[key] = last_flip[0]
        if done.is_set() and len(seen) >= args.coups:
            break
        wait = kiosk.timeout(time.monotonic())
        pygame.event.wait(max(1, round(min(wait, 0.5) * 1000)))
        pygame.event.clear()
    controller.stop()
    feed.stop()
    broker.terminate()
    broker.wait()
    shutil.rmtree(work, ignore_errors=True)

    keys = [key for key in published if key in flipped]
    to_applied = [(applied[k] - published[k]) * 1000 for k in keys]
    to_flip = [(flipped[k] - published[k]) * 1000 for k in keys]
    print(f"coups measured: {len(keys)} of {len(published)} published, pace {args.pace}s, "
          f"{width}x{height}, MQTT 5 QoS 1, journal fsync on")  # fmt: skip
    for name, values in (("publish -> applied", to_applied), ("publish -> flip", to_flip)):
        print(
            f"{name:20s} p50 {statistics.median(values):6.2f} ms   "
            f"p99 {percentile(values, 0.99):6.2f} ms   max {max(values):6.2f} ms"
        )
    ok = percentile(to_flip, 0.99) <= 50.0
    print("target p99 publish -> flip <= 50 ms:", "met" if ok else "NOT met")
    return 0 if len(keys) >= args.coups else 1


if __name__ == "__main__":
    sys.exit(main())
