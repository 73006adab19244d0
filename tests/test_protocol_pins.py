"""Pins of the contract that no other test held: the numbers, the words, the defaults.

The payloads here are v1 ones (still read); v2's envelope is pinned in test_protocol_v2.py.

Each test here was written for a mutant of the protocol package that survived
the whole suite (tools/mutation.py): a number, a key named in an error, a
default, a branch.  They read like the contract because they are it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

import pytest

from scoreboard.game.cards import parse_cards
from scoreboard.game.events import ShoeHealth
from scoreboard.game.rules import Game, Winner, result_coup
from scoreboard.protocol import (
    MAX_GAME,
    MAX_PAYLOAD,
    MAX_SHOE_ID,
    BadCardError,
    Burn,
    ControllerStatus,
    Correct,
    CoupReceived,
    CutCard,
    Kind,
    LimitsReceived,
    NewShoe,
    Origin,
    ProtocolError,
    ResyncRequest,
    SchemaError,
    Shuffle,
    SignatureError,
    Snapshot,
    Topics,
    Void,
    canonical_json,
    default_prefix,
    display_status,
    encode,
    errors,
    parse_message,
    sign,
)
from scoreboard.protocol.contract import MAX_BET, MAX_BURN, MAX_REASON, WILL_SEQ
from scoreboard.protocol.topics import check_prefix
from scoreboard.table.state import TableState, apply_event

T = Topics("baccarat/v1/T1")


def parse(suffix: str, payload: dict[str, Any]):
    return parse_message(T, f"{T.prefix}/{suffix}", json.dumps(payload).encode())


def refusal(suffix: str, payload: dict[str, Any]) -> str:
    with pytest.raises(ProtocolError) as refused:
        parse(suffix, payload)
    return str(refused.value)


def test_the_bounds_are_the_ones_protocol_md_gives() -> None:
    assert (MAX_PAYLOAD, MAX_GAME, MAX_SHOE_ID, MAX_BURN, MAX_REASON) == (65536, 999, 64, 12, 200)
    assert MAX_BET == 10**12  # a 3,000-digit limit is valid JSON but no board can show it


@pytest.mark.parametrize("kind", ["coup", "snapshot", "limits", "controller/status", "cmd/resync"])
@pytest.mark.parametrize("v", [None, 0, 3, "1", True])
def test_every_payload_must_say_version_1_or_2(kind: str, v) -> None:
    payload = {"v": v} if v is not None else {}
    assert "key v" in refusal(kind, payload)


def test_an_event_must_say_version_1_or_2_too() -> None:
    assert "key v" in refusal("event", {"v": 3, "type": "shuffle"})


# -- which key an error names --------------------------------------------------------------
@pytest.mark.parametrize(
    ("suffix", "payload", "key"),
    [
        ("event", {"v": 1, "type": "correct", "shoe": "S", "game": 0, "coup": {}}, "key game"),
        ("event", {"v": 1, "type": "correct", "shoe": "S", "game": 1,
                   "coup": {"shoe": "OTHER", "result": "B"}}, "key coup.shoe"),
        ("event", {"v": 1, "type": "correct", "shoe": "S", "game": 1,
                   "coup": {"game": 2, "result": "B"}}, "key coup.game"),
        ("snapshot", {"v": 1, "shoe": "S", "coups": [], "voided": [0]}, "key voided"),
        ("cmd/resync", {"v": 1, "missing": [0]}, "key missing"),
        ("coup", {"v": 1, "shoe": "S", "game": 1, "cards": {"banker": ["9S", "KH"]}},
         "game 1 cards: key player: required"),
        ("coup", {"v": 1, "shoe": "S", "game": 1, "cards": {"player": ["9S", "KH"]}},
         "game 1 cards: key banker: required"),
        ("coup", {"v": 1, "shoe": "S", "game": 1,
                  "cards": {"player": ["9S", "KH"], "banker": ["4D", "1C"]}}, "key cards.banker"),
        ("coup", {"v": 1, "shoe": "S", "game": 1,
                  "cards": {"player": ["9S", "KH", "2C", "3D"], "banker": ["4D", "3C"]}},
         "key cards.player: expected a list of 2 or 3 cards"),
        ("coup", {"v": 1, "shoe": "S", "game": "1"}, "key game: expected int"),
    ],
)  # fmt: skip
def test_an_error_names_the_key_at_fault(suffix: str, payload: dict[str, Any], key: str) -> None:
    assert key in refusal(suffix, payload)


def test_an_unknown_card_is_a_bad_card() -> None:
    with pytest.raises(BadCardError, match=r"key cards\.banker"):
        parse("coup", {"v": 1, "shoe": "S", "game": 1,
                       "cards": {"player": ["9S", "KH"], "banker": ["4D", "1C"]}})  # fmt: skip


# -- defaults and edges ----------------------------------------------------------------------
def test_a_void_without_a_reason_has_an_empty_one() -> None:
    assert parse("event", {"v": 1, "type": "void", "shoe": "S", "game": 3}).reason == ""


def test_a_status_without_a_table_name_names_none() -> None:
    assert parse("controller/status", {"v": 1, "online": True}) == ControllerStatus(True, name="")


def test_limits_without_a_currency_are_in_us_dollars() -> None:
    limits = parse("limits", {"v": 1, "bets": {"tie": [5, 5]}, "pays": {}}).limits
    assert limits.currency == "USD" and limits.bets == {"tie": (5, 5)}  # min = max is fine


def test_a_bet_whose_minimum_is_over_its_maximum_is_refused() -> None:
    assert "key bets.tie" in refusal("limits", {"v": 1, "bets": {"tie": [6, 5]}, "pays": {}})


@pytest.mark.parametrize(("count", "ok"), [(32, True), (33, False)])
def test_a_pay_table_holds_at_most_32_bets(count: int, ok: bool) -> None:
    payload = {"v": 1, "bets": {}, "pays": {f"bet{i}": "1:1" for i in range(count)}}
    if ok:
        assert len(parse("limits", payload).limits.pays) == count
    else:
        assert "at most 32" in refusal("limits", payload)


@pytest.mark.parametrize(("length", "ok"), [(32, True), (33, False)])
def test_a_pay_name_is_at_most_32_characters(length: int, ok: bool) -> None:
    payload = {"v": 1, "bets": {}, "pays": {"p" * length: "1:1"}}
    if ok:
        parse("limits", payload)
    else:
        assert "key pays." in refusal("limits", payload)


@pytest.mark.parametrize(("count", "ok"), [(MAX_GAME, True), (MAX_GAME + 1, False)])
def test_a_snapshot_voids_at_most_a_whole_shoe(count: int, ok: bool) -> None:
    voided = list(range(1, count + 1))
    payload = {"v": 1, "shoe": "S", "coups": [], "voided": [min(n, MAX_GAME) for n in voided]}
    if ok:
        assert len(parse("snapshot", payload).voided) == count
    else:
        assert "more than" in refusal("snapshot", payload)


def test_a_result_only_natural_survives_the_wire() -> None:
    natural = Game(1, result_coup(Winner.BANKER, natural=True, player_total=7, banker_total=8))
    kind, data = encode(CoupReceived("S", natural))
    assert data["natural"] is True
    assert parse_message(T, T.by_kind[kind], canonical_json(data)).game == natural


# -- topics, kinds, signing, status, errors --------------------------------------------------
def test_the_topics_of_a_table() -> None:
    assert default_prefix("T9") == "baccarat/v2/T9"
    assert (T.coup, T.controller_status, T.resync) == (
        "baccarat/v1/T1/coup", "baccarat/v1/T1/controller/status", "baccarat/v1/T1/cmd/resync",
    )  # fmt: skip
    assert T.display_status("d1") == "baccarat/v1/T1/display/d1/status"
    assert T.display_subscriptions == (
        T.controller_status,  # the retained ones first, oldest seq first
        T.limits,
        T.snapshot,
        T.coup,
        T.event,
    )  # fmt: skip  - displays never read cmd/resync or each other's status


def test_pit_commands_and_their_answers_have_topics_under_cmd() -> None:
    assert (Kind.PIT.suffix, Kind.PIT_ANSWER.suffix) == ("cmd/pit", "cmd/pit/answer")
    assert (T.pit, T.pit_answer) == ("baccarat/v1/T1/cmd/pit", "baccarat/v1/T1/cmd/pit/answer")


@pytest.mark.parametrize("prefix", ["", "a/#", "a/+/b", "a\0b", "a/"])
def test_a_prefix_with_wildcards_or_a_trailing_slash_is_refused(prefix: str) -> None:
    with pytest.raises(ValueError, match="without wildcards"):
        check_prefix(prefix)


def test_a_plain_prefix_is_kept() -> None:
    assert check_prefix("casino/pit-2/T7") == "casino/pit-2/T7"


@pytest.mark.parametrize("kind", list(Kind))
def test_every_kind_ships_its_json_schema(kind: Kind) -> None:
    text = resources.files("scoreboard.schemas").joinpath(kind.schema).read_text()
    assert json.loads(text)["$id"].endswith(f"/baccarat/v2/{kind.value}.json")


def test_canonical_json_is_utf8_not_escapes() -> None:
    assert canonical_json({"name": "莊"}) == '{"name":"莊"}'.encode()


def test_signing_a_signed_payload_again_gives_the_same_signature() -> None:
    once = sign({"v": 1, "online": True}, b"k")
    assert sign(once, b"k") == once and set(once) == {"v", "online", "sig"}


def test_the_status_says_online_and_names_the_last_game() -> None:
    table = TableState()
    apply_event(table, NewShoe("S"))
    for number in (1, 2, 4):
        apply_event(table, CoupReceived("S", Game(number, result_coup(Winner.PLAYER))))
    status = display_status("d1", table, rejected=3, feed="missing games")
    assert status["online"] is True and status["last_game"] == 4 and status["missing"] == [3]
    assert (status["games"], status["rejected"], status["feed"]) == (3, 3, "missing games")


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        (errors.ProtocolError, "invalid"),
        (errors.OversizedPayloadError, "oversized"),
        (errors.NotJsonError, "not json"),
        (SchemaError, "schema"),
        (BadCardError, "unknown card"),
        (errors.ImpossibleCoupError, "impossible hand"),
        (SignatureError, "signature"),
        (errors.UnknownTopicError, "topic"),
    ],
)
def test_each_refusal_has_its_reason_and_says_where(error: type[ProtocolError], reason: str):
    refused = error("baccarat/v1/T1/coup game 4", "key x: wrong")
    assert refused.reason == reason and refused.where == "baccarat/v1/T1/coup game 4"
    assert str(refused) == "baccarat/v1/T1/coup game 4: key x: wrong"


def test_canonical_json_refuses_what_json_cannot_say() -> None:
    with pytest.raises(ValueError):
        canonical_json({"total": float("nan")})


def test_signing_without_a_key_drops_a_stale_signature() -> None:
    assert sign({"v": 1, "online": True, "sig": "00" * 32}, None) == {"v": 1, "online": True}


# -- text no board can draw (issue 9, items 1 and 2) ----------------------------------------
HOSTILE = ["\x00", "\ud800", "\x1b[2J", "\x7f", "a\nb"]
CARDS = {"player": ["9S", "KH"], "banker": ["4D", "3C"]}


def hostile_payloads(text: str) -> list[tuple[str, dict[str, Any], str]]:
    return [
        ("coup", {"v": 1, "shoe": f"S{text}", "game": 1, "cards": CARDS}, "key shoe"),
        ("coup", {"v": 1, "shoe": "S", "game": 1, "cards": CARDS, "ts": text}, "key ts"),
        ("event", {"v": 1, "type": "new_shoe", "shoe": text}, "key shoe"),
        ("event", {"v": 1, "type": "void", "shoe": "S", "game": 1, "reason": text}, "key reason"),
        ("limits", {"v": 1, "currency": text, "bets": {}, "pays": {}}, "key currency"),
        ("limits", {"v": 1, "bets": {f"tie{text}": [5, 500]}, "pays": {}}, "key bets"),
        ("limits", {"v": 1, "bets": {}, "pays": {"tie": f"8{text}:1"}}, "key pays.tie"),
        ("limits", {"v": 1, "bets": {}, "pays": {f"t{text}": "8:1"}}, "key pays"),
        ("cmd/resync", {"v": 1, "display": text}, "key display"),
    ]


@pytest.mark.parametrize("text", HOSTILE, ids=["nul", "surrogate", "escape", "del", "newline"])
def test_text_no_board_can_draw_is_refused_where_it_enters(text: str) -> None:
    for suffix, payload, key in hostile_payloads(text):
        # json.dumps escapes the characters, so the payload itself is valid JSON and UTF-8
        reason = refusal(suffix, payload)
        assert key in reason and "U+" in reason, (suffix, reason)


def test_a_refused_limits_message_leaves_the_board_as_it_was() -> None:
    table = TableState()
    before = (table.limits, table.version)
    with pytest.raises(SchemaError):
        event = parse("limits", {"v": 1, "currency": "US\x00D", "bets": {}, "pays": {}})
        apply_event(table, event)
    assert (table.limits, table.version) == before


def test_a_journaled_line_with_a_nul_is_skipped_on_replay(tmp_path, caplog) -> None:
    """A journal written before this check cannot freeze the board after a restart."""
    from scoreboard.journal import JOURNAL_NAME, Journal

    line = {"at": 1, "kind": "limits",
            "data": {"v": 1, "currency": "US\u0000D", "bets": {}, "pays": {}}}  # fmt: skip
    (tmp_path / JOURNAL_NAME).write_text(json.dumps(line) + "\n")
    table = TableState()
    with Journal(tmp_path) as journal:
        assert journal.replay(table) == 0
    assert table.limits == TableState().limits and "U+0000" in caplog.text


def test_limits_may_cancel_a_schedule_and_by_default_do_not() -> None:
    plain = {"v": 1, "bets": {"tie": [5, 500]}, "pays": {}}
    assert parse("limits", plain).cancel_scheduled is False
    assert parse("limits", {**plain, "cancel_scheduled": True}).cancel_scheduled is True


def test_a_currency_longer_than_8_characters_is_refused_before_it_is_read() -> None:
    """Only 8 characters of a bad currency are ever echoed back in a refusal."""
    plain = {"v": 1, "bets": {"tie": [5, 500]}, "pays": {}}
    assert "key currency: expected a currency code" in refusal(
        "limits", {**plain, "currency": "C" * 8}
    )
    assert "key currency: longer than 8 characters" in refusal(
        "limits", {**plain, "currency": "C" * 9}
    )


def test_a_new_shoe_says_its_decks_and_the_shoe_before_only_when_it_knows_them() -> None:
    told = NewShoe("S2", decks=6, previous="S1", previous_games=70)
    kind, data = encode(told)
    assert (kind, data["decks"], data["previous"]) == (Kind.EVENT, 6, {"shoe": "S1", "games": 70})
    assert parse("event", data) == told
    for vague in (NewShoe("S2", previous="S1"), NewShoe("S2", previous_games=70)):
        assert encode(vague)[1] == {"v": 1, "type": "new_shoe", "shoe": "S2"}


def test_a_coups_timestamp_survives_the_wire() -> None:
    told = CoupReceived("S1", Game(1, result_coup(Winner.BANKER)), ts="2026-12-03T03:00:00Z")
    kind, data = encode(told)
    assert (kind, data["ts"]) == (Kind.COUP, "2026-12-03T03:00:00Z")
    assert parse("coup", data) == told


def v2_marks() -> list[Any]:
    at = Origin(7, 3)
    limits = parse("limits", {"v": 1, "bets": {"tie": [5, 500]}, "pays": {"tie": "8:1"}}).limits
    return [
        Shuffle(shoe="S1", origin=at),
        CutCard(shoe="S1", origin=at),
        Burn(tuple(parse_cards(["AS", "2D"])), shoe="S1", origin=at),
        LimitsReceived(limits, origin=at, effective_at=1_796_266_800.0, cancel_scheduled=True),
    ]


@pytest.mark.parametrize("told", v2_marks(), ids=lambda e: type(e).__name__)
def test_a_v2_mark_keeps_its_shoe_and_limits_their_schedule_on_the_wire(told) -> None:
    kind, data = encode(told)
    assert parse(kind.value, data) == told


@dataclass(frozen=True)
class Failing:
    state: str = "failing"
    reason: str = ""


def test_the_status_cuts_the_journals_reason_to_200_characters() -> None:
    long = display_status(
        "d1", TableState(), rejected=0, feed="ok", journal=Failing(reason="r" * 300)
    )
    assert long["journal"] == {"state": "failing", "reason": "r" * 200}


@dataclass(frozen=True)
class Drawing:
    ok: bool = False
    failing: tuple[str, ...] = ("roads",)
    failures: int = 2
    last_frame: float | None = 12.34567


def test_the_status_tells_how_drawing_goes_in_its_own_words() -> None:
    status = display_status("d1", TableState(), rejected=0, feed="ok", render=Drawing())
    assert status["render"] == {
        "ok": False,
        "failing": ["roads"],
        "failures": 2,
        "last_frame": 12.346,
    }
    unseen = display_status(
        "d1", TableState(), rejected=0, feed="ok", render=Drawing(last_frame=None)
    )
    assert unseen["render"]["last_frame"] is None


def test_the_status_gives_the_journal_position_unfinished_shoe_and_ignored_counts() -> None:
    table = TableState()
    apply_event(table, NewShoe("S1"))
    for number in (1, 2, 3):
        apply_event(table, CoupReceived("S1", Game(number, result_coup(Winner.PLAYER))))
    apply_event(table, NewShoe("S2", previous="S1", previous_games=5, origin=Origin(7, 3)))
    journal = Failing("degraded", "disk full: /var/lib/\udcffscoreboard")
    status = display_status(
        "d1", table, rejected=0, feed="ok", journal=journal, ignored={"stale": 2}
    )
    assert status["journal"] == {"state": "degraded", "reason": "disk full: /var/lib/?scoreboard"}
    assert status["position"] == {"session": 7, "seq": 3}
    assert status["unfinished"] == {"shoe": "S1", "missing": [4, 5]}
    assert status["ignored"] == {"stale": 2}
    json.dumps(status)  # sendable


def test_a_will_names_no_seq_and_any_other_status_does() -> None:
    will = ControllerStatus(False, Origin(7, WILL_SEQ))
    assert "seq" not in encode(will)[1] and encode(will)[1]["session"] == 7
    assert encode(ControllerStatus(False, Origin(7, 5)))[1]["seq"] == 5
    assert encode(ControllerStatus(True, Origin(7, WILL_SEQ)))[1]["seq"] == WILL_SEQ


def test_a_resync_request_is_written_in_the_version_asked_and_unstamped() -> None:
    assert encode(ResyncRequest("d1"), version=2) == (
        Kind.RESYNC,
        {"v": 2, "missing": [], "display": "d1"},
    )


def round_trips() -> list[Any]:
    game = Game(3, result_coup(Winner.PLAYER))
    told = {"v": 1, "currency": "EUR", "bets": {"tie": [5, 500]}, "pays": {"tie": "8:1"}}
    limits = parse("limits", told).limits
    side_bets = parse("limits", {**told, "side_bets": {"small_6": {"small_6": 25}}}).limits
    return [
        Void("S1", 4, "misdeal"),
        Correct("S1", game, "wrong key"),
        Snapshot("S1", (game,), voided=(2,), ts="2026-12-03T03:00:00Z"),
        Snapshot("S1", (game,)),
        LimitsReceived(limits),
        LimitsReceived(side_bets),
        ControllerStatus(True, raised=(ShoeHealth("device", "raised", "gone"),), name="Baccarat 8"),
    ]


@pytest.mark.parametrize("event", round_trips(), ids=lambda e: type(e).__name__)
def test_voids_corrections_snapshots_and_limits_survive_the_wire(event) -> None:
    kind, data = encode(event)
    assert parse(kind.suffix, data) == event
    assert ("ts" in data) == (getattr(event, "ts", None) is not None)


def test_limits_read_their_side_bets_pay_tables() -> None:
    told = {"v": 1, "bets": {"tie": [5, 500]}, "pays": {"tie": "8:1"}}
    limits = parse("limits", {**told, "side_bets": {"small_6": {"small_6": 25}}}).limits
    assert limits.side_bets == {"small_6": {"small_6": 25}}


def test_a_lone_surrogate_is_named_as_one() -> None:
    said = refusal("event", {"v": 1, "type": "void", "shoe": "S", "game": 3, "reason": "a\ud800"})
    assert "key reason: U+D800 at position 1 is a lone surrogate" in said


def test_a_coups_timestamp_is_at_most_64_characters() -> None:
    coup = {"v": 1, "shoe": "S1", "game": 1, "result": "B"}
    assert parse("coup", {**coup, "ts": "t" * 64}).ts == "t" * 64
    assert "key ts: longer than 64 characters" in refusal("coup", {**coup, "ts": "t" * 65})


@pytest.mark.parametrize(("decks", "ok"), [(1, True), (16, True), (0, False), (17, False),
                                           (True, False), ("8", False), (8.0, False)])  # fmt: skip
def test_a_new_shoe_has_1_to_16_decks_as_an_integer(decks, ok: bool) -> None:
    event = {"v": 1, "type": "new_shoe", "shoe": "S1", "decks": decks}
    if ok:
        assert parse("event", event) == NewShoe("S1", decks=decks)
    else:
        assert "key decks: expected an integer 1-16" in refusal("event", event)


def test_a_time_is_read_to_the_microsecond_and_at_most_64_characters() -> None:
    told = {"v": 1, "bets": {"tie": [5, 500]}, "pays": {"tie": "8:1"}}
    later = parse("limits", {**told, "effective_at": "2026-12-01T22:00:00.25Z"})
    assert later.effective_at == 1796162400.25
    long = {**told, "effective_at": "2" * 65}
    assert "key effective_at: longer than 64 characters" in refusal("limits", long)


def test_a_session_and_a_seq_count_from_1() -> None:
    _, first = encode(Shuffle(shoe="S1", origin=Origin(1, 1)))
    assert parse("event", first) == Shuffle(shoe="S1", origin=Origin(1, 1))
    for key in ("session", "seq"):
        said = refusal("event", {**first, key: 0})
        assert f"key {key}: expected an integer 1 to 2^53-1, got 0" in said
