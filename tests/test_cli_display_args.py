"""The display flags, declared once (``cli/options.py``), as each command shows them."""

from __future__ import annotations

import re

import pytest
from cli import scoreboard

SHOWING = ("run", "lobby", "demo", "screenshot")
ROTATE = (
    "turn the picture clockwise by this many degrees, for a monitor mounted on its side "
    "that the OS does not rotate (90/270 on a landscape screen: portrait layout)"
)


def help_of(command: str) -> str:
    done = scoreboard(command, "--help")
    assert done.returncode == 0, done.stderr
    return re.sub(r"\s+", " ", done.stdout)


@pytest.mark.parametrize("command", SHOWING)
def test_every_command_that_shows_a_board_words_the_display_flags_alike(command):
    text = help_of(command)
    assert "--theme NAME|FILE theme name or YAML file" in text
    assert (
        "--size WxH screen size, e.g. 1920x1080; taller than wide picks the portrait layout" in text
    )
    assert f"--rotate {{0,90,180,270}} {ROTATE}" in text


@pytest.mark.parametrize(("command", "keyed"), [("run", True), ("lobby", True), ("demo", False)])
def test_a_command_with_a_config_file_names_the_key_each_flag_overrides(command, keyed):
    text = help_of(command)
    assert ("(display.rotate)" in text) is keyed
    assert ("(display.theme)" in text) is keyed
    assert "--windowed a window instead of full screen" in text


@pytest.mark.parametrize(
    ("command", "flag", "present"),
    [
        ("run", "--good-roads", True),
        ("demo", "--good-roads", True),
        ("screenshot", "--good-roads", True),
        ("lobby", "--good-roads", False),  # the lobby has its own lobby.good_roads
        ("lobby", "--no-motion", False),
        ("run", "--portrait", False),
        ("screenshot", "--windowed", False),
    ],
)
def test_each_command_takes_the_flags_that_mean_something_to_it(command, flag, present):
    assert (flag in help_of(command)) is present


@pytest.mark.parametrize("command", ["run", "lobby", "demo", "screenshot"])
def test_a_bad_rotation_is_one_line_and_exit_2(command, tmp_path):
    rotated = scoreboard(
        command,
        "--rotate",
        "45",
        *(("-o", str(tmp_path / "x.png")) if command == "screenshot" else ()),
    )
    assert rotated.returncode == 2 and "--rotate" in rotated.stderr
    assert "Traceback" not in rotated.stderr


def test_the_demo_names_every_broker_of_its_list_in_its_log():
    done = scoreboard("demo", "--windowed", "--size", "640x360", "--pace", "60", "--duration", "1",
                      "--seed", "4", "--mqtt", "127.0.0.1:9,127.0.0.1:10")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "demo: dealing to 127.0.0.1:9, 127.0.0.1:10 baccarat/v2/T1" in done.stderr
