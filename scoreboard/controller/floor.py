"""A simulated floor: many tables dealt from one process (``scoreboard shoe --tables N``).

Each table is its own controller, as on a real floor: its own connection, session,
last will and topics (``baccarat/v2/<id>``), its own shoe and seed, its own pace
(within a quarter of the asked one, so tables drift apart as real ones do), its
own start offset (so a hundred tables do not all deal in the same instant) and
its tier of a few typical limits (a lobby sorts and filters by minimum bet),
which the command publishes only when asked to (``--limit-tiers``): a floor
invents no limits.  All of it follows from the table's number and the floor's
seed, so a floor is repeatable.

>>> [(t.table_id, t.limits) for t in floor_tables(3, stem="T", seed=7, pace=2.0)]
[('T1', '10-5000'), ('T2', '25-10000'), ('T3', '50-20000')]
>>> all(1.5 <= t.pace <= 2.5 and 0 <= t.offset < 2.0 for t in floor_tables(50, "T", 1, 2.0))
True
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from scoreboard.controller.dealing import Controller
from scoreboard.core.shoe import ShoeEvent
from scoreboard.stopping import Stop

log = logging.getLogger(__name__)

#: Player/Banker limits of a floor's tiers, low to high; table i gets tier i mod 5.
LIMIT_TIERS = ("10-5000", "25-10000", "50-20000", "100-50000", "500-100000")
MAX_TABLES = 500
#: The keepalive of a floor's controllers unless ``--keepalive`` says otherwise.  A
#: real controller is a box of its own; here hundreds share one process's CPU, and
#: with a 1 s keepalive a busy moment (1.5 s without a packet) makes the broker send
#: the will: a new session, a snapshot, and a mark flapping to controller offline
#: on every display of the table.  Measured with 50 tables in one process held to
#: 10 % of a core (a cgroup) for 60 s at 1 s: 102 sessions renewed, 77 keepalive
#: timeouts at the broker (``benchmarks/bench_storm.py --starve`` for a floor).
FLOOR_KEEPALIVE = 5
PACE_SPREAD = 0.25


@dataclass(frozen=True, slots=True)
class FloorTable:
    """One simulated table: its id, shuffle seed, seconds per coup, first wait and limits."""

    table_id: str
    seed: int
    pace: float
    offset: float
    limits: str


def floor_tables(count: int, stem: str, seed: int, pace: float) -> list[FloorTable]:
    """The ``count`` tables ``<stem>1`` ... ``<stem><count>`` of a floor with ``seed``."""
    if not 1 <= count <= MAX_TABLES:
        raise ValueError(f"--tables must be 1 to {MAX_TABLES}, got {count}")
    tables = []
    for number in range(1, count + 1):
        rng = random.Random(seed * 1_000_003 + number)
        tables.append(
            FloorTable(
                table_id=f"{stem}{number}",
                seed=rng.randrange(2**31),
                pace=pace * rng.uniform(1 - PACE_SPREAD, 1 + PACE_SPREAD),
                offset=rng.uniform(0, pace) if pace > 0 else 0.0,
                limits=LIMIT_TIERS[(number - 1) % len(LIMIT_TIERS)],
            )
        )
    return tables


def delayed(
    events: Iterable[tuple[float, ShoeEvent]], offset: float
) -> Iterator[tuple[float, ShoeEvent]]:
    """``events`` with ``offset`` seconds more before the first one.

    >>> list(delayed([(1.0, "a"), (2.0, "b")], 0.5))
    [(1.5, 'a'), (2.0, 'b')]
    """
    first = True
    for wait, event in events:
        yield (wait + offset if first else wait), event
        first = False


def deal_floor(
    deals: Sequence[tuple[Controller, Iterable[tuple[float, ShoeEvent]]]],
    *,
    shoes: int | None,
    stop: Stop | None = None,
) -> None:
    """Start every controller, deal each on its own thread until done or ``stop``, stop them all.

    When ``stop`` is asked (SIGTERM, Ctrl-C: :mod:`scoreboard.stopping`) every table
    stops dealing, publishes its offline status and disconnects, all at once.
    """
    stop = stop or Stop()

    def stop_dealing() -> None:
        for controller, _ in deals:
            controller.stop_dealing()

    stop.on_stop(stop_dealing)
    threads = []
    try:
        for controller, events in deals:
            if stop.requested:
                break
            controller.start()
            thread = threading.Thread(
                target=controller.deal,
                args=(events,),
                kwargs={"shoes": shoes},
                daemon=True,
                name=f"scoreboard-table-{controller.topics.prefix}",
            )
            thread.start()
            threads.append(thread)
        for thread in threads:
            thread.join()
    finally:
        stop_dealing()
        # Each stop flushes for a while (a broker gone): all at once, not one after another.
        stops = [threading.Thread(target=controller.stop, daemon=True) for controller, _ in deals]
        for thread in stops:
            thread.start()
        for thread in stops:
            thread.join()
