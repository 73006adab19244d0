"""A simulated floor: many tables dealt from one process (``scoreboard shoe --tables N``).

Each table is its own controller, as on a real floor: its own connection, session,
last will and topics (``baccarat/v2/<id>``), dealt on its own thread.  Which
tables, with which seeds, paces and tiers, is the floor's plan
(:mod:`scoreboard.game.floor`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Iterator, Sequence

from scoreboard.controller.dealing import Controller
from scoreboard.game.shoe import ShoeEvent
from scoreboard.service.stopping import Stop

log = logging.getLogger(__name__)

#: The keepalive of a floor's controllers unless ``--keepalive`` says otherwise.  A
#: real controller is a box of its own; here hundreds share one process's CPU, and
#: with a 1 s keepalive a busy moment (1.5 s without a packet) makes the broker send
#: the will: a new session, a snapshot, and a mark flapping to controller offline
#: on every display of the table.  Measured with 50 tables in one process held to
#: 10 % of a core (a cgroup) for 60 s at 1 s: 102 sessions renewed, 77 keepalive
#: timeouts at the broker (``benchmarks/bench_storm.py --starve`` for a floor).
FLOOR_KEEPALIVE = 5


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

    When ``stop`` is asked (SIGTERM, Ctrl-C: :mod:`scoreboard.service.stopping`) every table
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
