"""Every size cap of contract v1, at its boundary: the cap is accepted, one more is refused.

A cap is a promise twice over: to the controller (what it may send) and to the
display (what it must be able to store and draw), so each is pinned exactly,
and a refusal names the key.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from scoreboard.protocol import (
    MAX_GAME,
    MAX_SHOE_ID,
    Origin,
    ProtocolError,
    SchemaError,
    Topics,
    parse_message,
)
from scoreboard.protocol.contract import MAX_BET, MAX_BURN, MAX_REASON

T = Topics("baccarat/v1/T1")
PLAYER_NATURAL = {"player": ["9S", "KH"], "banker": ["4D", "3C"]}


def coup(**fields: Any) -> dict[str, Any]:
    return {"v": 1, "shoe": "S1", "game": 1, "cards": PLAYER_NATURAL, **fields}


def event(kind: str, **fields: Any) -> dict[str, Any]:
    return {"v": 1, "type": kind, **fields}


def limits(bets: int = 5, name: str = "tie", currency: str = "USD", odds: str = "8:1"):
    table = {f"bet{i}": [1, 2] for i in range(bets - 1)}
    return {"v": 1, "currency": currency, "bets": {**table, name: [5, 500]}, "pays": {name: odds}}


def snapshot_of(count: int) -> dict[str, Any]:
    coups = [{"game": n, "result": "B"} for n in range(1, count + 1)]
    return {"v": 1, "shoe": "S1", "coups": coups}


# (name, topic suffix, payload at size n, the cap, the key a refusal names)
Bound = tuple[str, str, Callable[[int], dict[str, Any]], int, str]
BOUNDS: list[Bound] = [
    ("shoe id", "coup", lambda n: coup(shoe="s" * n), MAX_SHOE_ID, "shoe"),
    ("game number", "coup", lambda n: coup(game=n), MAX_GAME, "game"),
    ("coup timestamp", "coup", lambda n: coup(ts="t" * n), 64, "ts"),
    ("burned cards", "event", lambda n: event("burn", cards=["AS"] * n), MAX_BURN, "cards"),
    ("void reason", "event", lambda n: event("void", shoe="S1", game=1, reason="r" * n),
     MAX_REASON, "reason"),
    ("voided game", "event", lambda n: event("void", shoe="S1", game=n), MAX_GAME, "game"),
    ("bets", "limits", lambda n: limits(bets=n), 32, "bets"),
    ("bet name", "limits", lambda n: limits(name="b" * n), 32, "bets"),
    ("bet limit", "limits", lambda n: {"v": 1, "bets": {"tie": [0, n]}, "pays": {}}, MAX_BET,
     "bets"),
    ("currency", "limits", lambda n: limits(currency="C" * n), 3, "currency"),
    ("odds text", "limits", lambda n: limits(odds="9" * n), 32, "pays"),
    ("snapshot coups", "snapshot", snapshot_of, MAX_GAME, "coups"),
    ("resync missing", "cmd/resync", lambda n: {"v": 1, "missing": list(range(1, n + 1))},
     MAX_GAME, "missing"),
    ("resync display", "cmd/resync", lambda n: {"v": 1, "display": "d" * n}, 64, "display"),
]  # fmt: skip


def parse(suffix: str, payload: dict[str, Any]):
    return parse_message(T, f"{T.prefix}/{suffix}", json.dumps(payload).encode())


@pytest.mark.parametrize(
    ("name", "suffix", "build", "cap", "key"), BOUNDS, ids=[b[0] for b in BOUNDS]
)
def test_each_cap_is_accepted_and_one_more_is_refused_naming_the_key(name, suffix, build, cap, key):
    parse(suffix, build(cap))  # exactly at the cap: fine
    with pytest.raises(ProtocolError) as refused:
        parse(suffix, build(cap + 1))
    assert isinstance(refused.value, SchemaError), name
    assert f"key {key}" in str(refused.value) or f"keys {key}" in str(refused.value), str(
        refused.value
    )


@pytest.mark.parametrize("game", [0, -1, MAX_GAME + 1])
def test_game_numbers_start_at_1(game: int) -> None:
    with pytest.raises(SchemaError, match="key game"):
        parse("coup", coup(game=game))


@pytest.mark.parametrize(
    ("fields", "player", "banker"),
    [
        ({"result": "P", "player_total": 9, "banker_total": 0, "natural": True}, 9, 0),
        ({"result": "B", "player_total": 0, "banker_total": 9, "natural": True}, 0, 9),
        ({"result": "T", "player_total": 0, "banker_total": 0}, 0, 0),
    ],
)
def test_totals_0_and_9_are_accepted_from_a_result_only_controller(fields, player, banker):
    parsed = parse("coup", {"v": 1, "shoe": "S1", "game": 1, **fields})
    assert (parsed.game.coup.player_total, parsed.game.coup.banker_total) == (player, banker)


@pytest.mark.parametrize("total", [-1, 10])
def test_totals_outside_0_to_9_are_refused(total: int) -> None:
    with pytest.raises(SchemaError, match="key player_total: expected 0-9"):
        parse("coup", {"v": 1, "shoe": "S1", "game": 1, "result": "B", "player_total": total})


def test_an_event_type_is_read_only_up_to_32_characters() -> None:
    with pytest.raises(SchemaError, match="unknown event type"):
        parse("event", {"v": 1, "type": "x" * 32})
    with pytest.raises(SchemaError, match="key type: longer than 32"):
        parse("event", {"v": 1, "type": "x" * 33})


def test_a_coup_with_cards_and_an_unknown_result_letter_is_refused() -> None:
    with pytest.raises(SchemaError, match="key result: expected B, P or T"):
        parse("coup", coup(result="X"))


@pytest.mark.parametrize(
    "fields",
    [
        {"result": "B", "player_total": 9, "banker_total": 3},  # Banker cannot win 3 to 9
        {"result": "T", "player_total": 4, "banker_total": 5},
        {"result": "P", "natural": True, "player_total": 5, "banker_total": 2},
    ],
)
def test_an_impossible_result_only_coup_is_refused_as_impossible(fields) -> None:
    with pytest.raises(ProtocolError) as refused:
        parse("coup", {"v": 1, "shoe": "S1", "game": 4, **fields})
    assert refused.value.reason == "impossible hand" and "game 4" in str(refused.value)


def test_a_session_and_its_seq_reach_2_to_the_53rd_minus_1_and_no_further() -> None:
    """The largest integer every JSON reader keeps exact, written out: not the constant."""
    largest = 9_007_199_254_740_991
    at = {**coup(), "v": 2, "session": largest, "seq": largest}
    assert parse("coup", at).origin == Origin(largest, largest)
    with pytest.raises(SchemaError, match="key seq: expected an integer 1 to 2"):
        parse("coup", {**at, "seq": largest + 1})
    with pytest.raises(SchemaError, match="key session: expected an integer 1 to 2"):
        parse("coup", {**at, "session": largest + 1})
    assert parse("coup", {**at, "session": 1, "seq": 1}).origin == Origin(1, 1)
    for key in ("session", "seq"):
        with pytest.raises(SchemaError, match=f"key {key}: expected an integer 1 to 2"):
            parse("coup", {**at, key: 0})
    without_seq = {key: value for key, value in at.items() if key != "seq"}
    with pytest.raises(SchemaError, match="key seq: required"):
        parse("coup", without_seq)  # only a last will may leave its seq out


def test_scheduled_limits_may_start_from_1970_up_to_9999_12_30_and_no_later() -> None:
    """A day short of the calendar's last date, so every time zone still shows a date."""
    first = parse("limits", {**limits(), "effective_at": "1970-01-01T00:00:00Z"})
    assert first.effective_at == 0.0
    last = "9999-12-30T23:59:59Z"
    assert parse("limits", {**limits(), "effective_at": last}).effective_at == 253_402_214_399
    with pytest.raises(SchemaError, match="key effective_at: expected 1970 to 9999-12-30"):
        parse("limits", {**limits(), "effective_at": "9999-12-31T00:00:00Z"})
