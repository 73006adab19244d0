"""When the display asks the controller for a resync, and for which games.

While games are missing, in this shoe or at the end of the previous one, the
display asks at once, then after 2 s, doubling to 10 s, until they arrive; it
never asks while offline or while what is missing may still be in its backlog.
"""

from __future__ import annotations

import logging

from scoreboard.config import Endpoint
from scoreboard.core.events import ResyncRequest
from scoreboard.core.table import TableState
from scoreboard.feeds.repeats import game_ranges
from scoreboard.link import Publish
from scoreboard.protocol import wire

log = logging.getLogger("scoreboard.feeds.session")  # the display session logs under one name

RESYNC_FIRST_RETRY = 2.0
RESYNC_MAX_RETRY = 10.0


def unfinished_shoe(table: TableState) -> tuple[str, tuple[int, ...]] | None:
    """The previous shoe's id and its missing games while it is unfinished, else None.

    Read from ``table.unfinished`` (an object with ``shoe`` and ``missing``) where
    the table knows it.

    >>> unfinished_shoe(TableState()) is None
    True
    """
    unfinished = table.unfinished
    if unfinished is None:
        return None
    return str(unfinished.shoe), tuple(unfinished.missing)


def wanted_resyncs(
    display_id: str, table: TableState, missing: tuple[int, ...]
) -> list[ResyncRequest]:
    """The resyncs the table needs: this shoe's gaps, the previous shoe's missing end.

    >>> wanted_resyncs("d1", TableState(), ())
    []
    """
    wanted = []
    if missing:
        wanted.append(ResyncRequest(display_id, table.shoe_id, missing))
    unfinished = unfinished_shoe(table)
    if unfinished is not None:
        wanted.append(ResyncRequest(display_id, *unfinished))
    return wanted


class ResyncSchedule:
    """Asks at once, then after 2 s doubling to 10 s, while resyncs are wanted.

    >>> gap = [ResyncRequest("d1", "S1", (3,))]
    >>> schedule = ResyncSchedule()
    >>> [now for now in range(30) if schedule.due(gap, ready=True, now=now)]
    [0, 2, 6, 14, 24]
    >>> schedule.due([], ready=True, now=30), schedule.due(gap, ready=True, now=30)
    ([], [ResyncRequest(display='d1', shoe='S1', missing=(3,))])
    """

    def __init__(self) -> None:
        #: When to ask next (None: at once, when asked).
        self.next_at: float | None = None
        self._interval = RESYNC_FIRST_RETRY

    def reconnected(self, now: float, missing: bool) -> None:
        """A new connection: ask at once if games are missing."""
        self.next_at = now if missing else None

    def due(self, wanted: list[ResyncRequest], *, ready: bool, now: float) -> list[ResyncRequest]:
        """The ``wanted`` resyncs to ask for at ``now``; ``ready`` when connected, no backlog."""
        if not wanted:
            self.next_at = None
            self._interval = RESYNC_FIRST_RETRY
            return []
        if not ready:
            return []
        if self.next_at is None:
            self.next_at = now
        if now < self.next_at:
            return []
        self.next_at = now + self._interval
        self._interval = min(self._interval * 2, RESYNC_MAX_RETRY)
        return wanted


def resync_message(endpoint: Endpoint, request: ResyncRequest) -> Publish:
    """The signed resync request to publish, logged (what is missing, in which shoe)."""
    topic, payload = wire(endpoint.topics, request, endpoint.hmac_key)
    log.info(
        "mqtt: shoe %s: games %s missing; asked for a resync",
        request.shoe,
        game_ranges(request.missing),
    )
    return Publish(topic, payload, qos=1)
