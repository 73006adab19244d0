"""Stopping is always clean: every long-running command, stopped at a random moment.

Each trial starts a real ``python -m scoreboard`` process (``shoe``, ``shoe
--tables``, ``run --headless``, ``run`` with its window, ``demo``, ``demo
--mqtt``, ``lobby``, ``bench --quick``, ``bridge``), against a real mosquitto or a port where
no broker listens, and sends SIGTERM (a few SIGINT) after a seeded random delay
from 0 to a few seconds: during start-up, the connect, the steady state, a coup,
a theme reload (SIGHUP just before), a second stop signal during the stop.
Every process must end within 5 s of the first signal, with a clean status (its
command's, or 128 + the signal when it came before the command began) and no
traceback, and no status it left retained on the broker may say online: a status
that was ever online must be there, offline.  A process still running after 5 s is
sent SIGABRT, so faulthandler (``PYTHONFAULTHANDLER``) puts every thread's stack in
the failure.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from tests.mqtt_broker import Broker, Recorder, free_port, needs_mosquitto, running_broker

pytestmark = [needs_mosquitto, pytest.mark.slow, pytest.mark.serial, pytest.mark.beside_cluster]

SEED = 2226
STOP_WITHIN = 5.0  # seconds from the first stop signal to the process's end
AT_ONCE = 6  # processes running together (two cores: while some start, others wait on their delay)
SMALL = ("--windowed", "--size", "320x180")


@dataclass
class Trial:
    """One process, one moment to stop it, and what it must have left behind."""

    name: str
    argv: list[str]
    delay: float  # seconds to the first stop signal, from the start or from ``begun``:
    begun: bool = True  # the command's first line on stderr (slow imports do not take them all)
    after: str = ""  # or from this text on stderr (a later step of the bench)
    stop: signal.Signals = signal.SIGTERM
    again: float | None = None  # a second stop signal this long after the first
    reload: bool = False  # SIGHUP (a theme reload) just before the stop
    status: int = 0  # the exit status of a clean stop
    outcome: dict = field(default_factory=dict)

    @property
    def signals(self) -> int:
        return 1 + (self.again is not None)


def trials(broker: Broker, work: Path) -> list[Trial]:
    """The seeded plan: each command many times, at delays covering start-up to steady state."""
    rng = random.Random(SEED)
    down = f"127.0.0.1:{free_port()}"  # nobody listens there: the broker is down
    made: list[Trial] = []

    def add(
        kind: str, count: int, build, *, longest: float = 3.0, first: float = 0.0, **options
    ) -> None:
        for number in range(count):
            name = f"{kind}-{number}"
            where = down if number == 1 else broker.address  # the second of each: broker down
            tag = f"stop-{uuid.uuid4().hex[:6]}"  # its own topics, and ids (one client each)
            trial = Trial(
                name, build(where, tag, work / name), rng.uniform(first, longest), **options
            )
            if number % 4 == 3:  # every fourth: a second signal during the stop
                trial.again = rng.uniform(0.05, 1.0)
            trial.begun = number % 4 != 0 or bool(trial.after)  # every fourth from the start
            made.append(trial)

    common = ("--keepalive", "2")
    add("shoe", 10, lambda at, tag, _d: ["shoe", "--mqtt", at, "--prefix", f"{tag}/T1",
                                          "--pace", "0.05", *common])  # fmt: skip
    add("floor", 5, lambda at, tag, _d: ["shoe", "--tables", "3", "--table", tag, "--mqtt", at,
                                          "--pace", "0.05", *common])  # fmt: skip
    add("headless", 8, lambda at, tag, d: ["run", "--headless", "--mqtt", at, "--prefix",
                                            f"{tag}/T1", "--display-id", "d1", "--state-dir",
                                            str(d), *common])  # fmt: skip
    add("run", 6, lambda at, tag, d: ["run", "--mqtt", at, "--prefix", f"{tag}/T1",
                                       "--display-id", "d1", "--state-dir", str(d), *SMALL,
                                       *common])  # fmt: skip
    add("run-reload", 3, lambda at, tag, d: ["run", "--mqtt", at, "--prefix", f"{tag}/T1",
                                              "--display-id", "d1", "--state-dir", str(d),
                                              *SMALL, *common], reload=True)  # fmt: skip
    add("demo", 4, lambda _at, _tag, _d: ["demo", *SMALL, "--pace", "0.1"])
    add("demo-reload", 3, lambda _at, _tag, _d: ["demo", *SMALL, "--pace", "0.1"], reload=True)
    add("demo-mqtt", 5, lambda at, tag, _d: ["demo", *SMALL, "--pace", "0.1", "--mqtt", at,
                                              "--prefix", f"{tag}/T1", *common])  # fmt: skip
    add("lobby", 6, lambda at, tag, _d: ["lobby", "--mqtt", at, "--prefix", tag,
                                          "--lobby-id", f"L{tag}", *SMALL, *common])  # fmt: skip
    add("bench", 3, lambda _at, _tag, _d: ["bench", "--quick", "--size", "320x180"],
        longest=6.0, status=130)  # fmt: skip
    # The bench's later figures; its last (the frames) is timed at 1280x720 and signalled
    # within 0.3 s of its start, since a quiet box ends the whole step at 320x180 in 0.8 s.
    for step, size, longest in (("road append", "320x180", 1.0), ("idle CPU", "320x180", 1.0),
                                ("frames at", "1280x720", 0.3)):  # fmt: skip
        add(f"bench-{step}", 1,
            lambda _at, _tag, _d, size=size: ["bench", "--quick", "--size", size],
            longest=longest, status=130, after=step)  # fmt: skip
    # Ctrl-C behaves as SIGTERM does (from 0.5 s: in the interpreter's own start-up, before
    # scoreboard's first line runs, Python takes it as it always does).
    add("ctrl-c-shoe", 2, lambda at, tag, _d: ["shoe", "--mqtt", at, "--prefix", f"{tag}/T1",
                                                "--pace", "0.05", *common],
        stop=signal.SIGINT, first=0.5)  # fmt: skip
    add("ctrl-c-run", 2, lambda at, tag, d: ["run", "--mqtt", at, "--prefix", f"{tag}/T1",
                                              "--display-id", "d1", "--state-dir", str(d),
                                              *SMALL, *common], stop=signal.SIGINT,
        first=0.5)  # fmt: skip
    add("ctrl-c-lobby", 2, lambda at, tag, _d: ["lobby", "--mqtt", at, "--prefix", tag,
                                                 "--lobby-id", f"L{tag}", *SMALL, *common],
        stop=signal.SIGINT, first=0.5)  # fmt: skip
    # The shoe bridge, its serial device absent: it goes on trying it, SHOE OFFLINE meanwhile.
    add("bridge", 6, lambda at, tag, d: ["bridge", "--shoe", "bee-tek", "--serial",
                                          str(d / "shoe"), "--mqtt", at, "--prefix",
                                          f"{tag}/T1", "--state-dir", str(d), *common])  # fmt: skip
    return made


def attempt(trial: Trial, work: Path) -> None:
    """Start the process, stop it as planned, note how it ended (in ``trial.outcome``)."""
    env = {
        **os.environ,
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
        "PYTHONFAULTHANDLER": "1",
    }
    env.pop("NOTIFY_SOCKET", None)
    errors = work / f"{trial.name}.stderr"
    with open(errors, "wb") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "scoreboard", *trial.argv],
            stdout=subprocess.DEVNULL,
            stderr=sink,
            env=env,
        )
        try:
            if trial.reload:  # once the kiosk reloads on SIGHUP (before, SIGHUP ends a process)
                deadline = time.monotonic() + 30
                while not catches(process.pid, signal.SIGHUP) and time.monotonic() < deadline:
                    time.sleep(0.02)
                time.sleep(trial.delay / 10)
                process.send_signal(signal.SIGHUP)
                time.sleep(0.02)
            else:
                if trial.begun:
                    deadline = time.monotonic() + 60
                    while time.monotonic() < deadline and not (
                        errors.stat().st_size and trial.after in errors.read_text(errors="replace")
                    ):
                        time.sleep(0.01)
                time.sleep(trial.delay)
            ended_early = process.poll()
            caught = catches(process.pid, trial.stop)
            process.send_signal(trial.stop)
            sent = time.monotonic()
            if trial.again is not None:
                time.sleep(trial.again)
                if process.poll() is None:
                    process.send_signal(trial.stop)
            try:
                status = process.wait(max(0.0, sent + STOP_WITHIN - time.monotonic()))
                took = time.monotonic() - sent
            except subprocess.TimeoutExpired:
                process.send_signal(signal.SIGABRT)  # faulthandler: every thread's stack
                try:
                    process.wait(5)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
                status, took = None, None
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    trial.outcome = {
        "status": status,
        "took": took,
        "ended_early": ended_early,
        "caught": caught,
        "stderr": errors.read_text(errors="replace"),
    }


def catches(pid: int, signum: int) -> bool:
    """Whether the process has a handler for ``signum`` now (``SigCgt`` in /proc)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("SigCgt:"):
                return bool(int(line.split()[1], 16) >> (signum - 1) & 1)
    except OSError:
        pass
    return False


