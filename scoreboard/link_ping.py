"""The ping watch: a broker that stops answering is noticed in half a second, not a keepalive.

paho waits a whole keepalive for the answer to its PINGREQ, so a frozen broker
went unnoticed for 2 x keepalive.  :class:`PingWatch` gives the answer
:data:`PING_TIMEOUT` and then has the link end the connection as lost.

paho reports its pings and every packet it receives only through its log
(``on_log``: "Sending PINGREQ", "Received ..."), so that is what is read.

Two things keep the watch from calling a live broker dead:

- it decides only when the ping is overdue at two checks :data:`PING_CHECK`
  apart, so an answer paho is reading at that very moment is not silence;
- a check that runs late by more than :data:`PING_TIMEOUT` decides nothing: the
  process itself was not running (a starved box, a floor of tables in one
  process), so paho could not have read the answer either.  Cutting then would
  turn a busy moment into a new controller session and a flapping mark.

Between pings the watch's thread sleeps; it costs nothing while the link is idle
(a floor process holds hundreds of links).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

log = logging.getLogger("scoreboard.link")

#: How long a PINGREQ may go without any byte from the broker before the link is lost.
#: A broker on the table's network answers in milliseconds; paho alone would wait a
#: whole keepalive, so a frozen broker showed after 2 x keepalive instead of
#: keepalive + PING_TIMEOUT (+ one PING_CHECK).
PING_TIMEOUT = 0.5
PING_CHECK = 0.05  # the second look, after the first found the ping overdue


class PingWatch:
    """Notices a PINGREQ nothing has answered for :data:`PING_TIMEOUT`; calls ``cut``.

    >>> watch = PingWatch()
    >>> watch.on_log(None, None, 0, "Sending PINGREQ"); watch.ping_sent is not None
    True
    >>> watch.on_log(None, None, 0, "Received PINGRESP"); watch.ping_sent is None
    True
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.ping_sent: float | None = None  # monotonic time of an unanswered PINGREQ
        self.cut_reason: str | None = None
        self._clock = clock
        self._stopping = False
        self._wake = threading.Event()  # a ping was sent, or stop
        self._thread: threading.Thread | None = None

    def on_log(self, _client: object, _userdata: object, _level: int, line: str) -> None:
        if line.startswith("Received "):
            self.ping_sent = None
        elif line == "Sending PINGREQ" and self.ping_sent is None:
            self.ping_sent = self._clock()
            self._wake.set()

    def reset(self) -> None:
        self.ping_sent = None

    def start(self, cut: Callable[[str], None]) -> None:
        self._stopping = False
        self._wake.clear()
        self._thread = threading.Thread(
            target=self._watch, args=(cut,), name="mqtt-ping-watch", daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        self._stopping = True
        self._wake.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=1.0)
        self._thread = None

    def _watch(self, cut: Callable[[str], None]) -> None:
        suspect: float | None = None  # the ping found overdue at the last look
        deadline: float | None = None  # when to look next at the outstanding ping
        while not self._stopping:
            sent = self.ping_sent
            if sent is None:  # nothing outstanding: sleep until paho pings
                suspect = deadline = None
                self._wake.wait()
                self._wake.clear()
                continue
            if deadline is None:
                deadline = sent + PING_TIMEOUT
            self._wake.wait(max(0.0, deadline - self._clock()))
            self._wake.clear()
            now = self._clock()
            if self._stopping:
                return
            if self.ping_sent != sent:  # answered, or a newer ping: start over
                suspect = deadline = None
            elif now < deadline:  # woken early: look again at the deadline
                continue
            elif now - deadline > PING_TIMEOUT:  # this process was not running: no verdict
                suspect, deadline = None, now + PING_TIMEOUT
            elif suspect == sent:
                log.debug("mqtt: no answer to a ping within %.1f s", PING_TIMEOUT)
                self.ping_sent = suspect = deadline = None
                cut(f"the broker did not answer a ping within {PING_TIMEOUT:g} s")
            else:
                suspect, deadline = sent, now + PING_CHECK
