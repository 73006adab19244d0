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


#: Brokers one display or controller may know (a cluster's nodes, a bridged pair).
MAX_BROKERS = 16


def parse_brokers(text: str) -> tuple[tuple[str, int], ...]:
    """``h1:p1,h2:p2`` -> the brokers in the order given: the ``--mqtt`` flag's list.

    >>> parse_brokers("10.0.0.2:1883, 10.0.0.3:1884")
    (('10.0.0.2', 1883), ('10.0.0.3', 1884))
    >>> parse_brokers("a:1,a:1")
    Traceback (most recent call last):
    ...
    ValueError: broker a:1 listed twice
    """
    return check_brokers([parse_hostport(item) for item in text.split(",")])


def check_brokers(brokers: list[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    """The list as given, unless empty, too long or with a broker twice."""
    if not brokers:
        raise ValueError("expected at least one HOST:PORT")
    if len(brokers) > MAX_BROKERS:
        raise ValueError(f"at most {MAX_BROKERS} brokers, got {len(brokers)}")
    seen: set[tuple[str, int]] = set()
    for host, port in brokers:
        if (host, port) in seen:
            raise ValueError(f"broker {host_port(host, port)} listed twice")
        seen.add((host, port))
    return tuple(brokers)


def host_port(host: str, port: int) -> str:
    """How a broker is written in logs and the status (``[v6]:port`` for IPv6).

    >>> host_port("10.0.0.2", 1883), host_port("::1", 1884)
    ('10.0.0.2:1883', '[::1]:1884')
    """
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


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
        text = self.text(value, key)  # its own error, not wrapped in the one below
        try:
            return parse_hostport(text)
        except ValueError as error:
            self.fail(key, f"HOST:PORT ({error})", value)

    def brokers(self, value: Any, key: str) -> tuple[tuple[str, int], ...]:
        """One ``HOST:PORT`` or a list of them (a cluster's nodes), each checked where it is."""
        if not isinstance(value, list):
            return (self.hostport(value, key),)
        if not value:
            self.fail(key, "HOST:PORT or a list of them", value)
        listed = [self.hostport(item, f"{key}[{index}]") for index, item in enumerate(value)]
        try:
            return check_brokers(listed)
        except ValueError as error:
            self.fail(key, f"a list of distinct brokers ({error})", value)

    def size(self, value: Any, key: str) -> tuple[int, int] | None:
        if value is None:
            return None
        try:
            return parse_size(value)
        except ValueError as error:
            raise ConfigError(f"{self.source}: {key}: {error}") from None
