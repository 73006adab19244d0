"""The shoe's own v2 events, ``deal`` and ``shoe_health``, and the raised conditions of the
controller status: what is refused says where and what, and the schema refuses it too."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from scoreboard.game.cards import parse_card
from scoreboard.game.events import CardDealt, ControllerStatus, Origin, ShoeHealth
from scoreboard.game.seats import Seat, Side
from scoreboard.protocol import ProtocolError, Topics, parse_message, wire

T1 = Topics("baccarat/v2/T1")
KEY = b"pit key"
ENVELOPE = {"v": 2, "session": 7, "seq": 40}
DEAL = {**ENVELOPE, "type": "deal", "shoe": "S1", "game": 12, "side": "player",
        "card_number": 1, "card": None}  # fmt: skip
HEALTH = {**ENVELOPE, "type": "shoe_health", "condition": "error:2", "state": "raised",
          "detail": "card not read", "shoe": "S1", "game": 12}  # fmt: skip
STATUS = {**ENVELOPE, "online": True, "raised": [{"condition": "device", "detail": "gone"}]}


def schema_errors(kind: str, instance: Any) -> list[str]:
    text = resources.files("scoreboard.schemas").joinpath(f"{kind}.json").read_text()
    return [e.message for e in Draft202012Validator(json.loads(text)).iter_errors(instance)]


def parse(topic: str, data: dict[str, Any]) -> Any:
    return parse_message(T1, topic, json.dumps(data).encode())


def test_a_deal_names_its_seat_and_a_withheld_card_is_none():
    assert parse(T1.event, DEAL) == CardDealt("S1", 12, Seat(Side.PLAYER, 1), origin=Origin(7, 40))
    shown = parse(T1.event, {**DEAL, "side": "banker", "card_number": 3, "card": "9H"})
    assert shown == CardDealt("S1", 12, Seat(Side.BANKER, 3), parse_card("9H"), Origin(7, 40))
    absent = {k: v for k, v in DEAL.items() if k != "card"}
    assert parse(T1.event, absent).card is None


def test_a_shoe_health_and_a_status_with_raised_conditions_parse():
    assert parse(T1.event, HEALTH) == ShoeHealth(
        "error:2", "raised", "card not read", "S1", 12, Origin(7, 40)
    )
    status = parse(T1.controller_status, STATUS)
    assert status == ControllerStatus(
        True, Origin(7, 40), (ShoeHealth("device", "raised", "gone"),)
    )
    plain = parse(T1.controller_status, {**ENVELOPE, "online": True})
    assert plain.raised == ()


@pytest.mark.parametrize(
    ("base", "change", "says"),
    [
        (DEAL, {"side": "tie"}, "key side: expected player or banker, got 'tie'"),
        (DEAL, {"card_number": 4}, "key card_number: expected 1 to 3, got 4"),
        (DEAL, {"card_number": 0}, "key card_number: expected 1 to 3, got 0"),
        (DEAL, {"card_number": True}, "key card_number: expected int"),
        (DEAL, {"card": "1X"}, "key card:"),
        (DEAL, {"card": 9}, "key card: expected str"),
        (DEAL, {"game": 0}, "key game: expected a game number 1-999"),
        (DEAL, {"shoe": ""}, "key shoe:"),
        (HEALTH, {"state": "up"}, "key state: expected raised, cleared or seen, got 'up'"),
        (HEALTH, {"condition": "Device!"}, "key condition: expected a key such as device"),
        (HEALTH, {"condition": "x" * 65}, "key condition: longer than 64 characters"),
        (HEALTH, {"detail": "d" * 501}, "key detail: longer than 500 characters"),
        (HEALTH, {"detail": "bad\x00byte"}, "key detail: U+0000 at position 3"),
        (HEALTH, {"game": 1000}, "key game: expected a game number 1-999"),
        (STATUS, {"raised": "device"}, "key raised: expected list"),
        (STATUS, {"raised": ["device"]}, "raised[0]: expected an object"),
        (STATUS, {"raised": [{"detail": "x"}]}, "raised[0]: key condition: required but missing"),
        (STATUS, {"raised": [{"condition": "device"}] * 2}, "device appears twice"),
        (STATUS, {"raised": [{"condition": f"c{n}"} for n in range(33)]}, "at most 32"),
    ],
)
def test_a_bad_shoe_payload_is_refused_saying_where_and_what(base, change, says):
    topic = T1.controller_status if base is STATUS else T1.event
    data = {**base, **change}
    with pytest.raises(ProtocolError) as refused:
        parse(topic, data)
    assert says in str(refused.value)
    assert str(refused.value).startswith(topic)
    if "twice" not in says and "U+0000" not in says:  # beyond what a schema says
        assert schema_errors("controller_status" if base is STATUS else "event", data) != []


@pytest.mark.parametrize("key", [None, KEY])
def test_the_shoe_events_are_signed_like_the_others_and_a_moved_one_is_refused(key):
    event = CardDealt("S1", 12, Seat(Side.BANKER, 2), origin=Origin(7, 41))
    topic, payload = wire(T1, event, key)
    assert parse_message(T1, topic, payload, key=key) == event
    if key:
        with pytest.raises(ProtocolError, match="signature"):
            parse_message(Topics("baccarat/v2/T2"), "baccarat/v2/T2/event", payload, key=key)


def documented_examples() -> list[dict[str, Any]]:
    """The JSON examples of docs/protocol.md that are whole payloads (their ``sig`` aside)."""
    text = (Path(__file__).parent.parent / "docs" / "protocol.md").read_text(encoding="utf-8")
    found = []
    for block in re.findall(r"```json\n(.*?)```", text, re.S):
        try:
            found.append(json.loads(block.replace(', "sig": "…"', "")))
        except ValueError:
            continue  # an excerpt ({…}), not a whole payload
    return found


def test_the_documented_deal_shoe_health_and_display_status_examples_validate():
    examples = documented_examples()
    shoe = [e for e in examples if e.get("type") in ("deal", "shoe_health")]
    assert {e["type"] for e in shoe} == {"deal", "shoe_health"}
    for example in shoe:
        assert schema_errors("event", example) == [], example
        parse(T1.event, example)
    (status,) = [e for e in examples if "display" in e and "shoe_health" in e]
    assert schema_errors("display_status", status) == []


def test_a_condition_without_detail_has_an_empty_one_and_32_may_be_raised_at_once():
    health = {k: v for k, v in HEALTH.items() if k != "detail"}
    assert parse(T1.event, health).detail == ""
    raised = [{"condition": f"error:{n}"} for n in range(32)]
    status = parse(T1.controller_status, {**STATUS, "raised": raised})
    assert [each.condition for each in status.raised] == [f"error:{n}" for n in range(32)]
    assert {each.detail for each in status.raised} == {""}
