"""A reconnect storm: a floor of tables and displays all cut off by one broker restart (issue 13).

Starts a private mosquitto (no persistence: a restart forgets retained messages
and sessions, as a power-cycled broker box does) on a free loopback port,
``scoreboard shoe --tables`` (N controllers in a few processes, each its own
connection) and N headless displays (:class:`~scoreboard.feeds.mqtt.MqttFeed`
objects polled by a few threads of this process, one table each).  Once every
display shows its table's games, the broker is stopped for ``--down`` seconds
and started again on the same port: every controller and every display
reconnects at once.  Measured:

- time to heal: from the broker listening again until every display is live
  (connected, controller online, no games missing) with exactly the games of its
  table's latest snapshot (a checker client reads every table's snapshots);
- CPU (% of one core) of the broker, the controllers' process and the displays'
  process, over the settle window before the restart and over the heal;
- the resync requests (``cmd/resync``) the displays sent after the restart: in
  all, the most from one display, the busiest second, and how many were asked
  because no snapshot came (the rest: missing games), with the snapshots the
  controllers published meanwhile.

Also watched throughout: any display that says LIVE while it shows fewer games
than its table's latest snapshot (or another shoe) for over 2 s, the screen and
the mark disagreeing.  ``--starve PERCENT`` holds the controllers' processes to
a share of one core (a cgroup; root), as a loaded box does.

Run: ``.venv/bin/python benchmarks/bench_storm.py [--tables 200] [--pace 5] [--bridge]
[--down 2] [--timeout 180] [--threads 4] [--starve 60]``; exits non-zero when the floor did not
heal within the timeout.  Nothing here is asserted by a timed test.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from scoreboard.feeds.mqtt import MqttFeed
from scoreboard.protocol import Topics
from scoreboard.settings.config import MqttConfig
from scoreboard.settings.endpoint import Endpoint
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState

ROOT = "baccarat/v2"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


# -- the broker -----------------------------------------------------------------------------
class Mosquitto:
    """One mosquitto on ``port``; ``restart(down)`` stops it, waits, starts it on the same port."""

    def __init__(self, directory: Path, extra: tuple[str, ...] = ()) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.binary = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        self.conf = directory / "mosquitto.conf"
        lines = [f"listener {self.port} 127.0.0.1", "persistence false", "allow_anonymous true"]
        lines += ["max_queued_messages 1000"]
        lines += ["log_dest none"] if not os.environ.get("STORM_DEBUG") else ["log_dest stderr"]
        if os.geteuid() == 0:
            lines.append("user root")
        lines += extra
        self.conf.write_text("\n".join(lines) + "\n")
        self.process: subprocess.Popen[bytes] | None = None
        self.cpu_before = 0.0  # CPU seconds of earlier runs (a restart is a new process)

    def start(self) -> None:
        self.process = subprocess.Popen(
            [self.binary, "-c", str(self.conf)],
            stderr=None if os.environ.get("STORM_DEBUG") else subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.02)
        raise SystemExit(f"mosquitto did not listen on {self.port}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.cpu_before += cpu_seconds(self.process.pid)
            self.process.terminate()
            self.process.wait(10)
        self.process = None

    def cpu(self) -> float:
        alive = self.process is not None and self.process.poll() is None
        return self.cpu_before + (cpu_seconds(self.process.pid) if alive and self.process else 0)


def bridged_to(floor: Mosquitto) -> tuple[str, ...]:
    """A pit broker's bridge to the floor broker for every table's topics, both ways."""
    return (
        "connection pit-to-floor",
        f"address 127.0.0.1:{floor.port}",
        f"topic {ROOT}/# both 1",
        "restart_timeout 1 2",
        "cleansession true",
    )


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (and its reaped children), from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(value) for value in fields[11:15]) / CLOCK_TICKS


# -- a starved floor: the controllers held to a share of one core ------------------------------
class CpuLimit:
    """A cgroup holding processes to ``percent`` of one core (v2 ``cpu.max`` or v1 CFS quota).

    Needs root and a writable cgroup tree; says so and exits when there is none.
    """

    PERIOD = 100_000  # microseconds

    def __init__(self, percent: float) -> None:
        quota = max(1000, int(self.PERIOD * percent / 100))
        name = f"bench-storm-{os.getpid()}"
        v2, v1 = Path("/sys/fs/cgroup"), Path("/sys/fs/cgroup/cpu")
        try:
            if (v2 / "cgroup.controllers").exists():
                self.path = v2 / name
                self.path.mkdir()
                (self.path / "cpu.max").write_text(f"{quota} {self.PERIOD}")
            else:
                self.path = v1 / name
                self.path.mkdir()
                (self.path / "cpu.cfs_period_us").write_text(str(self.PERIOD))
                (self.path / "cpu.cfs_quota_us").write_text(str(quota))
        except OSError as error:
            raise SystemExit(
                f"--starve needs a writable cgroup cpu controller (root): {error}"
            ) from None

    def hold(self, pid: int) -> None:
        (self.path / "cgroup.procs").write_text(str(pid))

    def remove(self) -> None:
        with contextlib.suppress(OSError):
            self.path.rmdir()


# -- what the controllers published: each table's latest snapshot, every resync ---------------
@dataclass
class Checker:
    """A plain client reading every table's snapshots and every display's resync requests."""

    port: int
    latest: dict[str, tuple[str, int]] = field(default_factory=dict)  # table -> (shoe, games)
    resyncs: list[tuple[float, str, bool]] = field(default_factory=list)  # (time, display, gap)
    snapshots: list[float] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self) -> Checker:
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id=f"checker-{uuid.uuid4().hex[:8]}"
        )
        self.client.on_connect = lambda client, *_: client.subscribe(
            [(f"{ROOT}/+/snapshot", 1), (f"{ROOT}/+/cmd/resync", 1)]
        )
        self.client.on_message = self._message
        self.client.reconnect_delay_set(0.2, 1)
        self.client.connect_async("127.0.0.1", self.port, keepalive=5)
        self.client.loop_start()
        return self

    def _message(self, _client: object, _userdata: object, message: mqtt.MQTTMessage) -> None:
        table = message.topic.split("/")[2]
        try:
            data = json.loads(message.payload)
        except ValueError:
            return
        now = time.monotonic()
        with self.lock:
            if message.topic.endswith("/snapshot"):
                self.snapshots.append(now)
                self.latest[table] = (data["shoe"], len(data.get("coups", [])))
            else:
                self.resyncs.append((now, str(data.get("display")), bool(data.get("missing"))))

    def latest_of(self, table: str) -> tuple[str, int] | None:
        with self.lock:
            return self.latest.get(table)

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


# -- the displays ---------------------------------------------------------------------------
@dataclass
class Board:
    """One headless display of one table: its feed, its table state, its wake-up flag."""

    table_id: str
    feed: MqttFeed
    table: TableState = field(default_factory=TableState)
    woken: bool = True
    due: float | None = None

    def live_with(self, latest: tuple[str, int] | None, now: float) -> bool:
        if latest is None or self.feed.status(now) is not FeedStatus.LIVE:
            return False
        shoe, games = latest
        return self.table.shoe_id == shoe and len(self.table.games) == games


def floor_ids(tables: int, processes: int) -> list[list[str]]:
    """The table ids each ``shoe --tables`` process deals: stems A, B, C... (A1, A2...).

    >>> floor_ids(5, 2)
    [['A1', 'A2', 'A3'], ['B1', 'B2']]
    """
    sizes = [tables // processes + (1 if i < tables % processes else 0) for i in range(processes)]
    return [[f"{chr(65 + i)}{n}" for n in range(1, size + 1)] for i, size in enumerate(sizes)]


def start_shoe(work: Path, ids: list[str], port: int, pace: float) -> subprocess.Popen[bytes]:
    """One ``scoreboard shoe --tables`` process dealing the tables ``ids`` (one stem)."""
    command = [sys.executable, "-m", "scoreboard", "shoe", "--tables", str(len(ids))]
    command += ["--table", ids[0][0], "--mqtt", f"127.0.0.1:{port}", "--pace", str(pace)]
    command += ["--seed", "13", "--shuffle-seconds", str(pace)]
    command += ["--limit-tiers", "--currency", "USD"]  # a tier each, as a floor has
    with open(work / f"shoe-{ids[0][0]}.log", "wb") as log:
        return subprocess.Popen(command, stderr=log)


def make_boards(port: int, table_ids: list[str]) -> list[Board]:
    boards = []
    for table_id in table_ids:
        endpoint = Endpoint(
            MqttConfig(host="127.0.0.1", port=port, keepalive=5), Topics(f"{ROOT}/{table_id}")
        )
        feed = MqttFeed(
            endpoint, display_id=f"storm-{table_id}", client_id=f"storm-{table_id}-{os.getpid()}"
        )
        boards.append(Board(table_id, feed))
    return boards


class Poller:
    """A share of the displays polled as their kiosk loops would: on a wake-up or a deadline."""

    def __init__(self, boards: list[Board], stopping: threading.Event) -> None:
        self.boards = boards
        self.stopping = stopping
        self.wake = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def start(self) -> None:
        for board in self.boards:
            board.feed.start(lambda board=board: self.woken(board))
        self.thread.start()

    def woken(self, board: Board) -> None:
        board.woken = True
        self.wake.set()

    def run(self) -> None:
        while not self.stopping.is_set():
            self.wake.clear()
            now = time.monotonic()
            for board in self.boards:
                if board.woken or (board.due is not None and board.due <= now):
                    board.woken = False
                    board.feed.poll(board.table, now)
                    board.due = board.feed.next_deadline(time.monotonic())
            dues = [board.due for board in self.boards if board.due is not None]
            wait = min(dues, default=now + 0.5) - time.monotonic()
            self.wake.wait(min(max(wait, 0.0), 0.5))


def healed(boards: list[Board], checker: Checker) -> int:
    """How many displays are not yet live with their table's latest snapshot."""
    now = time.monotonic()
    with checker.lock:
        latest = dict(checker.latest)
    return sum(1 for board in boards if not board.live_with(latest.get(board.table_id), now))


