"""The message types of contract v1: one registry entry each binds its event, kind, codec.

A message type is what travels on one topic (its :class:`~scoreboard.protocol.kinds.Kind`)
with, for the ``event`` kind, its ``type`` field.  Its entry names the event
value it carries, the reader that validates it and the writer that produces it;
the topic and the JSON Schema follow from the kind.  Adding a message type is one
entry here, its two functions and its schema.

>>> encode(NewShoe("S1"))
(<Kind.EVENT: 'event'>, {'v': 1, 'type': 'new_shoe', 'shoe': 'S1'})
>>> parse_dict("event", {"v": 1, "type": "new_shoe", "shoe": "S1"}, "here")
NewShoe(shoe='S1')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from scoreboard.core.events import (
    Burn,
    ControllerStatus,
    Correct,
    CoupReceived,
    CutCard,
    Event,
    LimitsReceived,
    NewShoe,
    ResyncRequest,
    Shuffle,
    Snapshot,
    Void,
)
from scoreboard.protocol import decoding as read
from scoreboard.protocol import encoding as write
from scoreboard.protocol.contract import VERSION
from scoreboard.protocol.errors import SchemaError, UnknownTopicError
from scoreboard.protocol.fields import _string, _version
from scoreboard.protocol.kinds import Kind
from scoreboard.protocol.signing import encode_payload
from scoreboard.protocol.topics import Topics


@dataclass(frozen=True, slots=True)
class MessageType:
    """One message type: its kind (topic, schema), ``type`` tag, event and codec."""

    kind: Kind
    tag: str | None  # the ``type`` field of an ``event`` payload
    event: type
    decode: Callable[[Mapping[str, Any], str], Any]
    encode: Callable[[Any], dict[str, Any]]


MESSAGES: tuple[MessageType, ...] = (
    MessageType(Kind.COUP, None, CoupReceived, read.decode_coup, write.encode_coup),
    MessageType(Kind.EVENT, "new_shoe", NewShoe, read.decode_new_shoe, write.encode_new_shoe),
    MessageType(Kind.EVENT, "shuffle", Shuffle, read.decode_shuffle, write.encode_nothing),
    MessageType(Kind.EVENT, "burn", Burn, read.decode_burn, write.encode_burn),
    MessageType(Kind.EVENT, "cut_card", CutCard, read.decode_cut_card, write.encode_nothing),
    MessageType(Kind.EVENT, "void", Void, read.decode_void, write.encode_void),
    MessageType(Kind.EVENT, "correct", Correct, read.decode_correct, write.encode_correct),
    MessageType(Kind.SNAPSHOT, None, Snapshot, read.decode_snapshot, write.encode_snapshot),
    MessageType(Kind.LIMITS, None, LimitsReceived, read.decode_limits, write.encode_limits),
    MessageType(
        Kind.CONTROLLER_STATUS,
        None,
        ControllerStatus,
        read.decode_controller_status,
        write.encode_controller_status,
    ),
    MessageType(Kind.RESYNC, None, ResyncRequest, read.decode_resync, write.encode_resync),
)

_BY_EVENT = {message.event: message for message in MESSAGES}
_BY_TAG = {(message.kind, message.tag): message for message in MESSAGES}


def message_type(event: Event) -> MessageType:
    """The registry entry of ``event``'s class (TypeError for anything else)."""
    message = _BY_EVENT.get(type(event))
    if message is None:
        raise TypeError(f"not a protocol event: {event!r}")
    return message


def encode(event: Event) -> tuple[Kind, dict[str, Any]]:
    """``(kind, payload dict)`` for an event: what the controller sends and the journal keeps."""
    message = message_type(event)
    head: dict[str, Any] = {"v": VERSION}
    if message.tag is not None:
        head["type"] = message.tag
    return message.kind, {**head, **message.encode(event)}


def wire(topics: Topics, event: Event, key: bytes | None = None) -> tuple[str, bytes]:
    """``(topic, payload)`` as ``event`` travels: its topic, canonical JSON, signed with ``key``.

    >>> wire(Topics("doc/v1/T1"), NewShoe("S1"))
    ('doc/v1/T1/event', b'{"shoe":"S1","type":"new_shoe","v":1}')
    """
    kind, data = encode(event)
    return topics.by_kind[kind], encode_payload(data, key)


def parse_dict(kind: Kind | str, data: Mapping[str, Any], where: str) -> Event:
    """Validate an already decoded payload of ``kind`` (also used by the journal)."""
    try:
        kind = Kind(kind)
    except ValueError:
        raise UnknownTopicError(where, f"unknown payload kind {kind!r}") from None
    _version(data, where)  # every payload of contract v1 says so
    tag = None
    if kind is Kind.EVENT:
        tag = _string(data, "type", where, limit=32)
        where = f"{where} ({tag})"
    message = _BY_TAG.get((kind, tag))
    if message is None:
        raise SchemaError(where, f"key type: unknown event type {tag!r}")
    event: Event = message.decode(data, where)
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
