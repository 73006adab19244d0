"""Mistakes an operator makes in the display's config or flags: one clear line, nothing started."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

from scoreboard.settings import yamlfile
from scoreboard.settings.config import load_config
from scoreboard.settings.reader import ConfigError, parse_size
from tests.cli import scoreboard


def test_the_yaml_helper_examples_hold() -> None:
    assert doctest.testmod(yamlfile, optionflags=doctest.ELLIPSIS).failed == 0


@pytest.mark.parametrize("text", ["10x10", "0x0", "9000x1080", "1920x63"])
def test_a_size_out_of_range_is_refused_everywhere(text: str) -> None:
    with pytest.raises(ValueError, match="64 to 8192"):
        parse_size(text)


def test_a_config_size_out_of_range_names_its_key(tmp_path: Path) -> None:
    path = tmp_path / "scoreboard.yaml"
    path.write_text("display:\n  size: 10x10\n")
    with pytest.raises(ConfigError, match=r"scoreboard.yaml: display.size: each side must be 64"):
        load_config(path)


def test_a_config_that_is_not_yaml_gives_one_line_with_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "scoreboard.yaml"
    path.write_text("table:\n  id: T1\n  name: [oops\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: line ") and "column" in message and "YAML syntax" in message


def test_run_refuses_a_bad_theme_before_touching_the_journal(tmp_path: Path) -> None:
    state = tmp_path / "state"
    result = scoreboard("run", "--theme", "nosuch", "--headless", "--state-dir", str(state))
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "scoreboard run: nosuch: no such theme (known: classic, contrast, midnight)"
    )
    assert not state.exists()


def test_run_refuses_a_tiny_size_in_one_line(tmp_path: Path) -> None:
    result = scoreboard("run", "--size", "10x10", "--headless", "--state-dir", str(tmp_path))
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "scoreboard run: --size: each side must be 64 to 8192 pixels, got '10x10'"
    )


#: Every number a display's or a lobby's config holds, as YAML with {} for the value.
CONFIG_NUMBERS = [
    ("table:\n  decks: {}\n", "table.decks"),
    ("table:\n  limits:\n    bets:\n      player: [1, {}]\n", "table.limits.bets.player"),
    ("mqtt:\n  port: {}\n", "mqtt.port"),
    ("mqtt:\n  keepalive: {}\n", "mqtt.keepalive"),
    ("mqtt:\n  session_expiry: {}\n", "mqtt.session_expiry"),
    ("journal:\n  keep_shoes: {}\n", "journal.keep_shoes"),
    ("display:\n  rotate: {}\n", "display.rotate"),
    ("display:\n  good_roads:\n    streak: {}\n", "display.good_roads.streak"),
    ("keypad:\n  confirm_seconds: {}\n", "keypad.confirm_seconds"),
    ("keypad:\n  hold_seconds: {}\n", "keypad.hold_seconds"),
]
LOBBY_NUMBERS = [
    ("lobby:\n  page_seconds: {}\n", "lobby.page_seconds"),
    ("lobby:\n  stale_seconds: {}\n", "lobby.stale_seconds"),
    ("lobby:\n  per_page: {}\n", "lobby.per_page"),
    ("lobby:\n  good_roads:\n    chop: {}\n", "lobby.good_roads.chop"),
]


@pytest.mark.parametrize("value", [".nan", ".inf", "-.inf", "-1", "1e400"])
@pytest.mark.parametrize(
    ("text", "key"),
    [pytest.param(*case, id=f"config {case[1]}") for case in CONFIG_NUMBERS]
    + [pytest.param(*case, id=f"lobby {case[1]}") for case in LOBBY_NUMBERS],
)
def test_a_number_in_a_config_that_is_nan_infinite_or_negative_names_file_and_key(
    tmp_path: Path, text: str, key: str, value: str
) -> None:
    from scoreboard.lobby.settings import load_lobby_settings

    path = tmp_path / "scoreboard.yaml"
    path.write_text(text.format(value))
    load = load_lobby_settings if key.startswith("lobby.") else load_config
    with pytest.raises(ConfigError) as refused:
        load(path)
    assert str(refused.value).startswith(f"{path}: {key}: expected ")
