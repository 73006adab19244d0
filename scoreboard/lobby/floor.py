"""Every table the lobby shows: the ones the config lists and the ones the feed discovers.

A wildcard subscription hears whatever any client publishes under the root
prefix, so admitting a table is a decision: its id must be one a topic and a
tile can carry, it must not be ``lobby`` (the lobbies' own status topics live
there), and the floor is bounded (:data:`MAX_TABLES`), so a flood of made-up
table ids cannot grow the lobby's memory.  A table is admitted only for a
payload that validated (the feed checks first).  When the floor is full a new
table takes the place of the discovered table heard least recently, if that one
is offline, never heard, or silent for :data:`EVICTABLE_AFTER` seconds: a
flood that stopped cannot lock real tables out for ever.  Listed tables are
never evicted.  With ``discover`` off only the listed tables are shown.

>>> floor = Floor([Listing("T1", "Macau 1", "A")])
>>> floor.entry("T2").listing.title, len(floor)
('T2', 2)
>>> floor.entry("lobby")
Traceback (most recent call last):
...
scoreboard.lobby.floor.TableRefused: table id 'lobby' is reserved for the lobbies' own status
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from scoreboard.lobby.tables import Listing, LobbyTable, TileView
from scoreboard.roads.good_roads import GoodRoadRules

__all__ = [
    "EVICTABLE_AFTER",
    "MAX_TABLES",
    "RESERVED",
    "TABLE_ID",
    "Floor",
    "TableRefused",
    "check_table_id",
]

#: The most tables one lobby holds (a floor has hundreds; a flood of ids is refused).
MAX_TABLES = 1000
#: How long a discovered table must have been silent before a new one may take its place.
EVICTABLE_AFTER = 300.0
#: The table id no table may have: ``<root>/lobby/<id>/status`` is the lobbies' status.
RESERVED = "lobby"
#: What a table id must be (as ``table.id`` in a display's config).
TABLE_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")


class TableRefused(ValueError):
    """A table id the lobby will not show; the message says why."""


def check_table_id(table_id: str) -> str:
    """``table_id`` if a lobby may show it, else :class:`TableRefused` saying why."""
    if table_id == RESERVED:
        raise TableRefused(f"table id {RESERVED!r} is reserved for the lobbies' own status")
    if not TABLE_ID.fullmatch(table_id):
        raise TableRefused(
            f"table id {table_id[:80]!r}: expected 1-64 letters, digits, '.', '_' or '-'"
        )
    return table_id


class Floor:
    """The lobby's tables by id, listed first, then discovered in the order they were heard."""

    def __init__(
        self,
        listings: Iterable[Listing] = (),
        *,
        discover: bool = True,
        rules: GoodRoadRules | None = None,
        max_tables: int = MAX_TABLES,
    ) -> None:
        self.rules = rules or GoodRoadRules()
        self.discover = discover
        self.max_tables = max_tables
        self.tables: dict[str, LobbyTable] = {}
        self.listed: set[str] = set()
        self.evicted = 0
        for listing in listings:
            self.listed.add(listing.table_id)
            check_table_id(listing.table_id)
            self.tables[listing.table_id] = LobbyTable(listing, self.rules)
        self._added = 0

    def __len__(self) -> int:
        return len(self.tables)

    @property
    def version(self) -> int:
        """Grows whenever any table's tile content or the set of tables changes."""
        return self._added + sum(entry.version for entry in self.tables.values())

    def entry(self, table_id: str, now: float | None = None) -> LobbyTable:
        """The table ``table_id``, admitted now if it is new; :class:`TableRefused` if not.

        ``now`` (Unix time) lets a full floor make room (see the module's doc).
        """
        found = self.tables.get(table_id)
        if found is not None:
            return found
        check_table_id(table_id)
        if not self.discover:
            raise TableRefused(f"table {table_id} is not listed in lobby.tables")
        if len(self.tables) >= self.max_tables and not self._make_room(now):
            raise TableRefused(f"table {table_id}: the lobby already shows {self.max_tables}")
        created = self.tables[table_id] = LobbyTable(Listing(table_id), self.rules)
        self._added += 1
        return created

    def _make_room(self, now: float | None) -> bool:
        """Evict the discovered table heard least recently, if it is dead enough."""
        candidates = [
            (entry.heard if entry.heard is not None else float("-inf"), table_id)
            for table_id, entry in self.tables.items()
            if table_id not in self.listed
        ]
        if not candidates or now is None:
            return False
        heard, table_id = min(candidates)
        entry = self.tables[table_id]
        if entry.controller_online is not False and now - heard < EVICTABLE_AFTER:
            return False
        del self.tables[table_id]
        self.evicted += 1
        self._added += 1  # the set of tables changed: redraw
        return True

    def switch_limits(self, wall: float) -> None:
        """Every table's scheduled limits whose time came (``wall``: Unix time)."""
        for entry in self.tables.values():
            entry.switch_limits(wall)

    def next_limits(self) -> float | None:
        """The earliest scheduled limits' time (Unix seconds), None: none scheduled."""
        times = [e.table.scheduled.at for e in self.tables.values() if e.table.scheduled]
        return min(times) if times else None

    def views(self, now: float, stale_seconds: float) -> list[TileView]:
        return [entry.view(now, stale_seconds) for entry in self.tables.values()]

    def next_change(self, now: float, stale_seconds: float) -> float | None:
        """The earliest time a tile changes by time alone (None: no tile ever will)."""
        times = [entry.next_change(now, stale_seconds) for entry in self.tables.values()]
        due = [t for t in times if t is not None]
        return min(due) if due else None
