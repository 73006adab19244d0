"""The shipped JSON Schemas agree with the protocol: examples and emitted payloads validate.

A small validator of the JSON Schema keywords the schemas use keeps the test
free of extra dependencies; a vendor validates with any full implementation.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any

import pytest

from scoreboard.core.cards import parse_cards
from scoreboard.core.rules import Game, Winner, record_coup, result_coup
from scoreboard.core.shoe import Dealer
from scoreboard.core.table import Limits, TableState
from scoreboard.core.variants import VARIANTS
from scoreboard.protocol import (
    Burn,
    ControllerStatus,
    Correct,
    CoupReceived,
    CutCard,
    LimitsReceived,
    NewShoe,
    ResyncRequest,
    Shuffle,
    Snapshot,
    Topics,
    Void,
    display_status,
    encode,
    parse_message,
    sign,
)

KINDS = ("coup", "event", "snapshot", "limits", "controller_status", "resync", "display_status")

_TYPES = {
    "object": dict, "array": list, "string": str, "boolean": bool, "null": type(None),
}  # fmt: skip


def schema(kind: str) -> dict[str, Any]:
    return json.loads(resources.files("scoreboard.schemas").joinpath(f"{kind}.json").read_text())


def errors(instance: Any, node: dict[str, Any], root: dict[str, Any], path: str = "$") -> list[str]:
    """The ways ``instance`` breaks ``node`` (a subset of JSON Schema 2020-12)."""
    found: list[str] = []
    if "$ref" in node:
        target = root
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        found += errors(instance, target, root, path)
    if "type" in node:
        types = node["type"] if isinstance(node["type"], list) else [node["type"]]
        ok = False
        for name in types:
            if name == "integer":
                ok |= isinstance(instance, int) and not isinstance(instance, bool)
            else:
                ok |= isinstance(instance, _TYPES[name])
        if not ok:
            return [f"{path}: not {types}"]
    if "const" in node and (instance != node["const"] or type(instance) is not type(node["const"])):
        found.append(f"{path}: not {node['const']!r}")
    if "enum" in node and instance not in node["enum"]:
        found.append(f"{path}: not one of {node['enum']}")
    if isinstance(instance, str):
        if len(instance) < node.get("minLength", 0) or len(instance) > node.get("maxLength", 1e9):
            found.append(f"{path}: length")
        if "pattern" in node and not re.search(node["pattern"], instance):
            found.append(f"{path}: pattern")
    number = isinstance(instance, int) and not isinstance(instance, bool)
    if number and not node.get("minimum", -1e18) <= instance <= node.get("maximum", 1e18):
        found.append(f"{path}: range")
    if isinstance(instance, list):
        if len(instance) < node.get("minItems", 0) or len(instance) > node.get("maxItems", 1e9):
            found.append(f"{path}: items count")
        if "items" in node:
            for index, item in enumerate(instance):
                found += errors(item, node["items"], root, f"{path}[{index}]")
    if isinstance(instance, dict):
        for key in node.get("required", []):
            if key not in instance:
                found.append(f"{path}: missing {key}")
        if len(instance) > node.get("maxProperties", 1e9):
            found.append(f"{path}: too many keys")
        properties = node.get("properties", {})
        for key, value in instance.items():
            if key in properties:
                found += errors(value, properties[key], root, f"{path}.{key}")
            elif "additionalProperties" in node:
                found += errors(value, node["additionalProperties"], root, f"{path}.{key}")
    for keyword in ("anyOf", "oneOf"):
        if keyword in node:
            passing = sum(not errors(instance, branch, root, path) for branch in node[keyword])
            if passing == 0 or (keyword == "oneOf" and passing > 1):
                found.append(f"{path}: {keyword} matched {passing}")
    if "if" in node and not errors(instance, node["if"], root, path):
        found += errors(instance, node.get("then", {}), root, path)
    return found


def validate(kind: str, instance: Any) -> list[str]:
    root = schema(kind)
    return errors(instance, root, root)


EXAMPLES = {
    "coup": [
        {"v": 1, "shoe": "2026-11-29-T1-003", "game": 17,
         "cards": {"player": ["9S", "KH"], "banker": ["4D", "3C"]}, "ts": "2026-11-29T14:03:11Z"},
        {"v": 1, "shoe": "S", "game": 3, "result": "T", "player_pair": True, "natural": False},
    ],
    "event": [
        {"v": 1, "type": "new_shoe", "shoe": "S"},
        {"v": 1, "type": "void", "shoe": "S", "game": 17, "reason": "misdeal"},
        {"v": 1, "type": "correct", "shoe": "S", "game": 17, "reason": "keyed wrong",
         "coup": {"game": 17, "result": "B"}},
        {"v": 1, "type": "shuffle"},
        {"v": 1, "type": "burn", "cards": ["7H", "2C"]},
        {"v": 1, "type": "cut_card"},
    ],
    "snapshot": [{"v": 1, "shoe": "S", "coups": [{"game": 1, "result": "P"}], "voided": [2],
                  "ts": "2026-11-29T14:03:11Z"}],
    "limits": [{"v": 1, "currency": "USD",
                "bets": {"player": [25, 10000], "banker": [25, 10000], "tie": [5, 1000],
                         "player_pair": [5, 500], "banker_pair": [5, 500]},
                "pays": {"player": "1:1", "banker": "0.95:1", "tie": "8:1",
                         "player_pair": "11:1", "banker_pair": "11:1"}}],
    "controller_status": [{"v": 1, "online": True}, {"v": 1, "online": False}],
    "resync": [{"v": 1, "display": "T1-a", "shoe": "S", "missing": [18]}],
    "display_status": [
        {"v": 1, "online": True, "display": "T1-a", "shoe": "S", "games": 17, "last_game": 17,
         "counts": {"B": 8, "P": 7, "T": 2}, "missing": [], "rejected": 0, "feed": "connected"},
        {"online": False},
    ],
}  # fmt: skip


@pytest.mark.parametrize("kind", KINDS)
def test_every_payload_kind_has_a_schema_that_accepts_the_documented_examples(kind):
    assert schema(kind)["$schema"].startswith("https://json-schema.org/")
    for example in EXAMPLES[kind]:
        assert validate(kind, example) == [], example


@pytest.mark.parametrize("kind", ["coup", "event", "snapshot", "limits", "controller_status"])
def test_the_documented_examples_also_parse(kind):
    topics = Topics("p")
    topic = {"controller_status": topics.controller_status}.get(kind, f"p/{kind}")
    for example in EXAMPLES[kind]:
        parse_message(topics, topic, json.dumps(example).encode())


def test_everything_the_controller_and_display_emit_validates():
    events = list(Dealer(seed=3).shoe())
    games = [e.game for e in events if isinstance(e, CoupReceived)]
    shoe = events[0].shoe
    result_only = Game(5, result_coup(Winner.TIE, player_pair=True, natural=True))
    emitted = [
        CoupReceived(shoe, games[0], "2026-11-29T14:03:11.123Z"),
        CoupReceived(shoe, result_only),
        NewShoe(shoe), Shuffle(), CutCard(),
        Burn(tuple(parse_cards(["7H", "2C", "KD"]))),
        Void(shoe, 3, "misdeal"),
        Correct(shoe, Game(4, record_coup(*map(parse_cards, (["9S", "KH"], ["4D", "3C"]))))),
        Snapshot(shoe, tuple(games), (90,), "2026-11-29T14:03:11Z"),
        LimitsReceived(Limits.default_for(VARIANTS["ez"])),
        ControllerStatus(True),
        ResyncRequest("d1", shoe, (3, 4)),
    ]  # fmt: skip
    for event in emitted:
        kind, data = encode(event)
        assert validate(kind, data) == [], (kind, data)
        assert validate(kind, sign(data, b"key")) == [], kind
    table = TableState()
    table.new_shoe(shoe)
    for game in games[:5]:
        table.add_game(game)
    status = display_status("d1", table, rejected=2, feed="missing games")
    assert validate("display_status", status) == []


@pytest.mark.parametrize(
    "kind, bad",
    [
        ("coup", {"v": 1, "shoe": "S", "game": 1}),
        ("coup", {"v": 1, "shoe": "", "game": 1, "result": "B"}),
        ("coup", {"v": 2, "shoe": "S", "game": 1, "result": "B"}),
        ("coup", {"v": 1, "shoe": "S", "game": 0, "result": "B"}),
        ("coup", {"v": 1, "shoe": "S", "game": 1, "cards": {"player": ["ZZ", "1"], "banker": []}}),
        ("event", {"v": 1, "type": "explode"}),
        ("event", {"v": 1, "type": "void", "shoe": "S"}),
        ("limits", {"v": 1, "bets": {"tie": [5]}, "pays": {}}),
        ("snapshot", {"v": 1, "coups": []}),
        ("controller_status", {"v": 1, "online": "yes"}),
    ],
)
def test_the_schemas_reject_what_the_parser_rejects(kind, bad):
    assert validate(kind, bad) != []
