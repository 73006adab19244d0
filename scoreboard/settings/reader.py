"""The one reader of settings files: every mistake collected, each naming the file and key path.

The display's config (:mod:`scoreboard.settings.config`, with its keypad and shoe
sections), the lobby's file and the theme (:mod:`scoreboard.screen.theme._fields`) all
read through :class:`Reader`, which records ``file: key.path: expected ...,
got ...`` for each mistake and goes on, so :class:`ConfigError` names them all
at once.  The host, broker-list and size parsers the command line shares live here too.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from scoreboard.settings.yamlfile import excerpt

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 1883


class ConfigError(ValueError):
    """Settings that cannot be used: ``errors`` holds one ``file: key.path: ...`` line per mistake.

    >>> str(ConfigError(["f.yaml: a: expected text, got 1", "f.yaml: b: expected text, got 2"]))
    'f.yaml: a: expected text, got 1\\nf.yaml: b: expected text, got 2'
    """

    def __init__(self, errors: str | Sequence[str]) -> None:
        lines = (errors,) if isinstance(errors, str) else tuple(errors)
        super().__init__("\n".join(lines))
        self.errors = lines


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


def is_text(value: Any) -> bool:
    """Whether ``value`` reads as text in a settings file (a string, or a number written bare)."""
    return isinstance(value, str | int) and not isinstance(value, bool)


def key_name(name: object) -> str:
    """A key as it may appear in an error line: itself when short plain text, else an excerpt."""
    if isinstance(name, str) and len(name) <= 40 and name.isprintable():
        return name
    return excerpt(name)


class Reader:
    """Walks a settings file's YAML tree collecting every mistake with its key path.

    Each check records ``file: key.path: expected ..., got ...`` and gives back a
    stand-in value so reading goes on; :meth:`check` then raises one
    :class:`ConfigError` naming them all, so a file is fixed in one edit.  The
    config, the keypad's and the shoe's sections, the lobby's file and the theme
    (:class:`scoreboard.screen.theme._fields.FieldReader`) all read through it.

    >>> reader = Reader("f.yaml")
    >>> reader.integer(0, "mqtt.port", 1, 65535), reader.boolean("yes", "display.motion")
    (1, False)
    >>> reader.check()
    Traceback (most recent call last):
    ...
    scoreboard.settings.reader.ConfigError: f.yaml: mqtt.port: expected an integer 1-65535, got 0
    f.yaml: display.motion: expected true or false, got 'yes'
    """

    def __init__(self, source: str | os.PathLike[str]) -> None:
        self.source = str(source)
        self.errors: list[str] = []

    def error(self, key: str, text: str) -> None:
        """A mistake at ``key`` in words of its own (``text`` says what was expected)."""
        self.errors.append(f"{self.source}: {key or '(top level)'}: {text}")

    def expected(self, key: str, what: str, got: Any) -> None:
        """A mistake at ``key``: ``what`` was expected, ``got`` was there."""
        self.error(key, f"expected {what}, got {excerpt(got)}")

    def check(self) -> None:
        """Raise one :class:`ConfigError` with every mistake recorded, if there is any."""
        if self.errors:
            raise ConfigError(self.errors)

    def mapping(self, value: Any, key: str, allowed: Iterable[str] | None) -> dict[str, Any]:
        """A section's entries under known names (None: any name); nothing under it is empty.

        An unknown key is a mistake and left out, so nothing reads it further.
        """
        if value is None:
            return {}
        if not isinstance(value, Mapping):
            self.expected(key, "a mapping", value)
            return {}
        names = None if allowed is None else sorted(allowed)
        prefix = f"{key}." if key else ""
        entries: dict[str, Any] = {}
        for name, item in value.items():
            if names is not None and name not in names:
                self.expected(
                    f"{prefix}{key_name(name)}", f"one of the keys {', '.join(names)}", name
                )
            elif not isinstance(name, str):
                self.error(f"{prefix}{key_name(name)}", "expected a name as key")
            else:
                entries[name] = item
        return entries

    def text(self, value: Any, key: str) -> str:
        if not is_text(value):
            self.expected(key, "text", value)
            return ""
        return str(value)

    def optional_text(self, value: Any, key: str) -> str | None:
        return None if value is None else self.text(value, key)

    def ident(self, value: Any, key: str) -> str:
        text = self.text(value, key)
        if is_text(value) and not re.fullmatch(r"[A-Za-z0-9._-]{1,64}", text):
            self.expected(key, "1-64 letters, digits, '.', '_' or '-' (used in topic names)", text)
        return text

    def integer(self, value: Any, key: str, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            self.expected(key, f"an integer {low}-{high}", value)
            return low
        return value

    def seconds(self, value: Any, key: str, low: float, high: float) -> float:
        """A number of seconds within ``low`` and ``high`` (NaN never is)."""
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not low <= value <= high
        ):
            self.expected(key, f"seconds, {low:g} to {high:g}", value)
            return low
        return float(value)

    def choice(self, value: Any, key: str, choices: tuple[int, ...]) -> int:
        if isinstance(value, bool) or value not in choices:
            self.expected(key, f"one of {', '.join(map(str, choices))}", value)
            return choices[0]
        return int(value)

    def one_of(self, value: Any, key: str, choices: tuple[str, ...]) -> str:
        if value not in choices:
            self.expected(key, " or ".join(choices), value)
            return choices[0]
        return str(value)

    def boolean(self, value: Any, key: str) -> bool:
        if not isinstance(value, bool):
            self.expected(key, "true or false", value)
            return False
        return value

    def path(self, value: Any, key: str) -> Path | None:
        if value is None:
            return None
        if not isinstance(value, str) or not value:
            self.expected(key, "a file path", value)
            return None
        return Path(os.path.expanduser(value))

    def hostport(self, value: Any, key: str) -> tuple[str, int] | None:
        """``HOST:PORT``, or None after recording why not."""
        if not is_text(value):
            self.expected(key, "text", value)
            return None
        try:
            return parse_hostport(str(value))
        except ValueError as error:
            self.expected(key, f"HOST:PORT ({error})", value)
            return None

    def brokers(self, value: Any, key: str) -> tuple[tuple[str, int], ...]:
        """One ``HOST:PORT`` or a list of them (a cluster's nodes), each checked where it is."""
        fallback = ((DEFAULT_HOST, DEFAULT_PORT),)
        items = value if isinstance(value, list) else [value]
        if not items:
            self.expected(key, "HOST:PORT or a list of them", value)
            return fallback
        where = [f"{key}[{index}]" for index in range(len(items))] if items is value else [key]
        listed = [self.hostport(item, at) for item, at in zip(items, where, strict=True)]
        if None in listed:
            return fallback
        try:
            return check_brokers([broker for broker in listed if broker is not None])
        except ValueError as error:
            self.expected(key, f"a list of distinct brokers ({error})", value)
            return fallback

    def size(self, value: Any, key: str) -> tuple[int, int] | None:
        if value is None:
            return None
        try:
            return parse_size(value)
        except ValueError as error:
            self.error(key, str(error))
            return None
