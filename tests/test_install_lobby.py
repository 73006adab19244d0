"""install.sh --lobby for real into a scratch root: a lobby wall beside the live and demo modes.

The module works on its own full copy of the shared install (``cp -a``), so the
mode switches and the uninstall here never change what other modules see.
Re-runs come from a fresh source copy, as a technician's next ``git pull``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from install_root import (
    REPO,
    Install,
    copy_root,
    install,
    installed,
    shared_install,
    source_copy,
    tree,
)

from scoreboard.lobby.settings import load_lobby_settings


def own_copy(inst: Install, prefix: str) -> Install:
    """A full copy of ``inst``'s root: changed freely, removed by the caller."""
    return Install(copy_root(inst.root, prefix), inst.first_run)


@pytest.fixture(scope="module")
def lobby_install(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Install]:
    inst = own_copy(shared_install(tmp_path_factory), "scoreboard-lobby-")
    yield inst
    shutil.rmtree(inst.root, ignore_errors=True)


def rerun(inst: Install, tmp_path: Path, *args: str) -> str:
    return installed(install(inst.root, *args, source=source_copy(tmp_path / "source"))).stdout


def board(inst: Install, *args: str) -> subprocess.CompletedProcess:
    """The installed command, from /, with SDL's dummy driver (no screen here)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    command = [str(inst.opt / "current" / "bin" / "scoreboard"), *args]
    return subprocess.run(
        command, cwd="/", capture_output=True, text=True, env=env, timeout=120, check=False
    )


def test_the_sample_lobby_config_loads_as_it_is_shipped() -> None:
    settings = load_lobby_settings(REPO / "kiosk" / "lobby.yaml")
    assert settings.lobby_id == "hall"  # the account install.sh --mosquitto makes: lobby-hall
    assert settings.root == "baccarat/v2"
    assert (settings.base.mqtt.host, settings.base.mqtt.port) == ("127.0.0.1", 1883)
    assert settings.base.mqtt.username is None  # --mosquitto turns the account on
    assert settings.tables == () and settings.discover


def test_a_lobby_install_writes_its_config_and_mode(lobby_install: Install, tmp_path: Path) -> None:
    root = lobby_install.root
    scoreboard_yaml = (root / "etc/scoreboard/scoreboard.yaml").read_bytes()
    output = rerun(lobby_install, tmp_path, "--lobby", "--lobby-args", "--sort name")
    assert "(mode lobby, display cage)" in output
    config = root / "etc/scoreboard/lobby.yaml"
    assert config.read_bytes() == (REPO / "kiosk/lobby.yaml").read_bytes()
    assert oct(config.stat().st_mode & 0o777) == "0o640"
    assert "skipped (--root): chown root:scoreboard " + str(config) in output
    assert lobby_install.environment == {
        "SCOREBOARD_MODE": "lobby",
        "SCOREBOARD_DISPLAY": "cage",
        "XDG_SESSION_TYPE": "wayland",
        "SCOREBOARD_LOBBY_ARGS": "--sort name",
    }
    assert (root / "etc/scoreboard/scoreboard.yaml").read_bytes() == scoreboard_yaml
    # The installed board takes the installed file as it is.
    done = board(lobby_install, "lobby", "--config", str(config), "--windowed", "--duration", "0")
    assert done.returncode == 0, done.stderr
    before = tree(root)
    assert "is up to date" in rerun(lobby_install, tmp_path / "again")
    assert tree(root) == before


def test_demo_lobby_live_and_back_keep_every_other_setting(
    lobby_install: Install, tmp_path: Path
) -> None:
    config = lobby_install.root / "etc/scoreboard/lobby.yaml"
    rerun(lobby_install, tmp_path / "demo", "--demo", "--rotate", "90", "--demo-args", "--pace 6",
          "--run-args", "--theme midnight", "--lobby-args", "--per-page 16")  # fmt: skip
    kept = {
        "SCOREBOARD_ROTATE": "90",
        "SCOREBOARD_DEMO_ARGS": "--pace 6",
        "SCOREBOARD_RUN_ARGS": "--theme midnight",
        "SCOREBOARD_LOBBY_ARGS": "--per-page 16",
        "SCOREBOARD_DISPLAY": "cage",
    }
    env = lobby_install.environment
    assert env["SCOREBOARD_MODE"] == "demo" and kept.items() <= env.items()
    if config.exists():
        config.unlink()  # a demo box that never was a lobby
    rerun(lobby_install, tmp_path / "lobby", "--lobby")
    assert lobby_install.environment == {**env, "SCOREBOARD_MODE": "lobby"}
    edited = config.read_text().replace("id: hall", "id: east")
    config.write_text(edited)
    rerun(lobby_install, tmp_path / "kept")  # no mode given: the lobby stays
    assert lobby_install.environment["SCOREBOARD_MODE"] == "lobby"
    rerun(lobby_install, tmp_path / "live", "--live")
    assert lobby_install.environment == {**env, "SCOREBOARD_MODE": "live"}
    assert config.read_text() == edited  # the lobby's config stays for the next switch
    rerun(lobby_install, tmp_path / "back", "--lobby")
    assert lobby_install.environment == {**env, "SCOREBOARD_MODE": "lobby"}
    assert config.read_text() == edited
    rerun(lobby_install, tmp_path / "clear", "--demo", "--lobby-args", "", "--rotate", "0")
    env = lobby_install.environment
    assert env["SCOREBOARD_MODE"] == "demo" and "SCOREBOARD_LOBBY_ARGS" not in env
    assert "SCOREBOARD_ROTATE" not in env and env["SCOREBOARD_DEMO_ARGS"] == "--pace 6"
    config.write_text((REPO / "kiosk/lobby.yaml").read_text())


def test_uninstall_keeps_the_lobby_config_and_purge_removes_it(lobby_install: Install) -> None:
    inst = own_copy(lobby_install, "scoreboard-lobby-uninstall-")
    try:
        config = inst.root / "etc/scoreboard/lobby.yaml"
        if not config.exists():  # this test alone (another worker ran the --lobby ones)
            config.write_text((REPO / "kiosk/lobby.yaml").read_text())
        output = installed(install(inst.root, "--uninstall")).stdout
        assert f"kept {inst.root}/var/lib/scoreboard and the configs in" in output
        left = {path for path, kind in tree(inst.root).items() if not kind.startswith("dir")}
        assert {"etc/scoreboard/lobby.yaml", "etc/scoreboard/scoreboard.yaml"} <= left
        assert not [path for path in left if path.startswith(("opt/", "etc/systemd/"))]
        installed(install(inst.root, "--uninstall", "--purge"))
        assert not (inst.root / "etc/scoreboard").exists()
    finally:
        shutil.rmtree(inst.root, ignore_errors=True)
