"""Payload parsing, validation and signing: bytes in, events out, errors that say where."""

from __future__ import annotations

import json

import pytest
from dealt import dealt_shoe, raw_message
from hypothesis import given, settings
from hypothesis import strategies as st

from scoreboard.game.cards import parse_cards
from scoreboard.game.events import HEALTH_STATES, CardDealt, ShoeHealth
from scoreboard.game.limits import Limits
from scoreboard.game.rules import Game, Winner, record_coup, result_coup
from scoreboard.game.seats import Seat, Side
from scoreboard.game.shoe import Dealer
from scoreboard.game.variants import VARIANTS
from scoreboard.protocol import (
    MAX_PAYLOAD,
    Burn,
    ControllerStatus,
    Correct,
    CoupReceived,
    CutCard,
    LimitsReceived,
    NewShoe,
    ProtocolError,
    ResyncRequest,
    Shuffle,
    SignatureError,
    Snapshot,
    Topics,
    Void,
    canonical_json,
    encode,
    encode_payload,
    parse_message,
    sign,
)
from scoreboard.protocol.shoe_events import CONDITION

T = Topics("baccarat/v1/T1")
CARDS = {"player": ["9S", "KH"], "banker": ["4D", "3C"]}


def coup(**fields) -> bytes:
    return json.dumps({"v": 1, "shoe": "S1", "game": 17, "cards": CARDS, **fields}).encode()


def parse(payload: bytes | dict, topic: str = T.coup, key: bytes | None = None):
    if isinstance(payload, dict):
        payload = json.dumps(payload).encode()
    return parse_message(T, topic, payload, key=key)


def rejection(payload, topic: str = T.coup, key: bytes | None = None) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        parse(payload, topic, key)
    return caught.value


# -- coups ----------------------------------------------------------------------------
def test_a_coup_with_cards_is_resolved_from_the_cards():
    event = parse(coup(ts="2026-11-29T14:03:11Z"))
    assert isinstance(event, CoupReceived)
    assert (event.shoe, event.game.number, event.ts) == ("S1", 17, "2026-11-29T14:03:11Z")
    assert event.game.coup.winner is Winner.PLAYER
    assert (event.game.coup.player_total, event.game.coup.banker_total) == (9, 7)
    assert event.game.coup.natural


def test_a_result_only_coup_keeps_the_reported_flags():
    event = parse({"v": 1, "shoe": "S1", "game": 2, "result": "B", "banker_pair": True,
                   "banker_total": 8, "player_total": 2, "natural": True})  # fmt: skip
    assert event.game.coup.winner is Winner.BANKER
    assert event.game.coup.banker_pair and event.game.coup.banker_natural
    assert not event.game.coup.has_cards


def test_unknown_keys_are_ignored():
    assert parse(coup(table_colour="green", extra={"a": 1})).game.number == 17


def test_result_and_totals_that_agree_with_the_cards_are_accepted():
    event = parse(coup(result="P", player_total=9, banker_total=7, natural=True, banker_pair=False))
    assert event.game.coup.winner is Winner.PLAYER


@pytest.mark.parametrize(
    "fields, key",
    [
        ({"result": "B"}, "result"),
        ({"player_total": 8}, "player_total"),
        ({"player_pair": True}, "player_pair"),
        ({"natural": False}, "natural"),
    ],
)
def test_a_payload_disagreeing_with_its_cards_is_rejected(fields, key):
    error = rejection(coup(**fields))
    assert error.reason == "impossible hand"
    assert "game 17" in str(error) and key in str(error) and T.coup in str(error)


def test_cards_that_break_the_tableau_are_rejected_naming_the_game():
    error = rejection(coup(cards={"player": ["9S", "KH"], "banker": ["4D", "3C", "AS"]}))
    assert error.reason == "impossible hand"
    assert "game 17" in str(error) and "natural" in str(error)
    assert rejection(coup(cards={"player": ["2S", "3H"], "banker": ["TD", "KC"]})).reason == (
        "impossible hand"
    )


def test_an_unknown_card_is_rejected_naming_the_key():
    error = rejection(coup(cards={"player": ["9S", "XX"], "banker": ["4D", "3C"]}))
    assert error.reason == "unknown card"
    assert "cards.player" in str(error) and "'XX'" in str(error)


