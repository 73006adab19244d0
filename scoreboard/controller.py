"""A simulated shoe controller: deals real shoes and publishes them as protocol.md says.

It is what drives displays at a trade show and in the tests, and it is the
reference publisher for controller vendors: every coup (with cards), the shoe
events, a retained snapshot after every coup, the retained limits, its own
status with a last will, and an answer to ``cmd/resync``.  It is not a feed
(nothing here shows a board): it is the other end of the display's link.

It talks through the same :class:`~scoreboard.link.Link` as a display.
Publishing happens on the calling thread only; the link's events (a
(re)connect, a resync request) are read by the :class:`ControllerInbox` on
that same thread.  While the broker is unreachable the controller waits (a
real shoe cannot deal into the void either) and on reconnect re-announces its
status, the limits and the snapshot, since a broker without persistence
forgets retained messages.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from scoreboard.config import Endpoint
from scoreboard.core.limits import Limits
from scoreboard.core.rules import Game
from scoreboard.core.shoe import Dealer, ShoeEvent
from scoreboard.link import (
    Connected,
    Delivery,
    Disconnected,
    Link,
    LinkEvent,
    Message,
    Publish,
    Refused,
    default_client_id,
)
from scoreboard.protocol import (
    ControllerStatus,
    CoupReceived,
    Event,
    LimitsReceived,
    NewShoe,
    ProtocolError,
    ResyncRequest,
    Shuffle,
    Snapshot,
    Topics,
    parse_message,
    wire,
)

log = logging.getLogger(__name__)

RESYNC_MIN_INTERVAL = 0.25  # seconds between two answers to cmd/resync


def utc_now() -> str:
    """The wall-clock time of a coup or snapshot, as protocol.md writes it."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


@dataclass(slots=True)
class _Batch:
    """What one :meth:`ControllerInbox.take` read, logged once for the whole batch."""

    asked: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    failed: int = 0


class ControllerInbox:
    """What the controller learns from its link: the connection, announcements, resyncs.

    A plain object fed the link's events on the controller's own thread: a
    (re)connect makes an announcement due, a valid ``cmd/resync`` makes a
    snapshot due; forgeries and junk are ignored, logged once per batch.

    >>> from scoreboard.link import Connected
    >>> inbox = ControllerInbox(Topics("doc/v1/T1"), hmac_key=None)
    >>> inbox.take([Connected(session_present=False)])
    >>> inbox.connected, inbox.announce_due, inbox.resync_due
    (True, True, False)
    """

    def __init__(self, topics: Topics, hmac_key: bytes | None) -> None:
        self.topics = topics
        self.hmac_key = hmac_key
        self.connected = False
        self.announce_due = False
        self.resync_due = False

    def take(self, events: Iterable[LinkEvent], *, stopping: bool = False) -> None:
        """Read a batch of link events (``stopping``: a disconnect is expected, say nothing)."""
        batch = _Batch()
        for event in events:
            match event:
                case Connected():
                    self.connected = self.announce_due = True
                case Disconnected(reason=reason):
                    if self.connected and not stopping:
                        log.warning("controller: disconnected (%s); waiting to reconnect", reason)
                    self.connected = False
                case Refused(reason=reason):
                    log.error("controller: broker refused the connection: %s", reason)
                case Message():
                    self._read(event, batch)
        self._log(batch)

    def _read(self, message: Message, batch: _Batch) -> None:
        try:
            event = parse_message(self.topics, message.topic, message.payload, key=self.hmac_key)
        except ProtocolError as error:
            batch.ignored.append(str(error))
            return
        except Exception:  # a bug: report it once per batch, keep dealing
            if not batch.failed:
                log.exception("controller: error while reading a message (ignored)")
            batch.failed += 1
            return
        if isinstance(event, ResyncRequest):
            batch.asked.append(f"{event.display} (missing {event.missing})")
            self.resync_due = True

    @staticmethod
    def _log(batch: _Batch) -> None:
        if batch.asked:
            log.info("controller: resync asked by %s", ", ".join(batch.asked))
        if len(batch.ignored) == 1:
            log.warning("controller: ignored %s", batch.ignored[0])
        elif batch.ignored:
            log.warning(
                "controller: ignored %d messages, the first: %s",
                len(batch.ignored),
                batch.ignored[0],
            )
        if batch.failed > 1:
            log.error("controller: %d more messages could not be read (ignored)", batch.failed - 1)


