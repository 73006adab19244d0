"""How long a link waits before its next connection attempt: full jitter, capped at 10 s.

When one broker restarts, every controller, display and lobby of the floor loses
it in the same instant.  A fixed schedule (paho's own: 1, 2, 4, 8, 10 s) brings
them all back in the same instants too, hundreds of CONNECTs at once on a listen
queue of a hundred.  So each link draws its wait at random between 0 and a cap
(*full jitter*): the cap starts at :data:`FIRST_CAP`, doubles with each failed
attempt in a row up to :data:`MAX_CAP`, and starts over after a good connection.
A floor then arrives spread over the cap instead of all at once, and the first
ones back are not made to wait behind a fixed first second.
"""

from __future__ import annotations

import random

#: The cap of the first wait after a good connection (or before the first retry), seconds.
FIRST_CAP = 1.0
#: The cap never grows past this: a link is back at most this long after its broker is.
MAX_CAP = 10.0


class Backoff:
    """The waits of one link: uniform in ``[0, cap]``, the cap doubling to ``MAX_CAP``.

    ``rng`` is the link's own random source (seeded in tests): two links never
    share a schedule.

    >>> backoff = Backoff(random.Random(7))
    >>> [backoff.cap for _ in range(6) if backoff.next_wait() >= 0]
    [2.0, 4.0, 8.0, 10.0, 10.0, 10.0]
    >>> backoff.succeeded(); backoff.cap
    1.0
    """

    def __init__(
        self,
        rng: random.Random | None = None,
        first: float = FIRST_CAP,
        most: float = MAX_CAP,
    ) -> None:
        self._rng = rng if rng is not None else random.Random()
        self._first = first
        self._most = most
        #: The cap of the next wait.
        self.cap = first

    def next_wait(self) -> float:
        """The wait before the next attempt; the cap after it doubles (up to the most)."""
        wait = self._rng.uniform(0.0, self.cap)
        self.cap = min(self.cap * 2, self._most)
        return wait

    def succeeded(self) -> None:
        """A good connection: the next failure starts again from the first cap."""
        self.cap = self._first
