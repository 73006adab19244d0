"""The lobby's configuration: the ``lobby:`` section beside a display's ``display:`` and ``mqtt:``.

``scoreboard lobby --config FILE`` reads one YAML file: ``display`` (theme, size,
rotation, windowed) and ``mqtt`` (broker, credentials, TLS, an HMAC key for every
table) mean what they mean for ``scoreboard run``, except that ``mqtt.prefix`` is
the *root* under which every table lives (default ``baccarat/v2``).  ``lobby``
holds the rest; a mistake is ``file: key.path: what was expected``, before
anything connects.

>>> settings = lobby_from_mapping({"lobby": {"id": "L1", "tables": [{"id": "T1", "pit": "A"}],
...                                          "sort": "min_bet"}})
>>> settings.lobby_id, settings.tables[0].pit, settings.sort.value, settings.root
('L1', 'A', 'min_bet', 'baccarat/v2')
"""

from __future__ import annotations

import os
import re
import socket
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scoreboard.lobby.arrange import SortKey
from scoreboard.lobby.floor import RESERVED, TableRefused, check_table_id
from scoreboard.lobby.tables import Listing
from scoreboard.roads.good_roads import GoodRoadRules
from scoreboard.settings.config import (
    GOOD_ROAD_KEYS,
    Config,
    good_road_rules,
    read_config,
    read_document,
)
from scoreboard.settings.endpoint import read_secret
from scoreboard.settings.reader import ConfigError, Reader, is_text

__all__ = [
    "DEFAULT_ROOT",
    "LobbySettings",
    "check_lobby_id",
    "load_lobby_settings",
    "lobby_from_mapping",
]

DEFAULT_ROOT = "baccarat/v2"
PER_PAGE_RANGE = (4, 48)
#: Seconds a page shows, and with no update a table is stale (the flags' bounds too).
PAGE_SECONDS_RANGE = (2.0, 86_400.0)
STALE_SECONDS_RANGE = (5.0, 86_400.0)
#: Sections of a display's config that mean nothing to a lobby (refused, not ignored).
NOT_FOR_A_LOBBY = ("table", "feed", "keypad", "journal")


def default_lobby_id() -> str:
    """The host name, cut to what a topic level may hold ("lobby-1" without one)."""
    name = re.sub(r"[^A-Za-z0-9._-]", "-", socket.gethostname())[:64].strip("-")
    return name if name and name != RESERVED else "lobby-1"


@dataclass(frozen=True, slots=True)
class LobbySettings:
    """The lobby's settings; ``base`` holds the display and MQTT ones (a display's Config)."""

    base: Config = field(default_factory=Config)
    lobby_id: str = field(default_factory=default_lobby_id)
    tables: tuple[Listing, ...] = ()
    #: Per-table HMAC key files (``lobby.tables[].hmac_key_file``), read at start.
    key_files: tuple[tuple[str, Path], ...] = ()
    #: Tables heard on the feed but not listed are shown too.
    discover: bool = True
    page_seconds: float = 15.0
    per_page: int = 24
    sort: SortKey = SortKey.PIT
    filter_pit: tuple[str, ...] = ()
    stale_seconds: float = 300.0
    good_roads: GoodRoadRules = field(default_factory=GoodRoadRules)

    @property
    def root(self) -> str:
        return (self.base.mqtt.prefix or DEFAULT_ROOT).rstrip("/")

    def keys(self) -> dict[str, bytes]:
        """Each listed table's HMAC key, read from its file (a ConfigError names every bad one)."""
        keys: dict[str, bytes] = {}
        problems: list[str] = []
        for table, path in self.key_files:
            try:
                keys[table] = read_secret(path, f"HMAC key of table {table}")
            except ConfigError as error:
                problems.extend(error.errors)
        if problems:
            raise ConfigError(problems)
        return keys


def load_lobby_settings(path: str | os.PathLike[str]) -> LobbySettings:
    """Read and validate a lobby's YAML file."""
    return lobby_from_mapping(read_document(path), source=str(path))


