"""Readers of single payload fields and of one coup, each raising :class:`SchemaError` & co.

Every payload kind reads the same fields (``v``, ``shoe``, ``ts``, game numbers,
cards, a coup) with the same rules and the same messages, so the readers are
shared here and :mod:`scoreboard.protocol.decoding` only says which fields each
kind has.  ``_game`` checks reported results, totals and flags against the cards.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Mapping
from datetime import UTC, datetime
from typing import Any

from scoreboard.game.cards import Card, UnknownCardError, parse_card
from scoreboard.game.events import Origin
from scoreboard.game.rules import (
    Coup,
    Game,
    ImpossibleHandError,
    Winner,
    record_coup,
    result_coup,
)
from scoreboard.protocol.contract import (
    MAX_GAME,
    MAX_SEQ,
    MAX_SHOE_ID,
    MAX_TIME,
    VERSIONS,
    WILL_SEQ,
)
from scoreboard.protocol.errors import BadCardError, ImpossibleCoupError, SchemaError
from scoreboard.table.integrity import MAX_DECKS

_MISSING = object()


def _get(
    data: Mapping[str, Any],
    key: str,
    kind: type,
    where: str,
    *,
    default: Any = _MISSING,
) -> Any:
    """``data[key]`` if it is a ``kind`` (a bool is never an int here), else SchemaError."""
    value = data.get(key, _MISSING)
    if value is _MISSING:
        if default is _MISSING:
            raise SchemaError(where, f"key {key}: required but missing")
        return default
    if (isinstance(value, bool) and kind is not bool) or not isinstance(value, kind):
        raise SchemaError(where, f"key {key}: expected {kind.__name__}, got {value!r:.60}")
    return value


def _version(data: Mapping[str, Any], where: str) -> int:
    """The payload's ``v``: 1 or 2, else SchemaError."""
    v: int = _get(data, "v", int, where)
    if v not in VERSIONS:
        raise SchemaError(where, f"key v: protocol version {v} is not supported (expected 1 or 2)")
    return v


def _counter(data: Mapping[str, Any], key: str, where: str, *, default: Any = _MISSING) -> Any:
    value = _get(data, key, int, where, default=default)
    if isinstance(value, int) and not 1 <= value <= MAX_SEQ:
        raise SchemaError(where, f"key {key}: expected an integer 1 to 2^53-1, got {value!r:.40}")
    return value


def _origin(
    data: Mapping[str, Any],
    where: str,
    *,
    will: bool = False,  # pragma: no mutate (the one caller always says)
) -> Origin:
    """A v2 controller payload's place in its controller's stream: ``session`` and ``seq``.

    A last will (``will``) may omit ``seq``: it is fixed when the controller
    connects, and it stands after every payload of the session it ends.

    >>> _origin({"session": 7, "seq": 3}, "here")
    Origin(session=7, seq=3)
    >>> _origin({"session": 7}, "here", will=True).seq == WILL_SEQ
    True
    """
    session = _counter(data, "session", where)
    seq = _counter(data, "seq", where, default=WILL_SEQ if will else _MISSING)
    return Origin(session, seq)


def _string(
    data: Mapping[str, Any], key: str, where: str, *, limit: int, default: Any = _MISSING
) -> Any:
    value = _get(data, key, str, where, default=default)
    if isinstance(value, str):
        if len(value) > limit:
            raise SchemaError(where, f"key {key}: longer than {limit} characters")
        _showable(value, key, where)
    return value


#: Characters no board can show and no journal or status can carry safely.
_UNSHOWABLE = {"Cc": "a control character", "Cs": "a lone surrogate"}


def _showable(text: str, key: str, where: str) -> str:
    r"""``text`` if every character can be drawn and stored, else SchemaError naming the first.

    Text reaches the screen, the journal and the retained status; a NUL or a lone
    surrogate passes JSON but breaks drawing or UTF-8 encoding later, so it is
    refused here, at the boundary.

    >>> _showable("莊 25-10,000", "currency", "limits")
    '莊 25-10,000'
    >>> try:
    ...     _showable("US\x00D", "currency", "limits")
    ... except SchemaError as error:
    ...     print(error)
    limits: key currency: U+0000 at position 2 is a control character
    """
    for position, char in enumerate(text):
        what = _UNSHOWABLE.get(unicodedata.category(char))
        if what is not None:
            raise SchemaError(
                where, f"key {key}: U+{ord(char):04X} at position {position} is {what}"
            )
    return text


