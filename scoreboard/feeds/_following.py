"""Whether the board still follows the controller that is talking: two signs that it does not.

Both are :class:`~scoreboard.table.behind.LeftBehind` climbs, each logged once:

- an *older session* keeps publishing while the board follows a newer one
  (a forged far-ahead session, a controller whose clock went back): the core
  ignores it all;
- the *followed session* keeps naming only shoes the board finished (a
  controller that restarted its shoe numbering): the core ignores those too.

While either lasts the feed mark says the controller is offline, never LIVE
over a shoe nobody deals.

>>> from scoreboard.game.events import Origin
>>> following = Following()
>>> for now in (0.0, 3.0, 6.0):
...     following.finished_shoe(Origin(6, int(now) + 1), "S-001", now)
>>> following.lost
True
>>> following.heard(7.0); following.lost
False
"""

from __future__ import annotations

import logging

from scoreboard.game.events import Origin
from scoreboard.table.behind import LeftBehind

log = logging.getLogger(__name__)


class Following:
    """The two left-behind watches of a display session, and their one line each."""

    def __init__(self) -> None:
        self.behind = LeftBehind()  # an older session dealing on, unheard
        self.finished = LeftBehind()  # the followed session naming finished shoes
        self._said_behind = False
        self._said_finished = False

    @property
    def lost(self) -> bool:
        """The board does not follow the controller that talks: not LIVE."""
        return self.behind.active or self.finished.active

    def heard(self, now: float) -> None:
        """The followed session said something the board took in."""
        self.behind.heard(now)
        self.finished.heard(now)
        self._said_behind = self._said_finished = False

    def older_session(self, origin: Origin, followed: Origin | None, now: float) -> None:
        """A payload of another, older session was ignored."""
        self.behind.stale(origin, now)
        if self.behind.active and not self._said_behind:
            self._said_behind = True
            log.error(
                "mqtt: controller session %s keeps publishing but is older than the session %s"
                " the board follows; its payloads are ignored (a controller whose clock went"
                " back, or a forged session: set an HMAC key). Shown as controller offline.",
                self.behind.session,
                followed.session if followed is not None else "?",
            )

    def finished_shoe(self, origin: Origin, shoe: str, now: float) -> None:
        """A payload naming a shoe the board finished changed nothing.

        A late redelivery does that once in a while; a controller dealing on under
        the id of a finished shoe does it with every coup.
        """
        self.finished.stale(origin, now)
        if self.finished.active and not self._said_finished:
            self._said_finished = True
            log.error(
                "mqtt: the controller keeps publishing shoe %s, which this board finished;"
                " its payloads are ignored (a controller reusing shoe ids: protocol.md says"
                " never). Shown as controller offline until it deals a new shoe id.",
                shoe,
            )
