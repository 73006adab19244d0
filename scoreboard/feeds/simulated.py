"""The demo feed: a simulated shoe dealt coup by coup at a table's pace.

It needs no thread: the app loop asks :meth:`SimulatedFeed.next_deadline` when
to come back and calls :meth:`poll`, which applies every shoe event that is
due.  A coup comes ``pace`` seconds after the previous event; the burn and the
cut card come at once, so the cut card's "final hand" mark is on screen for a
whole ``pace`` before that hand is dealt.  Between shoes the table shows the
shuffle screen for ``shuffle_seconds``.

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
    CutCardOut,
    Dealer,
    Dealt,
    ShoeEnded,
    ShoeEvent,
    ShoeStarted,
)
from scoreboard.core.table import FeedStatus, TableState

log = logging.getLogger(__name__)


def apply_shoe_event(table: TableState, event: ShoeEvent) -> None:
    """Apply one shoe event to ``table`` (a burn changes nothing on screen)."""
    if isinstance(event, ShoeStarted):
        table.new_shoe(event.shoe_id)
    elif isinstance(event, Dealt):
        table.add_game(event.game)
    elif isinstance(event, CutCardOut):
        table.mark_cut_card()
    elif isinstance(event, ShoeEnded):
        table.set_shuffling(True)


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
        self._next: ShoeEvent | None = None
        self._due: float | None = None
        self._shoe_ended = False
        self.coups_dealt = 0

    def start(self, wake: Callable[[], None]) -> None:
        """Nothing to start: the loop's deadlines drive the deal."""

    def poll(self, table: TableState, now: float) -> None:
        """Apply every event due by ``now`` (several if the loop was late)."""
        if self._next is None or self._due is None:
            self._next = next(self._events)
            self._due = now + self._wait_before(self._next)
        while now >= self._due:
            self._apply(self._next, table)
            self._next = next(self._events)
            self._due += self._wait_before(self._next)

    def _wait_before(self, event: ShoeEvent) -> float:
        """Seconds between the previous event and ``event``."""
        if isinstance(event, Dealt | ShoeEnded):
            return self.pace  # a coup takes a while; the last one stays a while before the shuffle
        if isinstance(event, ShoeStarted):
            return self.shuffle_seconds if self._shoe_ended else 0.0
        return 0.0  # the burn and the cut card come with what precedes them

    def _apply(self, event: ShoeEvent, table: TableState) -> None:
        apply_shoe_event(table, event)
        if isinstance(event, ShoeStarted):
            log.info("demo: shoe %d (%s) shuffled", event.shoe_number, event.shoe_id)
        elif isinstance(event, Dealt):
            self.coups_dealt += 1
        elif isinstance(event, CutCardOut):
            log.info("demo: cut card out after game %d; one more coup", event.game)
        elif isinstance(event, ShoeEnded):
            self._shoe_ended = True

    def status(self, now: float) -> FeedStatus:
        return FeedStatus.DEMO

    def next_deadline(self, now: float) -> float | None:
        return now if self._due is None else self._due

    def stop(self) -> None:
        """Nothing to release."""
