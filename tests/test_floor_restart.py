"""A broker restart is survived by a floor: every controller, a display and a lobby come back.

Real processes against a real mosquitto that is stopped and started again on the
same port (no persistence: it forgets every retained message and session, as a
power-cycled broker box does).  It stays down past every client's first retry,
due within the backoff's first cap (1 s) of the drop, and until the display's and
the lobby's logs say refused: each client is refused at least once before it is
back.  A longer down would only grow the backoff's caps, and the wait after the
restart with them (tests/test_link_backoff.py pins the backoff).

A client counts as back when its retained online status is on the restarted
broker: each one publishes it again on every connect.  The bound is generous;
how fast is the storm benchmark's business (``benchmarks/bench_floor_restart.py``,
docs/benchmarks.md).

The floor is ``shoe --tables 40`` started with 1,024 spare file descriptors open,
so that its sockets are numbered past 1023 as a 300-table floor's are (three per
link).  paho waited on its socket with ``select()``, which cannot take a number
that high: the link failed at once, silently, and tried again for ever while the
broker was up (the tables past 1023 never came back, their log still saying
"connection refused" from the broker's down).
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from mqtt_broker import Broker, Recorder, needs_mosquitto, running_broker, wait_for

from scoreboard.bench.machine import stop_all
from scoreboard.link._backoff import FIRST_CAP

pytestmark = [needs_mosquitto, pytest.mark.slow]

TABLES = 40
SPARE_FDS = 1024
BACK_WITHIN = 90.0  # generous: a correctness bound, not a speed claim
#: The broker's shortest down: every client's first retry, due within FIRST_CAP of the
#: drop, finds it down.
DOWN = FIRST_CAP + 0.5
FILTERS = (
    "baccarat/v2/+/controller/status",
    "baccarat/v2/+/display/+/status",
    "baccarat/v2/lobby/+/status",
)
EVERYONE = {f"T{n}" for n in range(1, TABLES + 1)} | {"display d1", "lobby L1"}


def online(recorders: list[Recorder]) -> set[str]:
    """The clients whose latest retained status on the broker says online."""
    latest: dict[str, bool] = {}
    for recorder in recorders:
        with recorder.lock:
            messages = list(recorder.messages)
        for message in messages:
            parts = message.topic.split("/")
            if parts[2] == "lobby":
                who = f"lobby {parts[3]}"
            elif parts[3] == "display":
                who = f"display {parts[4]}"
            else:
                who = parts[2]
            with contextlib.suppress(ValueError, AttributeError):
                latest[who] = bool(json.loads(message.payload).get("online"))
    return {who for who, up in latest.items() if up}


@contextlib.contextmanager
def watching(broker: Broker) -> Iterator[list[Recorder]]:
    """Plain subscribers of every status topic (retained ones arrive on subscribing)."""
    recorders = [Recorder(broker.settings(), topic).start() for topic in FILTERS]
    try:
        yield recorders
    finally:
        for recorder in recorders:
            recorder.stop()


@contextlib.contextmanager
def spare_descriptors(count: int) -> Iterator[list[int]]:
    """``count`` open descriptors of /dev/null, to hand to a child so its own ones come after."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = count + 1024
    if soft < wanted:
        if hard != resource.RLIM_INFINITY and hard < wanted:
            pytest.fail(f"this test needs {wanted} open files (ulimit -n); the hard limit: {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    spares = [os.open(os.devnull, os.O_RDONLY) for _ in range(count)]
    try:
        yield spares
    finally:
        for descriptor in spares:
            os.close(descriptor)


def refusals(log: Path) -> int:
    """How often a process logged the broker refusing its connection."""
    return log.read_text(errors="replace").count("connection refused")


def start(argv: list[str], log: Path, **options) -> subprocess.Popen[bytes]:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    with open(log, "wb") as out:
        command = [sys.executable, "-m", "scoreboard", *argv]
        return subprocess.Popen(command, stderr=out, env=env, **options)


def test_a_floor_a_display_and_a_lobby_all_come_back_after_a_broker_restart(tmp_path) -> None:
    with running_broker(tmp_path / "broker") as broker:
        address = broker.address
        with spare_descriptors(SPARE_FDS) as spares:  # the floor's; closed here at once
            floor = start(
                ["shoe", "--tables", str(TABLES), "--mqtt", address, "--pace", "1", "--seed", "22"],
                tmp_path / "floor.log",
                pass_fds=spares,
            )
        display = start(
            ["run", "--headless", "--mqtt", address, "--prefix", "baccarat/v2/T1",
             "--display-id", "d1", "--state-dir", str(tmp_path / "state")],
            tmp_path / "display.log",
        )  # fmt: skip
        lobby = start(
            ["lobby", "--mqtt", address, "--lobby-id", "L1", "--windowed", "--size", "640x360",
             "--duration", "600"],
            tmp_path / "lobby.log",
        )  # fmt: skip
        processes = (floor, display, lobby)
        try:
            with watching(broker) as recorders:
                up = wait_for(lambda: online(recorders) >= EVERYONE, timeout=BACK_WITHIN)
                assert up, f"never all up: missing {sorted(EVERYONE - online(recorders))}"

            logs = {name: tmp_path / f"{name}.log" for name in ("display", "lobby")}
            before = {name: refusals(log) for name, log in logs.items()}
            broker.stop()
            until = time.monotonic() + DOWN
            refused = wait_for(
                lambda: all(refusals(log) > before[name] for name, log in logs.items()),
                timeout=BACK_WITHIN,
            )
            assert refused, "the display or the lobby never tried the stopped broker"
            time.sleep(max(0.0, until - time.monotonic()))
            broker.start()

            with watching(broker) as recorders:
                back = wait_for(lambda: online(recorders) >= EVERYONE, timeout=BACK_WITHIN)
                missing = sorted(EVERYONE - online(recorders))
            assert back, f"not back {BACK_WITHIN:g} s after the restart: {missing}"
            assert all(process.poll() is None for process in processes)
        finally:
            stop_all(processes)
    for name in ("floor", "display", "lobby"):
        assert "Traceback" not in (tmp_path / f"{name}.log").read_text(errors="replace"), name
