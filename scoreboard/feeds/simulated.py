"""The demo feed: a simulated shoe dealt coup by coup at a table's pace.

It needs no thread: the app loop asks :meth:`SimulatedFeed.next_deadline` when
to come back and calls :meth:`poll`, which applies every shoe event that is
due.  Between shoes the table shows the shuffle screen for ``shuffle_seconds``.

>>> from scoreboard.core.shoe import Dealer
>>> from scoreboard.core.table import TableState
>>> feed, table = SimulatedFeed(Dealer(decks=1, seed=3), pace=1.0), TableState()
>>> feed.poll(table, now=0.0); feed.poll(table, now=2.5)
>>> table.shoe_number, table.last_number
(1, 2)
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator

from scoreboard.core.shoe import (
    Burned,
    CutCardOut,
    Dealer,
    Dealt,
    ShoeEnded,
    ShoeEvent,
    ShoeStarted,
)
from scoreboard.core.table import FeedStatus, TableState

log = logging.getLogger(__name__)


class SimulatedFeed:
    """Deals from a :class:`~scoreboard.core.shoe.Dealer`, shoe after shoe, forever."""

    def __init__(
        self, dealer: Dealer, *, pace: float = 4.0, shuffle_seconds: float | None = None
    ) -> None:
        if pace <= 0:
            raise ValueError(f"pace must be positive seconds per coup, got {pace}")
        self.dealer = dealer
        self.pace = pace
        self.shuffle_seconds = 3 * pace if shuffle_seconds is None else shuffle_seconds
        self._events: Iterator[ShoeEvent] = iter(dealer)
        self._due: float | None = None
        self.coups_dealt = 0

    def start(self, wake: Callable[[], None]) -> None:
        """Nothing to start: the loop's deadlines drive the deal."""

    def poll(self, table: TableState, now: float) -> None:
        """Apply every event due by ``now`` (several if the loop was late)."""
        if self._due is None:
            self._due = now
        while self._due is not None and now >= self._due:
            event = next(self._events)
            self._due += self._apply(event, table)

    def _apply(self, event: ShoeEvent, table: TableState) -> float:
        """Apply one event; return the seconds until the next one."""
        if isinstance(event, ShoeStarted):
            table.new_shoe(event.shoe_id)
            log.info("demo: shoe %d (%s) shuffled", event.shoe_number, event.shoe_id)
            return self.pace
        if isinstance(event, Dealt):
            table.add_game(event.game)
            self.coups_dealt += 1
            return self.pace
        if isinstance(event, CutCardOut):
            table.mark_cut_card()
            return 0.0
        if isinstance(event, ShoeEnded):
            table.set_shuffling(True)
            return self.shuffle_seconds
        if isinstance(event, Burned):
            return 0.0
        return 0.0

    def status(self, now: float) -> FeedStatus:
        return FeedStatus.DEMO

    def next_deadline(self, now: float) -> float | None:
        return now if self._due is None else self._due

    def stop(self) -> None:
        """Nothing to release."""
