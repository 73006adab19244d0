"""The table feed's MQTT payloads: bytes in, validated events out (and back).

A display must never show a wrong road, so everything that arrives from the
network is checked here before it reaches :class:`~scoreboard.table.state.TableState`:
size, UTF-8, JSON, the ``v`` field, the v2 envelope (``session`` and ``seq``,
which become the event's :class:`~scoreboard.game.events.Origin`), types and
ranges, cards, the tableau, the HMAC signature (over the topic too, in v2).
A payload that fails any check raises a :class:`ProtocolError` naming the
topic, the key and (where known) the game, and changes nothing.

This package never touches the screen, the network or the disk; the MQTT feed,
the simulated controller and the journal all go through it, by the names
re-exported here.  Inside: ``contract`` (version and bounds), ``errors``,
``kinds`` (the payload kinds: topic and schema), ``messages`` (one registry
entry per message type: its event, reader and writer), ``topics``, ``signing``
(canonical JSON, HMAC), ``fields`` and ``decoding`` (payload -> event),
``encoding`` (event -> payload), ``display`` (a display's status), ``pit`` (pit
commands and answers) and ``shoe_events`` (a card-reading shoe's own messages).  The
events themselves are the core's vocabulary (:mod:`scoreboard.game.events`).

>>> topics = Topics("baccarat/v2/T1")
>>> event = parse_message(
...     topics, "baccarat/v2/T1/coup",
...     b'{"v":2,"session":7,"seq":5,"shoe":"S1","game":1,'
...     b'"cards":{"player":["9S","KH"],"banker":["4D","3C"]}}')
>>> event.game.number, event.game.coup.winner.value, event.origin
(1, 'P', Origin(session=7, seq=5))
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
from scoreboard.protocol.contract import (
    MAX_GAME,
    MAX_PAYLOAD,
    MAX_SEQ,
    MAX_SHOE_ID,
    VERSION,
    VERSIONS,
    WILL_SEQ,
)
from scoreboard.protocol.decoding import decode
from scoreboard.protocol.encoding import coup_fields
from scoreboard.protocol.errors import (
    BadCardError,
    ImpossibleCoupError,
    NotJsonError,
    OversizedPayloadError,
    ProtocolError,
    SchemaError,
    SignatureError,
    UnknownTopicError,
)
from scoreboard.protocol.kinds import Kind
from scoreboard.protocol.messages import (
    MESSAGES,
    MessageType,
    encode,
    parse_dict,
    parse_message,
    wire,
)
from scoreboard.protocol.signing import (
    canonical_json,
    encode_payload,
    sign,
    signature,
    signed_bytes,
    verify,
)
from scoreboard.protocol.topics import Topics, default_prefix, topic_for

if TYPE_CHECKING:  # re-exported too, but imported when first asked for: see __getattr__
    from scoreboard.protocol.display import DISPLAY_OFFLINE, display_status
    from scoreboard.table.state import apply_event

__all__ = [
    "DISPLAY_OFFLINE",
    "MAX_GAME",
    "MAX_PAYLOAD",
    "MAX_SEQ",
    "MAX_SHOE_ID",
    "MESSAGES",
    "VERSION",
    "VERSIONS",
    "WILL_SEQ",
    "BadCardError",
    "Burn",
    "CardDealt",
    "ControllerStatus",
    "Correct",
    "CoupReceived",
    "CutCard",
    "Event",
    "ImpossibleCoupError",
    "Kind",
    "LimitsReceived",
    "MessageType",
    "NewShoe",
    "NotJsonError",
    "Origin",
    "OversizedPayloadError",
    "ProtocolError",
    "ResyncRequest",
    "SchemaError",
    "ShoeHealth",
    "Shuffle",
    "SignatureError",
    "Snapshot",
    "Topics",
    "UnknownTopicError",
    "Void",
    "apply_event",
    "canonical_json",
    "coup_fields",
    "decode",
    "default_prefix",
    "display_status",
    "encode",
    "encode_payload",
    "parse_dict",
    "parse_message",
    "sign",
    "signature",
    "signed_bytes",
    "topic_for",
    "verify",
    "wire",
]


def __getattr__(name: str) -> object:
    """``display_status``, ``DISPLAY_OFFLINE`` and ``apply_event``, imported the first time
    they are asked for.

    They bring a display's whole table (its state, rules and roads), which the
    commands that only speak the protocol (a controller, the pit, the bridge's
    line) never use; importing them with the rest cost each such start its
    modules and their classes.
    """
    if name in ("display_status", "DISPLAY_OFFLINE"):
        from scoreboard.protocol import display

        found: object = getattr(display, name)
    elif name == "apply_event":
        from scoreboard.table.state import apply_event

        found = apply_event
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = found  # asked once: the next look finds it at once
    return found
