"""Canonical JSON and HMAC-SHA256 signatures: what a payload looks like on the wire.

Signing and verifying must agree byte for byte between the controller and every
display, so the one canonical form (sorted keys, no spaces, UTF-8) and the one
signature over it are defined here and nowhere else.
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
