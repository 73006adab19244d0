"""scoreboard-notify-relay: the board's notifications reach systemd as the unit's own.

scoreboard.service's main process is the relay (the board runs inside cage or X, in
a logind session scope systemd does not credit to the unit). These run the real
relay over real processes and a socket standing in for systemd, which sees the
sender's pid exactly as systemd would.
"""

from __future__ import annotations

import importlib.util
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from install_root import REPO, NotifySocket

RELAY = REPO / "kiosk" / "scoreboard-notify-relay.py"
#: A process that says its arguments, one field a line, to NOTIFY_SOCKET.
SENDER = """import os, socket, sys
message = "\\n".join(sys.argv[1:]).encode()
socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).sendto(message, os.environ["NOTIFY_SOCKET"])
"""


@pytest.fixture
def systemd(tmp_path: Path) -> Iterator[NotifySocket]:
    sock = NotifySocket(tmp_path)
    yield sock
    sock.close()


#: The tests' ``--grace``: an orphan's KILL comes after it, not after the default 5 s.
GRACE = 0.5


def relay(
    systemd: NotifySocket | None, *command: str, grace: float | str | None = None, **env: str
) -> subprocess.Popen:
    environ = {key: value for key, value in os.environ.items() if key != "NOTIFY_SOCKET"}
    if systemd is not None:
        environ["NOTIFY_SOCKET"] = str(systemd.path)
    environ.update(env)
    options = [] if grace is None else ["--grace", str(grace)]
    return subprocess.Popen([sys.executable, str(RELAY), *options, "--", *command], env=environ,
                            stderr=subprocess.PIPE, text=True)  # fmt: skip


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def wait_gone(pid: int, timeout: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not alive(pid)


def read_pid(path: Path, timeout: float = 15.0) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().strip():
            return int(path.read_text())
        time.sleep(0.02)
    raise AssertionError(f"{path} was never written")


def test_a_grandchilds_message_reaches_systemd_from_the_relays_pid(
    systemd: NotifySocket, tmp_path: Path
) -> None:
    seen, sender = tmp_path / "seen", tmp_path / "sender.py"
    sender.write_text(SENDER)
    say = f"{sys.executable} {sender} READY=1 MAINPID=1 STATUS=dealing"
    script = f'echo "$WATCHDOG_PID|$WATCHDOG_USEC" > {seen}; {say}; exec sleep 60'
    process = relay(systemd, "sh", "-c", script, WATCHDOG_USEC="3000000", WATCHDOG_PID="1")
    try:
        ready = systemd.wait_for("READY=1")
        assert ready.pid == process.pid  # the relay, not the grandchild that sent it
        assert ready.fields == ("READY=1", "STATUS=dealing")  # MAINPID= is not the board's to say
        assert seen.read_text().strip() == "|3000000"  # the watchdog is the board's, whoever it is
    finally:
        process.terminate()
        process.wait(20)


def test_a_stopped_relay_ends_every_descendant_and_dies_by_the_signal(
    systemd: NotifySocket, tmp_path: Path
) -> None:
    pids = tmp_path / "pids"
    script = f"sleep 60 & echo $! > {pids}; exec sleep 60"
    process = relay(systemd, "sh", "-c", script)
    grandchild = read_pid(pids)
    process.send_signal(signal.SIGTERM)
    assert process.wait(20) == -signal.SIGTERM
    assert wait_gone(grandchild)


def test_the_relay_exits_as_its_child_did_and_ends_an_orphan_that_ignores_term(
    systemd: NotifySocket, tmp_path: Path
) -> None:
    orphan_pid = tmp_path / "orphan"
    script = f"( trap '' TERM; exec sleep 60 ) & echo $! > {orphan_pid}; sleep 0.5; exit 3"
    started = time.monotonic()
    process = relay(systemd, "sh", "-c", script, grace=GRACE)
    orphan = read_pid(orphan_pid)
    assert process.wait(GRACE + 25) == 3
    assert time.monotonic() - started >= 0.5 + GRACE  # the orphan had its grace before KILL
    assert wait_gone(orphan, timeout=1)  # TERM, then KILL after the grace period


def test_the_grace_before_kill_is_5_s_by_default_below_the_units_stop_timeout() -> None:
    """``--grace`` unsaid: 5 s, and the unit waits longer, so the relay ends what it started."""
    spec = importlib.util.spec_from_file_location("notify_relay", RELAY)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.GRACE_SECONDS == 5.0
    assert module.parse(["relay", "--", "cage", "-s"]) == (5.0, ["cage", "-s"])
    unit = (REPO / "kiosk" / "scoreboard.service").read_text()
    stop_timeout = re.search(r"^TimeoutStopSec=(\d+)$", unit, re.MULTILINE)
    assert stop_timeout and int(stop_timeout[1]) > module.GRACE_SECONDS


@pytest.mark.parametrize("grace", ["nan", "-1", "soon", "3601", "--"])
def test_a_bad_grace_is_refused_in_one_line(systemd: NotifySocket, grace: str) -> None:
    process = relay(systemd, "sh", "-c", "exit 0", grace=grace)
    _out, err = process.communicate(timeout=30)
    assert process.returncode == 1
    assert f"--grace expects seconds, 0 to 3600, got {grace!r}" in err
    assert "Traceback" not in err


def test_without_a_notify_socket_the_relay_is_the_command_itself() -> None:
    process = relay(None, "sh", "-c", "echo $$ >&2; exit 7")
    _out, err = process.communicate(timeout=30)
    assert process.returncode == 7
    assert err.strip() == str(process.pid)  # exec'd: nothing stands between


def test_a_command_that_cannot_start_is_named(systemd: NotifySocket) -> None:
    process = relay(systemd, "/no/such/compositor")
    _out, err = process.communicate(timeout=30)
    assert process.returncode == 1
    assert "/no/such/compositor" in err


def board_of(relay_pid: int) -> int:
    children = Path(f"/proc/{relay_pid}/task/{relay_pid}/children").read_text().split()
    assert len(children) == 1, children
    return int(children[0])


def test_the_board_feeds_the_watchdog_through_the_relay_only_while_it_runs(
    systemd: NotifySocket, tmp_path: Path
) -> None:
    """A frozen board (SIGSTOP, as a hung driver leaves it) sends nothing, so nothing is relayed."""
    process = relay(systemd, sys.executable, "-m", "scoreboard", "demo", "--windowed",
                    "--size", "640x360", "--duration", "60", "--state-dir", str(tmp_path / "state"),
                    WATCHDOG_USEC="1500000", SDL_VIDEODRIVER="dummy")  # fmt: skip
    try:
        assert systemd.wait_for("READY=1", timeout=60).pid == process.pid
        assert systemd.wait_for("WATCHDOG=1", timeout=20).pid == process.pid
        board = board_of(process.pid)
        os.kill(board, signal.SIGSTOP)
        time.sleep(0.3)
        systemd.drain()
        time.sleep(2.0)  # four ping periods
        assert not [n for n in systemd.drain() if n.has("WATCHDOG=1")]
        os.kill(board, signal.SIGCONT)
        deadline = time.monotonic() + 10
        resumed = []
        while not resumed and time.monotonic() < deadline:
            resumed = [n for n in systemd.drain() if n.has("WATCHDOG=1")]
        assert resumed and {n.pid for n in resumed} == {process.pid}
    finally:
        process.terminate()
        process.wait(30)
    assert not [n for n in systemd.received if n.pid != process.pid]


def test_only_what_a_board_may_say_is_forwarded(systemd: NotifySocket, tmp_path: Path) -> None:
    """A child cannot change the unit's watchdog period, trigger it, or extend its timeout."""
    sender = tmp_path / "sender.py"
    sender.write_text(SENDER)
    hostile = "WATCHDOG_USEC=1 WATCHDOG=trigger EXTEND_TIMEOUT_USEC=999999999 MAINPID=1"
    script = (
        f"{sys.executable} {sender} {hostile}; "
        f"{sys.executable} {sender} READY=1 WATCHDOG_USEC=1 STATUS=ok; exec sleep 60"
    )
    process = relay(systemd, "sh", "-c", script)
    try:
        ready = systemd.wait_for("READY=1")
        assert ready.fields == ("READY=1", "STATUS=ok"), ready.fields
        time.sleep(0.3)
        systemd.drain()
        said = [field for note in systemd.received for field in note.fields]
        assert not [
            f
            for f in said
            if f.split("=")[0] in ("WATCHDOG_USEC", "EXTEND_TIMEOUT_USEC", "MAINPID")
            or f == "WATCHDOG=trigger"
        ], said
    finally:
        process.terminate()
        process.communicate(timeout=20)