def lobby_from_mapping(data: Any, *, source: str = "<config>") -> LobbySettings:
    """Validate a parsed YAML document into :class:`LobbySettings`; every mistake named at once."""
    reader = Reader(source)
    root = reader.mapping(data, "", {"lobby", "display", "mqtt", *NOT_FOR_A_LOBBY})
    for section in NOT_FOR_A_LOBBY:
        if section in root:
            del root[section]
            reader.expected(
                section, "no such section in a lobby's config (it shows many tables)", section
            )
    lobby = reader.mapping(
        root.pop("lobby", None),
        "lobby",
        {
            "id",
            "tables",
            "discover",
            "page_seconds",
            "per_page",
            "sort",
            "filter_pit",
            "stale_seconds",
            "good_roads",
        },
    )
    display = root.get("display")
    if isinstance(display, dict) and "good_roads" in display:
        reader.expected(
            "display.good_roads", "lobby.good_roads in a lobby's config", "display.good_roads"
        )
        root["display"] = {key: value for key, value in display.items() if key != "good_roads"}
    base = read_config(reader, root)
    defaults = LobbySettings(base=base, lobby_id="x")
    listings, key_files = _read_tables(reader, lobby.get("tables", []))
    settings = LobbySettings(
        base=base,
        lobby_id=_lobby_id(reader, lobby.get("id")),
        tables=listings,
        key_files=key_files,
        discover=reader.boolean(lobby.get("discover", True), "lobby.discover"),
        page_seconds=reader.seconds(
            lobby.get("page_seconds", 15), "lobby.page_seconds", *PAGE_SECONDS_RANGE
        ),
        per_page=reader.integer(
            lobby.get("per_page", defaults.per_page), "lobby.per_page", *PER_PAGE_RANGE
        ),
        sort=SortKey(
            reader.one_of(
                lobby.get("sort", "pit"), "lobby.sort", tuple(key.value for key in SortKey)
            )
        ),
        filter_pit=_pits(reader, lobby.get("filter_pit")),
        stale_seconds=reader.seconds(
            lobby.get("stale_seconds", 300), "lobby.stale_seconds", *STALE_SECONDS_RANGE
        ),
        good_roads=_read_good_roads(reader, lobby.get("good_roads", {})),
    )
    reader.check()
    return settings


def check_lobby_id(value: Any, source: str = "--lobby-id", key: str = "") -> str:
    """``value`` if it can name a lobby's status topic, else ConfigError naming ``source``."""
    reader = Reader(source)
    lobby_id = _lobby_id(reader, value, key)
    reader.check()
    return lobby_id


def _lobby_id(reader: Reader, value: Any, key: str = "lobby.id") -> str:
    if value is None:
        return default_lobby_id()
    lobby_id = reader.ident(value, key)
    if lobby_id == RESERVED:
        reader.expected(key, f"an id other than {RESERVED!r}", lobby_id)
    return lobby_id


def _read_tables(
    reader: Reader, data: Any
) -> tuple[tuple[Listing, ...], tuple[tuple[str, Path], ...]]:
    if not isinstance(data, list):
        reader.expected("lobby.tables", "a list of tables ({id, name, pit, hmac_key_file})", data)
        return (), ()
    listings: list[Listing] = []
    keys: list[tuple[str, Path]] = []
    for index, item in enumerate(data):
        where = f"lobby.tables[{index}]"
        entry = reader.mapping(item, where, {"id", "name", "pit", "hmac_key_file"})
        if "id" not in entry:
            if isinstance(item, dict):
                reader.expected(f"{where}.id", "the table's id (its topic level)", None)
            continue
        table_id = reader.text(entry["id"], f"{where}.id")
        try:
            check_table_id(table_id)
        except TableRefused as error:
            if is_text(entry["id"]):  # an id that is no text is already named
                reader.error(f"{where}.id", str(error))
            continue
        if any(listing.table_id == table_id for listing in listings):
            reader.expected(f"{where}.id", "each table listed once", table_id)
            continue
        listings.append(
            Listing(
                table_id,
                name=_drawable(reader, entry.get("name", ""), f"{where}.name"),
                pit=_drawable(reader, entry.get("pit", ""), f"{where}.pit"),
            )
        )
        key = reader.path(entry.get("hmac_key_file"), f"{where}.hmac_key_file")
        if key is not None:
            keys.append((table_id, key))
    return tuple(listings), tuple(keys)


def _drawable(reader: Reader, value: Any, key: str) -> str:
    text = reader.text(value, key)
    if len(text) > 64 or any(ord(c) < 32 or ord(c) == 127 for c in text):
        reader.expected(key, "at most 64 characters, no control characters", text)
        return ""
    return text


def _pits(reader: Reader, value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str | int) and not isinstance(value, bool):
        return (str(value),)
    if not isinstance(value, list):
        reader.expected("lobby.filter_pit", "a pit or a list of pits", value)
        return ()
    return tuple(reader.text(pit, f"lobby.filter_pit[{i}]") for i, pit in enumerate(value))


def _read_good_roads(reader: Reader, data: Any) -> GoodRoadRules:
    section = reader.mapping(data, "lobby.good_roads", set(GOOD_ROAD_KEYS))
    return good_road_rules(reader, section, "lobby.good_roads")
