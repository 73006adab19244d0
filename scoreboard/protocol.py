"""The table feed's MQTT payloads: bytes in, validated events out (and back).

A display must never show a wrong road, so everything that arrives from the
network is checked here before it reaches :class:`~scoreboard.core.table.TableState`:
size, UTF-8, JSON, the ``v`` field, types and ranges, cards, the tableau, the
HMAC signature.  A payload that fails any check raises a :class:`ProtocolError`
naming the topic, the key and (where known) the game, and changes nothing.

This module never touches the screen, the network or the disk; the MQTT feed,
the simulated controller and the journal all go through it.

>>> topics = Topics("baccarat/v1/T1")
>>> event = parse_message(
...     topics, "baccarat/v1/T1/coup",
...     b'{"v":1,"shoe":"S1","game":1,"cards":{"player":["9S","KH"],"banker":["4D","3C"]}}')
>>> event.game.number, event.game.coup.winner.value
(1, 'P')
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoreboard.core.cards import Card, UnknownCardError, parse_card
from scoreboard.core.rules import Coup, Game, ImpossibleHandError, Winner, record_coup, result_coup
from scoreboard.core.table import Limits, TableState

VERSION = 1
MAX_PAYLOAD = 64 * 1024
MAX_GAME = 999
MAX_SHOE_ID = 64

__all__ = [
    "MAX_PAYLOAD",
    "Burn",
    "ControllerStatus",
    "Correct",
    "CoupReceived",
    "CutCard",
    "Event",
    "LimitsReceived",
    "NewShoe",
    "ProtocolError",
    "ResyncRequest",
    "Shuffle",
    "SignatureError",
    "Snapshot",
    "Topics",
    "Void",
    "apply_event",
    "canonical_json",
    "display_status",
    "encode",
    "parse_message",
    "sign",
]


# -- errors -----------------------------------------------------------------
class ProtocolError(ValueError):
    """A payload that breaks the contract; ``reason`` is a short category for counting."""

    reason = "invalid"

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where


class OversizedPayloadError(ProtocolError):
    reason = "oversized"


class NotJsonError(ProtocolError):
    reason = "not json"


class SchemaError(ProtocolError):
    """Wrong type, missing key, value out of range, wrong version."""

    reason = "schema"


class BadCardError(ProtocolError):
    reason = "unknown card"


class ImpossibleCoupError(ProtocolError):
    """Cards that break the tableau, or a result or totals that disagree with them."""

    reason = "impossible hand"


class SignatureError(ProtocolError):
    reason = "signature"


class UnknownTopicError(ProtocolError):
    reason = "topic"


# -- events -----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CoupReceived:
    shoe: str
    game: Game
    ts: str | None = None


@dataclass(frozen=True, slots=True)
class NewShoe:
    shoe: str


@dataclass(frozen=True, slots=True)
class Shuffle:
    pass


@dataclass(frozen=True, slots=True)
class Burn:
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CutCard:
    """The cut card is out: the next coup is the last of the shoe."""


@dataclass(frozen=True, slots=True)
class Void:
    shoe: str
    game: int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Correct:
    shoe: str
    game: Game
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The controller's whole current shoe, for catching up after a gap or a reconnect."""

    shoe: str
    games: tuple[Game, ...]
    voided: tuple[int, ...] = ()
    ts: str | None = None


@dataclass(frozen=True, slots=True)
class LimitsReceived:
    limits: Limits


@dataclass(frozen=True, slots=True)
class ControllerStatus:
    online: bool


@dataclass(frozen=True, slots=True)
class ResyncRequest:
    display: str | None = None
    shoe: str | None = None
    missing: tuple[int, ...] = ()


Event = (
    CoupReceived
    | NewShoe
    | Shuffle
    | Burn
    | CutCard
    | Void
    | Correct
    | Snapshot
    | LimitsReceived
    | ControllerStatus
    | ResyncRequest
)


# -- topics -----------------------------------------------------------------
def default_prefix(table_id: str) -> str:
    return f"baccarat/v1/{table_id}"


