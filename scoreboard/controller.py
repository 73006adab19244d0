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

Contract v2: every connection is a new *session* (:class:`SessionStore`:
greater than every earlier one, across restarts), every payload is stamped
with it and the next ``seq`` (a snapshot with the seq of the last payload
before it), and the last will names the session it ends.  A will is fixed when
the client connects, so a dropped connection is not left to paho's own
reconnect: the controller ends that link and opens a new one, with a new
session and a new will.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

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
    MAX_GAME,
    MAX_SEQ,
    MAX_SHOE_ID,
    WILL_SEQ,
    Burn,
    ControllerStatus,
    CoupReceived,
    CutCard,
    Event,
    LimitsReceived,
    NewShoe,
    Origin,
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


#: The file in the controller's state dir that keeps its last session and shoe.
STATE_NAME = "controller.json"

_issued_lock = threading.Lock()
_last_issued = 0  # the last session handed out in this process, whatever its store


def next_session(now_ms: int, last: int | None) -> int:
    """A session greater than ``last``: the clock in milliseconds, or ``last + 1`` if it went back.

    >>> next_session(1_700_000_000_000, None), next_session(1_700_000_000_000, 1_800_000_000_000)
    (1700000000000, 1800000000001)
    """
    return now_ms if last is None or now_ms > last else last + 1


@dataclass(frozen=True, slots=True)
class ShoeMark:
    """A shoe the controller dealt and how many games it published: a new shoe's ``previous``."""

    shoe: str
    games: int


class SessionStore:
    """Where a controller's sessions come from: strictly increasing, across restarts too.

    With a state dir the last session (and the last shoe dealt, for the next
    ``new_shoe``'s ``previous``) is kept in a small file, so a clock set back
    between two runs cannot give a session a display already saw.  Without one
    the wall clock alone orders runs.

    >>> store = SessionStore(None, clock=lambda: 5.0)
    >>> first = store.new_session(); first < store.new_session()
    True
    """

    def __init__(self, state_dir: Path | None, *, clock: Callable[[], float] = time.time) -> None:
        self.path = None if state_dir is None else state_dir / STATE_NAME
        self._clock = clock
        saved = self._load()
        self._last: int | None = saved.get("session")
        self.last_shoe: ShoeMark | None = saved.get("shoe")

    def _load(self) -> dict:
        if self.path is None or not self.path.exists():
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            session, shoe, games = data["session"], data.get("shoe"), data.get("games")
        except (OSError, ValueError, TypeError, KeyError) as error:
            log.warning("controller: ignoring %s (%s)", self.path, error)
            return {}
        saved: dict = {}
        if isinstance(session, int) and 1 <= session <= MAX_SEQ:
            saved["session"] = session
        if isinstance(shoe, str) and 0 < len(shoe) <= MAX_SHOE_ID and isinstance(games, int):
            saved["shoe"] = ShoeMark(shoe, max(0, min(games, MAX_GAME)))
        return saved

    def new_session(self) -> int:
        """The next session, noted before any payload of it is published."""
        global _last_issued
        with _issued_lock:
            last = max(self._last or 0, _last_issued) or None
            session = next_session(int(self._clock() * 1000), last)
            if session > MAX_SEQ:
                raise RuntimeError(f"controller session {session} is past 2^53-1")
            _last_issued = self._last = session
        self._save()
        return session

    def remember_shoe(self, shoe: str, games: int) -> None:
        self.last_shoe = ShoeMark(shoe, games)
        self._save()

    def _save(self) -> None:
        if self.path is None:
            return
        data: dict = {"session": self._last}
        if self.last_shoe is not None:
            data |= {"shoe": self.last_shoe.shoe, "games": self.last_shoe.games}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_suffix(".tmp")
            temporary.write_text(json.dumps(data), encoding="utf-8")
            os.replace(temporary, self.path)
        except OSError as error:  # the clock still orders sessions; say so and go on
            log.warning("controller: cannot keep the session in %s (%s)", self.path, error)


@dataclass(slots=True)
class _Batch:
    """What one :meth:`ControllerInbox.take` read, logged once for the whole batch."""

    asked: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    failed: int = 0