def wait_healed(boards: list[Board], checker: Checker, timeout: float) -> float | None:
    """Seconds until every display was live with its table's games twice in a row, or None."""
    start = time.monotonic()
    in_a_row = 0
    while time.monotonic() - start < timeout:
        if healed(boards, checker) == 0:
            in_a_row += 1
            if in_a_row == 2:
                return time.monotonic() - start
        else:
            in_a_row = 0
        time.sleep(0.05)
    return None


def behind(board: Board, latest: tuple[str, int]) -> bool:
    """The display shows fewer games than its table's latest snapshot, or another shoe.

    A display a coup *ahead* of the snapshot is not behind: the controller
    publishes a coup before the snapshot that includes it.
    """
    shoe, games = latest
    return board.table.shoe_id != shoe or len(board.table.games) < games


class LiveBehindWatch:
    """How long a display said LIVE while behind its table's latest snapshot.

    The screen and the mark must never disagree for long: a display a coup behind
    for the time the coup takes to arrive is normal, one saying LIVE over an old
    shoe for seconds is the defect this watches for.  Sampled every 0.25 s.
    """

    def __init__(self, boards: list[Board], checker: Checker, stopping: threading.Event) -> None:
        self.boards, self.checker, self.stopping = boards, checker, stopping
        self.since: dict[str, float] = {}
        self.longest: dict[str, float] = {}
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        while not self.stopping.wait(0.25):
            now = time.monotonic()
            with self.checker.lock:
                latest = dict(self.checker.latest)
            for board in self.boards:
                wanted = latest.get(board.table_id)
                live = board.feed.status(now) is FeedStatus.LIVE
                if wanted is None or not live or not behind(board, wanted):
                    self.since.pop(board.table_id, None)
                    continue
                start = self.since.setdefault(board.table_id, now)
                self.longest[board.table_id] = max(self.longest.get(board.table_id, 0), now - start)

    def report(self, over: float = 2.0) -> None:
        """The displays that said LIVE while behind for longer than ``over`` seconds."""
        worst = sorted(((s, t) for t, s in self.longest.items() if s > over), reverse=True)
        print(
            f"displays that said LIVE while behind for over {over:g} s: {len(worst)}"
            + (f" (longest {worst[0][0]:.1f} s, {worst[0][1]})" if worst else "")
        )
        by_id = {board.table_id: board for board in self.boards}
        describe((by_id[table_id] for _, table_id in worst[:5]), self.checker)


