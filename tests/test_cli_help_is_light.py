"""``scoreboard --help`` and ``--version`` answer without loading the kiosk.

Asking the command what it can do must not start the screen or the network
stack: the parser declares every command's options from light modules and a
command's own module is imported only when that command runs.  Each check runs
the real command in a subprocess and reads which modules it imported from
``python -X importtime``.
"""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import scoreboard
from scoreboard import cli

ROOT = Path(__file__).resolve().parent.parent

#: What a help page has no need of: the screen, the MQTT client, the drawing code.
HEAVY = (
    "pygame",
    "paho",
    "scoreboard.screen.board",
    "scoreboard.kiosk.loop",
    "scoreboard.link.client",
)

COMMANDS = (
    "audit", "bench", "bridge", "check-theme", "coup", "demo", "export", "lobby", "odds",
    "pit", "roads", "run", "screenshot", "shoe", "simulate", "themes",
)  # fmt: skip


def imported_by(*args: str) -> tuple[subprocess.CompletedProcess, list[str]]:
    """The finished ``scoreboard ARGS`` and every module it imported, in order."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "scoreboard", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )
    modules = [
        line.rsplit("|", 1)[1].strip()
        for line in result.stderr.splitlines()
        if line.startswith("import time:") and not line.endswith("| package")
    ]
    return result, modules


def heavy(modules: list[str]) -> list[str]:
    return [name for name in modules if name.split(".")[0] in HEAVY or name.startswith(HEAVY)]


def pyproject_version() -> str:
    with (ROOT / "pyproject.toml").open("rb") as file:
        return str(tomllib.load(file)["project"]["version"])


def test_the_help_lists_every_command_and_imports_nothing_heavy() -> None:
    result, modules = imported_by("--help")
    assert result.returncode == 0, result.stderr[-2000:]
    assert "scoreboard" in modules and "scoreboard.cli" in modules  # the reading works
    for command in COMMANDS:
        assert f"    {command} " in result.stdout
    assert heavy(modules) == []


@pytest.mark.parametrize(
    "argv", [[command, "--help"] for command in COMMANDS] + [["pit", "void", "--help"]]
)
def test_a_commands_help_works_and_imports_nothing_heavy(argv: list[str]) -> None:
    result, modules = imported_by(*argv)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.startswith(f"usage: scoreboard {' '.join(argv[:-1])}")
    assert "--help" in result.stdout
    assert heavy(modules) == []
    # The command's own module waits until the command runs.
    assert f"scoreboard.cli.commands.{argv[0].replace('-', '_')}" not in modules


def test_version_prints_the_projects_version() -> None:
    result, modules = imported_by("--version")
    assert (result.returncode, result.stdout) == (0, f"scoreboard {pyproject_version()}\n")
    assert heavy(modules) == []


def test_the_sources_version_is_the_projects() -> None:
    assert scoreboard.__version__ == pyproject_version()


def test_without_installed_metadata_the_version_is_the_sources(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def not_installed(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", not_installed)
    assert cli.version() == scoreboard.__version__


def test_with_installed_metadata_the_version_is_the_installed_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(importlib.metadata, "version", lambda name: f"9.9.9+{name}")
    assert cli.version() == "9.9.9+scoreboard"
