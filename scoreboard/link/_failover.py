"""Failover along a list of brokers (a cluster's nodes, a bridged pair), one move at a time.

A failed connect or a lost connection moves the link to the next broker, after a
jittered backoff (:class:`~scoreboard.link._backoff.Backoff`, the rule of every
reconnect), so that a floor of displays losing one node does not arrive on the
next all in the same instant.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from scoreboard.link._backoff import FIRST_CAP, MAX_CAP, Backoff

log = logging.getLogger("scoreboard.link.client")

#: With several brokers: the first move after a working connection waits up to
#: FAILOVER_FIRST seconds (jittered), a run of failures doubles it up to FAILOVER_MAX.
FAILOVER_FIRST = FIRST_CAP
FAILOVER_MAX = MAX_CAP

#: The broker each list last moved to, so a link built anew for the same list (a
#: controller renews its link on every lost connection) starts where the last one
#: went instead of on the node that just failed.
_LAST_BROKER: dict[tuple[tuple[str, int], ...], int] = {}
_LAST_BROKER_LOCK = threading.Lock()


def starting_broker(brokers: tuple[tuple[str, int], ...]) -> int:
    """Where a link built for ``brokers`` starts: where the list last moved to, else the first."""
    with _LAST_BROKER_LOCK:
        return _LAST_BROKER.get(brokers, 0) % len(brokers)


def moving_on(brokers: tuple[tuple[str, int], ...], index: int) -> None:
    """The link on ``brokers[index]`` failed: a link built anew meanwhile starts on the next."""
    with _LAST_BROKER_LOCK:
        _LAST_BROKER[brokers] = (index + 1) % len(brokers)


def broker_client_id(client_id: str, index: int) -> str:
    """The client id on the ``index``-th broker of the list: ``ID``, then ``ID-b2``, ``ID-b3``...

    A persistent session lives on the node that holds it; a second id per broker
    keeps a dead node's session from blocking the next one, and returning to a
    broker finds the session (and the messages) left there.

    >>> broker_client_id("scoreboard-d1", 0), broker_client_id("scoreboard-d1", 2)
    ('scoreboard-d1', 'scoreboard-d1-b3')
    >>> len(broker_client_id("x" * 128, 1))
    128
    """
    if index == 0:
        return client_id
    suffix = f"-b{index + 1}"
    return client_id[: 128 - len(suffix)] + suffix


class Failover:
    """Moves a link along its broker list, one move at a time, on a thread of its own.

    paho's callbacks only say a move is :meth:`due`; the move itself (stopping a
    paho thread, starting the next) cannot run on paho's thread.  The wait before
    a move is jittered (full jitter, :class:`~scoreboard.link._backoff.Backoff`):
    up to :data:`FAILOVER_FIRST` after a working connection, the cap doubling
    with each failure in a row up to :data:`FAILOVER_MAX`, so that a floor of
    displays cut off at once spreads over the next broker.
    """

    def __init__(self, move: Callable[[], None]) -> None:
        self._move = move
        self._due = threading.Event()
        self._stopping = threading.Event()
        self._backoff = Backoff()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._stopping.clear()
        self._thread = threading.Thread(target=self._run, name="mqtt-failover", daemon=True)
        self._thread.start()

    def due(self) -> None:
        self._due.set()

    def succeeded(self) -> None:
        self._backoff.succeeded()

    def stop(self) -> None:
        self._stopping.set()
        self._due.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5.0)
        self._thread = None

    def _run(self) -> None:
        while True:
            self._due.wait()
            if self._stopping.is_set():
                return
            if self._stopping.wait(self._backoff.next_wait()):
                return
            self._due.clear()
            try:
                self._move()
            except Exception:  # the thread must survive to try the next broker
                log.exception("mqtt: error while moving to the next broker (ignored)")
