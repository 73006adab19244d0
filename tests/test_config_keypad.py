"""The config's feed, keypad, journal and table.decks: defaults, the sample, each mistake named."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from cli import scoreboard

from scoreboard.cli import UsageError, build_parser
from scoreboard.cli.commands.run import settings_from_args
from scoreboard.settings.config import JournalConfig, config_from_mapping, load_config
from scoreboard.settings.keypad import DEFAULT_KEYS, KeypadAction, KeypadConfig, key_names
from scoreboard.settings.reader import ConfigError

SAMPLE = Path(__file__).resolve().parent.parent / "kiosk" / "scoreboard.yaml"


def keypad(**section) -> KeypadConfig:
    return config_from_mapping({"keypad": section}).keypad


def test_an_old_config_keeps_its_meaning():
    config = config_from_mapping({"table": {"id": "T7"}, "mqtt": {"broker": "10.0.0.2:8883"}})
    assert config.feed == "mqtt" and config.mqtt_configured
    assert config.journal == JournalConfig(keep_shoes=200, require_export=False)
    assert config.decks == 8 and config.keypad == KeypadConfig()
    assert not config_from_mapping({}).mqtt_configured


def test_the_sample_config_documents_the_defaults():
    config = load_config(SAMPLE)
    assert config.feed == "mqtt" and config.decks == 8
    assert config.journal == JournalConfig()
    text = SAMPLE.read_text(encoding="utf-8")
    block = text[text.index("# keypad:") : text.index("\njournal:")]
    uncommented = re.sub(r"^# ?", "", block, flags=re.MULTILINE)
    assert config_from_mapping(yaml.safe_load(uncommented)).keypad == KeypadConfig()


def test_the_default_layout_is_the_numeric_keypad_with_numlock_on_and_off():
    keys = KeypadConfig().keys
    assert keys[KeypadAction.PLAYER] == ("[1]", "end")
    assert keys[KeypadAction.TIE] == ("[2]", "down")
    assert keys[KeypadAction.BANKER] == ("[3]", "page down")
    assert keys[KeypadAction.VOID_LAST] == ("[-]",) and keys[KeypadAction.NEW_SHOE] == ("[*]",)
    assert keys[KeypadAction.BANKER_SIX] == ()
    bound = [name for names in keys.values() for name in names]
    assert len(bound) == len(set(bound))
    assert set(bound) <= set(key_names().values())  # every default is a pygame key name


def test_the_debounce_is_50_ms_unless_the_config_says_otherwise():
    assert KeypadConfig().debounce_seconds == 0.05
    assert keypad().debounce_seconds == 0.05
    assert keypad(debounce_seconds=0.02).debounce_seconds == 0.02
    assert keypad(debounce_seconds=0.005).debounce_seconds == 0.005  # the range's ends
    assert keypad(debounce_seconds=0.25).debounce_seconds == 0.25


def test_keys_are_read_as_pygame_names_in_any_spelling():
    config = keypad(banker="Page Up", player=["K_KP7", "KP8"], numlock_off=False)
    assert config.keys[KeypadAction.BANKER] == ("page up",)
    assert config.keys[KeypadAction.PLAYER] == ("[7]", "[8]")
    assert config.keys[KeypadAction.TIE] == ("[2]",)  # no twin with numlock_off false
    assert keypad(natural=[]).keys[KeypadAction.NATURAL] == ()


@pytest.mark.parametrize(
    "section, message",
    [
        ({"banker": "pgdn"}, "keypad.banker: expected pygame key names such as"),
        ({"banker": 3}, "keypad.banker: expected pygame key names"),
        ({"tie": ["[2]", "[2]"]}, "keypad.tie: expected each key once, got '[2]'"),
        ({"banker": []}, "keypad.banker: expected at least one key"),
        ({"tie": "[1]"}, 'keypad.tie: expected a key no other action has: "[1]" is already '
                         "keypad.player (default); give keypad.player other keys too"),
        ({"tie": "end"}, '"end" is already keypad.player (default)'),
        ({"banker_six": "[1]", "player": "[9]", "tie": "[9]"},
         'keypad.tie: expected a key no other action has: "[9]" is already keypad.player,'),
        ({"banker_six": "[8]", "banker": "up"},
         '"up" is already keypad.banker_six (NumLock-off twin of "[8]"; see keypad.numlock_off)'),
        ({"banker_six": "up", "player": "[8]"},
         'keypad.player: expected a key no other action has: "[8]" (its NumLock-off twin "up") '
         "is already keypad.banker_six, got '[8]'"),
        ({"void": "[-]"}, "keypad.void: expected one of the keys"),
        ({"numlock_off": "yes"}, "keypad.numlock_off: expected true or false"),
        ({"confirm_seconds": 0.5}, "keypad.confirm_seconds: expected seconds, 1 to 15"),
        ({"hold_seconds": True}, "keypad.hold_seconds: expected seconds, 0.5 to 10"),
    ],
)  # fmt: skip
def test_a_bad_keypad_section_names_the_key_and_the_value(section, message):
    with pytest.raises(ConfigError) as caught:
        config_from_mapping({"keypad": section}, source="kiosk.yaml")
    assert str(caught.value).startswith("kiosk.yaml: ")
    assert message in str(caught.value)


@pytest.mark.parametrize("value", [50, 0, -0.05, 0.3, float("nan"), float("inf"), "50ms", True])
def test_a_debounce_that_is_not_seconds_in_range_is_refused(value):
    with pytest.raises(ConfigError) as caught:
        config_from_mapping({"keypad": {"debounce_seconds": value}}, source="kiosk.yaml")
    expected = "kiosk.yaml: keypad.debounce_seconds: expected seconds, 0.005 to 0.25, got"
    assert str(caught.value) == f"{expected} {value!r}"


@pytest.mark.parametrize(
    "data, message",
    [
        ({"feed": "serial"}, "feed: expected mqtt or keypad or shoe, got 'serial'"),
        ({"keypad": "numeric"}, "keypad: expected a mapping"),
        ({"journal": {"keep_shoes": 0}}, "journal.keep_shoes: expected an integer 1-100000"),
        ({"journal": {"require_export": "no"}}, "journal.require_export: expected true or"),
        ({"journal": {"keep": 3}}, "journal.keep: expected one of the keys"),
        ({"table": {"decks": 17}}, "table.decks: expected an integer 1-16, got 17"),
    ],
)
def test_a_bad_feed_journal_or_decks_names_the_key(data, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        config_from_mapping(data)


def test_the_journal_and_decks_are_read():
    config = config_from_mapping(
        {"journal": {"keep_shoes": 30, "require_export": True}, "table": {"decks": 6}}
    )
    assert config.journal == JournalConfig(30, True) and config.decks == 6


def test_run_flags_choose_the_keypad_and_a_broker(tmp_path):
    path = tmp_path / "kiosk.yaml"
    path.write_text("table: {id: T4}\nkeypad: {banker: '[9]'}\n")
    args = build_parser().parse_args(["run", "--config", str(path), "--feed", "keypad"])
    config = settings_from_args(args)
    assert config.feed == "keypad" and not config.mqtt_configured
    assert config.keypad.keys[KeypadAction.BANKER] == ("[9]", "page up")
    args = build_parser().parse_args(["run", "--feed", "keypad", "--mqtt", "127.0.0.1:1999"])
    assert settings_from_args(args).mqtt_configured


def test_run_refuses_a_bad_keypad_config_with_its_message(tmp_path):
    path = tmp_path / "kiosk.yaml"
    path.write_text("feed: keypad\nkeypad: {tie: '[3]'}\n")
    args = build_parser().parse_args(["run", "--config", str(path)])
    with pytest.raises(UsageError, match=r"keypad\.tie: .*\"\[3\]\" is already keypad\.banker"):
        settings_from_args(args)


def test_every_action_has_a_default_entry():
    assert set(DEFAULT_KEYS) == set(KeypadAction)


def test_scoreboard_run_refuses_the_keypad_headless_and_a_bad_key(tmp_path):
    done = scoreboard("run", "--feed", "keypad", "--headless", "--state-dir", str(tmp_path))
    assert done.returncode == 2
    assert "--headless has no keyboard" in done.stderr and "Traceback" not in done.stderr
    path = tmp_path / "kiosk.yaml"
    path.write_text("feed: keypad\nkeypad:\n  void_last: keypad-minus\n")
    done = scoreboard("run", "--config", str(path))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"{path}: keypad.void_last: expected pygame key names" in done.stderr
    assert "got 'keypad-minus'" in done.stderr


@pytest.mark.parametrize("value", [".nan", "-.inf", "0", "1"])
def test_scoreboard_run_refuses_a_debounce_out_of_range_naming_file_and_key(tmp_path, value):
    path = tmp_path / "kiosk.yaml"
    path.write_text(f"feed: keypad\nkeypad:\n  debounce_seconds: {value}\n")
    done = scoreboard("run", "--config", str(path))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"{path}: keypad.debounce_seconds: expected seconds, 0.005 to 0.25, got" in done.stderr
