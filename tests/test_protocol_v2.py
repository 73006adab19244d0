"""Contract v2 on the wire: the session/seq envelope, the shoe on every board event, the
previous shoe on new_shoe, the signature over the topic, and v1 still read (no origin)."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest
from dealt import dealt_shoe
from jsonschema import Draft202012Validator

from scoreboard.controller import SessionStore, next_session
from scoreboard.game.cards import parse_cards
from scoreboard.game.limits import Limits
from scoreboard.game.rules import Game, Winner, result_coup
from scoreboard.game.seats import Seat, Side
from scoreboard.game.variants import VARIANTS
from scoreboard.protocol import (
    MAX_SEQ,
    WILL_SEQ,
    Burn,
    CardDealt,
    ControllerStatus,
    Correct,
    CoupReceived,
    CutCard,
    LimitsReceived,
    NewShoe,
    Origin,
    ProtocolError,
    ResyncRequest,
    ShoeHealth,
    Shuffle,
    SignatureError,
    Snapshot,
    Topics,
    Void,
    default_prefix,
    encode,
    parse_message,
    wire,
)

T1 = Topics("baccarat/v2/T1")
T2 = Topics("baccarat/v2/T2")
KEY = b"shared key of the pit"
SHOE = dealt_shoe(5, decks=1)
AT = Origin(1_790_000_000_000, 41)


def v2_events() -> list[Any]:
    """One event of every message type, stamped as the controller stamps them."""
    games = SHOE.games
    return [
        CoupReceived(SHOE.shoe, games[0], "2026-11-29T14:03:11Z", origin=AT),
        CoupReceived(SHOE.shoe, Game(2, result_coup(Winner.TIE, player_pair=True)), origin=AT),
        NewShoe(SHOE.shoe, origin=AT),
        NewShoe(SHOE.shoe, "T1-earlier", 71, origin=AT),
        Shuffle(SHOE.shoe, origin=AT),
        CutCard(SHOE.shoe, origin=AT),
        Burn(tuple(parse_cards(["7H", "2C"])), SHOE.shoe, origin=AT),
        Void(SHOE.shoe, 3, "misdeal", origin=AT),
        Correct(SHOE.shoe, games[3], "keyed wrong", origin=AT),
        Snapshot(SHOE.shoe, games[:5], (9,), "2026-11-29T14:03:11Z", origin=AT),
        LimitsReceived(Limits.default_for(VARIANTS["ez"]), origin=AT),
        ControllerStatus(True, origin=Origin(AT.session, 1)),
        ControllerStatus(False, origin=AT),  # a clean goodbye: it has a seq
        ControllerStatus(False, origin=Origin(AT.session, WILL_SEQ)),  # the last will: none
        ControllerStatus(True, origin=AT, raised=(ShoeHealth("device", "raised", "gone"),)),
        CardDealt(SHOE.shoe, 4, Seat(Side.PLAYER, 1), origin=AT),
        CardDealt(SHOE.shoe, 4, Seat(Side.BANKER, 3), parse_cards(["9H"])[0], origin=AT),
        ShoeHealth("error:2", "raised", "card not read", SHOE.shoe, 4, origin=AT),
        ShoeHealth("bad_bytes", "seen", "05 ff", origin=AT),
    ]


def parse(topics: Topics, kind: str, data: dict[str, Any], key: bytes | None = None):
    return parse_message(topics, topics.by_kind[kind], json.dumps(data).encode(), key=key)


def refusal(data: dict[str, Any], kind: str = "coup") -> str:
    with pytest.raises(ProtocolError) as refused:
        parse(T1, kind, data)
    return str(refused.value)


COUP = {"v": 2, "session": AT.session, "seq": AT.seq, "shoe": "S1", "game": 1,
        "cards": {"player": ["9S", "KH"], "banker": ["4D", "3C"]}}  # fmt: skip


# -- the envelope ---------------------------------------------------------------------------
@pytest.mark.parametrize("key", [None, KEY])
def test_every_v2_message_survives_the_wire_with_its_origin(key):
    for event in v2_events():
        topic, payload = wire(T1, event, key)
        assert json.loads(payload)["v"] == 2
        assert parse_message(T1, topic, payload, key=key) == event


def test_the_v2_envelope_is_session_and_seq_beside_the_fields():
    assert encode(v2_events()[0])[1]["session"] == AT.session
    data = json.loads(wire(T1, CutCard("S1", origin=Origin(7, 3)))[1])
    assert data == {"v": 2, "type": "cut_card", "shoe": "S1", "session": 7, "seq": 3}


def test_a_v1_payload_still_parses_with_no_origin():
    v1 = {**COUP, "v": 1}
    del v1["session"], v1["seq"]
    assert parse(T1, "coup", v1).origin is None
    assert parse(T1, "event", {"v": 1, "type": "cut_card"}) == CutCard()
    assert parse(T1, "controller_status", {"v": 1, "online": False}) == ControllerStatus(False)
    # A v1 payload naming a session gets none of v2's ordering: the keys are unknown to v1.
    assert parse(T1, "coup", {**v1, "session": 9, "seq": 9}).origin is None


def test_an_event_with_no_origin_is_written_as_v1():
    _kind, data = encode(CoupReceived(SHOE.shoe, SHOE.games[0]))
    assert data["v"] == 1 and "session" not in data and "seq" not in data


@pytest.mark.parametrize(
    ("change", "key"),
    [
        ({"session": None}, "key session: required"),
        ({"seq": None}, "key seq: required"),
        ({"session": 0}, "key session: expected an integer 1 to 2^53-1"),
        ({"seq": 0}, "key seq: expected an integer 1 to 2^53-1"),
        ({"seq": MAX_SEQ + 1}, "key seq: expected an integer 1 to 2^53-1"),
        ({"session": -5}, "key session"),
        ({"seq": "3"}, "key seq: expected int"),
        ({"session": True}, "key session: expected int"),
        ({"seq": 3.0}, "key seq: expected int"),
    ],
)
def test_a_v2_payload_without_a_good_session_or_seq_is_refused_naming_it(change, key):
    data = {**COUP, **change}
    for name, value in change.items():
        if value is None:
            del data[name]
    assert key in refusal(data)


def test_the_largest_session_and_seq_are_accepted():
    assert parse(T1, "coup", {**COUP, "session": MAX_SEQ, "seq": MAX_SEQ}).origin == Origin(
        MAX_SEQ, MAX_SEQ
    )


@pytest.mark.parametrize("kind", ["coup", "event", "snapshot", "limits", "controller_status"])
def test_every_controller_payload_needs_the_envelope_in_v2(kind):
    payloads = {
        "coup": {k: v for k, v in COUP.items() if k != "session"},
        "event": {"v": 2, "type": "void", "shoe": "S", "game": 1, "seq": 1},
        "snapshot": {"v": 2, "shoe": "S", "coups": [], "seq": 1},
        "limits": {"v": 2, "bets": {}, "pays": {}, "seq": 1},
        "controller_status": {"v": 2, "online": True, "seq": 1},
    }
    assert "key session: required" in refusal(payloads[kind], kind)


def test_a_resync_request_is_a_displays_message_and_needs_no_envelope():
    assert parse(T1, "resync", {"v": 2, "shoe": "S"}) == ResyncRequest(None, "S")


def test_only_the_last_will_may_omit_its_seq():
    will = parse(T1, "controller_status", {"v": 2, "online": False, "session": 7})
    assert will == ControllerStatus(False, Origin(7, WILL_SEQ))
    assert "key seq: required" in refusal(
        {"v": 2, "online": True, "session": 7}, "controller_status"
    )


def test_the_will_is_written_without_a_seq():
    data = encode(ControllerStatus(False, Origin(7, WILL_SEQ)))[1]
    assert data == {"v": 2, "online": False, "session": 7}


# -- what v2 requires beyond v1 --------------------------------------------------------------
@pytest.mark.parametrize(
    "event", [{"type": "cut_card"}, {"type": "shuffle"}, {"type": "burn", "cards": []}]
)
def test_a_v2_board_event_must_name_its_shoe(event):
    data = {"v": 2, "session": 7, "seq": 2, **event}
    assert "key shoe: required in v2" in refusal(data, "event")
    assert parse(T1, "event", {**data, "shoe": "S1"}).shoe == "S1"
    assert "key shoe" in refusal({**data, "shoe": ""}, "event")


def test_a_new_shoe_names_the_previous_shoe_and_its_final_count():
    data = {"v": 2, "session": 7, "seq": 2, "type": "new_shoe", "shoe": "S2"}
    event = parse(T1, "event", {**data, "previous": {"shoe": "S1", "games": 74}})
    assert (event.previous, event.previous_games) == ("S1", 74)
    first = parse(T1, "event", data)  # a controller's very first shoe has none
    assert (first.previous, first.previous_games) == (None, None)
    for previous, key in [
        ({"shoe": "S1"}, "previous: key games: required"),
        ({"games": 3}, "previous: key shoe: required"),
        ({"shoe": "S1", "games": 1000}, "key games: expected 0-999"),
        ({"shoe": "S1", "games": -1}, "key games"),
        ("S1", "key previous: expected dict"),
    ]:
        assert key in refusal({**data, "previous": previous}, "event")


# -- signatures over the topic ------------------------------------------------------------
def test_a_coup_signed_for_t2_is_refused_on_t1_and_accepted_on_its_own_topic():
    coup = CoupReceived(SHOE.shoe, SHOE.games[0], origin=AT)
    topic, payload = wire(T2, coup, KEY)
    assert parse_message(T2, topic, payload, key=KEY) == coup
    with pytest.raises(SignatureError, match="does not match the payload and topic"):
        parse_message(T1, T1.coup, payload, key=KEY)


def test_a_payload_moved_to_another_topic_of_its_table_is_refused():
    _topic, payload = wire(T1, Snapshot(SHOE.shoe, SHOE.games[:2], origin=AT), KEY)
    with pytest.raises(SignatureError):
        parse_message(T1, T1.coup, payload, key=KEY)  # a kind check would refuse it anyway
    with pytest.raises(SignatureError):
        parse_message(Topics("baccarat/v2/T1/x"), "baccarat/v2/T1/x/snapshot", payload, key=KEY)


def test_a_v1_signature_still_covers_the_payload_alone():
    _topic, payload = wire(T2, CoupReceived(SHOE.shoe, SHOE.games[0]), KEY)  # no origin: v1
    assert json.loads(payload)["v"] == 1
    assert parse_message(T1, T1.coup, payload, key=KEY).origin is None  # v1 protects nothing


def test_a_non_ascii_signature_is_a_mismatch_not_a_crash():
    topic, payload = wire(T1, CutCard("S1", origin=AT), KEY)
    forged = {**json.loads(payload), "sig": "é" * 64}
    with pytest.raises(SignatureError):
        parse_message(T1, topic, json.dumps(forged).encode(), key=KEY)


# -- topics ---------------------------------------------------------------------------------
def test_the_default_prefix_is_v2_and_a_v1_prefix_asks_in_v1():
    assert default_prefix("T1") == "baccarat/v2/T1" and T1.version == 2
    v1 = Topics("baccarat/v1/T1")
    assert v1.version == 1
    assert json.loads(wire(v1, ResyncRequest("d1"))[1])["v"] == 1
    assert json.loads(wire(T1, ResyncRequest("d1"))[1])["v"] == 2


# -- schemas -----------------------------------------------------------------------------------
def schema_errors(kind: str, instance: Any) -> list[str]:
    text = resources.files("scoreboard.schemas").joinpath(f"{kind}.json").read_text()
    return [e.message for e in Draft202012Validator(json.loads(text)).iter_errors(instance)]


def test_the_schemas_accept_every_v2_payload_and_refuse_one_without_its_envelope():
    for event in v2_events():
        kind, data = encode(event)
        assert schema_errors(kind, data) == [], data
        stripped = {k: v for k, v in data.items() if k not in ("session", "seq")}
        assert schema_errors(kind, stripped) != [], kind
    cut_card = encode(CutCard("S", origin=AT))[1]
    assert schema_errors("event", {k: v for k, v in cut_card.items() if k != "shoe"}) != []


# -- sessions -------------------------------------------------------------------------------
def test_a_session_follows_the_clock_and_never_goes_back():
    assert next_session(1000, None) == 1000
    assert next_session(1000, 999) == 1000
    assert next_session(1000, 1000) == 1001
    assert next_session(5, 1000) == 1001


def test_a_restarted_controller_store_gives_a_greater_session_even_with_the_clock_back(tmp_path):
    # An earlier run (another process) left its session; this run's clock says 1970.
    (tmp_path / "controller.json").write_text(json.dumps({"session": 3_000_000_000_000}))
    store = SessionStore(tmp_path, clock=lambda: 1.0)
    assert store.new_session() == 3_000_000_000_001
    assert json.loads((tmp_path / "controller.json").read_text())["session"] == 3_000_000_000_001
    store.remember_shoe("T1-x-004", 77)
    again = SessionStore(tmp_path, clock=lambda: 1.0)
    assert again.last_shoe is not None
    assert (again.last_shoe.shoe, again.last_shoe.games) == ("T1-x-004", 77)


def test_a_damaged_session_file_is_ignored_with_a_warning(tmp_path, caplog):
    (tmp_path / "controller.json").write_text("{not json")
    assert SessionStore(tmp_path, clock=lambda: 2.0).new_session() >= 2000
    assert "ignoring" in caplog.text
