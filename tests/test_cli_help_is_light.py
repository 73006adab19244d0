"""``scoreboard --help`` and ``--version`` answer without loading the kiosk.

Asking the command what it can do must not start the screen or the network
stack: the parser declares every command's options from light modules and a
command's own module is imported only when that command runs.  Each check runs
the real command in a subprocess and reads which modules it imported from
``python -X importtime``.
"""

from __future__ import annotations

import argparse
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
    # Only the command's own declarations are read: the shared options (and the theme
    # and config readers they import) only when this command's parser declares them.
    # (-X importtime does not list the parsers themselves: importlib imports them.)
    source = (ROOT / "scoreboard/cli/parsers" / f"{argv[0].replace('-', '_')}.py").read_text()
    assert ("scoreboard.cli.options" in modules) == ("scoreboard.cli.options" in source)


def said(parser: argparse.ArgumentParser, argv: list[str], capsys: pytest.CaptureFixture) -> tuple:
    """What parsing ``argv`` prints and the status it exits with (None: it parsed)."""
    try:
        parser.parse_args(argv)
        status = None
    except SystemExit as leaving:
        status = leaving.code
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("command", COMMANDS)
def test_one_commands_parser_says_what_the_whole_one_says(
    command: str, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    for argv in ([command, "--help"], [command, "--no-such-flag"], [command], ["-v", command]):
        alone = said(cli.build_parser(command), argv, capsys)
        assert alone == said(cli.build_parser(), argv, capsys), argv


@pytest.mark.parametrize(
    ("argv", "asked"),
    [
        (["audit", "x"], "audit"),
        (["-v", "--verbose", "check-theme"], "check-theme"),
        (["--version", "audit"], ""),
        (["-v", "--version"], ""),
        (["--help", "audit"], None),
        (["--verb", "audit"], None),
        (["--", "audit"], None),
        ([], None),
    ],
)
def test_the_command_asked_is_the_first_word_after_scoreboards_own_flags(
    argv: list[str], asked: str | None
) -> None:
    assert cli.asked_command(argv) == asked


@pytest.mark.parametrize("word", ["check_theme", "_x", "checktheme", "-"])
def test_a_word_naming_no_command_gets_every_command_in_its_error(
    word: str, capsys: pytest.CaptureFixture
) -> None:
    status, _, err = said(cli.build_parser(cli.asked_command([word])), [word], capsys)
    assert status == 2
    assert all(f"'{command}'" in err for command in COMMANDS), err


def test_version_prints_the_projects_version() -> None:
    result, modules = imported_by("--version")
    assert (result.returncode, result.stdout) == (0, f"scoreboard {pyproject_version()}\n")
    assert heavy(modules) == []
    assert "scoreboard.cli.options" not in modules  # no command's declarations


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