class ControllerInbox:
    """What the controller learns from its link: the connection, announcements, resyncs.

    A plain object fed the link's events on the controller's own thread: a
    (re)connect makes an announcement due, a lost connection makes a new link
    due (a new session, a new will), a valid ``cmd/resync`` makes a snapshot
    due and notes the shoe it names; forgeries and junk are ignored, logged
    once per batch.

    >>> from scoreboard.link import Connected, Disconnected
    >>> inbox = ControllerInbox(Topics("doc/v2/T1"), hmac_key=None)
    >>> inbox.take([Connected(session_present=False)])
    >>> inbox.connected, inbox.announce_due, inbox.resync_due, inbox.renew_due
    (True, True, False, False)
    >>> inbox.take([Disconnected("gone")]); inbox.renew_due
    True
    """

    def __init__(self, topics: Topics, hmac_key: bytes | None) -> None:
        self.topics = topics
        self.hmac_key = hmac_key
        self.connected = False
        self.announce_due = False
        self.resync_due = False
        self.renew_due = False
        #: The shoe ids the resync requests since the last answer named.
        self.shoes_asked: set[str] = set()

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
                        self.renew_due = True
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
            if event.shoe is not None:
                self.shoes_asked.add(event.shoe)

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
    """Publishes shoe events from a dealer to one table's topics, as contract v2 says."""

    def __init__(
        self,
        endpoint: Endpoint,
        *,
        limits: Limits,
        client_id: str | None = None,
        state_dir: Path | None = None,
    ) -> None:
        self.endpoint = endpoint
        self.topics = endpoint.topics
        self.limits = limits
        self.inbox = ControllerInbox(endpoint.topics, endpoint.hmac_key)
        self.sessions = SessionStore(state_dir)
        self.client_id = client_id or default_client_id("controller", endpoint.topics)
        self._lock = threading.Lock()  # stamping and publishing: the dealer's thread and stop()
        self.origin = Origin(self.sessions.new_session(), 0)
        self.link = self._new_link()
        self._wakeup = threading.Event()
        self._stopping = threading.Event()
        self._last_resync = float("-inf")
        self.shoe_id: str | None = None
        self.games: list[Game] = []
        #: The last finished shoe, kept to answer a resync that names it.
        self.previous: Snapshot | None = None
        self._pending: list[Delivery] = []

    @property
    def session(self) -> int:
        """The session of the current connection (or of the next one, while it connects)."""
        return self.origin.session

    def _new_link(self) -> Link:
        """A link whose last will ends the current session."""
        will = ControllerStatus(False, Origin(self.session, WILL_SEQ))
        return Link(
            self.endpoint,
            client_id=self.client_id,
            subscriptions=(self.topics.resync,),
            will=self._message(will, retain=True),
        )

    def _renew_link(self) -> None:
        """The connection dropped: end that link, open one with a new session and will."""
        self.link.stop()
        with self._lock:
            self._pending = []  # lost with the old link; the new session's snapshot heals
            self.origin = Origin(self.sessions.new_session(), 0)
            self.link = self._new_link()
        self.link.start(self._wakeup.set)
        log.info("controller: new session %d", self.session)

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

    def _stamp(self, event: Event) -> Event:
        """``event`` with its origin: the next seq, or for a snapshot the last one (as of)."""
        session, seq = self.origin.session, self.origin.seq
        if not isinstance(event, Snapshot) or seq == 0:
            seq += 1
            self.origin = Origin(session, seq)
        stampable: Any = event
        return dataclasses.replace(stampable, origin=Origin(session, seq))

    def publish(self, event: Event, *, retain: bool = False) -> None:
        with self._lock:
            message = self._message(self._stamp(event), retain=retain)
            info = self.link.publish(message)
            self._pending.append(info)
            if len(self._pending) > 256:
                self._pending = [item for item in self._pending if not item.is_published()]

    def flush(self, timeout: float) -> bool:
        """Wait until everything published so far has been acknowledged by the broker."""
        deadline = time.monotonic() + timeout
        for info in list(self._pending):
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

    def _answer_resync(self) -> None:
        """The current shoe's snapshot, and the previous shoe's when a request named it."""
        asked, self.inbox.shoes_asked = self.inbox.shoes_asked, set()
        if self.previous is not None and self.previous.shoe in asked:
            # Not retained: the retained snapshot stays the current shoe's.
            self.publish(dataclasses.replace(self.previous, ts=utc_now()))
        self._publish_snapshot()

    def _read_link(self) -> None:
        self.inbox.take(self.link.drain(), stopping=self._stopping.is_set())
        if self.inbox.renew_due:
            self.inbox.renew_due = False
            if not self._stopping.is_set():
                self._renew_link()

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
            self.publish(ControllerStatus(True), retain=True)  # the session's birth: seq 1
            self.publish(LimitsReceived(self.limits), retain=True)
            self._publish_snapshot()
            log.info("controller: online on %s, session %d", self.topics.prefix, self.session)
        now = time.monotonic()
        if self.inbox.resync_due and now - self._last_resync >= RESYNC_MIN_INTERVAL:
            self.inbox.resync_due = False
            self._last_resync = now
            self._answer_resync()

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
            event = self._begin_shoe(event.shoe)
        elif isinstance(event, Shuffle | Burn | CutCard) and event.shoe is None:
            event = dataclasses.replace(event, shoe=self.shoe_id)
        self.publish(event)
        if isinstance(event, CoupReceived | NewShoe):
            if self.shoe_id is not None:
                self.sessions.remember_shoe(self.shoe_id, len(self.games))
            self._publish_snapshot()

    def _begin_shoe(self, shoe: str) -> NewShoe:
        """The new shoe's event, naming the one before it (and keeping that one for resyncs)."""
        before = self.sessions.last_shoe
        if self.shoe_id is not None:
            self.previous = Snapshot(self.shoe_id, tuple(self.games))
            before = ShoeMark(self.shoe_id, len(self.games))
        self.shoe_id, self.games = shoe, []
        log.info("controller: shoe %s", shoe)
        if before is None:
            return NewShoe(shoe)  # the very first shoe of a controller with no history
        return NewShoe(shoe, before.shoe, before.games)

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