class Topics:
    """The topic names under one table's prefix."""

    def __init__(self, prefix: str) -> None:
        if not prefix or any(c in prefix for c in "#+\0") or prefix.endswith("/"):
            raise ValueError(
                f"MQTT prefix {prefix!r}: expected a topic without wildcards or a trailing /"
            )
        self.prefix = prefix
        self.coup = f"{prefix}/coup"
        self.event = f"{prefix}/event"
        self.snapshot = f"{prefix}/snapshot"
        self.limits = f"{prefix}/limits"
        self.controller_status = f"{prefix}/controller/status"
        self.resync = f"{prefix}/cmd/resync"

    def display_status(self, display_id: str) -> str:
        return f"{self.prefix}/display/{display_id}/status"

    @property
    def display_subscriptions(self) -> tuple[str, ...]:
        """What a display reads: everything the controller publishes, nothing displays write."""
        return (self.coup, self.event, self.snapshot, self.limits, self.controller_status)

    def kind_of(self, topic: str) -> str | None:
        return {
            self.coup: "coup",
            self.event: "event",
            self.snapshot: "snapshot",
            self.limits: "limits",
            self.controller_status: "controller_status",
            self.resync: "resync",
        }.get(topic)


# -- canonical JSON and signatures ------------------------------------------
def canonical_json(data: Mapping[str, Any]) -> bytes:
    """Keys sorted, separators ``,`` and ``:``, UTF-8: what the signature covers.

    >>> canonical_json({"b": 1, "a": "é"})
    b'{"a":"\\xc3\\xa9","b":1}'
    """
    return json.dumps(
        data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def signature(data: Mapping[str, Any], key: bytes) -> str:
    unsigned = {k: v for k, v in data.items() if k != "sig"}
    return hmac.new(key, canonical_json(unsigned), hashlib.sha256).hexdigest()


def sign(data: Mapping[str, Any], key: bytes | None) -> dict[str, Any]:
    """The payload with ``sig`` added (unchanged without a key)."""
    signed = {k: v for k, v in data.items() if k != "sig"}
    if key:
        signed["sig"] = signature(signed, key)
    return signed


def verify(data: Mapping[str, Any], key: bytes, where: str) -> None:
    """Raise :class:`SignatureError` unless ``sig`` is the payload's HMAC under ``key``."""
    sig = data.get("sig")
    if sig is None:
        raise SignatureError(where, "unsigned payload but this display has an HMAC key")
    if not isinstance(sig, str) or not hmac.compare_digest(sig.lower(), signature(data, key)):
        raise SignatureError(where, "key sig: signature does not match the payload")


def encode_payload(data: Mapping[str, Any], key: bytes | None = None) -> bytes:
    return canonical_json(sign(data, key))


# -- decoding ---------------------------------------------------------------
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


def parse_message(topics: Topics, topic: str, payload: bytes, *, key: bytes | None = None) -> Event:
    """Turn one MQTT message into an event, or raise :class:`ProtocolError`."""
    kind = topics.kind_of(topic)
    if kind is None:
        raise UnknownTopicError(topic, "not a topic of this table")
    if kind == "controller_status" and not key:
        text = payload.strip().lower()
        if text in (b"online", b"offline"):
            return ControllerStatus(online=text == b"online")
    return parse_dict(kind, decode(topic, payload, key), topic)


def parse_dict(kind: str, data: Mapping[str, Any], where: str) -> Event:
    """Validate an already decoded payload of ``kind`` (also used by the journal)."""
    if kind == "controller_status":
        _version(data, where)
        return ControllerStatus(online=_get(data, "online", bool, where))
    if kind == "resync":
        return _resync(data, where)
    _version(data, where)
    if kind == "coup":
        shoe = _shoe(data, where)
        return CoupReceived(shoe, _game(data, where, shoe), _ts(data, where))
    if kind == "event":
        return _event(data, where)
    if kind == "snapshot":
        return _snapshot(data, where)
    if kind == "limits":
        return LimitsReceived(_limits(data, where))
    raise UnknownTopicError(where, f"unknown payload kind {kind!r}")


_MISSING = object()


def _get(
    data: Mapping[str, Any],
    key: str,
    kind: type | tuple[type, ...],
    where: str,
    *,
    default: Any = _MISSING,
) -> Any:
    value = data.get(key, _MISSING)
    if value is _MISSING:
        if default is _MISSING:
            raise SchemaError(where, f"key {key}: required but missing")
        return default
    kinds = kind if isinstance(kind, tuple) else (kind,)
    is_stray_bool = isinstance(value, bool) and bool not in kinds
    if is_stray_bool or not isinstance(value, kinds):
        names = " or ".join(k.__name__ for k in kinds)
        raise SchemaError(where, f"key {key}: expected {names}, got {value!r:.60}")
    return value


def _version(data: Mapping[str, Any], where: str) -> None:
    v = _get(data, "v", int, where)
    if v != VERSION:
        raise SchemaError(where, f"key v: protocol version {v} is not supported (expected 1)")


def _string(
    data: Mapping[str, Any], key: str, where: str, *, limit: int, default: Any = _MISSING
) -> Any:
    value = _get(data, key, str, where, default=default)
    if isinstance(value, str) and len(value) > limit:
        raise SchemaError(where, f"key {key}: longer than {limit} characters")
    return value


def _shoe(data: Mapping[str, Any], where: str) -> str:
    shoe = _string(data, "shoe", where, limit=MAX_SHOE_ID)
    if not shoe:
        raise SchemaError(where, "key shoe: expected 1-64 characters, got an empty string")
    return shoe


def _ts(data: Mapping[str, Any], where: str) -> str | None:
    return _string(data, "ts", where, limit=64, default=None)


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


def _game(data: Mapping[str, Any], where: str, shoe: str) -> Game:
    """The coup fields of a coup payload, a snapshot entry or a correction."""
    number = _game_number(_get(data, "game", int, where), "game", where)
    where = f"{where} game {number}"
    cards = _get(data, "cards", dict, where, default=None)
    result = _string(data, "result", where, limit=1, default=None)
    winner = None
    if result is not None:
        try:
            winner = Winner(result)
        except ValueError:
            raise SchemaError(where, f"key result: expected B, P or T, got {result!r}") from None
    flags = {
        name: _get(data, name, bool, where, default=None)
        for name in ("player_pair", "banker_pair", "natural")
    }
    totals = {
        name: _get(data, name, int, where, default=None)
        for name in ("player_total", "banker_total")
    }
    for name, total in totals.items():
        if total is not None and not 0 <= total <= 9:
            raise SchemaError(where, f"key {name}: expected 0-9, got {total}")
    if cards is None:
        if winner is None:
            raise SchemaError(where, "keys cards/result: one of them is required")
        try:
            coup = result_coup(
                winner,
                player_pair=bool(flags["player_pair"]),
                banker_pair=bool(flags["banker_pair"]),
                natural=bool(flags["natural"]),
                player_total=totals["player_total"],
                banker_total=totals["banker_total"],
            )
        except ImpossibleHandError as error:
            raise ImpossibleCoupError(where, str(error)) from None
        return Game(number, coup)
    player = _cards(_get(cards, "player", list, where + " cards"), "cards.player", where)
    banker = _cards(_get(cards, "banker", list, where + " cards"), "cards.banker", where)
    try:
        coup = record_coup(player, banker)
    except ImpossibleHandError as error:
        raise ImpossibleCoupError(where, f"key cards: {error}") from None
    derived: dict[str, Any] = {
        "result": (winner, coup.winner),
        "player_total": (totals["player_total"], coup.player_total),
        "banker_total": (totals["banker_total"], coup.banker_total),
        "player_pair": (flags["player_pair"], coup.player_pair),
        "banker_pair": (flags["banker_pair"], coup.banker_pair),
        "natural": (flags["natural"], coup.natural),
    }
    for name, (reported, actual) in derived.items():
        if reported is not None and reported != actual:
            shown = actual.value if isinstance(actual, Winner) else actual
            raise ImpossibleCoupError(
                where, f"key {name}: says {data.get(name)!r} but the cards give {shown!r}"
            )
    return Game(number, coup)


def _event(data: Mapping[str, Any], where: str) -> Event:
    kind = _string(data, "type", where, limit=32)
    where = f"{where} ({kind})"
    if kind == "new_shoe":
        return NewShoe(_shoe(data, where))
    if kind == "shuffle":
        return Shuffle()
    if kind == "cut_card":
        return CutCard()
    if kind == "burn":
        cards = _get(data, "cards", list, where)
        if len(cards) > 12:
            raise SchemaError(where, f"key cards: at most 12 burned cards, got {len(cards)}")
        try:
            return Burn(tuple(parse_card(token) for token in cards))
        except UnknownCardError as error:
            raise BadCardError(where, f"key cards: {error}") from None
    if kind == "void":
        shoe = _shoe(data, where)
        number = _game_number(_get(data, "game", int, where), "game", where)
        return Void(shoe, number, _string(data, "reason", where, limit=200, default=""))
    if kind == "correct":
        shoe = _shoe(data, where)
        number = _game_number(_get(data, "game", int, where), "game", where)
        coup = dict(_get(data, "coup", dict, where))
        for key, expected in (("game", number), ("shoe", shoe)):
            if coup.setdefault(key, expected) != expected:
                raise SchemaError(
                    where, f"key coup.{key}: {coup[key]!r} differs from {key} {expected!r}"
                )
        game = _game(coup, f"{where} coup", shoe)
        return Correct(shoe, game, _string(data, "reason", where, limit=200, default=""))
    raise SchemaError(where, f"key type: unknown event type {kind!r}")


def _snapshot(data: Mapping[str, Any], where: str) -> Snapshot:
    shoe = _shoe(data, where)
    entries = _get(data, "coups", list, where)
    voided_raw = _get(data, "voided", list, where, default=[])
    if len(entries) > MAX_GAME or len(voided_raw) > MAX_GAME:
        raise SchemaError(where, f"keys coups/voided: more than {MAX_GAME} games")
    games: dict[int, Game] = {}
    for index, entry in enumerate(entries):
        at = f"{where} coups[{index}]"
        if not isinstance(entry, dict):
            raise SchemaError(at, f"expected an object, got {entry!r:.40}")
        entry_shoe = _string(entry, "shoe", at, limit=MAX_SHOE_ID, default=shoe)
        if entry_shoe != shoe:
            raise SchemaError(at, f"key shoe: {entry_shoe!r} differs from the snapshot's {shoe!r}")
        game = _game(entry, at, shoe)
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
    bets_raw = _get(data, "bets", dict, where)
    pays_raw = _get(data, "pays", dict, where)
    if len(bets_raw) > 32 or len(pays_raw) > 32:
        raise SchemaError(where, "keys bets/pays: at most 32 bets")
    bets: dict[str, tuple[int, int]] = {}
    for name, pair in bets_raw.items():
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or any(isinstance(x, bool) or not isinstance(x, int) or x < 0 for x in pair)
            or pair[0] > pair[1]
            or len(name) > 32
        ):
            raise SchemaError(
                where, f"key bets.{name:.32}: expected [minimum, maximum], got {pair!r:.40}"
            )
        bets[name] = (pair[0], pair[1])
    pays: dict[str, str] = {}
    for name, odds in pays_raw.items():
        if not isinstance(odds, str) or len(odds) > 32 or len(name) > 32:
            raise SchemaError(where, f"key pays.{name:.32}: expected odds text such as '8:1'")
        pays[name] = odds
    return Limits(currency=currency, bets=bets, pays=pays)


