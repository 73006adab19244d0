"""YAML files a kiosk can always read: bombs, huge files and bad bytes are one-line errors."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from scoreboard.screen.theme.loading import load_theme
from scoreboard.screen.theme.values import ThemeError
from scoreboard.settings.config import load_config
from scoreboard.settings.reader import ConfigError
from scoreboard.settings.yamlfile import (
    MAX_BYTES,
    YamlSyntaxError,
    load_yaml,
    parse_yaml,
    read_fast,
)

SHIPPED = Path(__file__).resolve().parent.parent

BOMB = "\n".join(
    ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    + [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)]
)
"""Billion laughs: 9^10 strings once expanded, 700 bytes on disk."""


def write(tmp_path: Path, data: str | bytes, name: str = "file.yaml") -> Path:
    path = tmp_path / name
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)
    return path


def test_an_alias_bomb_is_refused_at_once_naming_its_line():
    started = time.perf_counter()
    with pytest.raises(YamlSyntaxError) as caught:
        parse_yaml(BOMB, "bomb.yaml")
    assert time.perf_counter() - started < 0.5
    assert str(caught.value) == "bomb.yaml: line 2: YAML aliases are not allowed"


def test_an_anchor_alone_is_harmless_and_a_merge_key_is_an_alias():
    assert parse_yaml("a: &x 1\nb: 2\n", "f.yaml") == {"a": 1, "b": 2}
    with pytest.raises(YamlSyntaxError, match="line 2: YAML aliases are not allowed"):
        parse_yaml("a: &x {k: 1}\nb: {<<: *x}\n", "f.yaml")


def test_non_utf8_bytes_are_named_with_their_offset(tmp_path):
    path = write(tmp_path, b"name: caf\xe9\n")
    with pytest.raises(YamlSyntaxError) as caught:
        load_yaml(path)
    assert str(caught.value) == f"{path}: not UTF-8 text (byte 0xe9 at offset 9)"


def test_a_file_over_a_megabyte_is_refused_unread(tmp_path):
    path = write(tmp_path, "# " + "x" * MAX_BYTES + "\n")
    with pytest.raises(YamlSyntaxError, match=r"too large \(over 1000000 bytes\)"):
        load_yaml(path)
    with pytest.raises(YamlSyntaxError, match="too large"):
        parse_yaml("# " + "x" * MAX_BYTES, "big.yaml")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 5000, "YAML nested too deeply"),
        ("a: " + "1" * 5000, "YAML value error: "),
        ("a: 2001-13-45", "YAML value error: "),
    ],
)
def test_what_no_python_value_holds_is_a_one_line_error(text, message):
    with pytest.raises(YamlSyntaxError) as caught:
        parse_yaml(text, "f.yaml")
    assert str(caught.value).startswith(f"f.yaml: {message}")
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 160


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (BOMB, "line 2: YAML aliases are not allowed"),
        (b"name: \xff\xfe\n", "not UTF-8 text (byte 0xff at offset 6)"),
        ("# " + "x" * MAX_BYTES, "too large"),
    ],
)
def test_a_theme_file_gets_the_same_one_line_errors(tmp_path, data, message):
    path = write(tmp_path, data)
    with pytest.raises(ThemeError) as caught:
        load_theme(path)
    (line,) = caught.value.errors
    assert line.startswith(f"{path}: ") and message in line


@pytest.mark.parametrize(
    ("data", "message"),
    [(BOMB, "line 2: YAML aliases are not allowed"), ("# " + "x" * MAX_BYTES, "too large")],
)
def test_a_config_file_gets_the_same_one_line_errors(tmp_path, data, message):
    path = write(tmp_path, data)
    started = time.perf_counter()
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert time.perf_counter() - started < 0.5
    assert str(caught.value).startswith(f"{path}: ") and message in str(caught.value)


def test_a_non_utf8_config_file_is_a_one_line_config_error(tmp_path):
    path = write(tmp_path, b"table: {id: T\xff}\n")
    with pytest.raises(ConfigError, match=r"not UTF-8 text \(byte 0xff at offset 13\)"):
        load_config(path)


YAML_PIECES = [
    *"ab1.-:[]{},#&*|>'\"%@` \n\r\\?~",
    *["\t", "\x00", "\x07", "\x85", "\u2028", "\ufeff", "é", "中", "\U0001f600", "!", "!!str "],
    *[
        "null",
        "yes",
        "No",
        "1e3",
        ".nan",
        "0x1F",
        "0o17",
        "2001-01-01",
        "12:30",
        "<<",
        "---",
        "...",
    ],
]
"""What YAML's scanner treats specially, and values whose type depends on their spelling."""


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(YAML_PIECES), max_size=40).map("".join))
def test_what_the_fast_reader_takes_it_reads_as_pyyaml_does(text):
    try:
        fast = read_fast(text)
    except Exception:  # not taken: parse_yaml asks the careful reader
        return
    careful = yaml.load(text, Loader=yaml.SafeLoader)
    assert repr(fast) == repr(careful)


SHIPPED_YAML = sorted(
    str(path.relative_to(SHIPPED))
    for folder in ("themes", "kiosk")
    for path in (SHIPPED / folder).rglob("*.yaml")
)


@pytest.mark.parametrize("name", SHIPPED_YAML)
def test_the_shipped_themes_and_configs_take_the_fast_reader(name):
    text = (SHIPPED / name).read_text(encoding="utf-8")
    assert yaml.__with_libyaml__  # PyYAML's wheels and Debian's python3-yaml have libyaml
    assert repr(read_fast(text)) == repr(yaml.load(text, Loader=yaml.SafeLoader))
