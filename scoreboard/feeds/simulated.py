"""The demo feed: a simulated shoe dealt coup by coup at a table's pace.

It needs no thread: the app loop asks :meth:`SimulatedFeed.next_deadline` when
to come back and calls :meth:`poll`, which applies every event that is due.
The dealer yields the table's own events and :meth:`Dealer.timed` gives their
rhythm, so the demo applies exactly what the simulated controller publishes,
through the same :func:`~scoreboard.core.table.apply_event` as an MQTT display
(and journals it when given a journal): the last coup of a shoe stays ``pace``
seconds, then the shuffle screen shows over the finished shoe for
``shuffle_seconds``, then the next shoe starts.

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

from scoreboard.core.events import CoupReceived, CutCard, NewShoe, Shuffle
from scoreboard.core.shoe import Dealer, ShoeEvent
from scoreboard.core.table import FeedStatus, TableState, apply_event
from scoreboard.health import JournalHealth, RenderHealth
from scoreboard.journal import Journal

log = logging.getLogger(__name__)


class SimulatedFeed:
    """Deals from a :class:`~scoreboard.core.shoe.Dealer`, shoe after shoe, forever."""

    def __init__(
        self,
        dealer: Dealer,
        *,
        pace: float = 4.0,
        shuffle_seconds: float | None = None,
        journal: Journal | None = None,
    ) -> None:
        if pace <= 0:
            raise ValueError(f"pace must be positive seconds per coup, got {pace}")
        self.dealer = dealer
        self.pace = pace
        self.shuffle_seconds = 3 * pace if shuffle_seconds is None else shuffle_seconds
        self.journal = journal
        self._timed: Iterator[tuple[float, ShoeEvent]] = dealer.timed(pace, self.shuffle_seconds)
        self._next: ShoeEvent | None = None
        self._due: float | None = None
        self.coups_dealt = 0
        #: The kiosk's last report of how drawing goes (the demo publishes no status).
        self.render_health = RenderHealth()

    def start(self, wake: Callable[[], None]) -> None:
        """Nothing to start: the loop's deadlines drive the deal."""

    def poll(self, table: TableState, now: float) -> None:
        """Apply every event due by ``now`` (several if the loop was late).

        A failing journal is tried again first (when its backoff allows).
        """
        if self.journal is not None:
            self.journal.heal()
        if self._next is None or self._due is None:
            wait, self._next = next(self._timed)
            self._due = now + wait
        while now >= self._due:
            self._apply(self._next, table)
            wait, self._next = next(self._timed)
            self._due += wait

    def _apply(self, event: ShoeEvent, table: TableState) -> None:
        applied = apply_event(table, event)
        if self.journal is not None:
            self.journal.keep(event, table, applied)
        if isinstance(event, NewShoe):
            log.info("demo: shoe %d (%s)", table.shoe_number, event.shoe)
        elif isinstance(event, CoupReceived):
            self.coups_dealt += 1
        elif isinstance(event, CutCard):
            log.info("demo: cut card out after game %d; one more coup", table.last_number)
        elif isinstance(event, Shuffle):
            log.info(
                "demo: shoe %s over after %d games; shuffling", table.shoe_id, len(table.games)
            )

    def status(self, now: float) -> FeedStatus:  # noqa: ARG002 - the Feed protocol
        return FeedStatus.DEMO

    def next_deadline(self, now: float) -> float | None:
        return now if self._due is None else self._due

    def report(self, render: RenderHealth) -> None:
        """Keep the kiosk's render health: the demo has no status to publish it in."""
        self.render_health = render

    def journal_health(self) -> JournalHealth:
        """The journal's health with ``demo --state-dir``; without a journal, ``off``."""
        return JournalHealth() if self.journal is None else self.journal.health

    def stop(self) -> None:
        """Nothing to release (the command owns the journal)."""
