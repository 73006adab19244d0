"""The message types of contract v2: one registry entry each binds its event, kind, codec.

A message type is what travels on one topic (its :class:`~scoreboard.protocol.kinds.Kind`)
with, for the ``event`` kind, its ``type`` field.  Its entry names the event
value it carries, the reader that validates it, the writer that produces it,
whether it is a controller payload (stamped with ``session`` and ``seq`` in v2)
and the keys v2 requires beyond v1; the topic and the JSON Schema follow from
the kind.  Adding a message type is one entry here, its two functions and its
schema.

A v2 payload's ``session`` and ``seq`` become the event's ``origin``; a v1
payload (no envelope) gives an event with no origin, and an event with no
origin is written as v1, so the journal keeps either exactly.

>>> encode(NewShoe("S1", origin=Origin(7, 3)))
(<Kind.EVENT: 'event'>, {'v': 2, 'type': 'new_shoe', 'shoe': 'S1', 'session': 7, 'seq': 3})
>>> parse_dict("event", {"v": 2, "type": "new_shoe", "shoe": "S1", "session": 7, "seq": 3}, "here")
NewShoe(shoe='S1', previous=None, previous_games=None, origin=Origin(session=7, seq=3), decks=None)
>>> parse_dict("event", {"v": 1, "type": "new_shoe", "shoe": "S1"}, "here").origin is None
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from scoreboard.game.events import (
    Burn,
    CardDealt,
    ControllerStatus,
    Correct,
    CoupReceived,
    CutCard,
    Event,
    LimitsReceived,
    NewShoe,
    Origin,
    ResyncRequest,
    ShoeHealth,
    Shuffle,
    Snapshot,
    Void,
)
from scoreboard.protocol import decoding as read
from scoreboard.protocol import encoding as write
from scoreboard.protocol import pit, shoe_events
from scoreboard.protocol.contract import VERSION, WILL_SEQ
from scoreboard.protocol.errors import SchemaError, UnknownTopicError
from scoreboard.protocol.fields import _origin, _string, _version
from scoreboard.protocol.kinds import Kind
from scoreboard.protocol.signing import encode_payload
from scoreboard.protocol.topics import Topics
from scoreboard.table.pit import PitAnswer, PitCommand


@dataclass(frozen=True, slots=True)
class MessageType:
    """One message type: its kind (topic, schema), ``type`` tag, event and codec."""

    kind: Kind
    tag: str | None  # the ``type`` field of an ``event`` payload
    event: type
    decode: Callable[[Mapping[str, Any], str], Any]
    encode: Callable[[Any], dict[str, Any]]
    #: A controller payload: in v2 it carries ``session`` and ``seq`` (its event's origin).
    stamped: bool = True
    #: Keys v2 requires that v1 did not.
    v2_requires: tuple[str, ...] = ()


MESSAGES: tuple[MessageType, ...] = (
    MessageType(Kind.COUP, None, CoupReceived, read.decode_coup, write.encode_coup),
    MessageType(Kind.EVENT, "new_shoe", NewShoe, read.decode_new_shoe, write.encode_new_shoe),
    MessageType(
        Kind.EVENT, "shuffle", Shuffle, read.decode_shuffle, write.encode_shoe_mark,
        v2_requires=("shoe",),
    ),
    MessageType(
        Kind.EVENT, "burn", Burn, read.decode_burn, write.encode_burn, v2_requires=("shoe",)
    ),
    MessageType(
        Kind.EVENT, "cut_card", CutCard, read.decode_cut_card, write.encode_shoe_mark,
        v2_requires=("shoe",),
    ),
    MessageType(Kind.EVENT, "void", Void, read.decode_void, write.encode_void),
    MessageType(Kind.EVENT, "correct", Correct, read.decode_correct, write.encode_correct),
    # -- the card-reading shoe's own events (issue 23) --
    MessageType(Kind.EVENT, "deal", CardDealt, shoe_events.decode_deal, shoe_events.encode_deal),
    MessageType(
        Kind.EVENT, "shoe_health", ShoeHealth,
        shoe_events.decode_shoe_health, shoe_events.encode_shoe_health,
    ),
    # -- end of the shoe's events --
    MessageType(Kind.SNAPSHOT, None, Snapshot, read.decode_snapshot, write.encode_snapshot),
    MessageType(Kind.LIMITS, None, LimitsReceived, read.decode_limits, write.encode_limits),
    MessageType(
        Kind.CONTROLLER_STATUS,
        None,
        ControllerStatus,
        read.decode_controller_status,
        write.encode_controller_status,
    ),
    MessageType(
        Kind.RESYNC, None, ResyncRequest, read.decode_resync, write.encode_resync, stamped=False
    ),
)  # fmt: skip

#: Pit commands and answers: messages between the pit and the controller, never table
#: events (:func:`parse_dict` refuses them; :func:`parse_pit` reads them).
PIT_MESSAGES: tuple[MessageType, ...] = (
    MessageType(
        Kind.PIT, None, PitCommand, pit.decode_pit_command, pit.encode_pit_command, stamped=False
    ),
    MessageType(
        Kind.PIT_ANSWER, None, PitAnswer, pit.decode_pit_answer, pit.encode_pit_answer,
        stamped=False,
    ),
)  # fmt: skip
_PIT_BY_KIND = {message.kind: message for message in PIT_MESSAGES}

_BY_EVENT = {message.event: message for message in MESSAGES}
_BY_TAG = {(message.kind, message.tag): message for message in MESSAGES}


def message_type(event: Event) -> MessageType:
    """The registry entry of ``event``'s class (TypeError for anything else)."""
    message = _BY_EVENT.get(type(event))
    if message is None:
        raise TypeError(f"not a protocol event: {event!r}")
    return message


