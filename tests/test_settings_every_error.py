"""A settings file with several mistakes: every one named at once, each with its file and key path.

A pit technician fixes a display's, a keypad's, a lobby's or a theme's file in one
edit instead of one start per mistake; the same reader collects them all.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scoreboard.lobby.settings import lobby_from_mapping
from scoreboard.settings.config import config_from_mapping, load_config
from scoreboard.settings.reader import ConfigError
from tests.cli import scoreboard

THREE_SECTIONS = "table:\n  decks: 99\nmqtt:\n  port: 0\njournal:\n  keep_shoes: -1\n"


def _lines_naming(stderr: str, path: Path, keys: list[str]) -> list[str]:
    return [key for key in keys if f"{path}: {key}: expected " in stderr]


def test_run_names_every_mistake_of_a_config_in_three_sections(tmp_path: Path) -> None:
    path = tmp_path / "scoreboard.yaml"
    path.write_text(THREE_SECTIONS)
    state = tmp_path / "state"
    done = scoreboard("run", "--config", str(path), "--headless", "--state-dir", str(state))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    keys = ["table.decks", "mqtt.port", "journal.keep_shoes"]
    assert sorted(_lines_naming(done.stderr, path, keys)) == sorted(keys)
    assert not state.exists()


def test_run_names_every_mistake_of_a_keypad_section(tmp_path: Path) -> None:
    path = tmp_path / "kiosk.yaml"
    path.write_text(
        "feed: keypad\nkeypad:\n  void_last: keypad-minus\n  confirm_seconds: 0.5\n"
        "  numlock_off: maybe\n"
    )
    done = scoreboard("run", "--config", str(path))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    keys = ["keypad.numlock_off", "keypad.void_last", "keypad.confirm_seconds"]
    assert sorted(_lines_naming(done.stderr, path, keys)) == sorted(keys)
    assert "got 'keypad-minus'" in done.stderr


def test_lobby_names_every_mistake_of_its_file(tmp_path: Path) -> None:
    path = tmp_path / "lobby.yaml"
    path.write_text(
        "lobby:\n  per_page: 1\n  sort: loudest\n  tables: [{id: T1}, {id: T1}]\n"
        "mqtt:\n  port: 0\ndisplay:\n  rotate: 45\n"
    )
    done = scoreboard("lobby", "--config", str(path), "--duration", "1")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    keys = ["lobby.per_page", "lobby.sort", "lobby.tables[1].id", "mqtt.port", "display.rotate"]
    assert sorted(_lines_naming(done.stderr, path, keys)) == sorted(keys)


def test_check_theme_names_both_bad_keys(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text("colors:\n  banker: reddish\nroads:\n  rows: 40\n")
    done = scoreboard("check-theme", str(path))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    out = done.stdout + done.stderr
    assert f"{path}: colors.banker: expected a colour" in out
    assert f"{path}: roads.rows: expected a whole number from 3 to 12" in out


def test_every_mistake_of_every_section_is_one_line_of_the_error() -> None:
    with pytest.raises(ConfigError) as refused:
        config_from_mapping(
            {
                "table": {"id": "T 1", "variant": "commission", "decks": 0},
                "display": {"rotate": 45, "motion": "yes"},
                "mqtt": {"broker": "h:99999", "protocol": "4"},
                "keypad": {"hold_seconds": 0},
                "journal": {"keep_shoes": 0},
            },
            source="f.yaml",
        )
    keys = [line.split(": ")[1] for line in refused.value.errors]
    assert sorted(keys) == sorted(
        [
            "table.id",
            "table.decks",
            "display.rotate",
            "display.motion",
            "mqtt.broker",
            "mqtt.protocol",
            "keypad.hold_seconds",
            "journal.keep_shoes",
        ]
    )
    assert str(refused.value) == "\n".join(refused.value.errors)
    assert all(line.startswith("f.yaml: ") for line in refused.value.errors)


def test_a_mistake_does_not_bring_a_second_one_with_it() -> None:
    """An unknown variant is one mistake, not also the limits that need its pays."""
    with pytest.raises(ConfigError) as refused:
        config_from_mapping(
            {"table": {"variant": "mini", "limits": {"bets": "25-10000"}, "side_bets": ["big_6"]}},
            source="f.yaml",
        )
    assert refused.value.errors == (
        "f.yaml: table.variant: expected one of commission, super6, ez, got 'mini'",
    )


def test_a_lobby_file_reports_its_display_sections_mistakes_with_its_own() -> None:
    with pytest.raises(ConfigError) as refused:
        lobby_from_mapping(
            {"lobby": {"page_seconds": 1}, "table": {"id": "T1"}, "display": {"size": "1x1"}},
            source="l.yaml",
        )
    keys = sorted(line.split(": ")[1] for line in refused.value.errors)
    assert keys == ["display.size", "lobby.page_seconds", "table"]


def test_a_config_with_one_mistake_is_still_one_line(tmp_path: Path) -> None:
    path = tmp_path / "scoreboard.yaml"
    path.write_text("mqtt:\n  keepalive: 0\n")
    with pytest.raises(ConfigError) as refused:
        load_config(path)
    assert str(refused.value) == f"{path}: mqtt.keepalive: expected an integer 1-3600, got 0"


def test_every_secret_and_tls_file_that_cannot_be_used_is_named(tmp_path: Path) -> None:
    from scoreboard.settings.endpoint import load_endpoint

    empty = tmp_path / "password"
    empty.write_text("\n")
    config = config_from_mapping(
        {
            "mqtt": {
                "password_file": str(empty),
                "hmac_key_file": str(tmp_path / "no-key"),
                "tls": {"ca": str(tmp_path / "no-ca.pem")},
            }
        }
    )
    with pytest.raises(ConfigError) as refused:
        load_endpoint(config)
    assert refused.value.errors == (
        f"{empty}: the MQTT password file is empty",
        f"{tmp_path / 'no-key'}: cannot read the HMAC key (No such file or directory)",
        f"--tls-ca: {tmp_path / 'no-ca.pem'}: no such file",
    )


def test_a_lobby_names_every_table_key_file_it_cannot_read(tmp_path: Path) -> None:
    settings = lobby_from_mapping(
        {
            "lobby": {
                "tables": [
                    {"id": "T1", "hmac_key_file": str(tmp_path / "t1.key")},
                    {"id": "T2", "hmac_key_file": str(tmp_path / "t2.key")},
                ]
            }
        }
    )
    with pytest.raises(ConfigError) as refused:
        settings.keys()
    assert [line.split(": ")[0] for line in refused.value.errors] == [
        str(tmp_path / "t1.key"),
        str(tmp_path / "t2.key"),
    ]


@pytest.mark.parametrize(
    ("section", "key"),
    [
        ({"table": {"id": ""}}, "table.id"),
        ({"mqtt": {"client_id": ""}}, "mqtt.client_id"),
        ({"shoe": {"model": "angel-eye", "suits": ""}}, "shoe.suits"),
    ],
)
def test_empty_text_where_a_name_is_needed_is_still_a_mistake(section: dict, key: str) -> None:
    with pytest.raises(ConfigError) as refused:
        config_from_mapping(section, source="f.yaml")
    assert refused.value.errors[0].startswith(f"f.yaml: {key}: expected ")


def test_an_empty_table_id_in_a_lobby_is_a_mistake() -> None:
    with pytest.raises(ConfigError, match=r"l\.yaml: lobby\.tables\[0\]\.id: "):
        lobby_from_mapping({"lobby": {"tables": [{"id": ""}]}}, source="l.yaml")
