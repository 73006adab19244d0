"""When the display asks the controller for a resync, and for which games.

While games are missing, in this shoe or at the end of the previous one, the
display asks at once, then after 2 s, doubling to 10 s, until they arrive; it
never asks while offline or while what is missing may still be in its backlog.

A display that subscribed and got no snapshot at all asks too
(:class:`SnapshotWatch`): the broker lost its retained store (restarted without
persistence), or keeps it per node (RabbitMQ 3.x: a display on another node
than the controller's never gets the retained snapshot).  That request is
jittered and backs off, because it comes from every display of a floor at once
after a broker restart.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable

from scoreboard.feeds.repeats import game_ranges
from scoreboard.game.events import ResyncRequest
from scoreboard.link.client import Publish
from scoreboard.protocol import wire
from scoreboard.settings.endpoint import Endpoint
from scoreboard.table.state import TableState

log = logging.getLogger("scoreboard.feeds._session")  # the display session logs under one name

RESYNC_FIRST_RETRY = 2.0
RESYNC_MAX_RETRY = 10.0
#: After subscribing, a retained snapshot arrives within milliseconds where the broker
#: has one; with none this long after, plus up to SNAPSHOT_JITTER at random, the
#: display asks; then again after 5 s doubling to a minute (each 0.5x-1.5x at random).
SNAPSHOT_GRACE = 1.0
SNAPSHOT_JITTER = 2.0
SNAPSHOT_FIRST_RETRY = 5.0
SNAPSHOT_MAX_RETRY = 60.0


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


class SnapshotWatch:
    """Asks for the snapshot when none came after subscribing: jittered, doubling backoff.

    ``jitter`` returns a number in [0, 1) (``random.random``; fixed in tests).

    >>> watch = SnapshotWatch(jitter=lambda: 0.5)
    >>> watch.subscribed(10.0); watch.next_at
    12.0
    >>> [now for now in range(10, 40) if watch.due(now, ready=True)]
    [12, 17, 27]
    >>> watch.seen(); watch.due(40, ready=True), watch.next_at
    (False, None)
    """

    def __init__(self, jitter: Callable[[], float] = random.random) -> None:
        self._jitter = jitter
        #: When to ask next; None: a snapshot came (or not subscribed).
        self.next_at: float | None = None
        self._interval = SNAPSHOT_FIRST_RETRY

    def subscribed(self, now: float) -> None:
        """Subscribed on a new connection: a snapshot is expected shortly."""
        self.next_at = now + SNAPSHOT_GRACE + SNAPSHOT_JITTER * self._jitter()
        self._interval = SNAPSHOT_FIRST_RETRY

    def seen(self) -> None:
        """A snapshot arrived (retained or an answer): nothing to ask on this connection."""
        self.next_at = None

    def lost(self) -> None:
        """The connection dropped: the next one starts its own watch."""
        self.next_at = None

    def asked(self, now: float) -> None:
        """A resync went out anyway (for missing games): its answer is the snapshot too."""
        if self.next_at is not None:
            self.next_at = max(self.next_at, now + self._interval)

    def due(self, now: float, *, ready: bool) -> bool:
        """True when the display should ask at ``now``; ``ready``: connected, no backlog."""
        if self.next_at is None or not ready or now < self.next_at:
            return False
        self.next_at = now + self._interval * (0.5 + self._jitter())
        self._interval = min(self._interval * 2, SNAPSHOT_MAX_RETRY)
        return True


def resync_message(endpoint: Endpoint, request: ResyncRequest) -> Publish:
    """The signed resync request to publish, logged (what is missing, in which shoe)."""
    topic, payload = wire(endpoint.topics, request, endpoint.hmac_key)
    if request.missing:
        log.info(
            "mqtt: shoe %s: games %s missing; asked for a resync",
            request.shoe,
            game_ranges(request.missing),
        )
    else:
        log.info("mqtt: no snapshot since subscribing; asked the controller for one")
    return Publish(topic, payload, qos=1)