def retained(broker: Broker, timeout: float = 30.0) -> dict[str, bytes]:
    """Every retained message on the broker now, by topic.

    A fresh subscription to ``#`` is handed them all as it subscribes; a message this
    client publishes once subscribed comes back after them (one client's messages
    leave the broker in order), so its arrival says the last retained one is in.
    """
    found: dict[str, bytes] = {}
    lock = threading.Lock()
    behind = threading.Event()
    marker = f"retained-end/{uuid.uuid4().hex}"
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"ret-{uuid.uuid4().hex[:8]}")

    def on_connect(client, *_):
        client.subscribe("#", qos=1)

    def on_subscribe(client, *_):
        client.publish(marker, b"", qos=1)

    def on_message(_client, _userdata, message):
        if message.topic == marker:
            behind.set()
        elif message.retain:
            with lock:
                found[message.topic] = bytes(message.payload)

    client.on_connect = on_connect
    client.on_subscribe = on_subscribe
    client.on_message = on_message
    client.connect(broker.host, broker.port, keepalive=5)
    client.loop_start()
    try:
        assert behind.wait(timeout), f"the broker's retained messages not through in {timeout} s"
    finally:
        client.disconnect()
        client.loop_stop()
    with lock:
        return dict(found)


def online(payload: bytes) -> bool:
    try:
        return bool(json.loads(payload).get("online"))
    except (ValueError, AttributeError):
        return False


