"""A display reading the card-reading shoe itself: one monitor, the shoe's cable, no broker needed.

The shoe bridge's parts, unchanged (:class:`~scoreboard.bridge.shoe_bridge.Bridge`):
its line (:class:`~scoreboard.controller.shoe_line.ShoeLine`, reopened by itself
when the cable comes back), its desk (bytes -> new shoe, burn, coups, cards
dealt face down, the shoe's health) and its open hand kept across a restart.  The
bridge's table is the display's and its journal the display's, so a restart on
the same state dir continues the same shoe and game numbers.  With a broker
configured the bridge's publisher (the keypad's) makes this display the table's
controller there, as ``--feed keypad`` does; without one nothing is published.

The line blocks for up to its timeout on each read, which the kiosk's loop must
never do: a reader thread reads it and hands the news over through a queue
(``wake()`` on each piece); :meth:`ShoeFeed.poll` gives them to the bridge on the
loop's thread, the only one that touches the desk, the table and the journal.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable

from scoreboard.bridge.shoe_bridge import Bridge
from scoreboard.controller.shoe_line import LineNews
from scoreboard.table.applied import FeedStatus
from scoreboard.table.health import JournalHealth, RenderHealth
from scoreboard.table.state import TableState

log = logging.getLogger(__name__)

#: How long :meth:`ShoeFeed.stop` waits for the reader thread (a read lasts its timeout).
JOIN_SECONDS = 2.0


class ShoeFeed:
    """A :class:`~scoreboard.kiosk.feed.Feed` fed by the shoe's serial line (see the module doc)."""

    def __init__(self, bridge: Bridge) -> None:
        self.bridge = bridge
        self.render_health = RenderHealth()
        self._news: deque[LineNews] = deque()
        self._wake: Callable[[], None] = lambda: None
        self._halt = threading.Event()
        self._reader: threading.Thread | None = None

    def start(self, wake: Callable[[], None]) -> None:
        """Go on with the hand the last run was dealing, connect, then read the line."""
        self._wake = wake
        self.bridge.begin(wake)
        self._reader = threading.Thread(target=self._read, name="shoe-line", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        line = self.bridge.line
        while not self._halt.is_set():
            try:
                news = line.read()
            except Exception:  # a thread's exception is lost: say it, and read on
                log.exception("shoe feed: reading %s failed", line.path)
                self._halt.wait(1.0)
                continue
            if news:
                self._news.extend(news)
                self._wake()

    def poll(self, table: TableState, now: float) -> None:  # noqa: ARG002 - the bridge's table
        """The line's news since the last poll, then the broker's."""
        while self._news:
            self.bridge.take(self._news.popleft())
        self.bridge.serve(now)

    def status(self, now: float) -> FeedStatus:  # noqa: ARG002 - the Feed protocol
        """Controller offline (SHOE OFFLINE) while the device is gone; else as the keypad's:
        LIVE, or the broker's state when this display publishes as the controller."""
        if "device" in self.bridge.desk.raised:
            return FeedStatus.CONTROLLER_OFFLINE
        if self.bridge.line.up is None:  # not opened yet, nor failed
            return FeedStatus.CONNECTING
        publisher = self.bridge.publisher
        return FeedStatus.LIVE if publisher is None else publisher.status()

    def next_deadline(self, now: float) -> float | None:  # noqa: ARG002 - the Feed protocol
        return None  # the reader and the broker wake the loop

    def report(self, render: RenderHealth) -> None:
        """Kept: a display reading its shoe publishes no display status of its own."""
        self.render_health = render

    def journal_health(self) -> JournalHealth:
        journal = self.bridge.journal
        return JournalHealth() if journal is None else journal.health

    def stop(self) -> None:
        """Stop reading, close the line, say goodbye as the controller."""
        self._halt.set()
        reader = self._reader
        if reader is not None:
            reader.join(JOIN_SECONDS)
        self.bridge.end()
