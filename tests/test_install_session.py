"""The installed launcher brings the board up as scoreboard.service does: relay, cage, board.

The same for a lobby wall (SCOREBOARD_MODE=lobby): ``scoreboard lobby`` with its
config, rotation and flags, its READY, WATCHDOG and STATUS through the relay.

``scoreboard-session`` runs from the scratch install as the unit would start it
(an unprivileged user, RUNTIME_DIRECTORY and STATE_DIRECTORY set, NOTIFY_SOCKET and
WATCHDOG_USEC from systemd), and a real cage (wlroots' headless backend: no monitor
here) runs the board. The board's readiness and watchdog pings must reach the
socket from the pid systemd would have started. This box has no GPU, and SDL's
Wayland driver needs EGL on one, so the board draws through cage's Xwayland in
software (SDL_VIDEODRIVER=x11); on a Pi the same session uses Wayland directly.
CI installs cage and xwayland (``make system-deps``).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from install_root import REPO, Install, NotifySocket, scratch_dir, shared_install
from mqtt_broker import Recorder, needs_mosquitto, running_broker, wait_for

NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


@pytest.fixture(scope="module")
def scratch_install(tmp_path_factory: pytest.TempPathFactory) -> Install:
    return shared_install(tmp_path_factory)


@pytest.fixture
def unit_dirs() -> Iterator[dict[str, Path]]:
    """RuntimeDirectory=, StateDirectory= and a notify socket directory, as systemd makes them."""
    base = scratch_dir("scoreboard-session-")
    dirs = {name: base / name for name in ("runtime", "state", "notify")}
    for name, path in dirs.items():
        path.mkdir(mode=0o700 if name == "runtime" else 0o755)
        if name != "notify":
            os.chown(path, 65534, 65534)
    yield dirs
    shutil.rmtree(base, ignore_errors=True)


def session_env(
    dirs: dict[str, Path], systemd: NotifySocket | None, **values: str
) -> dict[str, str]:
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(dirs["state"]),
        "RUNTIME_DIRECTORY": str(dirs["runtime"]),
        "STATE_DIRECTORY": str(dirs["state"]),
        "PYGAME_HIDE_SUPPORT_PROMPT": "1",
        "SDL_AUDIODRIVER": "dummy",
    }
    if systemd is not None:
        env.update(NOTIFY_SOCKET=str(systemd.path), WATCHDOG_USEC="3000000", WATCHDOG_PID="1")
    env.update(values)
    return env


def descendants(pid: int) -> list[int]:
    found, queue = [], [pid]
    while queue:
        here = queue.pop()
        try:
            children = Path(f"/proc/{here}/task/{here}/children").read_text().split()
        except FileNotFoundError:
            continue
        found += [int(child) for child in children]
        queue += [int(child) for child in children]
    return found


def command_of(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except FileNotFoundError:
        return ""


def test_cage_runs_the_board_and_systemd_hears_it_from_the_main_pid(
    scratch_install: Install, unit_dirs: dict[str, Path]
) -> None:
    systemd = NotifySocket(unit_dirs["notify"])
    env = session_env(
        unit_dirs, systemd,
        SCOREBOARD_DISPLAY="cage", SCOREBOARD_MODE="demo", SCOREBOARD_DEMO_ARGS="--pace 1",
        SDL_VIDEODRIVER="x11", WLR_BACKENDS="headless", WLR_RENDERER="pixman",
        WLR_LIBINPUT_NO_DEVICES="1", WLR_HEADLESS_OUTPUTS="1",
    )  # fmt: skip
    session = scratch_install.opt / "bin" / "scoreboard-session"
    process = subprocess.Popen([*NOBODY, str(session)], env=env, stderr=subprocess.PIPE, text=True)
    try:
        ready = systemd.wait_for("READY=1", timeout=90, extra=lambda: assert_running(process))
        assert ready.pid == process.pid
        assert systemd.wait_for("WATCHDOG=1", timeout=30).pid == process.pid
        below = [command_of(pid) for pid in descendants(process.pid)]
        assert any(command.startswith("cage -s -- ") for command in below), below
        assert any(" board" in command for command in below), below
        assert (unit_dirs["state"] / "demo" / "journal.jsonl").exists()
        everyone = descendants(process.pid)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            code = process.wait(30)
        finally:
            systemd.close()
    assert code == -signal.SIGTERM
    time.sleep(0.2)
    assert not [pid for pid in everyone if command_of(pid)], "cage or the board outlived the unit"


def assert_running(process: subprocess.Popen) -> None:
    if process.poll() is not None:
        said = process.stderr.read() if process.stderr else ""
        raise AssertionError(f"the session exited {process.returncode}: {said}")


def board_session(
    scratch_install: Install, dirs: dict[str, Path], **values: str
) -> subprocess.CompletedProcess:
    """``scoreboard-session board`` as cage would run it, with SDL's dummy driver."""
    env = session_env(dirs, None, SDL_VIDEODRIVER="dummy", **values)
    session = scratch_install.opt / "bin" / "scoreboard-session"
    return subprocess.run([str(session), "board"], env=env, capture_output=True, text=True,
                          timeout=120, check=False)  # fmt: skip


