"""The link events a display has yet to handle: worked through a time slice at a time.

A burst (a reconnect with a long retained history, a controller replaying a
shoe) must never freeze the kiosk: each step takes at least one event and then
more only while its time budget lasts, the rest waiting for the next step.  A
retained snapshot is the controller's whole truth, so of the queued ones only
the newest is decoded, and one byte-identical to the last applied not at all.

>>> from scoreboard.link.client import Connected, Message
>>> snapshots = [Message("t/snapshot", payload, 0.0) for payload in (b"1", b"2", b"2")]
>>> backlog = Backlog("t/snapshot")
>>> backlog.extend([Connected(False), *snapshots[:2]])
>>> [type(event).__name__ for event in backlog.slice(0.0, lambda: 0.0)], len(backlog)
(['Connected'], 2)
>>> [backlog.skipped(event) for event in backlog.slice(1.0, lambda: 0.0)]
['superseded', None]
>>> backlog.applied(b"2")
>>> backlog.extend(snapshots[2:])
>>> [backlog.skipped(event) for event in backlog.slice(1.0, lambda: 0.0)]
['unchanged']
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Iterable, Iterator

from scoreboard.link.client import LinkEvent, Message

log = logging.getLogger("scoreboard.feeds._session")  # the display session logs under one name

#: Seconds of work per step: the kiosk draws between steps, so a burst never freezes it.
STEP_BUDGET = 0.05


class Backlog:
    """Queued link events, oldest first, and which queued snapshots are worth decoding."""

    def __init__(self, snapshot_topic: str) -> None:
        self._snapshot_topic = snapshot_topic
        self._events: deque[LinkEvent] = deque()
        self._snapshots = 0  # snapshots queued and not yet handled
        self._last_snapshot: bytes | None = None

    def __len__(self) -> int:
        return len(self._events)

    def extend(self, events: Iterable[LinkEvent]) -> None:
        """Add link events to the backlog, oldest first."""
        for event in events:
            if isinstance(event, Message) and event.topic == self._snapshot_topic:
                self._snapshots += 1
            self._events.append(event)

    def slice(self, budget: float, clock: Callable[[], float]) -> Iterator[LinkEvent]:
        """The events of one step: at least one, then more while ``budget`` seconds last."""
        started = clock()
        handled = 0
        while self._events and (handled == 0 or clock() - started < budget):
            handled += 1
            yield self._events.popleft()

    def skipped(self, message: Message) -> str | None:
        """Why a snapshot taken from the backlog is left undecoded, else None.

        ``superseded`` when a newer one is queued, ``unchanged`` when it is the one
        applied last (:meth:`applied`).  Call it once for every snapshot taken.
        """
        self._snapshots -= 1
        if self._snapshots > 0:
            log.debug("mqtt: a snapshot superseded by a newer one queued (not decoded)")
            return "superseded"
        if message.payload and message.payload == self._last_snapshot:
            log.debug("mqtt: the snapshot applied last, again (not decoded)")
            return "unchanged"
        return None

    def applied(self, snapshot: bytes) -> None:
        """The snapshot payload applied last (the same again is not decoded)."""
        self._last_snapshot = snapshot
