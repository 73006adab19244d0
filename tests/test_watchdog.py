"""The service manager's watchdog is fed only while the loop polls the feed and draws.

A real AF_UNIX datagram socket stands in for systemd's notify socket; the kiosk
runs for real under the dummy video driver, in this process (to freeze exactly
one part of its loop) and as a ``scoreboard demo`` process (frozen whole with
SIGSTOP, as a hung driver would leave it).
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from scoreboard.kiosk.loop import Kiosk
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.loading import load_theme
from scoreboard.screen.theme.values import Theme
from scoreboard.service.sdnotify import Notifier
from scoreboard.table.applied import FeedStatus
from scoreboard.table.health import JournalHealth, JournalState
from scoreboard.table.state import TableState

SIZE = (640, 360)
WATCHDOG = b"WATCHDOG=1"
#: The in-process kiosks' watchdog period (any systemd allows; pinged every third of it);
#: the windows in which no ping may come count its periods, not seconds.
WATCHDOG_SECONDS = 0.15
PING_SECONDS = WATCHDOG_SECONDS / 3
#: The processes' watchdog (``WATCHDOG_USEC``): 0.3 s, a ping every 0.1 s.
PROCESS_USEC = "300000"
PROCESS_PING = 0.1


class NotifySocket:
    """What systemd would read: every datagram, with the time it was read."""

    def __init__(self, address: str | bytes) -> None:
        self.address = address
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(address)
        self.sock.settimeout(0.05)
        self.messages: list[bytes] = []

    def drain(self) -> list[bytes]:
        """Every datagram waiting now, without waiting for more."""
        got = []
        self.sock.setblocking(False)
        try:
            while True:
                got.append(self.sock.recv(4096))
        except BlockingIOError:
            pass
        finally:
            self.sock.settimeout(0.05)
        self.messages += got
        return got

    def wait_for(self, wanted: Callable[[bytes], bool], timeout: float = 10.0) -> bytes:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                message = self.sock.recv(4096)
            except TimeoutError:
                continue
            self.messages.append(message)
            if wanted(message):
                return message
        raise AssertionError(f"no such message within {timeout} s; got {self.messages[-5:]}")

    def pings(self) -> int:
        return self.messages.count(WATCHDOG)

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def notify(tmp_path: Path) -> Iterator[NotifySocket]:
    server = NotifySocket(str(tmp_path / "notify"))
    yield server
    server.close()


# -- the notifier on its own ----------------------------------------------------------------------


def test_each_message_is_one_datagram_on_a_path_socket(notify):
    notifier = Notifier(notify.address, watchdog_seconds=3.0)
    notifier.ready("LIVE, shoe 1, game 0")
    notifier.watchdog()
    notifier.status("OFFLINE,\nshoe 1")  # a newline would start a new field
    notifier.stopping()
    assert notify.drain() == [
        b"READY=1\nSTATUS=LIVE, shoe 1, game 0",
        b"WATCHDOG=1",
        b"STATUS=OFFLINE, shoe 1",
        b"STOPPING=1",
    ]


def test_an_abstract_socket_name_from_the_environment():
    name = f"scoreboard-test-{uuid.uuid4().hex}"
    server = NotifySocket(b"\0" + name.encode())
    try:
        notifier = Notifier.from_environ({"NOTIFY_SOCKET": "@" + name, "WATCHDOG_USEC": "600000"})
        assert notifier.ping_seconds == pytest.approx(0.2)
        notifier.watchdog()
        assert server.drain() == [WATCHDOG]
    finally:
        server.close()


def test_the_watchdog_of_another_process_is_not_ours(notify):
    env = {"NOTIFY_SOCKET": notify.address, "WATCHDOG_USEC": "600000", "WATCHDOG_PID": "1"}
    notifier = Notifier.from_environ(env, pid=4242)
    notifier.watchdog()
    notifier.ready()
    assert notify.drain() == [b"READY=1"]


def test_a_missing_service_manager_costs_one_log_line_not_the_board(tmp_path, caplog):
    notifier = Notifier(str(tmp_path / "gone"), watchdog_seconds=1.0)
    with caplog.at_level(logging.WARNING, logger="scoreboard.service.sdnotify"):
        for _ in range(5):
            notifier.watchdog()
    assert [r.getMessage() for r in caplog.records if "notify" in r.getMessage()][:1]
    assert len(caplog.records) == 1


@pytest.mark.parametrize("usec", ["0", "-5", "soon", "1e6"])
def test_a_bad_watchdog_period_means_no_watchdog(usec, notify):
    notifier = Notifier.from_environ({"NOTIFY_SOCKET": notify.address, "WATCHDOG_USEC": usec})
    assert notifier.ping_seconds is None
    notifier.watchdog()
    assert notify.drain() == []


# -- the kiosk loop in this process: freeze one part of it ---------------------------------------


class Gate:
    """Blocks the code that calls ``point()`` while frozen, and says when it is stuck there."""

    def __init__(self) -> None:
        self.freeze = threading.Event()
        self.stuck = threading.Event()
        self.release = threading.Event()
        self.fail = False
        self.calls = 0

    def point(self) -> None:
        self.calls += 1
        if self.fail:
            raise RuntimeError("this part of the loop is broken")
        if self.freeze.is_set():
            self.stuck.set()
            self.release.wait(30)


class GatedFeed:
    """A feed with nothing to say whose poll goes through a gate."""

    def __init__(self, gate: Gate | None = None) -> None:
        self.gate = gate or Gate()

    def start(self, _wake):
        pass

    def poll(self, table, _now):
        if table.shoe_id is None:
            table.new_shoe("watchdog")
        self.gate.point()

    def status(self, _now):
        return FeedStatus.LIVE

    def next_deadline(self, _now):
        return None

    def report(self, _render):
        pass

    def journal_health(self):
        return JournalHealth(JournalState.OK)

    def stop(self):
        pass


def gated_renderer(gate: Gate) -> Callable[[Theme, tuple[int, int]], Renderer]:
    class GatedRenderer(Renderer):
        def update(self, *args, **kwargs):
            gate.point()
            return super().update(*args, **kwargs)

    return lambda theme, size: GatedRenderer(theme, size)


def run_with(kiosk: Kiosk, body: Callable[[], None]) -> None:
    """Run ``kiosk`` here while ``body`` drives the test from a thread; then stop the kiosk."""
    errors: list[BaseException] = []

    def drive() -> None:
        try:
            body()
        except BaseException as error:  # reported in the test's thread
            errors.append(error)
        finally:
            kiosk.running = False
            kiosk.wake()

    driver = threading.Thread(target=drive, daemon=True)
    driver.start()
    kiosk.run(run_for=60)
    driver.join(5)
    if errors:
        raise errors[0]


def make_kiosk(notify: NotifySocket, feed_gate: Gate, render_gate: Gate) -> Kiosk:
    notifier = Notifier(notify.address, watchdog_seconds=WATCHDOG_SECONDS)
    return Kiosk(
        GatedFeed(feed_gate),
        TableState(),
        load_theme("classic"),
        windowed=True,
        size=SIZE,
        renderer=gated_renderer(render_gate),
        notifier=notifier,
    )


@pytest.mark.parametrize("frozen", ["feed poll", "frame"])
def test_a_stalled_loop_stops_feeding_the_watchdog_and_resumes_after(notify, frozen):
    feed_gate, render_gate = Gate(), Gate()
    gate = feed_gate if frozen == "feed poll" else render_gate
    kiosk = make_kiosk(notify, feed_gate, render_gate)

    def body() -> None:
        ready = notify.wait_for(lambda m: m.startswith(b"READY=1"))
        assert b"STATUS=LIVE, shoe 1, game 0" in ready
        for _ in range(3):
            notify.wait_for(lambda m: m == WATCHDOG)
        gate.freeze.set()
        assert gate.stuck.wait(10), "the loop never reached the frozen part"
        notify.drain()  # sent before the loop got stuck
        before = notify.pings()
        time.sleep(4 * WATCHDOG_SECONDS)  # twelve ping periods, four watchdog periods
        notify.drain()
        assert notify.pings() == before, "pinged while the loop was stuck"
        gate.freeze.clear()
        gate.release.set()
        notify.wait_for(lambda m: m == WATCHDOG, timeout=10)

    run_with(kiosk, body)
    notify.drain()
    assert notify.messages[-1] == b"STOPPING=1"


@pytest.mark.parametrize("broken", ["feed poll", "frame"])
def test_a_loop_that_keeps_failing_does_not_feed_the_watchdog(notify, broken):
    feed_gate, render_gate = Gate(), Gate()
    gate = feed_gate if broken == "feed poll" else render_gate
    kiosk = make_kiosk(notify, feed_gate, render_gate)

    def body() -> None:
        for _ in range(2):
            notify.wait_for(lambda m: m == WATCHDOG)
        gate.fail = True
        calls = gate.calls
        time.sleep(WATCHDOG_SECONDS)  # a ping sent before the first failure has arrived
        notify.drain()
        before = notify.pings()
        time.sleep(10 * PING_SECONDS)
        notify.drain()
        assert gate.calls > calls + 3, "the loop stopped trying"
        assert notify.pings() == before, "pinged though every step failed"
        gate.fail = False
        notify.wait_for(lambda m: m == WATCHDOG, timeout=10)

    run_with(kiosk, body)


# -- the real process ------------------------------------------------------------------------------


def demo_process(env: dict[str, str]) -> subprocess.Popen:
    full_env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", **env}
    full_env.pop("WATCHDOG_PID", None)
    full_env.update(env)
    args = ["demo", "--windowed", "--size", "640x360", "--duration", "30", "--pace", "0.2"]
    return subprocess.Popen(
        [sys.executable, "-m", "scoreboard", *args],
        env=full_env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def stop(process: subprocess.Popen) -> str:
    process.send_signal(signal.SIGCONT)
    process.terminate()
    try:
        _, err = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        _, err = process.communicate()
    return err


def test_the_demo_process_is_ready_pings_and_stops_pinging_while_frozen(notify):
    env = {"NOTIFY_SOCKET": notify.address, "WATCHDOG_USEC": PROCESS_USEC}
    process = demo_process(env)
    try:
        ready = notify.wait_for(lambda m: m.startswith(b"READY=1"), timeout=30)
        assert b"STATUS=DEMO, shoe 1" in ready
        for _ in range(3):
            notify.wait_for(lambda m: m == WATCHDOG)
        process.send_signal(signal.SIGSTOP)  # what a hang in a driver call looks like from outside
        time.sleep(PROCESS_PING)  # a ping on its way arrives
        notify.drain()
        before = notify.pings()
        time.sleep(7.5 * PROCESS_PING)
        notify.drain()
        assert notify.pings() == before
        process.send_signal(signal.SIGCONT)
        notify.wait_for(lambda m: m == WATCHDOG, timeout=10)
        notify.wait_for(lambda m: m.startswith(b"STATUS=DEMO, shoe 1, game"), timeout=10)
    finally:
        err = stop(process)
    assert process.returncode == 0, err  # SIGTERM: a stop in order (scoreboard.service.stopping)
    notify.drain()
    assert notify.messages[-1] == b"STOPPING=1"
    assert "Traceback" not in err


def test_a_watchdog_meant_for_the_wrapper_process_is_left_alone(notify):
    env = {"NOTIFY_SOCKET": notify.address, "WATCHDOG_USEC": PROCESS_USEC, "WATCHDOG_PID": "1"}
    process = demo_process(env)
    try:
        notify.wait_for(lambda m: m.startswith(b"READY=1"), timeout=30)
        time.sleep(5 * PROCESS_PING)
        notify.drain()
    finally:
        stop(process)
    assert WATCHDOG not in notify.messages


@pytest.mark.mosquitto
def test_a_headless_display_is_ready_reports_live_games_and_pings(notify, tmp_path):
    from mqtt_broker import running_broker, unique_prefix

    prefix = unique_prefix()
    with running_broker(tmp_path / "broker") as broker:
        common = ["--mqtt", broker.address, "--prefix", prefix]
        shoe = subprocess.Popen(
            [sys.executable, "-m", "scoreboard", "shoe", *common, "--pace", "0.1"],
            stderr=subprocess.DEVNULL,
        )
        env = {**os.environ, "NOTIFY_SOCKET": notify.address, "WATCHDOG_USEC": "600000"}
        env.pop("WATCHDOG_PID", None)
        state = ["--state-dir", str(tmp_path / "state"), "--display-id", "d1"]
        display = subprocess.Popen(
            [sys.executable, "-m", "scoreboard", "run", "--headless", *common, *state],
            env=env,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            notify.wait_for(lambda m: m.startswith(b"READY=1"), timeout=30)
            notify.wait_for(lambda m: m.startswith(b"STATUS=LIVE, shoe 1, game 3"), timeout=30)
            for _ in range(3):
                notify.wait_for(lambda m: m == WATCHDOG)
        finally:
            shoe.terminate()
            err = stop(display)
            shoe.wait(20)
        assert "Traceback" not in err
        notify.drain()
        assert notify.messages[-1] == b"STOPPING=1"


def test_a_demo_over_mqtt_marks_its_simulated_shoe_demo_never_live(notify, tmp_path):
    """A trade-show board dealt through a broker must not tell players it is a live game."""
    from mqtt_broker import running_broker, unique_prefix

    with running_broker(tmp_path / "broker") as broker:
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "NOTIFY_SOCKET": notify.address}
        env.pop("WATCHDOG_PID", None)
        args = ["demo", "--windowed", "--size", "640x360", "--duration", "30", "--pace", "0.1"]
        mqtt = ["--mqtt", broker.address, "--prefix", unique_prefix()]
        demo = subprocess.Popen(
            [sys.executable, "-m", "scoreboard", *args, *mqtt],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            first = notify.wait_for(lambda m: b", game " in m, timeout=30)
            notify.wait_for(lambda m: b", game " in m and m != first, timeout=30)  # dealing
        finally:
            err = stop(demo)
        statuses = [m for m in notify.messages if b"STATUS=" in m]
        assert not [m for m in statuses if b"STATUS=LIVE" in m], statuses
        assert [m for m in statuses if m.startswith(b"STATUS=DEMO, shoe")], statuses
        assert "Traceback" not in err