class Controller:
    """Publishes shoe events from a dealer to one table's topics."""

    def __init__(
        self,
        endpoint: Endpoint,
        *,
        limits: Limits,
        client_id: str | None = None,
    ) -> None:
        self.endpoint = endpoint
        self.topics = endpoint.topics
        self.limits = limits
        self.inbox = ControllerInbox(endpoint.topics, endpoint.hmac_key)
        self.link = Link(
            endpoint,
            client_id=client_id or default_client_id("controller", endpoint.topics),
            subscriptions=(endpoint.topics.resync,),
            will=self._message(ControllerStatus(False), retain=True),
        )
        self._wakeup = threading.Event()
        self._stopping = threading.Event()
        self._last_resync = float("-inf")
        self.shoe_id: str | None = None
        self.games: list[Game] = []
        self._pending: list[Delivery] = []

    # -- publishing ---------------------------------------------------------------
    def start(self) -> None:
        self.link.start(self._wakeup.set)

    def stop_dealing(self) -> None:
        """Make :meth:`deal` and :meth:`linger` return at their next step (any thread)."""
        self._stopping.set()
        self._wakeup.set()

    def stop(self) -> None:
        """Stop dealing, publish ``offline`` (retained), flush what is queued, disconnect."""
        self.stop_dealing()
        if self.link.connected:
            self.publish(ControllerStatus(False), retain=True)
        self.flush(timeout=5.0)
        self.link.stop()

    def _message(self, event: Event, *, retain: bool = False) -> Publish:
        topic, payload = wire(self.topics, event, self.endpoint.hmac_key)
        return Publish(topic, payload, qos=1, retain=retain)

    def publish(self, event: Event, *, retain: bool = False) -> None:
        info = self.link.publish(self._message(event, retain=retain))
        self._pending.append(info)
        if len(self._pending) > 256:
            self._pending = [item for item in self._pending if not item.is_published()]

    def flush(self, timeout: float) -> bool:
        """Wait until everything published so far has been acknowledged by the broker."""
        deadline = time.monotonic() + timeout
        for info in self._pending:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            try:
                info.wait_for_publish(timeout=remaining)
            except (RuntimeError, ValueError):
                return False
        self._pending = [info for info in self._pending if not info.is_published()]
        return not self._pending

    def snapshot(self) -> Snapshot | None:
        if self.shoe_id is None:
            return None
        return Snapshot(self.shoe_id, tuple(self.games), (), utc_now())

    def _publish_snapshot(self) -> None:
        snapshot = self.snapshot()
        if snapshot is not None:
            self.publish(snapshot, retain=True)

    def _read_link(self) -> None:
        self.inbox.take(self.link.drain(), stopping=self._stopping.is_set())

    def _wait_for_broker(self) -> bool:
        """Wait until connected; False when asked to stop first.  Complains every 30 s."""
        waiting_since = time.monotonic()
        next_report = waiting_since + 5.0
        while not self.inbox.connected:
            if self._stopping.is_set():
                return False
            if time.monotonic() >= next_report:
                settings = self.endpoint.mqtt
                log.warning(
                    "controller: waiting for the broker %s:%d (%.0f s so far)",
                    settings.host,
                    settings.port,
                    time.monotonic() - waiting_since,
                )
                next_report += 30.0
            self._wakeup.wait(0.5)
            self._wakeup.clear()
            self._read_link()
        return True

    def _service(self) -> None:
        """Wait for the broker, then announce after a (re)connect and answer resyncs."""
        self._read_link()
        if not self._wait_for_broker():
            return
        if self.inbox.announce_due:
            self.inbox.announce_due = False
            self.publish(ControllerStatus(True), retain=True)
            self.publish(LimitsReceived(self.limits), retain=True)
            self._publish_snapshot()
            log.info("controller: online on %s", self.topics.prefix)
        now = time.monotonic()
        if self.inbox.resync_due and now - self._last_resync >= RESYNC_MIN_INTERVAL:
            self.inbox.resync_due = False
            self._last_resync = now
            self._publish_snapshot()

    def wait(self, seconds: float) -> None:
        """Sleep for the pace, answering resyncs and reconnects meanwhile."""
        deadline = time.monotonic() + seconds
        while not self._stopping.is_set():
            self._service()
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            self._wakeup.wait(min(remaining, RESYNC_MIN_INTERVAL))
            self._wakeup.clear()

    def deal(
        self,
        events: Iterable[tuple[float, ShoeEvent]],
        *,
        shoes: int | None = None,
    ) -> int:
        """Publish timed shoe events (:meth:`Dealer.timed`); stop after ``shoes`` shoes.

        Each event is published after its wait, answering resyncs meanwhile.
        Returns the number of coups published.
        """
        finished = 0
        coups = 0
        for wait, event in events:
            if self._stopping.is_set():
                break
            self.wait(wait)
            if self._stopping.is_set():
                break
            self._publish_shoe_event(event)
            if isinstance(event, CoupReceived):
                coups += 1
            elif isinstance(event, Shuffle):
                finished += 1
                log.info("controller: shoe %s ended after %d games", self.shoe_id, len(self.games))
                if shoes is not None and finished >= shoes:
                    break
        return coups

    def _publish_shoe_event(self, event: ShoeEvent) -> None:
        """Publish one dealer event as protocol.md says (a snapshot after what changes it)."""
        if isinstance(event, CoupReceived):
            self.games.append(event.game)
            event = CoupReceived(event.shoe, event.game, utc_now())
        elif isinstance(event, NewShoe):
            self.shoe_id, self.games = event.shoe, []
            log.info("controller: shoe %s", event.shoe)
        self.publish(event)
        if isinstance(event, CoupReceived | NewShoe):
            self._publish_snapshot()

    def linger(self, seconds: float) -> None:
        """Stay online (answering resyncs) for a while after the last shoe."""
        self.wait(seconds)


def start_background_controller(
    endpoint: Endpoint,
    *,
    dealer: Dealer,
    limits: Limits,
    pace: float = 2.0,
    shuffle_seconds: float | None = None,
) -> tuple[Controller, threading.Thread]:
    """A controller dealing forever on a daemon thread (``scoreboard demo --mqtt``).

    Stop it with ``controller.stop()``.
    """
    controller = Controller(endpoint, limits=limits)
    controller.start()
    timed = dealer.timed(pace, 3 * pace if shuffle_seconds is None else shuffle_seconds)
    thread = threading.Thread(
        target=controller.deal, args=(timed,), daemon=True, name="scoreboard-controller"
    )
    thread.start()
    return controller, thread
