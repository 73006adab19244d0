"""A simulated shoe controller: deals real shoes and publishes them as protocol.md says.

It is what drives displays at a trade show and in the tests, and it is the
reference publisher for controller vendors: every coup (with cards), the shoe
events, a retained snapshot after every coup, the retained limits, its own
status with a last will, and an answer to ``cmd/resync``.  It is not a feed
(nothing here shows a board): it is the other end of the display's link.

It talks through the same :class:`~scoreboard.link.client.Link` as a display.
Inside: ``dealing`` (the :class:`Controller`: timed dealer events out, the
link's events read on the same thread, resyncs answered for the current and
the previous shoe), ``stream`` (:class:`SessionStream`: one link and last will
per session, every payload stamped with the session and its ``seq``),
``sessions`` (:class:`SessionStore`: sessions greater than every earlier one,
across restarts) and ``inbox`` (:class:`ControllerInbox`: what the link says,
as flags the controller acts on), ``pit_counter`` (pit commands ruled and answered),
``floor`` (many simulated tables from one process), ``open_hand`` (a hand being
dealt, kept across a restart), ``shoe_line`` (a shoe's serial line, reopened by
itself) and ``emulated_shoe`` (an emulated card-reading shoe on a serial line).
"""

from __future__ import annotations

from scoreboard.controller.dealing import (
    RESYNC_MIN_INTERVAL,
    Controller,
    start_background_controller,
    utc_now,
)
from scoreboard.controller.inbox import ControllerInbox
from scoreboard.controller.sessions import STATE_NAME, SessionStore, ShoeMark, next_session
from scoreboard.controller.stream import SessionStream

__all__ = [
    "RESYNC_MIN_INTERVAL",
    "STATE_NAME",
    "Controller",
    "ControllerInbox",
    "SessionStore",
    "SessionStream",
    "ShoeMark",
    "next_session",
    "start_background_controller",
    "utc_now",
]
