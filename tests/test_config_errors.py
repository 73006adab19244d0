"""Mistakes an operator makes in the display's config or flags: one clear line, nothing started."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

from scoreboard import yamlfile
from scoreboard.config import ConfigError, load_config, parse_size
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