def test_the_demo_journals_into_the_units_state_directory(
    scratch_install: Install, unit_dirs: dict[str, Path]
) -> None:
    demo = {"SCOREBOARD_MODE": "demo", "SCOREBOARD_DEMO_ARGS": "--duration 2 --windowed"}
    result = board_session(
        scratch_install, unit_dirs, SCOREBOARD_DISPLAY="kmsdrm", SCOREBOARD_ROTATE="90", **demo
    )
    assert result.returncode == 0, result.stderr
    assert (unit_dirs["state"] / "demo" / "journal.jsonl").exists()


def test_live_mode_runs_the_config_and_passes_the_rotation(
    scratch_install: Install, unit_dirs: dict[str, Path]
) -> None:
    missing = unit_dirs["state"] / "no-such.yaml"
    live = {"SCOREBOARD_MODE": "live", "SCOREBOARD_CONFIG": str(missing)}
    result = board_session(scratch_install, unit_dirs, SCOREBOARD_DISPLAY="kmsdrm", **live)
    assert result.returncode != 0 and str(missing) in result.stderr
    result = board_session(
        scratch_install, unit_dirs, SCOREBOARD_MODE="live", SCOREBOARD_ROTATE="45"
    )
    assert result.returncode == 2 and "--rotate" in result.stderr


