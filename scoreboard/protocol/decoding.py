"""Bytes in, validated events out: the checks every payload passes before it is trusted.

A display must never show a wrong road, so a message is checked for size,
UTF-8, JSON and signature (:func:`decode`) and then, by message type, for every
field (the ``decode_*`` readers, bound to their types in
:mod:`scoreboard.protocol.messages`); anything wrong raises a
:class:`ProtocolError` and changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from scoreboard.game.cards import UnknownCardError, parse_card
from scoreboard.game.events import (
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
    Void,
)
from scoreboard.game.limits import Limits, LimitsSpecError, check_currency
from scoreboard.game.rules import Game
from scoreboard.game.side_bets import SIDE_BETS as TIERED
from scoreboard.protocol.contract import (
    MAX_BET,
    MAX_BURN,
    MAX_GAME,
    MAX_PAYLOAD,
    MAX_REASON,
    MAX_SHOE_ID,
    MAX_TABLE_NAME,
)
from scoreboard.protocol.errors import (
    BadCardError,
    NotJsonError,
    OversizedPayloadError,
    SchemaError,
)
from scoreboard.protocol.fields import (
    _decks,
    _game,
    _game_number,
    _get,
    _objects,
    _shoe,
    _showable,
    _string,
    _ts,
    _utc_time,
)
from scoreboard.protocol.shoe_events import decode_raised
from scoreboard.protocol.signing import verify


def decode(topic: str, payload: bytes, key: bytes | None) -> dict[str, Any]:
    """Size, UTF-8, JSON object, signature: the checks common to every payload."""
    if len(payload) > MAX_PAYLOAD:
        raise OversizedPayloadError(
            topic, f"payload of {len(payload)} bytes is over the {MAX_PAYLOAD}-byte limit"
        )
    try:
        text = payload.decode("utf-8")
    except UnicodeDecodeError as error:
        raise NotJsonError(topic, f"payload is not UTF-8 ({error.reason})") from None
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as error:
        raise NotJsonError(topic, f"payload is not JSON ({error})") from None
    if not isinstance(data, dict):
        raise SchemaError(topic, f"payload is a JSON {type(data).__name__}; expected an object")
    if key:
        verify(data, key, topic)
    return data


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def decode_coup(data: Mapping[str, Any], where: str) -> CoupReceived:
    shoe = _shoe(data, where)
    return CoupReceived(shoe, _game(data, where), _ts(data, where))


def decode_new_shoe(data: Mapping[str, Any], where: str) -> NewShoe:
    shoe = _shoe(data, where)
    decks = _decks(data, where)
    if data.get("previous") is None:  # absent (or null) for a controller's very first shoe
        return NewShoe(shoe, decks=decks)
    previous = _get(data, "previous", dict, where)
    at = f"{where} previous"
    games = _get(previous, "games", int, at)
    if not 0 <= games <= MAX_GAME:
        raise SchemaError(at, f"key games: expected 0-{MAX_GAME} games, got {games}")
    return NewShoe(shoe, _shoe(previous, at), games, decks=decks)


def _shoe_named(data: Mapping[str, Any], where: str) -> str | None:
    """The optional ``shoe`` of a shuffle, burn or cut card (v2 requires it, v1 may send it)."""
    return _shoe(data, where) if "shoe" in data else None


def decode_shuffle(data: Mapping[str, Any], where: str) -> Shuffle:
    return Shuffle(_shoe_named(data, where))


def decode_cut_card(data: Mapping[str, Any], where: str) -> CutCard:
    return CutCard(_shoe_named(data, where))


def decode_burn(data: Mapping[str, Any], where: str) -> Burn:
    cards = _get(data, "cards", list, where)
    if len(cards) > MAX_BURN:
        raise SchemaError(where, f"key cards: at most {MAX_BURN} burned cards, got {len(cards)}")
    try:
        burned = tuple(parse_card(token) for token in cards)
    except UnknownCardError as error:
        raise BadCardError(where, f"key cards: {error}") from None
    return Burn(burned, _shoe_named(data, where))


def decode_void(data: Mapping[str, Any], where: str) -> Void:
    shoe = _shoe(data, where)
    number = _game_number(_get(data, "game", int, where), "game", where)
    return Void(shoe, number, _reason(data, where))


def decode_correct(data: Mapping[str, Any], where: str) -> Correct:
    shoe = _shoe(data, where)
    number = _game_number(_get(data, "game", int, where), "game", where)
    coup = dict(_get(data, "coup", dict, where))
    for key, expected in (("game", number), ("shoe", shoe)):
        if coup.setdefault(key, expected) != expected:
            raise SchemaError(
                where, f"key coup.{key}: {coup[key]!r} differs from {key} {expected!r}"
            )
    return Correct(shoe, _game(coup, f"{where} coup"), _reason(data, where))


def _reason(data: Mapping[str, Any], where: str) -> str:
    return _string(data, "reason", where, limit=MAX_REASON, default="")


def decode_controller_status(data: Mapping[str, Any], where: str) -> ControllerStatus:
    online = _get(data, "online", bool, where)
    name = _string(data, "name", where, limit=MAX_TABLE_NAME, default="")
    return ControllerStatus(online=online, raised=decode_raised(data, where), name=name)


def decode_limits(data: Mapping[str, Any], where: str) -> LimitsReceived:
    """Limits now, or from ``effective_at``; ``cancel_scheduled`` drops a schedule."""
    return LimitsReceived(
        _limits(data, where),
        effective_at=_utc_time(data, "effective_at", where),
        cancel_scheduled=_get(data, "cancel_scheduled", bool, where, default=False),
    )


def decode_snapshot(data: Mapping[str, Any], where: str) -> Snapshot:
    shoe = _shoe(data, where)
    entries = _get(data, "coups", list, where)
    voided_raw = _get(data, "voided", list, where, default=[])
    if len(entries) > MAX_GAME or len(voided_raw) > MAX_GAME:
        raise SchemaError(where, f"keys coups/voided: more than {MAX_GAME} games")
    games: dict[int, Game] = {}
    for at, entry in _objects(entries, "coups", where):
        entry_shoe = _string(entry, "shoe", at, limit=MAX_SHOE_ID, default=shoe)
        if entry_shoe != shoe:
            raise SchemaError(at, f"key shoe: {entry_shoe!r} differs from the snapshot's {shoe!r}")
        game = _game(entry, at)
        if game.number in games:
            raise SchemaError(at, f"key game: game {game.number} appears twice")
        games[game.number] = game
    voided = tuple(_game_number(n, "voided", where) for n in voided_raw)
    both = set(voided) & set(games)
    if both:
        raise SchemaError(where, f"key voided: games {sorted(both)} are both voided and recorded")
    ordered = tuple(games[n] for n in sorted(games))
    return Snapshot(shoe, ordered, tuple(sorted(set(voided))), _ts(data, where))


def _limits(data: Mapping[str, Any], where: str) -> Limits:
    currency = _string(data, "currency", where, limit=8, default="USD")
    try:  # drawn on every board and tile: a code the fonts hold, as the config demands
        if currency:  # "": not known yet (a board's own record of unknown limits)
            check_currency(currency)
    except LimitsSpecError as error:
        raise SchemaError(where, f"key currency: {error}") from None
    bets_raw = _get(data, "bets", dict, where)
    pays_raw = _get(data, "pays", dict, where)
    if len(bets_raw) > 32 or len(pays_raw) > 32:
        raise SchemaError(where, "keys bets/pays: at most 32 bets")
    bets: dict[str, tuple[int, int]] = {}
    for name, pair in bets_raw.items():
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or any(
                isinstance(x, bool) or not isinstance(x, int) or not 0 <= x <= MAX_BET for x in pair
            )
            or pair[0] > pair[1]
            or len(name) > 32
        ):
            raise SchemaError(
                where, f"key bets.{name:.32}: expected [minimum, maximum], got {pair!r:.40}"
            )
        bets[_showable(name, "bets", where)] = (pair[0], pair[1])
    pays: dict[str, str] = {}
    for name, odds in pays_raw.items():
        if not isinstance(odds, str) or len(odds) > 32 or len(name) > 32:
            raise SchemaError(where, f"key pays.{name:.32}: expected odds text such as '8:1'")
        pays[_showable(name, "pays", where)] = _showable(odds, f"pays.{name}", where)
    side_bets = _side_bets(_get(data, "side_bets", dict, where, default={}), where)
    return Limits(currency=currency, bets=bets, pays=pays, side_bets=side_bets)


def _side_bets(data: Mapping[str, Any], where: str) -> dict[str, dict[str, int]]:
    """``side_bets``: each tiered side bet offered and its pay table (tier -> n to 1).

    A tier left out pays the usual; a bet or tier this board does not know is refused.
    """
    tables: dict[str, dict[str, int]] = {}
    for name, pays in data.items():
        bet = TIERED.get(name)
        if bet is None:
            raise SchemaError(
                where, f"key side_bets.{name:.32}: expected one of {', '.join(TIERED)}"
            )
        if not isinstance(pays, dict) or any(
            isinstance(pay, bool) or not isinstance(pay, int) for pay in pays.values()
        ):
            raise SchemaError(
                where, f'key side_bets.{name}: expected each tier\'s pay, such as {{"small_6": 22}}'
            )
        try:
            tables[name] = dict(bet.with_pays(pays).pays)
        except ValueError as error:
            raise SchemaError(where, f"key side_bets.{name}: {error}") from None
    return tables


def decode_resync(data: Mapping[str, Any], where: str) -> ResyncRequest:
    display = _string(data, "display", where, limit=64, default=None)
    shoe = _string(data, "shoe", where, limit=MAX_SHOE_ID, default=None)
    missing = _get(data, "missing", list, where, default=[])
    if len(missing) > MAX_GAME:
        raise SchemaError(where, f"key missing: more than {MAX_GAME} games")
    return ResyncRequest(display, shoe, tuple(_game_number(n, "missing", where) for n in missing))
