"""Reading the config's YAML values: type checks that name the file and the key path.

Apart from :mod:`scoreboard.config` (which re-exports the parsers and
:class:`ConfigError`) so the config's sections, such as the keypad's, share one
reader; each check raises ``file: key.path: expected ..., got ...``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NoReturn

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 1883


class ConfigError(ValueError):
    """A configuration value that is missing, of the wrong type or out of range."""


def parse_hostport(text: str, *, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """``host``, ``host:port`` or ``[v6addr]:port`` -> ``(host, port)``.

    >>> parse_hostport("broker.local:8883"), parse_hostport("[::1]:1884")
    (('broker.local', 8883), ('::1', 1884))
    """
    match = re.fullmatch(r"\[([^\]]+)\](?::(\d+))?|([^:\s]+)(?::(\d+))?", text.strip())
    if not match:
        raise ValueError(f"expected HOST:PORT, got {text!r}")
    host = match.group(1) or match.group(3)
    port_text = match.group(2) or match.group(4)
    port = int(port_text) if port_text else default_port
    if not 1 <= port <= 65535:
        raise ValueError(f"port {port} out of range 1-65535")
    return host, port


MIN_SIDE, MAX_SIDE = 64, 8192


def parse_size(text: str) -> tuple[int, int]:
    """``"1920x1080"`` -> ``(1920, 1080)``; each side 64 to 8192 pixels.

    The one size parser of the command line and the config file.
    """
    match = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", str(text))
    if not match:
        raise ValueError(f"expected WIDTHxHEIGHT such as 1920x1080, got {text!r}")
    width, height = int(match.group(1)), int(match.group(2))
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        raise ValueError(f"each side must be {MIN_SIDE} to {MAX_SIDE} pixels, got {text!r}")
    return width, height


class Reader:
    """Type checks that name the file and the key path."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, key: str, expected: str, got: Any) -> NoReturn:
        raise ConfigError(
            f"{self.source}: {key or '(top level)'}: expected {expected}, got {got!r}"
        )

    def mapping(self, value: Any, key: str, allowed: set[str]) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            self.fail(key, "a mapping", value)
        unknown = sorted(str(name) for name in value if name not in allowed)
        if unknown:
            where = f"{key}.{unknown[0]}" if key else unknown[0]
            self.fail(where, f"one of the keys {', '.join(sorted(allowed))}", unknown[0])
        return value

    def text(self, value: Any, key: str) -> str:
        if not isinstance(value, str | int) or isinstance(value, bool):
            self.fail(key, "text", value)
        return str(value)

    def optional_text(self, value: Any, key: str) -> str | None:
        return None if value is None else self.text(value, key)

    def ident(self, value: Any, key: str) -> str:
        text = self.text(value, key)
        if not re.fullmatch(r"[A-Za-z0-9._-]{1,64}", text):
            self.fail(key, "1-64 letters, digits, '.', '_' or '-' (used in topic names)", text)
        return text

    def integer(self, value: Any, key: str, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            self.fail(key, f"an integer {low}-{high}", value)
        return value

    def choice(self, value: Any, key: str, choices: tuple[int, ...]) -> int:
        if isinstance(value, bool) or value not in choices:
            self.fail(key, f"one of {', '.join(map(str, choices))}", value)
        return int(value)

    def one_of(self, value: Any, key: str, choices: tuple[str, ...]) -> str:
        if value not in choices:
            self.fail(key, " or ".join(choices), value)
        return str(value)

    def boolean(self, value: Any, key: str) -> bool:
        if not isinstance(value, bool):
            self.fail(key, "true or false", value)
        return value

    def path(self, value: Any, key: str) -> Path | None:
        if value is None:
            return None
        if not isinstance(value, str) or not value:
            self.fail(key, "a file path", value)
        return Path(os.path.expanduser(value))

    def hostport(self, value: Any, key: str) -> tuple[str, int]:
        try:
            return parse_hostport(self.text(value, key))
        except ValueError as error:
            self.fail(key, f"HOST:PORT ({error})", value)

    def size(self, value: Any, key: str) -> tuple[int, int] | None:
        if value is None:
            return None
        try:
            return parse_size(value)
        except ValueError as error:
            raise ConfigError(f"{self.source}: {key}: {error}") from None
