"""The keypad as the table's controller on the broker: contract v2, as a shoe would publish.

With a broker configured, what the dealer keys in is published as the table's
controller, so every other display of the table follows the keypad: each entry
(coup, void, new shoe) then a retained snapshot of the shoe, the controller's
status with a last will, the table's limits, and answers to ``cmd/resync``.  It
reuses the simulated controller's parts: :class:`SessionStream` (one link and
will per session, every payload stamped with session and seq),
:class:`SessionStore` (sessions greater than every earlier one, across
restarts) and :class:`ControllerInbox` (what the link says).

Everything runs on the kiosk's thread, from the keypad feed's ``poll``.  While
the broker is away entries are not queued: the snapshot published on every
(re)connect carries the whole shoe, which is what a display catches up from.
A keypad taking over from a failed shoe controller starts a session newer than
the last one the board followed (even if this display's clock is behind), so
displays that followed that controller take the keypad's stream as the newer.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path

from scoreboard.controller import RESYNC_MIN_INTERVAL, ControllerInbox, SessionStore, SessionStream
from scoreboard.controller.dealing import utc_now
from scoreboard.controller.pit_counter import PitCounter
from scoreboard.game.events import ControllerStatus, Event, LimitsReceived, ShoeHealth, Snapshot
from scoreboard.game.limits import Limits
from scoreboard.settings.endpoint import Endpoint
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState

log = logging.getLogger(__name__)

GOODBYE_SECONDS = 2.0  # how long a clean stop waits for the broker to take the goodbye


def shoe_snapshot(table: TableState) -> Snapshot | None:
    """The table's current shoe as a snapshot: its games and its voided numbers."""
    if table.shoe_id is None:
        return None
    return Snapshot(table.shoe_id, table.games, table.voided, utc_now())


def session_floor(table: TableState, clock: Callable[[], float]) -> Callable[[], float]:
    """A wall clock never behind the session the table last followed (in seconds).

    Sessions are the wall clock in milliseconds: one taken from this clock is
    newer than the controller's whose stream the board showed.

    >>> floor = session_floor(TableState(), lambda: 5.0); floor()
    5.0
    """
    followed = None if table.position is None else table.position.session
    if followed is None:
        return clock
    return lambda: max(clock(), (followed + 2) / 1000)