@pytest.mark.parametrize(
    ("key", "value"), [("SCOREBOARD_MODE", "party"), ("SCOREBOARD_DISPLAY", "vnc")]
)
def test_a_bad_environment_value_is_named(
    scratch_install: Install, unit_dirs: dict[str, Path], key: str, value: str
) -> None:
    env = session_env(unit_dirs, None, **{key: value})
    session = scratch_install.opt / "bin" / "scoreboard-session"
    args = ["board"] if key == "SCOREBOARD_MODE" else []
    result = subprocess.run(
        [str(session), *args], env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 1
    assert f"{key}={value}" in result.stderr and "/etc/scoreboard/environment" in result.stderr


def online(payload: bytes) -> bool:
    return json.loads(payload).get("online") is True


def lobby_config(dirs: dict[str, Path], port: int, lobby_id: str) -> Path:
    """The sample lobby.yaml pointed at a test broker, readable by the unit's user."""
    text = (REPO / "kiosk" / "lobby.yaml").read_text()
    text = text.replace("broker: 127.0.0.1:1883", f"broker: 127.0.0.1:{port}")
    config = dirs["state"] / "lobby.yaml"
    config.write_text(text.replace("id: hall", f"id: {lobby_id}"))
    config.chmod(0o644)
    return config


@needs_mosquitto
def test_cage_runs_the_lobby_and_systemd_hears_its_watchdog_through_the_relay(
    scratch_install: Install, unit_dirs: dict[str, Path], tmp_path: Path
) -> None:
    systemd = NotifySocket(unit_dirs["notify"])
    with running_broker(tmp_path / "broker") as broker:
        recorder = Recorder(broker.settings(), "baccarat/v2/lobby/wall-7/status").start()
        env = session_env(
            unit_dirs, systemd,
            SCOREBOARD_DISPLAY="cage", SCOREBOARD_MODE="lobby", SCOREBOARD_ROTATE="90",
            SCOREBOARD_LOBBY_CONFIG=str(lobby_config(unit_dirs, broker.port, "wall-7")),
            SCOREBOARD_LOBBY_ARGS="--per-page 16",
            SDL_VIDEODRIVER="x11", WLR_BACKENDS="headless", WLR_RENDERER="pixman",
            WLR_LIBINPUT_NO_DEVICES="1", WLR_HEADLESS_OUTPUTS="1",
        )  # fmt: skip
        session = scratch_install.opt / "bin" / "scoreboard-session"
        process = subprocess.Popen(
            [*NOBODY, str(session)], env=env, stderr=subprocess.PIPE, text=True
        )
        try:
            ready = systemd.wait_for("READY=1", timeout=90, extra=lambda: assert_running(process))
            assert ready.pid == process.pid
            assert systemd.wait_for("WATCHDOG=1", timeout=30).pid == process.pid
            status = [n for n in systemd.received if any(f.startswith("STATUS=lobby:")
                                                         for f in n.fields)]  # fmt: skip
            assert status and {n.pid for n in status} == {process.pid}, systemd.received
            below = [command_of(pid) for pid in descendants(process.pid)]
            board = [command for command in below if " lobby --config " in command]
            assert board and "--rotate 90 --per-page 16" in board[0], below
            topic = "baccarat/v2/lobby/wall-7/status"
            assert wait_for(lambda: any(online(p) for p in recorder.on(topic)), 30)
            everyone = descendants(process.pid)
        finally:
            process.send_signal(signal.SIGTERM)
            try:
                code = process.wait(30)
            finally:
                systemd.close()
                recorder.stop()
    assert code == -signal.SIGTERM
    time.sleep(0.2)
    assert not [pid for pid in everyone if command_of(pid)], "cage or the lobby outlived the unit"


@needs_mosquitto
def test_lobby_mode_runs_the_lobby_with_its_config_and_flags(
    scratch_install: Install, unit_dirs: dict[str, Path], tmp_path: Path
) -> None:
    with running_broker(tmp_path / "broker") as broker:
        config = lobby_config(unit_dirs, broker.port, "signage-2")
        lobby = {"SCOREBOARD_MODE": "lobby", "SCOREBOARD_LOBBY_CONFIG": str(config)}
        result = board_session(
            scratch_install, unit_dirs, SCOREBOARD_DISPLAY="kmsdrm", SCOREBOARD_ROTATE="270",
            SCOREBOARD_LOBBY_ARGS="--duration 2 --windowed --size 640x360", **lobby,
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        recorder = Recorder(broker.settings(), "baccarat/v2/lobby/signage-2/status").start()
        try:  # the lobby's retained goodbye: it ran, under the id of its config
            topic = "baccarat/v2/lobby/signage-2/status"
            assert wait_for(lambda: recorder.on(topic) == [b'{"online": false}'], 10)
        finally:
            recorder.stop()
    missing = unit_dirs["state"] / "no-such-lobby.yaml"
    result = board_session(scratch_install, unit_dirs, SCOREBOARD_MODE="lobby",
                           SCOREBOARD_LOBBY_CONFIG=str(missing))  # fmt: skip
    assert result.returncode == 2 and str(missing) in result.stderr
    assert "Traceback" not in result.stderr
    result = board_session(scratch_install, unit_dirs, SCOREBOARD_MODE="lobby",
                           SCOREBOARD_LOBBY_ARGS="--per-page 100")  # fmt: skip
    assert result.returncode == 2, result.stderr
    assert "argument --per-page" in result.stderr  # refused as it is parsed
    result = board_session(scratch_install, unit_dirs, SCOREBOARD_MODE="lobby",
                           SCOREBOARD_LOBBY_CONFIG=str(config),
                           SCOREBOARD_LOBBY_ARGS="--per-page 100")  # fmt: skip
    assert result.returncode == 2 and "--per-page" in result.stderr
