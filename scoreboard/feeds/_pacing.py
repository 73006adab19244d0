"""When the display's retained status goes out: when it changed, and not too often.

The first status after a connect goes out at once.  After that a changed status
waits while a backlog is worked through (at most one every 0.5 s), and one that
differs only in the time of the last frame drawn goes out at most every 5 s.
A status held back goes out later (:meth:`StatusPacing.next_due`).
"""

from __future__ import annotations

from typing import Any

from scoreboard.protocol import canonical_json

#: While a backlog is worked through, the status goes out at most this often.
BURST_STATUS_INTERVAL = 0.5
#: A status that differs only in ``render.last_frame`` goes out at most this often.
FRAME_STATUS_INTERVAL = 5.0


class StatusPacing:
    """Which statuses to publish, given each one the display would say now.

    >>> def status(games, frame):
    ...     return {"games": games, "render": {"last_frame": frame}}
    >>> pacing = StatusPacing()
    >>> pacing.offer(status(1, 0.0), 0.0, busy=False) is not None  # the first
    True
    >>> pacing.offer(status(1, 1.0), 1.0, busy=False), pacing.next_due()  # only a frame later
    (None, 5.0)
    >>> pacing.offer(status(2, 1.0), 1.2, busy=False) is not None  # a change
    True
    """

    def __init__(self) -> None:
        self._published: bytes | None = None
        self._published_gist: bytes | None = None  # the status less the last frame's time
        self._published_at = float("-inf")
        self._held = False

    def reconnected(self) -> None:
        """Publish again on every connect, whatever was published before."""
        self._published = None

    def offer(self, status: dict[str, Any], now: float, *, busy: bool) -> bytes | None:
        """The payload of ``status`` to publish at ``now``, or None; ``busy``: a backlog waits.

        ``status["render"]["last_frame"]`` is cleared (the gist is compared without it).
        """
        payload = canonical_json(status)
        status["render"]["last_frame"] = None
        gist = canonical_json(status)
        self._held = payload != self._published
        if not self._held:
            return None
        if self._published is not None:  # not the first since connecting
            since = now - self._published_at
            if busy and since < BURST_STATUS_INTERVAL:
                return None
            if gist == self._published_gist and since < FRAME_STATUS_INTERVAL:
                return None
        self._published, self._published_gist = payload, gist
        self._published_at, self._held = now, False
        return payload

    def next_due(self) -> float | None:
        """When a status held back is published at the latest, if one is."""
        return self._published_at + FRAME_STATUS_INTERVAL if self._held else None
