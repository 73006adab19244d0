"""The lobby's own retained status: that it is online and which tables it shows, how fresh.

Published on ``<root>/lobby/<lobby id>/status`` (retained, QoS 1) with the last
will ``{"online": false}`` (also published on a clean stop), so a monitoring
system sees a lobby wall that went dark as it sees a display.  Schema:
``scoreboard/schemas/lobby_status.json``.

A status goes out when what it says changed (a table's shoe, games or state,
the page), at most every :data:`MIN_INTERVAL` seconds, and at least every
:data:`REFRESH_SECONDS` so the ages it carries are never far behind.

>>> status = lobby_status("L1", [], rejected=0, page=(1, 1), now=0.0)
>>> status["online"], status["tables"]
(True, [])
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from scoreboard.lobby.tables import TileView
from scoreboard.protocol import canonical_json

#: The will and the goodbye.
LOBBY_OFFLINE = b'{"online": false}'
MIN_INTERVAL = 1.0
REFRESH_SECONDS = 30.0


def utc_text(now: float) -> str:
    """``2026-12-01T20:00:00Z``: Unix seconds as the protocol writes times.

    >>> utc_text(0.0)
    '1970-01-01T00:00:00Z'
    """
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now))


def table_status(view: TileView, now: float) -> dict[str, Any]:
    age = None if view.heard is None else max(0, round(now - view.heard))
    return {
        "table": view.table_id,
        "name": view.title,
        "pit": view.pit,
        "state": view.state.value,
        "shoe": view.shoe,
        "games": sum(view.counts),
        "last_game": view.game,
        "age": age,
        "good_roads": [good.pattern.value for good in view.good],
    }


def lobby_status(
    lobby_id: str,
    views: Sequence[TileView],
    *,
    rejected: int,
    page: tuple[int, int],
    now: float,
    wall: float | None = None,
) -> dict[str, Any]:
    """The status payload: ``views`` are the tables the lobby shows (all pages).

    ``now`` is on the axis of the views' ``heard`` (the ages); ``wall`` is Unix
    time for the payload's ``ts`` (default ``now``: one axis).
    """
    return {
        "v": 2,
        "online": True,
        "lobby": lobby_id,
        "ts": utc_text(now if wall is None else wall),
        "page": {"shown": page[0], "of": page[1]},
        "rejected": rejected,
        "tables": [table_status(view, now) for view in views],
    }


class StatusSchedule:
    """Which statuses to publish: a changed one (paced), and the same one now and then."""

    def __init__(self, refresh: float = REFRESH_SECONDS) -> None:
        """``refresh`` is settable so a process test need not wait the real 30 s."""
        self.refresh = refresh
        self._gist: bytes | None = None
        self._at = float("-inf")
        self._owed = False  # a change was offered too soon after the last one: publish it later

    def reconnected(self) -> None:
        self._gist = None

    def offer(self, status: dict[str, Any], now: float) -> bytes | None:
        """The payload to publish at ``now`` (monotonic), or None."""
        gist = canonical_json(
            {**status, "ts": None, "tables": [{**t, "age": None} for t in status["tables"]]}
        )
        since = now - self._at
        changed = gist != self._gist
        if (changed and since >= MIN_INTERVAL) or since >= self.refresh or self._gist is None:
            self._gist, self._at, self._owed = gist, now, False
            return canonical_json(status)
        self._owed = self._owed or changed
        return None

    def next_due(self) -> float:
        """When a status must be offered again: a change held back, else the refresh."""
        return self._at + (MIN_INTERVAL if self._owed else self.refresh)

    def due(self, now: float) -> bool:
        return now >= self.next_due()