def percent(cpu: float, seconds: float) -> str:
    return f"{100 * cpu / seconds:5.1f} %" if seconds > 0 else "   - "


@dataclass
class Run:
    """What one storm measured: CPU marks (time, broker, controllers, displays) and the heal."""

    boards: list[Board]
    checker: Checker
    marks: tuple[float, float, float, float]
    steady: tuple[float, float, float, float]
    after: tuple[float, float, float, float]
    restarted: float
    heal: float | None
    asked_before: int


def describe_behind(boards: list[Board], checker: Checker) -> None:
    """The displays not live with their table's games: how many show each mark, and a few."""
    now = time.monotonic()
    behind = [b for b in boards if not b.live_with(checker.latest_of(b.table_id), now)]
    marks = collections.Counter(board.feed.status(now).value for board in behind)
    print("  marks of those behind: " + ", ".join(f"{m} {n}" for m, n in marks.most_common()))
    describe(behind[:12], checker)


def describe(boards: Iterable[Board], checker: Checker) -> None:
    """One line per display: its mark, shoe, games, position, what it ignored; the snapshot."""
    now = time.monotonic()
    for board in boards:
        ignored = {reason: count for reason, count in board.feed.session.ignored.items() if count}
        print(
            f"  {board.table_id}: {board.feed.status(now).value}, shoe {board.table.shoe_id}"
            f" games {len(board.table.games)}, snapshot {checker.latest_of(board.table_id)},"
            f" position {board.table.position}, ignored {ignored}"
        )