def encode(event: Event, *, version: int = VERSION) -> tuple[Kind, dict[str, Any]]:
    """``(kind, payload dict)`` for an event: what the controller sends and the journal keeps.

    A controller payload is v2 when its event has an origin and v1 when it has
    none; a display's own message (a resync request) is written in ``version``.
    """
    message = message_type(event)
    origin: Origin | None = getattr(event, "origin", None)
    if message.stamped:
        version = 1 if origin is None else VERSION
    head: dict[str, Any] = {"v": version}
    if message.tag is not None:
        head["type"] = message.tag
    data = {**head, **message.encode(event)}
    if origin is not None and message.stamped:
        data["session"] = origin.session
        if not (_is_will(event) and origin.seq == WILL_SEQ):  # a will names no seq
            data["seq"] = origin.seq
        missing = [key for key in message.v2_requires if key not in data]
        if missing:
            raise ValueError(f"a v2 {message.tag or message.kind} needs {', '.join(missing)}")
    return message.kind, data


def _is_will(event: Event) -> bool:
    return isinstance(event, ControllerStatus) and not event.online


def wire(topics: Topics, event: Event, key: bytes | None = None) -> tuple[str, bytes]:
    """``(topic, payload)`` as ``event`` travels: its topic, canonical JSON, signed with ``key``.

    In v2 the signature covers the topic, so the payload is only good on that topic.

    >>> wire(Topics("doc/v2/T1"), NewShoe("S1", origin=Origin(7, 1)))
    ('doc/v2/T1/event', b'{"seq":1,"session":7,"shoe":"S1","type":"new_shoe","v":2}')
    """
    kind, data = encode(event, version=topics.version)
    topic = topics.by_kind[kind]
    return topic, encode_payload(data, key, topic)


def parse_dict(kind: Kind | str, data: Mapping[str, Any], where: str) -> Event:
    """Validate an already decoded payload of ``kind`` (also used by the journal)."""
    try:
        kind = Kind(kind)
    except ValueError:
        raise UnknownTopicError(where, f"unknown payload kind {kind!r}") from None
    version = _version(data, where)
    tag = None
    if kind is Kind.EVENT:
        tag = _string(data, "type", where, limit=32)
        where = f"{where} ({tag})"
    message = _BY_TAG.get((kind, tag))
    if kind in _PIT_BY_KIND:
        raise UnknownTopicError(where, "a pit command or answer, not a table event")
    if message is None:
        raise SchemaError(where, f"key type: unknown event type {tag!r}")
    event: Event = message.decode(data, where)
    if version == 1:
        return event  # v1: no origin, none of v2's ordering
    for key in message.v2_requires:
        if key not in data:
            raise SchemaError(where, f"key {key}: required in v2 but missing")
    if message.stamped:
        origin = _origin(data, where, will=_is_will(event))
        unstamped: Any = event  # every stamped message's event has an origin field
        event = dataclasses.replace(unstamped, origin=origin)
    return event


def parse_message(topics: Topics, topic: str, payload: bytes, *, key: bytes | None = None) -> Event:
    """Turn one MQTT message into an event, or raise :class:`ProtocolError`."""
    kind = topics.kind_of(topic)
    if kind is None:
        raise UnknownTopicError(topic, "not a topic of this table")
    if kind is Kind.CONTROLLER_STATUS and not key:
        text = payload.strip().lower()
        if text in (b"online", b"offline"):
            return ControllerStatus(online=text == b"online")
    return parse_dict(kind, read.decode(topic, payload, key), topic)


PitMessage = PitCommand | PitAnswer


def pit_wire(topics: Topics, message: PitMessage, key: bytes | None = None) -> tuple[str, bytes]:
    """``(topic, payload)`` of a pit command (``cmd/pit``) or answer (``cmd/pit/answer``),
    canonical JSON signed with ``key`` over the topic, as every v2 payload.

    >>> from scoreboard.table.pit import PitAnswer
    >>> pit_wire(Topics("doc/v2/T1"), PitAnswer("c-1", False, "no game 40"))
    ('doc/v2/T1/cmd/pit/answer', b'{"applied":false,"detail":"no game 40","id":"c-1","v":2}')
    """
    kind = Kind.PIT if isinstance(message, PitCommand) else Kind.PIT_ANSWER
    topic = topics.by_kind[kind]
    data = {"v": VERSION, **_PIT_BY_KIND[kind].encode(message)}
    return topic, encode_payload(data, key, topic)


def parse_pit(
    topics: Topics, topic: str, payload: bytes, *, key: bytes | None = None
) -> PitMessage:
    """A pit command or answer, checked (size, JSON, ``key``'s signature, every field),
    else :class:`ProtocolError`."""
    kind = topics.kind_of(topic)
    message = None if kind is None else _PIT_BY_KIND.get(kind)
    if message is None:
        raise UnknownTopicError(topic, "not a pit topic of this table")
    data = read.decode(topic, payload, key)
    if _version(data, topic) != VERSION:
        raise SchemaError(topic, f"key v: pit messages are protocol v{VERSION} only")
    parsed: PitMessage = message.decode(data, topic)
    return parsed
