"""The shipped JSON Schemas agree with the protocol: examples and emitted payloads validate.

They are checked with ``jsonschema``, a full implementation of JSON Schema
2020-12, as a controller vendor would check them.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from scoreboard.game.cards import parse_cards
from scoreboard.game.limits import Limits
from scoreboard.game.rules import Game, Winner, record_coup, result_coup
from scoreboard.game.seats import Seat, Side
from scoreboard.game.shoe import Dealer
from scoreboard.game.variants import VARIANTS
from scoreboard.protocol import (
    Burn,
    CardDealt,
    ControllerStatus,
    Correct,
    CoupReceived,
    CutCard,
    LimitsReceived,
    NewShoe,
    ResyncRequest,
    SchemaError,
    ShoeHealth,
    Shuffle,
    Snapshot,
    Topics,
    Void,
    display_status,
    encode,
    parse_message,
    sign,
)
from scoreboard.table.state import TableState

KINDS = ("coup", "event", "snapshot", "limits", "controller_status", "resync", "display_status")


def schema(kind: str) -> dict[str, Any]:
    return json.loads(resources.files("scoreboard.schemas").joinpath(f"{kind}.json").read_text())


def validate(kind: str, instance: Any) -> list[str]:
    """The ways ``instance`` breaks the shipped schema of ``kind``, by a full validator."""
    validator = Draft202012Validator(schema(kind))
    return [f"{error.json_path}: {error.message}" for error in validator.iter_errors(instance)]


@pytest.mark.parametrize("kind", KINDS)
def test_every_shipped_schema_is_a_valid_json_schema(kind: str) -> None:
    Draft202012Validator.check_schema(schema(kind))


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
        {"v": 2, "type": "deal", "shoe": "S", "game": 18, "side": "player", "card_number": 1,
         "card": None, "session": 7, "seq": 40},
        {"v": 2, "type": "deal", "shoe": "S", "game": 18, "side": "banker", "card_number": 3,
         "card": "9H", "session": 7, "seq": 45},
        {"v": 2, "type": "shoe_health", "condition": "device", "state": "raised",
         "detail": "/dev/ttyUSB0 is gone", "shoe": None, "game": None, "session": 7, "seq": 46},
        {"v": 2, "type": "shoe_health", "condition": "error:2", "state": "cleared",
         "detail": "card not read", "shoe": "S", "game": 18, "session": 7, "seq": 47},
        {"v": 2, "type": "shoe_health", "condition": "bad_bytes", "state": "seen",
         "detail": "05 41 ff", "shoe": "S", "game": None, "session": 7, "seq": 48},
    ],
    "snapshot": [{"v": 1, "shoe": "S", "coups": [{"game": 1, "result": "P"}], "voided": [2],
                  "ts": "2026-11-29T14:03:11Z"}],
    "limits": [{"v": 1, "currency": "USD",
                "bets": {"player": [25, 10000], "banker": [25, 10000], "tie": [5, 1000],
                         "player_pair": [5, 500], "banker_pair": [5, 500]},
                "pays": {"player": "1:1", "banker": "0.95:1", "tie": "8:1",
                         "player_pair": "11:1", "banker_pair": "11:1"}}],
    "controller_status": [
        {"v": 1, "online": True}, {"v": 1, "online": False},
        {"v": 2, "online": True, "session": 7, "seq": 49,
         "raised": [{"condition": "device", "detail": "/dev/ttyUSB0 is gone"}]},
    ],
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
        ControllerStatus(True, raised=(ShoeHealth("device", "raised", "gone"),)),
        ResyncRequest("d1", shoe, (3, 4)),
        CardDealt(shoe, 6, Seat(Side.PLAYER, 1)),
        CardDealt(shoe, 6, Seat(Side.BANKER, 3), parse_cards(["TD"])[0]),
        ShoeHealth("error:E05", "raised", "over-draw", shoe, 6),
        ShoeHealth("hand_abandoned", "seen"),
    ]  # fmt: skip
    for event in emitted:  # as v1 (no origin), as the journal keeps the demo's events
        kind, data = encode(event)
        assert validate(kind, data) == [], (kind, data)
        assert validate(kind, sign(data, b"key", "p/topic")) == [], kind


def test_the_display_status_validates():
    events = list(Dealer(seed=3).shoe())
    games = [e.game for e in events if isinstance(e, CoupReceived)]
    shoe = events[0].shoe
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
        ("controller_status", {"v": 1, "online": True, "raised": [{"condition": "Device!"}]}),
        (
            "event",
            {"v": 1, "type": "deal", "shoe": "S", "game": 1, "side": "tie", "card_number": 1},
        ),
        (
            "event",
            {"v": 1, "type": "deal", "shoe": "S", "game": 1, "side": "player", "card_number": 4},
        ),
        (
            "event",
            {
                "v": 1,
                "type": "deal",
                "shoe": "S",
                "game": 1,
                "side": "player",
                "card_number": 1,
                "card": "1X",
            },
        ),
        ("event", {"v": 1, "type": "shoe_health", "condition": "device", "state": "up"}),
        ("event", {"v": 1, "type": "shoe_health", "condition": "error 2", "state": "seen"}),
    ],
)
def test_the_schemas_reject_what_the_parser_rejects(kind, bad):
    assert validate(kind, bad) != []


@pytest.mark.parametrize(
    ("games", "accepted"), [(-1, False), (0, True), (999, True), (1000, False)]
)
def test_new_shoe_previous_games_is_0_to_999_in_the_decoder_and_the_schema_alike(games, accepted):
    """A shoe may end with no games (a shuffle-out) or full; one past either edge is refused."""
    payload = {"v": 1, "type": "new_shoe", "shoe": "S2", "previous": {"shoe": "S1", "games": games}}
    assert (validate("event", payload) == []) is accepted
    topics = Topics("p")
    if accepted:
        parsed = parse_message(topics, "p/event", json.dumps(payload).encode())
        assert isinstance(parsed, NewShoe) and parsed.previous_games == games
    else:
        with pytest.raises(SchemaError, match="previous: key games: expected 0-999 games"):
            parse_message(topics, "p/event", json.dumps(payload).encode())