def report(args: argparse.Namespace, run: Run) -> None:
    """The figures, one line each."""
    boards, checker, heal, restarted = run.boards, run.checker, run.heal, run.restarted
    marks, steady, after, asked_before = run.marks, run.steady, run.after, run.asked_before
    window = steady[0] - marks[0]
    heal_window = after[0] - steady[0]  # the CPU marks: broker stop, down, restart, heal
    if args.bridge:
        print(f"floor broker down {args.down:.1f} s; the displays and the bridge reconnected")
    else:
        print(f"broker down {args.down:.1f} s, then every client reconnected at once")
    if heal is None:
        print(f"NOT HEALED within {args.timeout:.0f} s: {healed(boards, checker)} displays behind")
        describe_behind(boards, checker)
    else:
        print(f"time to heal: {heal:.1f} s (broker listening -> every display live, games equal)")
    print(f"{'CPU, % of one core':<28}{'steady':>10}{'down+heal':>11}")
    broker_name = "floor broker (mosquitto)" if args.bridge else "broker (mosquitto)"
    for name, index in ((broker_name, 1), ("controllers (shoe --tables)", 2)):
        print(
            f"{name:<28}{percent(steady[index] - marks[index], window):>10}"
            f"{percent(after[index] - steady[index], heal_window):>11}"
        )
    print(
        f"{'displays (this process)':<28}{percent(steady[3] - marks[3], window):>10}"
        f"{percent(after[3] - steady[3], heal_window):>11}"
    )
    with checker.lock:
        resyncs = list(checker.resyncs)
        snapshots = list(checker.snapshots)
    per_display = collections.Counter(display for _, display, _ in resyncs)
    per_second = collections.Counter(int(t - restarted) for t, _, _ in resyncs)
    no_snapshot = sum(board.feed.session.snapshot_requests for board in boards) - asked_before
    print(
        f"resyncs after the restart: {len(resyncs)} ({no_snapshot} for no snapshot, "
        f"{sum(1 for _, _, gap in resyncs if gap)} for missing games); "
        f"most from one display {max(per_display.values(), default=0)}, "
        f"busiest second {max(per_second.values(), default=0)}"
    )
    print(f"snapshots the controllers published during the heal: {len(snapshots)}")


