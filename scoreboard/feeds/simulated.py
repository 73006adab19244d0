"""The demo feed: a simulated shoe dealt coup by coup at a table's pace.

It needs no thread: the app loop asks :meth:`SimulatedFeed.next_deadline` when
to come back and calls :meth:`poll`, which applies every event that is due.
The dealer yields the table's own events and :meth:`Dealer.timed` gives their
rhythm, so the demo applies exactly what the simulated controller publishes,
through the same :func:`~scoreboard.table.state.apply_event` as an MQTT display
(and journals it when given a journal): the last coup of a shoe stays ``pace``
seconds, then the shuffle screen shows over the finished shoe for
``shuffle_seconds``, then the next shoe starts.

Attract mode: ``history`` (from :func:`split_history`) is a part of a shoe
dealt before the board came on.  The first poll applies it all at once, before
the first frame, so it shows as history (nothing animates) and the deal goes on
at the pace from there: a trade-show board is never empty.

>>> from scoreboard.game.shoe import Dealer
>>> from scoreboard.table.state import TableState
>>> feed, table = SimulatedFeed(Dealer(decks=1, seed=3), pace=1.0), TableState()
>>> feed.poll(table, now=0.0); feed.poll(table, now=2.5)
>>> table.shoe_number, table.last_number
(1, 2)
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable, Iterable, Iterator, Sequence

from scoreboard.feeds.repeats import Announcements
from scoreboard.game.events import CoupReceived, CutCard, Event, LimitsReceived, NewShoe, Shuffle
from scoreboard.game.limits import Limits
from scoreboard.game.shoe import Dealer, ShoeEvent
from scoreboard.journal import Journal
from scoreboard.table.applied import FeedStatus
from scoreboard.table.health import JournalHealth, RenderHealth
from scoreboard.table.state import TableState, apply_event

log = logging.getLogger(__name__)

Timed = Iterator[tuple[float, ShoeEvent]]


def split_history(
    timed: Iterable[tuple[float, ShoeEvent]], coups: int
) -> tuple[list[ShoeEvent], Timed]:
    """The events of the first ``coups`` coups (the shoe dealt so far), and the rest, timed.

    The history stops before the coup that brings the cut card out: the end of a
    shoe (that coup, the cut card, the last coup, the shuffle) is always dealt
    at the pace, so a larger ``coups`` gives the shoe up to there.

    >>> from scoreboard.game.shoe import Dealer
    >>> history, rest = split_history(Dealer(decks=1, seed=3).timed(4.0, 12.0), 2)
    >>> [type(event).__name__ for event in history]
    ['NewShoe', 'Burn', 'CoupReceived', 'CoupReceived']
    >>> next(rest)[0]  # the next coup comes at the pace
    4.0
    """
    events = iter(timed)
    taken: list[tuple[float, ShoeEvent]] = []
    dealt = 0
    while dealt < coups:
        wait, event = next(events)
        if isinstance(event, CutCard | Shuffle) or (isinstance(event, NewShoe) and taken):
            last_coup = max(
                (i for i, (_, e) in enumerate(taken) if isinstance(e, CoupReceived)), default=0
            )
            back = [*taken[last_coup:], (wait, event)]
            return [e for _, e in taken[:last_coup]], itertools.chain(back, events)
        taken.append((wait, event))
        dealt += isinstance(event, CoupReceived)
    return [event for _, event in taken], events


class SimulatedFeed:
    """Deals from a :class:`~scoreboard.game.shoe.Dealer`, shoe after shoe, forever."""

    def __init__(
        self,
        dealer: Dealer,
        *,
        pace: float = 4.0,
        shuffle_seconds: float | None = None,
        journal: Journal | None = None,
        history: Sequence[ShoeEvent] = (),
        timed: Iterable[tuple[float, ShoeEvent]] | None = None,
        limits: Limits | None = None,
    ) -> None:
        """``timed`` defaults to ``dealer.timed(pace, shuffle_seconds)``; ``history`` goes first.

        ``limits`` are said first, as a controller says its limits on connect (and
        journaled like them); None leaves the table's.
        """
        if pace <= 0:
            raise ValueError(f"pace must be positive seconds per coup, got {pace}")
        self.dealer = dealer
        self.pace = pace
        self.shuffle_seconds = 3 * pace if shuffle_seconds is None else shuffle_seconds
        self.journal = journal
        if timed is None:
            timed = dealer.timed(pace, self.shuffle_seconds)
        self._timed: Timed = iter(timed)
        self._history: list[Event] = list(history)
        if limits is not None:
            self._history.insert(0, LimitsReceived(limits))
        self._next: ShoeEvent | None = None
        self._due: float | None = None
        self.coups_dealt = 0
        #: The kiosk's last report of how drawing goes (the demo publishes no status).
        self.render_health = RenderHealth()
        self._announce = Announcements(lambda level, line: log.log(level, "%s", line), "demo: ")

    def start(self, wake: Callable[[], None]) -> None:
        """Nothing to start: the loop's deadlines drive the deal."""

    def poll(self, table: TableState, now: float) -> None:
        """Apply every event due by ``now`` (several if the loop was late).

        A failing journal is tried again first (when its backoff allows).
        """
        if self.journal is not None:
            self.journal.heal()
        if self._history:
            for event in self._history:
                self._apply(event, table, now)
            if self.coups_dealt:
                log.info("demo: started mid-shoe, %d coups dealt", self.coups_dealt)
            self._history = []
        if self._next is None or self._due is None:
            wait, self._next = next(self._timed)
            self._due = now + wait
        while now >= self._due:
            self._apply(self._next, table, now)
            wait, self._next = next(self._timed)
            self._due += wait

    def _apply(self, event: Event, table: TableState, now: float = 0.0) -> None:
        applied = apply_event(table, event)
        self._announce(applied, now)
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
