"""A broker restart under a whole floor in one process: how long until every client is back.

Starts a private mosquitto on a free loopback port (no persistence: a restart
forgets every retained message and session, as a power-cycled broker box does),
one ``scoreboard shoe --tables N`` process (N controllers, each its own
connection) and one ``scoreboard lobby`` (dummy video driver).  Once every
table's and the lobby's retained status says online, the broker is stopped for
``--down`` seconds and started again on the same port.  A client counts as back
when its online status is on the restarted broker (each publishes it again on
every connect), read by a plain subscriber started with the broker on a listener
of its own (a second port), so that it is not queued behind the floor's
hundreds of CONNECTs on a listen queue of a hundred and its own arrival is not
what is timed.  Printed:
how many are back at 5, 10, 20 and 30 s, the time until every one is, the
median and 90th percentile of the clients' times, the busiest second of
arrivals, and the lobby's time.

Run: ``.venv/bin/python benchmarks/bench_floor_restart.py [--tables 300] [--down 3]
[--timeout 120]``; exits 1 when some client was not back within the timeout.
Speed is measured here, never asserted by a test (``tests/test_floor_restart.py``
checks on a smaller floor that every client comes back).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from scoreboard.bench.broker import HOST, free_port, private_broker
from scoreboard.bench.machine import stop_all

ROOT = "baccarat/v2"
LOBBY = "storm"
MARKS = (5, 10, 20, 30)


class Statuses:
    """A plain subscriber of every controller's and lobby's status: when each said online."""

    def __init__(self, port: int) -> None:
        self.lock = threading.Lock()
        self.online_at: dict[str, float] = {}
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id=f"bench-watch-{uuid.uuid4().hex[:8]}"
        )
        filters = [(f"{ROOT}/+/controller/status", 1), (f"{ROOT}/lobby/+/status", 1)]
        self.client.on_connect = lambda client, *_: client.subscribe(filters)
        self.client.on_message = self._message
        self.client.reconnect_delay_set(1, 1)
        self.client.connect_async(HOST, port, keepalive=30)
        self.client.loop_start()

    def _message(self, _client: object, _userdata: object, message: mqtt.MQTTMessage) -> None:
        parts = message.topic.split("/")
        who = f"lobby {parts[3]}" if parts[2] == "lobby" else parts[2]
        try:
            online = bool(json.loads(message.payload).get("online"))
        except (ValueError, AttributeError):
            return
        with self.lock:
            if online:
                self.online_at.setdefault(who, time.monotonic())
            else:
                self.online_at.pop(who, None)

    def back(self) -> dict[str, float]:
        with self.lock:
            return dict(self.online_at)

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def wait_all(statuses: Statuses, everyone: set[str], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if everyone <= statuses.back().keys():
            return True
        time.sleep(0.05)
    return everyone <= statuses.back().keys()


def enough_files(wanted: int) -> None:
    """Raise the soft open-files limit (children inherit it): the broker holds every client."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        top = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (top, hard))


def start(argv: list[str], log: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    with open(log, "wb") as out:
        return subprocess.Popen([sys.executable, "-m", "scoreboard", *argv], stderr=out, env=env)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report(args: argparse.Namespace, times: dict[str, float], everyone: set[str]) -> bool:
    """The figures, one line each; True when every client was back."""
    missing = sorted(everyone - times.keys(), key=lambda who: (len(who), who))
    print(f"broker down {args.down:g} s under {args.tables} tables in one process and a lobby")
    print("back after: " + ", ".join(
        f"{mark} s {sum(t <= mark for t in times.values())}/{len(everyone)}" for mark in MARKS
    ))  # fmt: skip
    values = list(times.values())
    if values:
        per_second = collections.Counter(int(t) for t in values)
        print(
            f"clients' times: p50 {percentile(values, 0.5):.1f} s, "
            f"p90 {percentile(values, 0.9):.1f} s, busiest second {max(per_second.values())}"
        )
    lobby = times.get(f"lobby {LOBBY}")
    print(f"lobby back after {lobby:.1f} s" if lobby is not None else "lobby NOT back")
    if missing:
        print(f"NOT ALL BACK within {args.timeout:g} s: {len(missing)} missing ({missing[:10]})")
        return False
    print(f"all {len(everyone)} back after {max(values):.1f} s (broker listening -> last online)")
    return True


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--pace", type=float, default=5.0, help="seconds per coup per table")
    parser.add_argument("--down", type=float, default=3.0, help="seconds the broker stays down")
    parser.add_argument("--settle", type=float, default=5.0, help="seconds dealt before the stop")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--keep", type=Path, metavar="DIR", help="keep the logs in DIR")
    return parser.parse_args()


def storm(args: argparse.Namespace, work: Path, everyone: set[str]) -> dict[str, float] | None:
    """The floor and the lobby up, the broker restarted: each client's time back, or None."""
    watch_port = free_port()
    with private_broker(work / "broker", extra=[f"listener {watch_port} {HOST}"]) as broker:
        address = f"{HOST}:{broker.port}"
        shoe = ["shoe", "--tables", str(args.tables), "--mqtt", address]
        shoe += ["--pace", str(args.pace), "--seed", "22", "--limit-tiers", "--currency", "USD"]
        lobby = ["lobby", "--mqtt", address, "--lobby-id", LOBBY, "--windowed"]
        lobby += ["--size", "960x540", "--duration", "86400"]
        processes = [start(shoe, work / "shoe.log"), start(lobby, work / "lobby.log")]
        try:
            statuses = Statuses(watch_port)
            up = wait_all(statuses, everyone, args.timeout)
            statuses.stop()
            if not up:
                print(f"the floor never came up: {len(statuses.back())}/{len(everyone)}")
                return None
            time.sleep(args.settle)
            broker.restart(args.down)
            listening = time.monotonic()
            statuses = Statuses(watch_port)
            wait_all(statuses, everyone, args.timeout)
            statuses.stop()
            return {who: at - listening for who, at in statuses.back().items()}
        finally:
            stop_all(processes)


def main() -> int:
    args = parse_args()
    enough_files(4 * args.tables + 1024)
    everyone = {f"T{n}" for n in range(1, args.tables + 1)} | {f"lobby {LOBBY}"}
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
        times = storm(args, args.keep, everyone)
    else:
        with tempfile.TemporaryDirectory(prefix="bench-floor-restart-") as work:
            times = storm(args, Path(work), everyone)
    return 0 if times is not None and report(args, times, everyone) else 1


if __name__ == "__main__":
    sys.exit(main())