@pytest.mark.parametrize(
    "fields, key",
    [
        ({"game": "17"}, "game"),
        ({"game": True}, "game"),
        ({"game": 0}, "game"),
        ({"game": 10**9}, "game"),
        ({"shoe": 5}, "shoe"),
        ({"shoe": ""}, "shoe"),
        ({"shoe": "x" * 65}, "shoe"),
        ({"v": 3}, "v"),
        ({"v": "1"}, "v"),
        ({"cards": ["9S"]}, "cards"),
        ({"cards": {"player": ["9S"], "banker": ["4D", "3C"]}}, "cards.player"),
        ({"player_pair": "yes"}, "player_pair"),
        ({"ts": 12}, "ts"),
    ],
)
def test_wrong_types_and_ranges_are_rejected_naming_the_key(fields, key):
    error = rejection(coup(**fields))
    assert error.reason == "schema"
    assert f"key {key}" in str(error)


def test_missing_required_keys_are_errors():
    for missing in ("v", "shoe", "game"):
        data = json.loads(coup())
        del data[missing]
        assert f"key {missing}: required" in str(rejection(data))
    data = json.loads(coup())
    del data["cards"]
    assert "cards/result" in str(rejection(data))


@pytest.mark.parametrize(
    "payload, reason",
    [
        (b"not json", "not json"),
        (b"\xff\xfe{}", "not json"),
        (b'{"v": 1, "game": NaN}', "not json"),
        (b"[" * 50_000, "not json"),
        (b"[1, 2]", "schema"),
        (b'"coup"', "schema"),
    ],
)
def test_what_is_not_a_json_object_is_rejected(payload, reason):
    assert rejection(payload).reason == reason


def test_payloads_over_64_kib_are_rejected_before_parsing():
    big = coup(pad="x" * MAX_PAYLOAD)
    error = rejection(big)
    assert error.reason == "oversized" and str(len(big)) in str(error)
    fits = coup(pad="x" * (MAX_PAYLOAD - len(coup(pad=""))))
    assert len(fits) == MAX_PAYLOAD
    assert parse(fits).game.number == 17


def test_a_topic_outside_the_table_is_rejected():
    assert rejection(coup(), topic="baccarat/v1/T2/coup").reason == "topic"


# -- events, snapshots, limits, statuses -------------------------------------------------
def test_every_event_type_parses():
    t = T.event
    assert parse({"v": 1, "type": "new_shoe", "shoe": "S2"}, t) == NewShoe("S2")
    assert parse({"v": 1, "type": "shuffle"}, t) == Shuffle()
    assert parse({"v": 1, "type": "cut_card"}, t) == CutCard()
    assert parse({"v": 1, "type": "burn", "cards": ["7H", "2C"]}, t) == Burn(
        parse_cards(["7H", "2C"])
    )
    assert parse({"v": 1, "type": "void", "shoe": "S", "game": 4, "reason": "misdeal"}, t) == Void(
        "S", 4, "misdeal"
    )
    corrected = parse(
        {"v": 1, "type": "correct", "shoe": "S", "game": 4, "reason": "keyed wrong",
         "coup": {"cards": CARDS}}, t)  # fmt: skip
    assert isinstance(corrected, Correct) and corrected.game.number == 4


def test_a_correction_whose_coup_names_another_game_is_rejected():
    error = rejection(
        {"v": 1, "type": "correct", "shoe": "S", "game": 4, "coup": {"game": 5, "result": "B"}},
        T.event,
    )
    assert "coup.game" in str(error)


def test_an_unknown_event_type_is_rejected():
    assert "unknown event type" in str(rejection({"v": 1, "type": "explode"}, T.event))


def test_a_snapshot_lists_its_games_in_game_order():
    coups = [{"game": 3, "result": "B"}, {"game": 1, "cards": CARDS}]
    snapshot = parse({"v": 1, "shoe": "S", "voided": [2], "coups": coups}, T.snapshot)
    assert isinstance(snapshot, Snapshot)
    assert [g.number for g in snapshot.games] == [1, 3] and snapshot.voided == (2,)


@pytest.mark.parametrize(
    "coups, voided, message",
    [
        ([{"game": 1, "result": "B"}, {"game": 1, "result": "P"}], [], "appears twice"),
        ([{"game": 1, "result": "B"}], [1], "both voided and recorded"),
        ([{"game": 1, "result": "B", "shoe": "other"}], [], "differs"),
        ([{"game": 1, "cards": {"player": ["9S", "KH"], "banker": ["4D", "3C", "AS"]}}], [],
         "coups[0] game 1"),
    ],
)  # fmt: skip
def test_a_bad_snapshot_is_rejected_whole(coups, voided, message):
    error = rejection({"v": 1, "shoe": "S", "coups": coups, "voided": voided}, T.snapshot)
    assert message in str(error)


