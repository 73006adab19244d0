"""The card-reading shoe's own messages: a card dealt (``deal``) and its health (``shoe_health``).

They travel on ``PREFIX/event`` like the other shoe events but come only from
a controller that reads a shoe (the bridge, the simulated controller), so
their reader and writer live here, apart from the board events'.  A ``deal``
says a card left the shoe for a seat, its face withheld (``card`` null) or
not: the board shows it face down either way.  A ``shoe_health`` raises,
clears or reports once a condition staff must see (never a result).

>>> decode_deal({"shoe": "S1", "game": 4, "side": "banker", "card_number": 2}, "here")
CardDealt(shoe='S1', game=4, seat=Seat(side=<Side.BANKER: 'B'>, number=2), card=None, origin=None)
>>> encode_shoe_health(ShoeHealth("device", "raised", "the serial device is gone"))
{'condition': 'device', 'state': 'raised', 'detail': 'the serial device is gone', \
'shoe': None, 'game': None}
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from scoreboard.game.cards import UnknownCardError, parse_card
from scoreboard.game.events import HEALTH_STATES, CardDealt, ShoeHealth
from scoreboard.game.seats import Seat, Side
from scoreboard.protocol.contract import MAX_DETAIL
from scoreboard.protocol.errors import BadCardError, SchemaError
from scoreboard.protocol.fields import _game_number, _get, _objects, _shoe, _string

__all__ = [
    "CONDITION",
    "decode_deal",
    "decode_raised",
    "decode_shoe_health",
    "encode_deal",
    "encode_raised",
    "encode_shoe_health",
]

#: The wire names of the sides (the core's ``Side`` values are the road letters).
SIDES = {"player": Side.PLAYER, "banker": Side.BANKER}
_SIDE_NAMES = {side: name for name, side in SIDES.items()}

#: A condition key: a word, and for an error the shoe's code (``error:2``, ``error:E05``).
CONDITION = re.compile(r"[a-z][a-z_]{0,31}(:[0-9A-Za-z_.-]{1,16})?")

#: At most this many conditions raised at once in a controller status.
MAX_RAISED = 32


def encode_deal(event: CardDealt) -> dict[str, Any]:
    """A card dealt: the card is null while the shoe withholds it."""
    return {
        "shoe": event.shoe,
        "game": event.game,
        "side": _SIDE_NAMES[event.seat.side],
        "card_number": event.seat.number,
        "card": None if event.card is None else str(event.card),
    }


def decode_deal(data: Mapping[str, Any], where: str) -> CardDealt:
    shoe = _shoe(data, where)
    game = _game_number(_get(data, "game", int, where), "game", where)
    side_name = _get(data, "side", str, where)
    side = SIDES.get(side_name)
    if side is None:
        raise SchemaError(where, f"key side: expected player or banker, got {side_name!r:.40}")
    number = _get(data, "card_number", int, where)
    if not 1 <= number <= 3:
        raise SchemaError(where, f"key card_number: expected 1 to 3, got {number}")
    token = data.get("card")  # null: withheld until the reveal (Angel Eye)
    if token is not None:
        token = _get(data, "card", str, where)
    try:
        card = None if token is None else parse_card(token)
    except UnknownCardError as error:
        raise BadCardError(where, f"key card: {error}") from None
    return CardDealt(shoe, game, Seat(side, number), card)


def encode_shoe_health(event: ShoeHealth) -> dict[str, Any]:
    return {
        "condition": event.condition,
        "state": event.state,
        "detail": event.detail,
        "shoe": event.shoe,
        "game": event.game,
    }


def decode_shoe_health(data: Mapping[str, Any], where: str) -> ShoeHealth:
    condition = _condition(data, where)
    state = _get(data, "state", str, where)
    if state not in HEALTH_STATES:
        raise SchemaError(where, f"key state: expected raised, cleared or seen, got {state!r:.40}")
    shoe = _shoe(data, where) if data.get("shoe") is not None else None
    game = data.get("game")
    if game is not None:
        game = _game_number(game, "game", where)
    return ShoeHealth(condition, state, _detail(data, where), shoe, game)


def _condition(data: Mapping[str, Any], where: str) -> str:
    condition: str = _string(data, "condition", where, limit=64)
    if CONDITION.fullmatch(condition) is None:
        raise SchemaError(
            where, f"key condition: expected a key such as device or error:2, got {condition!r:.40}"
        )
    return condition


def _detail(data: Mapping[str, Any], where: str) -> str:
    detail: str = _string(data, "detail", where, limit=MAX_DETAIL, default="")
    return detail


def encode_raised(raised: tuple[ShoeHealth, ...]) -> list[dict[str, str]]:
    """The conditions a controller status says are raised: condition and detail each."""
    return [{"condition": health.condition, "detail": health.detail} for health in raised]


def decode_raised(data: Mapping[str, Any], where: str) -> tuple[ShoeHealth, ...]:
    """A controller status's ``raised`` list (absent: none), each a raised :class:`ShoeHealth`."""
    entries = _get(data, "raised", list, where, default=[])
    if len(entries) > MAX_RAISED:
        raise SchemaError(where, f"key raised: at most {MAX_RAISED} conditions, got {len(entries)}")
    raised: dict[str, ShoeHealth] = {}
    for at, entry in _objects(entries, "raised", where):
        condition = _condition(entry, at)
        if condition in raised:
            raise SchemaError(at, f"key condition: {condition} appears twice")
        raised[condition] = ShoeHealth(condition, "raised", _detail(entry, at))
    return tuple(raised.values())