@dataclass
class Floor:
    """The brokers (the displays' one, and the pit's with ``--bridge``) and the controllers."""

    broker: Mosquitto
    pit: Mosquitto
    shoes: list[subprocess.Popen[bytes]]
    limit: CpuLimit | None
    table_ids: list[str]

    @classmethod
    def start(cls, args: argparse.Namespace, work: Path) -> Floor:
        broker = Mosquitto(work / "floor")  # the displays' broker, the one restarted
        broker.start()
        pit = Mosquitto(work / "pit", bridged_to(broker)) if args.bridge else broker
        if pit is not broker:
            pit.start()
        groups = floor_ids(args.tables, max(1, min(26, args.controller_processes)))
        shoes = [start_shoe(work, ids, pit.port, args.pace) for ids in groups if ids]
        limit = CpuLimit(args.starve) if args.starve else None
        for shoe in shoes:
            if limit is not None:
                limit.hold(shoe.pid)
        return cls(broker, pit, shoes, limit, [table for ids in groups for table in ids])

    def stop(self) -> None:
        for shoe in self.shoes:
            shoe.terminate()
        for shoe in self.shoes:
            shoe.wait(30)
        self.broker.stop()
        self.pit.stop()
        if self.limit is not None:
            self.limit.remove()


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--pace", type=float, default=5.0, help="seconds per coup per table")
    parser.add_argument("--down", type=float, default=2.0, help="seconds the broker stays down")
    parser.add_argument("--settle", type=float, default=10.0, help="steady state measured first")
    parser.add_argument("--timeout", type=float, default=180.0)
    parser.add_argument("--threads", type=int, default=4, help="threads polling the displays")
    parser.add_argument(
        "--controller-processes", type=int, default=4, help="shoe --tables processes (1-26)"
    )
    parser.add_argument(
        "--starve",
        type=float,
        metavar="PERCENT",
        help="hold the controllers' processes to PERCENT of one core (a cgroup; root): "
        "a floor process starved, as on a loaded box",
    )
    parser.add_argument(
        "--bridge",
        action="store_true",
        help="controllers on a pit broker bridged to the displays' floor broker, "
        "which is the one restarted (the controllers stay connected)",
    )
    return parser.parse_args()


def main() -> int:
    args = parse_args()
    # 200 displays losing their broker log 200 warnings each way: not what is measured.
    logging.basicConfig(level=logging.ERROR, format="%(message)s")
    if os.environ.get("STORM_DEBUG"):
        logging.getLogger("scoreboard.feeds").setLevel(logging.WARNING)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # stop the broker and shoe too

    with tempfile.TemporaryDirectory(prefix="bench-storm-") as work:
        floor = Floor.start(args, Path(work))
        broker, shoes = floor.broker, floor.shoes
        checker = Checker(broker.port).start()
        boards = make_boards(broker.port, floor.table_ids)

        def controllers_cpu() -> float:
            return sum(cpu_seconds(shoe.pid) for shoe in shoes)

        stopping = threading.Event()
        pollers = [Poller(boards[i :: args.threads], stopping) for i in range(args.threads)]
        for poller in pollers:
            poller.start()
        watch = LiveBehindWatch(boards, checker, stopping)
        watch.thread.start()
        try:
            first = wait_healed(boards, checker, args.timeout)
            if first is None:
                print(f"the floor never came up: {healed(boards, checker)} displays not live")
                describe_behind(boards, checker)
                watch.report()
                return 1
            print(f"{args.tables} tables, {args.tables} displays up in {first:.1f} s")
            marks = (time.monotonic(), broker.cpu(), controllers_cpu(), time.process_time())
            time.sleep(args.settle)
            steady = (time.monotonic(), broker.cpu(), controllers_cpu(), time.process_time())

            broker.stop()
            time.sleep(args.down)
            broker.start()
            restarted = time.monotonic()
            with checker.lock:
                checker.resyncs.clear()
                checker.snapshots.clear()
            asked_before = sum(board.feed.session.snapshot_requests for board in boards)
            heal = wait_healed(boards, checker, args.timeout)
            after = (time.monotonic(), broker.cpu(), controllers_cpu(), time.process_time())
        finally:
            stopping.set()
            for poller in pollers:
                poller.thread.join(5)
            for board in boards:
                board.feed.link.stop()
            checker.stop()
            floor.stop()

    report(args, Run(boards, checker, marks, steady, after, restarted, heal, asked_before))
    watch.report()
    return 0 if heal is not None else 1


if __name__ == "__main__":
    sys.exit(main())
