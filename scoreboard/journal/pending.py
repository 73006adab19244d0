"""What waits in memory for the disk: one entry per kept event, written in order.

A disk fault leaves the entries waiting; past :data:`MAX_PENDING` the events are
dropped and the journal is rewritten from the table instead (the ``gap`` record
then says how many were dropped).  The chain's own records (alerts, a late
completion's confirmation) and archive completions always stay.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from scoreboard.journal._links import Record

#: Beyond this many entries waiting for the disk, the journal is rewritten from the table.
MAX_PENDING = 10_000


@dataclass(frozen=True, slots=True)
class Entry:
    """What one kept event adds to the disk, held in memory until the disk takes it.

    ``fresh``: the event began shoe ``shoe``, so the finished shoe's journal leaves
    and a new one starts with ``lines``.  ``archive``: ``lines`` complete the
    archived file of the finished shoe ``shoe``.  ``games``: the shoe has games.
    ``kept``: records of the chain itself (alerts, a completion's confirmation),
    written even when the journal is rewritten from the table.
    """

    shoe: str | None
    lines: tuple[Record, ...]
    fresh: bool = False
    archive: bool = False
    games: bool = False
    kept: bool = False

    @property
    def plain(self) -> bool:
        """Appended to the live journal (several in one fsync)."""
        return not (self.fresh or self.archive)


class Waiting(deque[Entry]):
    """The entries waiting for the disk, oldest first.

    >>> waiting = Waiting([Entry("S1", ()), Entry("S1", (), kept=True)])
    >>> waiting.drop_events(), len(waiting)
    (0, 1)
    """

    @property
    def overflowing(self) -> bool:
        return len(self) > MAX_PENDING

    def held(self) -> int:
        """How many lines wait."""
        return sum(len(entry.lines) for entry in self)

    def drop_events(self) -> int:
        """Forget the events (the table is written instead); returns how many lines went."""
        staying = [entry for entry in self if entry.archive or entry.kept]
        before = self.held()
        self.clear()
        self.extend(staying)
        return before - self.held()