def _resync(data: Mapping[str, Any], where: str) -> ResyncRequest:
    display = _string(data, "display", where, limit=64, default=None)
    shoe = _string(data, "shoe", where, limit=MAX_SHOE_ID, default=None)
    missing = _get(data, "missing", list, where, default=[])
    if len(missing) > MAX_GAME:
        raise SchemaError(where, f"key missing: more than {MAX_GAME} games")
    return ResyncRequest(display, shoe, tuple(_game_number(n, "missing", where) for n in missing))


# -- encoding ---------------------------------------------------------------
def coup_fields(game: Game) -> dict[str, Any]:
    """The wire fields of one coup: cards when known, else the result and flags."""
    coup: Coup = game.coup
    fields: dict[str, Any] = {"game": game.number}
    if coup.has_cards:
        fields["cards"] = {
            "player": [str(card) for card in coup.player],
            "banker": [str(card) for card in coup.banker],
        }
        return fields
    fields["result"] = coup.winner.value
    for name in ("player_pair", "banker_pair"):
        if getattr(coup, name):
            fields[name] = True
    if coup.natural:
        fields["natural"] = True
    for name in ("player_total", "banker_total"):
        if getattr(coup, name) is not None:
            fields[name] = getattr(coup, name)
    return fields


def encode(event: Event) -> tuple[str, dict[str, Any]]:
    """``(kind, payload dict)`` for an event: what the controller sends and the journal keeps.

    >>> encode(NewShoe("S1"))
    ('event', {'v': 1, 'type': 'new_shoe', 'shoe': 'S1'})
    """
    v: dict[str, Any] = {"v": VERSION}
    match event:
        case CoupReceived(shoe=shoe, game=game, ts=ts):
            data = {**v, "shoe": shoe, **coup_fields(game)}
            if ts:
                data["ts"] = ts
            return "coup", data
        case NewShoe(shoe=shoe):
            return "event", {**v, "type": "new_shoe", "shoe": shoe}
        case Shuffle():
            return "event", {**v, "type": "shuffle"}
        case Burn(cards=cards):
            return "event", {**v, "type": "burn", "cards": [str(card) for card in cards]}
        case CutCard():
            return "event", {**v, "type": "cut_card"}
        case Void(shoe=shoe, game=number, reason=reason):
            return "event", {**v, "type": "void", "shoe": shoe, "game": number, "reason": reason}
        case Correct(shoe=shoe, game=game, reason=reason):
            coup = {"shoe": shoe, **coup_fields(game)}
            return "event", {
                **v,
                "type": "correct",
                "shoe": shoe,
                "game": game.number,
                "coup": coup,
                "reason": reason,
            }
        case Snapshot(shoe=shoe, games=games, voided=voided, ts=ts):
            data = {
                **v,
                "shoe": shoe,
                "coups": [{"shoe": shoe, **coup_fields(game)} for game in games],
                "voided": list(voided),
            }
            if ts:
                data["ts"] = ts
            return "snapshot", data
        case LimitsReceived(limits=limits):
            return "limits", {
                **v,
                "currency": limits.currency,
                "bets": {name: list(pair) for name, pair in limits.bets.items()},
                "pays": dict(limits.pays),
            }
        case ControllerStatus(online=online):
            return "controller_status", {**v, "online": online}
        case ResyncRequest(display=display, shoe=shoe, missing=missing):
            data = {**v, "missing": list(missing)}
            if display is not None:
                data["display"] = display
            if shoe is not None:
                data["shoe"] = shoe
            return "resync", data
    raise TypeError(f"not a protocol event: {event!r}")


