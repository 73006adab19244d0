"""``table.side_bets``: which side bets paid by card counts a table offers, at what pays
and limits; a bad entry refused naming the file and the key."""

from __future__ import annotations

import pytest

from scoreboard.settings.config import config_from_mapping
from scoreboard.settings.reader import ConfigError

LIMITS = {"currency": "MOP", "bets": "100-50000"}


def read(side_bets):
    return config_from_mapping({"table": {"limits": LIMITS, "side_bets": side_bets}}).limits


def test_a_list_offers_the_bets_at_their_usual_pays_and_the_pairs_limits():
    limits = read(["small_6", "lucky_7"])
    assert dict(limits.side_bets) == {
        "small_6": {"small_6": 22},
        "lucky_7": {"lucky_7_2": 6, "lucky_7_3": 15},
    }
    assert limits.bets["small_6"] == limits.bets["player_pair"] == (20, 2500)
    assert limits.pays["small_6"] == "22:1" and limits.pays["lucky_7"] == "6/15:1"
    assert limits.order[-2:] == ("small_6", "lucky_7")


def test_a_mapping_gives_a_bet_its_own_limits_and_pays():
    limits = read({"super_lucky_7": {"limits": "10-1000", "pays": {"super_lucky_7_33": 88}}})
    assert limits.bets["super_lucky_7"] == (10, 1000)
    assert limits.side_bets["super_lucky_7"]["super_lucky_7_33"] == 88
    assert limits.side_bets["super_lucky_7"]["super_lucky_7_22"] == 30
    assert limits.pays["super_lucky_7"] == "30/40/88:1"


def test_no_side_bets_offers_none():
    config = config_from_mapping({"table": {"limits": LIMITS}})
    assert config.limits is not None and config.limits.side_bets == {}
    assert "small_6" not in config.limits.bets


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"limits": LIMITS, "side_bets": ["lucky_8"]}, "table.side_bets: expected each once of"),
        (
            {"limits": LIMITS, "side_bets": ["big_6", "big_6"]},
            "table.side_bets: expected each once",
        ),
        ({"limits": LIMITS, "side_bets": [{"a": 1}]}, "table.side_bets: expected each once"),
        ({"limits": LIMITS, "side_bets": "small_6"}, "table.side_bets: expected a mapping"),
        (
            {"limits": LIMITS, "side_bets": {"lucky_8": {}}},
            "table.side_bets.lucky_8: expected one of",
        ),
        (
            {"limits": LIMITS, "side_bets": {"small_6": {"pays": {"big_6": 50}}}},
            "table.side_bets.small_6.pays.big_6: expected one of the keys small_6",
        ),
        (
            {"limits": LIMITS, "side_bets": {"lucky_7": {"pays": {"lucky_7_2": 0}}}},
            "table.side_bets.lucky_7.pays.lucky_7_2: expected an integer 1-1000",
        ),
        (
            {"limits": LIMITS, "side_bets": {"lucky_7": {"limits": "500-5"}}},
            "table.side_bets.lucky_7.limits: expected [minimum, maximum]",
        ),
        (
            {"limits": LIMITS, "side_bets": {"lucky_7": {"max": 5}}},
            "table.side_bets.lucky_7.max: expected one of the keys limits, pays",
        ),
        ({"side_bets": ["small_6"]}, "table.side_bets: expected table.limits beside it"),
    ],
)
def test_a_bad_side_bet_names_the_file_and_the_key(table, message):
    with pytest.raises(ConfigError) as caught:
        config_from_mapping({"table": table}, source="kiosk.yaml")
    assert str(caught.value).startswith(f"kiosk.yaml: {message}"), caught.value


def test_the_example_configs_side_bets_read_as_written():
    from pathlib import Path

    import yaml

    text = (Path(__file__).parent.parent / "kiosk" / "scoreboard.yaml").read_text("utf-8")
    lines = text.splitlines()
    start = lines.index(
        "  # side_bets:                 # or each with its own limits and pays (tier: n to 1)"
    )
    block = [lines[start]] + [line for line in lines[start + 1 : start + 3]]
    listed = next(line for line in lines if line.startswith("  # side_bets: ["))
    for example in ([listed], block):
        document = "\n".join(["table:", *(line.replace("# ", "", 1) for line in example)])
        table = yaml.safe_load(document)["table"]
        limits = config_from_mapping({"table": {"limits": LIMITS, **table}}).limits
        assert limits is not None and set(limits.side_bets) == set(table["side_bets"])
