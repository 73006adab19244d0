"""Canonical JSON and HMAC-SHA256 signatures: what a payload looks like on the wire.

Signing and verifying must agree byte for byte between the controller and every
display, so the one canonical form (sorted keys, no spaces, UTF-8) and the one
signature over it are defined here and nowhere else.  In v2 the signature
covers the topic too (``topic + "\\n" + canonical JSON``), so a payload signed
for one table is refused on another's topic; a v1 payload's covers the payload
alone, as v1 said.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping
from typing import Any

from scoreboard.protocol.errors import SignatureError


def canonical_json(data: Mapping[str, Any]) -> bytes:
    """Keys sorted, separators ``,`` and ``:``, UTF-8: what the signature covers.

    >>> canonical_json({"b": 1, "a": "é"})
    b'{"a":"\\xc3\\xa9","b":1}'
    """
    return json.dumps(
        data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def signed_bytes(data: Mapping[str, Any], topic: str | None = None) -> bytes:
    """What the HMAC covers: v1, the canonical payload; v2, the topic, a newline, the payload.

    >>> signed_bytes({"v": 2, "online": True}, "p/controller/status")
    b'p/controller/status\\n{"online":true,"v":2}'
    >>> signed_bytes({"v": 1, "online": True})
    b'{"online":true,"v":1}'
    """
    body = canonical_json({k: v for k, v in data.items() if k != "sig"})
    if data.get("v") == 1:
        return body
    if topic is None:
        raise ValueError("a v2 payload is signed over its topic: give the topic")
    return topic.encode("utf-8") + b"\n" + body


def signature(data: Mapping[str, Any], key: bytes, topic: str | None = None) -> str:
    """The lowercase hex HMAC-SHA256 of :func:`signed_bytes` under ``key``."""
    return hmac.new(key, signed_bytes(data, topic), hashlib.sha256).hexdigest()


def sign(data: Mapping[str, Any], key: bytes | None, topic: str | None = None) -> dict[str, Any]:
    """The payload with ``sig`` added (unchanged without a key); v2 needs the ``topic``."""
    signed = {k: v for k, v in data.items() if k != "sig"}
    if key:
        signed["sig"] = signature(signed, key, topic)
    return signed


def verify(data: Mapping[str, Any], key: bytes, topic: str) -> None:
    """Raise :class:`SignatureError` unless ``sig`` is the HMAC of the payload (and topic)."""
    sig = data.get("sig")
    if sig is None:
        raise SignatureError(topic, "unsigned payload but this display has an HMAC key")
    if (
        not isinstance(sig, str)
        or not sig.isascii()
        or not hmac.compare_digest(sig.lower(), signature(data, key, topic))
    ):
        raise SignatureError(topic, "key sig: signature does not match the payload and topic")


def encode_payload(
    data: Mapping[str, Any], key: bytes | None = None, topic: str | None = None
) -> bytes:
    """The bytes to publish: canonical JSON, signed with ``key`` (over ``topic`` in v2)."""
    return canonical_json(sign(data, key, topic))