def topic_for(topics: Topics, kind: str) -> str:
    return {
        "coup": topics.coup,
        "event": topics.event,
        "snapshot": topics.snapshot,
        "limits": topics.limits,
        "controller_status": topics.controller_status,
        "resync": topics.resync,
    }[kind]


#: The display's last will, exactly as protocol.md gives it.
DISPLAY_OFFLINE = b'{"online": false}'


# -- what a display does with each event ------------------------------------
def apply_event(table: TableState, event: Event) -> bool:
    """Apply one validated event to the table the way protocol.md says; True if it changed.

    Raises :class:`~scoreboard.core.table.ConflictError` for a coup that
    contradicts a recorded one.  Events of a finished shoe (a late redelivery)
    and feed-level events (controller status, resync) change nothing here.
    """
    match event:
        case CoupReceived(shoe=shoe, game=game):
            if table.is_archived(shoe):
                return False
            if shoe != table.shoe_id:
                table.new_shoe(shoe)
            before = table.version
            table.add_game(game)
            return table.version != before
        case NewShoe(shoe=shoe):
            if shoe == table.shoe_id or table.is_archived(shoe):
                return False
            table.new_shoe(shoe)
            return True
        case Shuffle():
            return table.set_shuffling(True)
        case Burn():
            return table.set_shuffling(False)
        case CutCard():
            return table.mark_cut_card()
        case Void(shoe=shoe, game=number):
            return shoe == table.shoe_id and table.void(number)
        case Correct(shoe=shoe, game=game):
            return shoe == table.shoe_id and table.correct(game)
        case Snapshot(shoe=shoe, games=games, voided=voided):
            return table.apply_snapshot(shoe, games, voided)
        case LimitsReceived(limits=limits):
            return table.set_limits(limits)
    return False


def display_status(
    display_id: str, table: TableState, *, rejected: int, feed: str
) -> dict[str, Any]:
    """The retained status payload a display publishes about itself."""
    counts = {"B": 0, "P": 0, "T": 0}
    games = table.games
    for game in games:
        counts[game.coup.winner.value] += 1
    last = table.last_game
    return {
        "v": VERSION,
        "online": True,
        "display": display_id,
        "shoe": table.shoe_id,
        "games": len(games),
        "last_game": last.number if last is not None else None,
        "counts": counts,
        "missing": list(table.missing),
        "rejected": rejected,
        "feed": feed,
    }