def test_every_command_stops_cleanly_on_a_signal_at_any_moment(tmp_path):
    with running_broker(tmp_path / "broker") as broker:
        plan = trials(broker, tmp_path)
        sigterms = [t for t in plan if t.stop == signal.SIGTERM]
        assert sum(t.signals for t in sigterms) >= 50
        assert sum(t.signals for t in sigterms if t.begun) >= 40  # stopping a command under way
        seen = Recorder(broker.settings(), "#").start()  # every status ever published
        try:
            with ThreadPoolExecutor(AT_ONCE) as pool:
                list(pool.map(lambda trial: attempt(trial, tmp_path), plan))
        finally:
            seen.stop()
        left = retained(broker)
    failures = []
    for trial in plan:
        out = trial.outcome
        what = f"{trial.name} ({' '.join(trial.argv)}; {trial.stop.name} at {trial.delay:.2f} s)"
        if out["ended_early"] is not None:
            failures.append(f"{what}: ended by itself before the signal ({out['ended_early']})")
        elif out["status"] is None:
            failures.append(f"{what}: still running {STOP_WITHIN} s after it\n{out['stderr']}")
        elif out["status"] == -trial.stop and not out["caught"]:
            continue  # sent before Python ran scoreboard's first line: the default action
        elif (
            out["status"] == 128 + trial.stop
            and "before the command began" in out["stderr"]
            and not trial.begun
        ):
            continue  # in the imports and the parsing: nothing begun, nothing to stop in order
        elif out["status"] != trial.status or "Traceback" in out["stderr"]:
            failures.append(f"{what}: exit {out['status']} in {out['took']:.2f} s\n{out['stderr']}")
    assert not failures, "\n\n".join(failures)

    statuses = [topic for topic in left if topic.endswith("/status")]
    assert [topic for topic in statuses if online(left[topic])] == []
    ever_online = {
        message.topic
        for message in seen.messages
        if message.topic.endswith("/status") and online(bytes(message.payload))
    }
    assert sorted(ever_online - set(statuses)) == []  # online once: offline at the end, retained
    # The plan reaches the steady state: controllers, displays and lobbies went online.
    kinds = {topic.split("/")[-3 if "/controller/" not in topic else -2] for topic in ever_online}
    assert kinds >= {"controller", "display", "lobby"}