def _objects(entries: list[Any], key: str, where: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Each entry of the list ``key`` with where it stands (``key[i]``), if it is an object."""
    for index, entry in enumerate(entries):
        at = f"{where} {key}[{index}]"
        if not isinstance(entry, dict):
            raise SchemaError(at, f"expected an object, got {entry!r:.40}")
        yield at, entry


def _shoe(data: Mapping[str, Any], where: str) -> str:
    shoe = _string(data, "shoe", where, limit=MAX_SHOE_ID)
    if not shoe:
        raise SchemaError(where, "key shoe: expected 1-64 characters, got an empty string")
    return shoe


def _ts(data: Mapping[str, Any], where: str) -> str | None:
    return _string(data, "ts", where, limit=64, default=None)


def _decks(data: Mapping[str, Any], where: str) -> int | None:
    """A new shoe's optional ``decks``: an integer 1 to 16 (not ``true``, ``"8"`` or ``8.0``)."""
    decks = data.get("decks")
    if decks is None:
        return None
    if isinstance(decks, bool) or not isinstance(decks, int) or not 1 <= decks <= MAX_DECKS:
        raise SchemaError(where, f"key decks: expected an integer 1-{MAX_DECKS}, got {decks!r:.40}")
    return decks


_UTC_TIME = re.compile(r"(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?Z")


def _utc_time(data: Mapping[str, Any], key: str, where: str) -> float | None:
    """An optional ISO 8601 UTC time (``2026-12-01T22:00:00Z``) as a Unix time.

    >>> _utc_time({"at": "2026-12-01T22:00:00Z"}, "at", "limits")
    1796162400.0
    >>> try:
    ...     _utc_time({"at": "22:00"}, "at", "limits")
    ... except SchemaError as error:
    ...     print(error)
    limits: key at: expected an ISO 8601 UTC time such as 2026-12-01T22:00:00Z, got '22:00'
    """
    text = _string(data, key, where, limit=64, default=None)
    if text is None:
        return None
    expected = f"key {key}: expected an ISO 8601 UTC time such as 2026-12-01T22:00:00Z"
    match = _UTC_TIME.fullmatch(text)
    if match is None:
        raise SchemaError(where, f"{expected}, got {text!r}")
    year, month, day, hour, minute, second, fraction = match.groups()
    try:
        moment = datetime(
            int(year), int(month), int(day), int(hour), int(minute), int(second), tzinfo=UTC
        )
    except ValueError as error:
        raise SchemaError(where, f"{expected}, got {text!r} ({error})") from None
    at = moment.timestamp() + (int(fraction.ljust(6, "0")) / 1e6 if fraction else 0.0)
    if not 0 <= at <= MAX_TIME:
        raise SchemaError(where, f"key {key}: expected 1970 to 9999-12-30, got {text!r}")
    return at


def _game_number(value: Any, key: str, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_GAME:
        raise SchemaError(
            where, f"key {key}: expected a game number 1-{MAX_GAME}, got {value!r:.40}"
        )
    return value


def _cards(value: Any, key: str, where: str) -> tuple[Card, ...]:
    if not isinstance(value, list) or not 2 <= len(value) <= 3:
        raise SchemaError(where, f"key {key}: expected a list of 2 or 3 cards, got {value!r:.60}")
    try:
        return tuple(parse_card(token) for token in value)
    except UnknownCardError as error:
        raise BadCardError(where, f"key {key}: {error}") from None


def _game(data: Mapping[str, Any], where: str) -> Game:
    """The coup fields of a coup payload, a snapshot entry or a correction."""
    number = _game_number(_get(data, "game", int, where), "game", where)
    where = f"{where} game {number}"
    cards = _get(data, "cards", dict, where, default=None)
    reported = _reported(data, where)
    if cards is None:
        return Game(number, _result_only(reported, where))
    player = _cards(_get(cards, "player", list, where + " cards"), "cards.player", where)
    banker = _cards(_get(cards, "banker", list, where + " cards"), "cards.banker", where)
    try:
        coup = record_coup(player, banker)
    except ImpossibleHandError as error:
        raise ImpossibleCoupError(where, f"key cards: {error}") from None
    for name, value in reported.items():
        actual = getattr(coup, "winner" if name == "result" else name)
        if value is not None and value != actual:
            shown = actual.value if isinstance(actual, Winner) else actual
            raise ImpossibleCoupError(
                where, f"key {name}: says {data.get(name)!r} but the cards give {shown!r}"
            )
    return Game(number, coup)


#: The fields a coup may report beside (or instead of) its cards, and their types.
REPORTED = {
    "player_total": int,
    "banker_total": int,
    "player_pair": bool,
    "banker_pair": bool,
    "natural": bool,
}


def _reported(data: Mapping[str, Any], where: str) -> dict[str, Any]:
    """``result`` (as a Winner), the totals (0-9) and the flags a coup reports, None if absent."""
    result = _string(data, "result", where, limit=1, default=None)
    reported: dict[str, Any] = {"result": None}
    if result is not None:
        try:
            reported["result"] = Winner(result)
        except ValueError:
            raise SchemaError(where, f"key result: expected B, P or T, got {result!r}") from None
    for name, kind in REPORTED.items():
        reported[name] = _get(data, name, kind, where, default=None)
        if kind is int and reported[name] is not None and not 0 <= reported[name] <= 9:
            raise SchemaError(where, f"key {name}: expected 0-9, got {reported[name]}")
    return reported


def _result_only(reported: dict[str, Any], where: str) -> Coup:
    """The coup of a result-only controller: ``result`` and what it says of the hands."""
    if reported["result"] is None:
        raise SchemaError(where, "keys cards/result: one of them is required")
    try:
        return result_coup(
            reported["result"],
            player_pair=bool(reported["player_pair"]),
            banker_pair=bool(reported["banker_pair"]),
            natural=bool(reported["natural"]),
            player_total=reported["player_total"],
            banker_total=reported["banker_total"],
        )
    except ImpossibleHandError as error:
        raise ImpossibleCoupError(where, str(error)) from None