class KeypadPublisher:
    """Publishes the keypad's entries to one table's topics as its controller."""

    def __init__(
        self,
        endpoint: Endpoint,
        *,
        client_id: str,
        limits: Limits | None = None,
        state_dir: Path | None = None,
        wall_clock: Callable[[], float] = time.time,
        name: str = "keypad",
        table_name: str = "",
    ) -> None:
        """``name``: who publishes, in the log (the shoe bridge reuses this publisher)."""
        self.endpoint = endpoint
        self.name = name
        #: The table's configured name, said in every birth for displays given none.
        self.table_name = table_name
        #: The limits it was configured with (``table.limits``), the only ones it publishes:
        #: never those the board shows from another controller, nor any it made up.
        self.limits = limits
        #: Limits a pit's command scheduled through this keypad, until they come due.
        self._scheduled: Limits | None = None
        self.client_id = client_id
        self.state_dir = state_dir
        self.wall_clock = wall_clock
        self.inbox = ControllerInbox(endpoint.topics, endpoint.hmac_key)
        self.stream: SessionStream | None = None
        self.ever_connected = False
        self._last_resync = float("-inf")
        #: The shoe before the current one, kept to answer a resync that names it.
        self.previous: Snapshot | None = None
        #: A card-reading shoe's conditions raised now, carried by the retained status.
        self.raised: tuple[ShoeHealth, ...] = ()
        #: The pit's commands (cmd/pit), ruled on against the keypad's own table.
        self.pit = PitCounter(wall_clock=wall_clock)

    def start(self, wake: Callable[[], None], table: TableState) -> None:
        """Connect in the background with a session newer than the one ``table`` followed."""
        sessions = SessionStore(self.state_dir, clock=session_floor(table, self.wall_clock))
        self.stream = SessionStream(
            self.endpoint, sessions=sessions, client_id=self.client_id, wake=wake
        )
        log.info(
            "%s: publishing to %s %s as the table's controller, session %d",
            self.name,
            self.endpoint.mqtt.broker_names,
            self.endpoint.topics.prefix,
            self.stream.session,
        )
        self.stream.start()

    @property
    def connected(self) -> bool:
        return self.inbox.connected

    def status(self) -> FeedStatus:
        """LIVE while the broker takes the entries; CONNECTING, then OFFLINE, while not.

        A connection whose publishes the broker refuses (an account or ACL that may
        not write the table's topics) is OFFLINE too: the table's displays get nothing.
        """
        if self.inbox.connected and self.inbox.publish_refused is None:
            return FeedStatus.LIVE
        return FeedStatus.OFFLINE if self.ever_connected else FeedStatus.CONNECTING

    def service(self, table: TableState, now: float) -> None:
        """Read the link: renew a dropped session, announce on connect, answer resyncs."""
        stream = self.stream
        if stream is None:
            return
        self.inbox.take(stream.link.drain())
        if self.inbox.renew_due:
            self.inbox.renew_due = False
            stream.renew()
            log.info("%s: new session %d", self.name, stream.session)
        if self.inbox.announce_due:
            self.inbox.announce_due = False
            self.ever_connected = True
            self._announce(table)
        if self.inbox.resync_due and now - self._last_resync >= RESYNC_MIN_INTERVAL:
            self.inbox.resync_due = False
            self._last_resync = now
            self._answer_resync(table)

    def serve_pit(self, table: TableState, apply: Callable[[Event], None]) -> None:
        """Rule on the pit's commands against ``table``; ``apply`` takes each event (the feed
        applies, journals and publishes it as a keyed entry), then the answer goes out."""
        stream = self.stream
        if stream is not None:
            self.pit.serve(self.inbox, lambda: shoe_snapshot(table), apply, stream.answer)

    def _announce(self, table: TableState) -> None:
        """A new session's birth, its configured limits and the table's shoe, all retained."""
        self._publish(ControllerStatus(True, raised=self.raised, name=self.table_name), retain=True)
        if self._scheduled is not None and table.scheduled is None:
            if table.limits == self._scheduled:  # the pit's schedule came due: its own now
                self.limits = self._scheduled
            self._scheduled = None
        if self.limits is not None:
            self._publish(LimitsReceived(self.limits), retain=True)
        if table.scheduled is not None and self._scheduled is not None:
            later = table.scheduled  # last: the retained message late displays get
            self._publish(LimitsReceived(later.limits, effective_at=later.at), retain=True)
        self._publish_snapshot(table)
        log.info("%s: online as the controller of %s", self.name, self.endpoint.topics.prefix)

    def _answer_resync(self, table: TableState) -> None:
        asked, self.inbox.shoes_asked = self.inbox.shoes_asked, set()
        if self.previous is not None and self.previous.shoe in asked:
            self._publish(Snapshot(self.previous.shoe, self.previous.games, self.previous.voided))
        self._publish_snapshot(table)

    def send(self, event: Event, table: TableState, *, finished: Snapshot | None = None) -> None:
        """An entry the table took, then the shoe's retained snapshot (``finished``: a new
        shoe's predecessor, kept for resyncs)."""
        if finished is not None:
            self.previous = finished
        if isinstance(event, LimitsReceived) and event.effective_at is None:
            self.limits = event.limits  # its own now (the pit's): announced on every connect
        elif isinstance(event, LimitsReceived):
            self._scheduled = event.limits  # the pit's, for later: its own once it comes due
        if not self.inbox.connected:
            log.debug("%s: broker away; the next connect's snapshot carries %s", self.name, event)
            return
        self._publish(event, retain=isinstance(event, LimitsReceived))
        self._publish_snapshot(table)

    def tell(self, event: Event) -> None:
        """An event that changes no shoe (a card dealt, the shoe's health), if connected:
        a broker away misses it (what lasts goes out in the status)."""
        if self.inbox.connected:
            self._publish(event)

    def conditions(self, raised: tuple[ShoeHealth, ...]) -> None:
        """The shoe's conditions raised now: the retained status says them again, so a
        display that joins later shows them too (a broker away: the next connect does)."""
        if raised == self.raised:
            return
        self.raised = raised
        if self.inbox.connected:
            self._publish(ControllerStatus(True, raised=raised, name=self.table_name), retain=True)

    def _publish_snapshot(self, table: TableState) -> None:
        snapshot = shoe_snapshot(table)
        if snapshot is not None:
            self._publish(snapshot, retain=True)

    def _publish(self, event: Event, *, retain: bool = False) -> None:
        if self.stream is not None:
            self.stream.publish(event, retain=retain)

    def stop(self) -> None:
        """Say offline (retained) as the controller, flush, disconnect."""
        stream = self.stream
        if stream is None:
            return
        if self.inbox.connected:
            self._publish(ControllerStatus(False), retain=True)
            if not stream.flush(GOODBYE_SECONDS):
                log.warning("%s: the broker did not take the goodbye in time", self.name)
        stream.link.stop()