@pytest.mark.parametrize("currency", ["usd", "US", "USDT", "💎💎", "$$$", " ", "U\u200bS"])
def test_a_currency_the_boards_cannot_draw_as_a_code_is_refused_naming_the_key(currency):
    error = rejection({"v": 1, "currency": currency, "bets": {}, "pays": {}}, T.limits)
    assert "key currency: expected a currency code of three capital letters" in str(error)


def test_limits_parse_and_bad_ranges_are_rejected():
    limits = parse(
        {"v": 1, "currency": "EUR", "bets": {"tie": [5, 500]}, "pays": {"tie": "8:1"}}, T.limits
    )
    assert limits == LimitsReceived(Limits("EUR", {"tie": (5, 500)}, {"tie": "8:1"}))
    for bets in ({"tie": [500, 5]}, {"tie": [5]}, {"tie": [-1, 5]}, {"tie": "5-500"}):
        error = rejection({"v": 1, "bets": bets, "pays": {}}, T.limits)
        assert "bets.tie" in str(error)


def test_controller_status_as_json_or_bare_text():
    assert parse({"v": 1, "online": False}, T.controller_status) == ControllerStatus(False)
    assert parse(b"online", T.controller_status) == ControllerStatus(True)
    assert parse(b"offline\n", T.controller_status) == ControllerStatus(False)
    # With a key only a signed JSON status counts.
    assert rejection(b"offline", T.controller_status, key=b"k").reason == "not json"


def test_a_resync_request_parses():
    request = parse({"v": 1, "display": "d1", "shoe": "S", "missing": [3, 4]}, T.resync)
    assert request == ResyncRequest("d1", "S", (3, 4))


# -- signatures ---------------------------------------------------------------------------
def test_canonical_json_sorts_keys_and_drops_spaces():
    assert canonical_json({"b": [1, 2], "a": "é"}) == '{"a":"é","b":[1,2]}'.encode()


def test_a_signed_payload_verifies_whatever_its_key_order_or_spacing():
    signed = sign(json.loads(coup()), b"secret")
    reordered = json.dumps(dict(reversed(list(signed.items()))), indent=2).encode()
    assert parse(reordered, key=b"secret").game.number == 17
    upper = {**signed, "sig": signed["sig"].upper()}
    assert parse(upper, key=b"secret").game.number == 17


@pytest.mark.parametrize(
    "payload",
    [
        lambda: json.loads(coup()),  # unsigned
        lambda: sign(json.loads(coup()), b"other key"),
        lambda: {**sign(json.loads(coup()), b"secret"), "game": 18},  # tampered after signing
        lambda: {**json.loads(coup()), "sig": 12},
    ],
)
def test_unsigned_forged_or_tampered_payloads_are_rejected_when_a_key_is_set(payload):
    error = rejection(payload(), key=b"secret")
    assert isinstance(error, SignatureError) and T.coup in str(error)


def test_without_a_key_a_signature_is_not_checked():
    assert parse(sign(json.loads(coup()), b"whatever")).game.number == 17


# -- round trips --------------------------------------------------------------------------
def round_trip_events():
    events = list(Dealer(seed=12).shoe())
    games = [e.game for e in events if isinstance(e, CoupReceived)]
    shoe = events[0].shoe
    natural = record_coup(*(parse_cards(h) for h in (["9S", "KH"], ["4D", "3C"])))
    return [
        *(CoupReceived(shoe, g, "2026-11-29T14:03:11Z") for g in games),
        NewShoe(shoe), Shuffle(), CutCard(), Burn(tuple(parse_cards(["7H", "KD"]))),
        Void(shoe, 5, "misdeal"), Correct(shoe, Game(5, natural), "fix"),
        Snapshot(shoe, tuple(games), (91,), "2026-11-29T14:03:11Z"),
        LimitsReceived(Limits.default_for(VARIANTS["super6"])),
        ControllerStatus(True), ResyncRequest("d1", shoe, (1, 2)),
    ]  # fmt: skip


@pytest.mark.parametrize("key", [None, b"k3y"])
def test_every_event_survives_encode_then_parse(key):
    for event in round_trip_events():
        topic, payload = raw_message(T, event, key)
        assert parse_message(T, topic, payload, key=key) == event


# -- invariants -----------------------------------------------------------------------------
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8)
    | st.sampled_from(["9S", "KH", "B", "P", "T", "new_shoe", "void", "S1"]),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(
        st.sampled_from(["v", "shoe", "game", "cards", "player", "banker", "result", "type",
                         "coups", "voided", "bets", "pays", "online", "coup", "sig"]),
        children, max_size=6),
    max_leaves=20,
)  # fmt: skip


