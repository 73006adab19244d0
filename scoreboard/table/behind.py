"""Noticing that the board no longer follows the controller that is talking.

The core ignores every payload of a session older than the one it follows
(:mod:`scoreboard.table._order`): that is what keeps a replay off the screen.
But if the session it follows is a lie (a forged, far-ahead session on a broker
without a key) or the real controller restarted with its clock set back, the
live controller is the *older* session: its payloads keep arriving, every one
ignored, and the board would go on saying LIVE over a shoe nobody deals.

The sign is an older session whose ``seq`` keeps climbing for a while with
nothing heard from the followed session meanwhile.  A burst of late copies
after a reconnect climbs too, but within a moment; a controller dealing spans
seconds.  While the sign lasts the feed mark says the controller is offline (the
one the board follows is) and the session logs why, once.

>>> from scoreboard.game.events import Origin
>>> behind = LeftBehind(span=5.0)
>>> behind.heard(0.0)
>>> for now in (1.0, 2.0, 3.0):
...     behind.stale(Origin(7, int(now)), now)
>>> behind.active
False
>>> behind.stale(Origin(7, 9), 6.5)
>>> behind.active, behind.session
(True, 7)
>>> behind.heard(7.0)
>>> behind.active
False
"""

from __future__ import annotations

from dataclasses import dataclass

from scoreboard.game.events import Origin

#: How long an older session must keep publishing, unanswered, to count as the live one.
LEFT_BEHIND_SPAN = 5.0


@dataclass(slots=True)
class _Climb:
    seq: int
    since: float
    latest: float


class LeftBehind:
    """Older sessions that keep publishing since the followed session was last heard."""

    def __init__(self, span: float = LEFT_BEHIND_SPAN) -> None:
        self.span = span
        self._climbs: dict[int, _Climb] = {}

    def heard(self, _now: float) -> None:
        """The followed session spoke: whatever older session talked before is news no more."""
        self._climbs.clear()

    def stale(self, origin: Origin, now: float) -> None:
        """A payload of an older session was ignored; note it if its seq climbed."""
        climb = self._climbs.get(origin.session)
        if climb is None:
            self._climbs[origin.session] = _Climb(origin.seq, now, now)
        elif origin.seq > climb.seq:
            climb.seq, climb.latest = origin.seq, now

    @property
    def session(self) -> int | None:
        """The older session that has been publishing the longest, if any does."""
        lasting = [(c.latest - c.since, s) for s, c in self._climbs.items()]
        return max(lasting)[1] if lasting else None

    @property
    def active(self) -> bool:
        """True once an older session has kept climbing for ``span`` seconds."""
        return any(c.latest - c.since >= self.span for c in self._climbs.values())
