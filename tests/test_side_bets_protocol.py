"""The tiered side bets in the limits payload: encoded, read back, checked by the schema,
and an earlier payload without them still read (docs/protocol.md, "Side bets paid by
card counts")."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from scoreboard.game.events import Origin
from scoreboard.game.limits import limits_from_spec, offer_side_bets
from scoreboard.game.side_bets import SIDE_BETS
from scoreboard.game.variants import VARIANTS
from scoreboard.protocol import LimitsReceived, SchemaError, Topics, encode, parse_message

TOPICS = Topics("baccarat/v2/T1")


def schema_errors(instance: Any) -> list[str]:
    text = resources.files("scoreboard.schemas").joinpath("limits.json").read_text()
    return [e.message for e in Draft202012Validator(json.loads(text)).iter_errors(instance)]


def parse(data: dict[str, Any]) -> LimitsReceived:
    event = parse_message(TOPICS, TOPICS.limits, json.dumps(data).encode())
    assert isinstance(event, LimitsReceived)
    return event


def offered() -> LimitsReceived:
    table = limits_from_spec("100-50000", VARIANTS["commission"], currency="MOP")
    bets = [SIDE_BETS["small_6"], SIDE_BETS["lucky_7"].with_pays({"lucky_7_3": 17})]
    return LimitsReceived(offer_side_bets(table, bets), origin=Origin(7, 2))


def test_offered_side_bets_go_out_and_come_back_with_their_pay_tables():
    _, data = encode(offered())
    assert data["side_bets"] == {
        "small_6": {"small_6": 22},
        "lucky_7": {"lucky_7_2": 6, "lucky_7_3": 17},
    }
    assert data["pays"]["lucky_7"] == "6/17:1" and data["bets"]["small_6"] == [20, 2500]
    assert schema_errors(data) == []
    back = parse(data)
    assert back.limits == offered().limits


def test_a_payload_without_side_bets_offers_none_as_before():
    table = limits_from_spec("25-10000", VARIANTS["commission"])
    _, data = encode(LimitsReceived(table, origin=Origin(7, 2)))
    assert "side_bets" not in data
    assert parse(data).limits.side_bets == {}


def test_a_tier_left_out_pays_the_usual():
    _, data = encode(offered())
    data["side_bets"] = {"super_lucky_7": {"super_lucky_7_33": 88}}
    pays = parse(data).limits.side_bets["super_lucky_7"]
    assert pays == {**SIDE_BETS["super_lucky_7"].pays, "super_lucky_7_33": 88}


@pytest.mark.parametrize(
    ("side_bets", "says"),
    [
        ({"lucky_8": {}}, "side_bets.lucky_8: expected one of small_6"),
        ({"small_6": {"big_6": 50}}, "side_bets.small_6: small_6 pays small_6, not big_6"),
        ({"lucky_7": {"lucky_7_2": 0}}, "side_bets.lucky_7: lucky_7: pays must be 1 to 1000"),
        ({"lucky_7": {"lucky_7_2": True}}, "side_bets.lucky_7: expected each tier's pay"),
        ({"lucky_7": [6, 15]}, "side_bets.lucky_7: expected each tier's pay"),
        (["small_6"], "key side_bets: expected dict"),
    ],
)
def test_a_bad_side_bet_is_refused_by_the_reader_and_the_schema_alike(side_bets, says):
    _, data = encode(offered())
    data["side_bets"] = side_bets
    with pytest.raises(SchemaError, match=re.escape(says)):
        parse(data)
    assert schema_errors(data) != []


def test_the_documented_example_validates_and_parses():
    text = (Path(__file__).parent.parent / "docs" / "protocol.md").read_text(encoding="utf-8")
    blocks = [
        json.loads(b) for b in re.findall(r"```json\n(.*?)```", text, re.S) if "side_bets" in b
    ]
    (example,) = blocks
    assert schema_errors(example) == []
    assert set(parse(example).limits.side_bets) == {"small_6", "lucky_7"}
