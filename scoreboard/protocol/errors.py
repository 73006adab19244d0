"""The exceptions a payload that breaks the contract raises.

Every check in the protocol package raises one of these, so the MQTT feed and
the journal can catch :class:`ProtocolError` alone and count rejections by its
``reason``; the message names the topic, the key and (where known) the game.
"""

from __future__ import annotations


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
