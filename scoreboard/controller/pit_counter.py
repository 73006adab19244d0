"""The pit desk on a controller's link: what the inbox heard on ``cmd/pit``, ruled and answered.

A thin adapter shared by the simulated shoe, the keypad feed and the shoe
bridge.  The controller's :class:`~scoreboard.controller.inbox.ControllerInbox`
collects the commands (and the refusals of those it could not read: a bad
signature, cards the tableau would not deal); :meth:`PitCounter.serve` rules on
each with the :class:`~scoreboard.controller._pit_desk.PitDesk` against the
controller's shoe as it stands, hands each resulting event to the controller's
``apply`` (which changes its state, publishes the event and a fresh retained
snapshot) and the answer to ``answer`` (its link, on ``cmd/pit/answer``).
A controller plugs it in with three lines::

    self.pit = PitCounter()                                     # __init__
    self.pit.serve(self.inbox, self.shoe_snapshot, self.apply_pit, self.stream.answer)  # loop
    def apply_pit(self, event): ...                             # its own state, then publish
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from scoreboard.controller._pit_desk import PitDesk, Ruling
from scoreboard.controller.inbox import ControllerInbox
from scoreboard.game.events import Event, Snapshot
from scoreboard.table.pit import ACTION_NAMES, PitAnswer

log = logging.getLogger("scoreboard.controller")  # one name in the logs for the whole controller


class PitCounter:
    """Rules on the pit commands a controller's inbox collected, applies and answers them."""

    def __init__(self, desk: PitDesk | None = None, wall_clock: Callable[[], float] = time.time):
        self.desk = desk or PitDesk()
        self.wall_clock = wall_clock
        #: Commands applied and refused since start (the tests and the log read them).
        self.applied = 0
        self.refused = 0

    def serve(
        self,
        inbox: ControllerInbox,
        shoe: Callable[[], Snapshot | None],
        apply: Callable[[Event], None],
        answer: Callable[[PitAnswer], None],
    ) -> None:
        """Rule on every command ``inbox`` holds, in arrival order, each against ``shoe()`` now."""
        heard, inbox.pit_heard = inbox.pit_heard, []
        for item in heard:
            if isinstance(item, Ruling):
                ruling, what = item, "command"
            else:
                ruling = self.desk.rule(item, shoe(), self.wall_clock())
                what = f"{ACTION_NAMES[type(item.action)]} by {item.by or 'someone unnamed'}"
            for event in ruling.events:
                apply(event)
            verdict = ruling.answer
            if verdict.applied:
                self.applied += 1
                log.info("pit: %s %s applied: %s", what, verdict.id, verdict.detail)
            else:
                self.refused += 1
                log.warning("pit: %s %s refused: %s", what, verdict.id, verdict.detail)
            answer(verdict)