SUFFIXES = ["coup", "event", "snapshot", "limits", "controller/status", "cmd/resync"]
PAYLOADS = st.one_of(st.binary(max_size=64), json_values.map(lambda v: json.dumps(v).encode()))


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.sampled_from(SUFFIXES), PAYLOADS)
def test_any_payload_either_parses_or_raises_a_protocol_error(suffix, payload):
    """And what parses is exactly what the payload said: it survives its own round trip."""
    topic = f"{T.prefix}/{suffix}"
    try:
        event = parse_message(T, topic, payload)
    except ProtocolError:
        return
    kind, data = encode(event)
    assert T.by_kind[kind] == topic  # an event of the kind its topic carries
    assert parse_message(T, topic, encode_payload(data)) == event


SHOWABLE = st.characters(exclude_categories=("Cc", "Cs"))  # what a board can draw
SHOE_IDS = st.text(SHOWABLE, min_size=1, max_size=64)
NUMBERS = st.integers(1, 999)
GAMES_DEALT = [game for seed in (1, 2) for game in dealt_shoe(seed, decks=1).games]
GAME = st.builds(lambda n, g: Game(n, g.coup), NUMBERS, st.sampled_from(GAMES_DEALT))
RESULT_ONLY = st.builds(
    lambda n, w, bp, pp: Game(n, result_coup(w, banker_pair=bp, player_pair=pp)),
    NUMBERS, st.sampled_from(list(Winner)), st.booleans(), st.booleans(),
)  # fmt: skip
ANY_GAME = GAME | RESULT_ONLY
CONDITIONS = st.from_regex(CONDITION, fullmatch=True)
LIMITS = st.builds(
    Limits,
    st.from_regex(r"([A-Z]{3})?", fullmatch=True),  # ISO 4217's form, or "": not known
    st.dictionaries(
        st.text(SHOWABLE, max_size=32),
        st.tuples(st.integers(0, 10**6), st.integers(10**6, 10**9)),
        max_size=32,
    ),
    st.dictionaries(st.text(SHOWABLE, max_size=32), st.text(SHOWABLE, max_size=32), max_size=32),
)  # fmt: skip
EVENTS = st.one_of(
    st.builds(CoupReceived, SHOE_IDS, ANY_GAME, st.none() | st.text(SHOWABLE, max_size=64)),
    st.builds(NewShoe, SHOE_IDS),
    st.just(Shuffle()),
    st.just(CutCard()),
    st.builds(Burn, st.lists(st.sampled_from(GAMES_DEALT[0].coup.player), max_size=12).map(tuple)),
    st.builds(Void, SHOE_IDS, NUMBERS, st.text(SHOWABLE, max_size=200)),
    st.builds(Correct, SHOE_IDS, ANY_GAME, st.text(SHOWABLE, max_size=200)),
    st.builds(
        lambda shoe, games, voided: Snapshot(
            shoe,
            tuple(sorted({g.number: g for g in games}.values(), key=lambda g: g.number)),
            tuple(sorted(set(voided) - {g.number for g in games})),
        ),
        SHOE_IDS, st.lists(ANY_GAME, max_size=20), st.lists(NUMBERS, max_size=5),
    ),
    st.builds(LimitsReceived, LIMITS),
    st.builds(ControllerStatus, st.booleans()),
    st.builds(ResyncRequest, st.none() | st.text(SHOWABLE, max_size=64), st.none() | SHOE_IDS,
              st.lists(NUMBERS, max_size=10).map(tuple)),
    st.builds(CardDealt, SHOE_IDS, NUMBERS, st.builds(Seat, st.sampled_from(list(Side)),
              st.integers(1, 3)), st.none() | st.sampled_from(GAMES_DEALT[0].coup.player)),
    st.builds(ShoeHealth, CONDITIONS, st.sampled_from(HEALTH_STATES),
              st.text(SHOWABLE, max_size=500), st.none() | SHOE_IDS, st.none() | NUMBERS),
    st.builds(ControllerStatus, st.just(True), st.none(),
              st.lists(CONDITIONS, max_size=32, unique=True).map(
                  lambda names: tuple(ShoeHealth(name, "raised", name) for name in names))),
)  # fmt: skip


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(EVENTS, st.sampled_from([None, b"k3y"]))
def test_any_valid_event_survives_the_wire_exactly(event, key):
    """Every field of every message type, within its bounds, comes back as it was sent."""
    topic, payload = raw_message(T, event, key)
    assert parse_message(T, topic, payload, key=key) == event


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_every_dealt_coup_survives_the_wire(seed):
    for event in Dealer(decks=1, seed=seed).shoe():
        if isinstance(event, CoupReceived):
            sent = CoupReceived(event.shoe, event.game)
            assert parse(encode_payload(encode(sent)[1], b"k"), key=b"k") == sent
