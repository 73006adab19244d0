"""The simulated shoe controller's dealing: timed dealer events out, resyncs answered.

The :class:`Controller` publishes on the calling thread only; the link's
events (a (re)connect, a resync request, a pit command) are read by its
:class:`~scoreboard.controller.inbox.ControllerInbox` on that same thread.
While the broker is unreachable it waits (a real shoe cannot deal into the
void either) and on reconnect re-announces its status, the limits and the
snapshot, since a broker without persistence forgets retained messages.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

from scoreboard.controller._pit_desk import after
from scoreboard.controller.inbox import ControllerInbox
from scoreboard.controller.pit_counter import PitCounter
from scoreboard.controller.sessions import SessionStore, ShoeMark
from scoreboard.controller.stream import SessionStream
from scoreboard.game.limits import Limits
from scoreboard.game.rules import Game
from scoreboard.game.shoe import Dealer, ShoeEvent
from scoreboard.link.client import Link, default_client_id
from scoreboard.protocol import (
    Burn,
    ControllerStatus,
    CoupReceived,
    CutCard,
    Event,
    LimitsReceived,
    NewShoe,
    Origin,
    Shuffle,
    Snapshot,
)
from scoreboard.settings.endpoint import Endpoint
from scoreboard.table.shoe_watch import deals_of

log = logging.getLogger("scoreboard.controller")  # one name in the logs for the whole controller

RESYNC_MIN_INTERVAL = 0.25  # seconds between two answers to cmd/resync
#: How long a stop waits for the broker to take what is queued (the offline status last):
#: a service stop ends within seconds even with the broker gone (then the will says offline).
STOP_FLUSH_SECONDS = 2.0


def utc_now() -> str:
    """The wall-clock time of a coup or snapshot, as protocol.md writes it."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


class Controller:
    """Publishes shoe events from a dealer to one table's topics, as contract v2 says."""

    def __init__(
        self,
        endpoint: Endpoint,
        *,
        limits: Limits | None,
        client_id: str | None = None,
        state_dir: Path | None = None,
        cards: bool = False,
        table_name: str = "",
    ) -> None:
        """``cards``: publish a ``deal`` event for each card as it leaves the shoe, before its
        coup (as a card-reading shoe's bridge does), spread over the wait for the coup.
        ``table_name``: said in every birth, for displays that are given none."""
        self.endpoint = endpoint
        self.cards = cards
        self.table_name = table_name
        self.topics = endpoint.topics
        #: The limits it was given; None: it knows none and publishes none (displays keep theirs).
        self.limits = limits
        self.inbox = ControllerInbox(endpoint.topics, endpoint.hmac_key)
        self.sessions = SessionStore(state_dir)
        self._wakeup = threading.Event()
        self.stream = SessionStream(
            endpoint,
            sessions=self.sessions,
            client_id=client_id or default_client_id("controller", endpoint.topics),
            wake=self._wakeup.set,
        )
        self._stopping = threading.Event()
        self._last_resync = float("-inf")
        self.shoe_id: str | None = None
        self.games: list[Game] = []
        #: The last finished shoe, kept to answer a resync that names it.
        self.previous: Snapshot | None = None
        #: The pit's commands (cmd/pit): voided games, and the dealer's game numbers
        #: skipped by a new shoe the pit started in the middle of the dealer's.
        self.pit = PitCounter()
        self.voided: list[int] = []
        self._skipped = 0
        #: Limits the pit scheduled, still to come: published after the current ones.
        self.scheduled: LimitsReceived | None = None

    @property
    def client_id(self) -> str:
        return self.stream.client_id

    @property
    def link(self) -> Link:
        """The link of the current session (a new one after every dropped connection)."""
        return self.stream.link

    @property
    def origin(self) -> Origin:
        """The current session and the seq of the last payload published in it."""
        return self.stream.origin

    @property
    def session(self) -> int:
        """The session of the current connection (or of the next one, while it connects)."""
        return self.stream.session

    def _renew_link(self) -> None:
        """The connection dropped: end that link, open one with a new session and will."""
        self.stream.renew()
        log.info("controller: new session %d", self.session)

    # -- publishing ---------------------------------------------------------------
    def start(self) -> None:
        self.stream.start()

    def stop_dealing(self) -> None:
        """Make :meth:`deal` and :meth:`linger` return at their next step (any thread)."""
        self._stopping.set()
        self._wakeup.set()

    def stop(self) -> None:
        """Stop dealing, publish ``offline`` (retained), flush what is queued, disconnect."""
        self.stop_dealing()
        # Even while reconnecting: paho sends it after what it still holds (an online
        # status queued before a drop), so offline is the last word.
        self.publish(ControllerStatus(False), retain=True)
        self.flush(timeout=STOP_FLUSH_SECONDS)
        self.link.stop()

    def publish(self, event: Event, *, retain: bool = False) -> None:
        """Publish ``event`` stamped with the session and its seq."""
        self.stream.publish(event, retain=retain)

    def flush(self, timeout: float) -> bool:
        """Wait until everything published so far has been acknowledged by the broker."""
        return self.stream.flush(timeout)

    def snapshot(self) -> Snapshot | None:
        if self.shoe_id is None:
            return None
        return Snapshot(self.shoe_id, tuple(self.games), tuple(self.voided), utc_now())

    def _publish_snapshot(self) -> None:
        snapshot = self.snapshot()
        if snapshot is not None:
            self.publish(snapshot, retain=True)

    def _answer_resync(self) -> None:
        """The current shoe's snapshot (the previous one's when a request named it), the limits.

        The limits go again too: on a broker that keeps retained messages per node
        (RabbitMQ 3.x) a display on another node never got the retained ones.
        """
        asked, self.inbox.shoes_asked = self.inbox.shoes_asked, set()
        if self.previous is not None and self.previous.shoe in asked:
            # Not retained: the retained snapshot stays the current shoe's.
            self.publish(dataclasses.replace(self.previous, ts=utc_now()))
        self._publish_limits()
        self._publish_snapshot()

    def _publish_limits(self) -> None:
        """The limits now (retained), then a schedule still to come, so the retained one
        that late displays get is the schedule (docs/protocol.md, "Scheduled limits").

        A controller that knows no limits publishes none (displays keep theirs)."""
        due = self.scheduled
        if due is not None and (due.effective_at or 0.0) <= time.time():
            self.limits, self.scheduled = due.limits, None
        if self.limits is not None:
            self.publish(LimitsReceived(self.limits), retain=True)
        if self.scheduled is not None:
            self.publish(self.scheduled, retain=True)

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
                failure = self.inbox.last_failure
                log.warning(
                    "controller: waiting for the broker %s (%.0f s so far%s)",
                    self.endpoint.mqtt.broker_names,
                    time.monotonic() - waiting_since,
                    f"; last tried {failure}" if failure else "",
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
            birth = ControllerStatus(True, name=self.table_name)
            self.publish(birth, retain=True)  # the session's birth: seq 1
            self._publish_limits()
            self._publish_snapshot()
            log.info("controller: online on %s, session %d", self.topics.prefix, self.session)
        now = time.monotonic()
        if self.inbox.resync_due and now - self._last_resync >= RESYNC_MIN_INTERVAL:
            self.inbox.resync_due = False
            self._last_resync = now
            self._answer_resync()
        self.pit.serve(self.inbox, self.snapshot, self._apply_pit, self.stream.answer)

    def _apply_pit(self, event: Event) -> None:
        """A pit command's event: this shoe changed, the event, then the fresh snapshot."""
        if isinstance(event, LimitsReceived):
            if event.effective_at is None:
                self.limits = event.limits  # a pending schedule stays, as protocol.md says
            else:
                self.scheduled = event
            self._publish_limits()
            return
        if isinstance(event, NewShoe):
            self._skipped += len(self.games) + len(self.voided)
            event = self._begin_shoe(event.shoe)
        else:
            shoe = after(self.snapshot(), (event,))
            assert shoe is not None  # the desk voids and corrects only games of this shoe
            self.games, self.voided = list(shoe.games), list(shoe.voided)
        self.publish(event)
        self._publish_shoe_snapshot()

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
            if self.cards and isinstance(event, CoupReceived):
                self._deal_cards(event, wait)
            else:
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

    # -- the cards as they leave the shoe (issue 23) --
    def _deal_cards(self, coup: CoupReceived, wait: float) -> None:
        """Each card of ``coup`` as a ``deal`` event, face withheld (as an Angel Eye does),
        evenly within ``wait``; the coup follows at its end."""
        dealt = deals_of(coup.shoe, coup.game)
        step = wait / (len(dealt) + 1)
        for card in dealt:
            self.wait(step)
            if self._stopping.is_set():
                return
            self.publish(card)
        self.wait(step)

    def _publish_shoe_event(self, event: ShoeEvent) -> None:
        """Publish one dealer event as protocol.md says (a snapshot after what changes it)."""
        if isinstance(event, CoupReceived):
            game = Game(event.game.number - self._skipped, event.game.coup)
            self.games.append(game)
            event = CoupReceived(self.shoe_id or event.shoe, game, utc_now())
        elif isinstance(event, NewShoe):
            self._skipped = 0
            event = self._begin_shoe(event.shoe, event.decks)
        elif isinstance(event, Shuffle | Burn | CutCard) and event.shoe is None:
            event = dataclasses.replace(event, shoe=self.shoe_id)
        self.publish(event)
        if isinstance(event, CoupReceived | NewShoe):
            self._publish_shoe_snapshot()

    def _publish_shoe_snapshot(self) -> None:
        """Remember how far the shoe went (across restarts), then publish its snapshot."""
        if self.shoe_id is not None:
            self.sessions.remember_shoe(self.shoe_id, len(self.games) + len(self.voided))
        self._publish_snapshot()

    def _begin_shoe(self, shoe: str, decks: int | None = None) -> NewShoe:
        """The new shoe's event (with its decks), naming the one before it (kept for resyncs)."""
        before = self.sessions.last_shoe
        if self.shoe_id is not None:
            self.previous = Snapshot(self.shoe_id, tuple(self.games), tuple(self.voided))
            before = ShoeMark(self.shoe_id, len(self.games) + len(self.voided))
        self.shoe_id, self.games, self.voided = shoe, [], []
        log.info("controller: shoe %s", shoe)
        if before is None:
            return NewShoe(shoe, decks=decks)  # the very first shoe of a controller with no history
        return NewShoe(shoe, before.shoe, before.games, decks=decks)

    def take_history(self, events: Iterable[ShoeEvent]) -> None:
        """Start mid-shoe: the shoe dealt before the controller came on (attract mode).

        Nothing is published: the games join the snapshot that goes out on
        connect, so a display takes them in at once, as history.
        """
        for event in events:
            if isinstance(event, NewShoe):
                self._begin_shoe(event.shoe)
            elif isinstance(event, CoupReceived):
                self.games.append(event.game)
        if self.shoe_id is not None:
            self.sessions.remember_shoe(self.shoe_id, len(self.games))
            log.info("controller: starting mid-shoe, %d games dealt", len(self.games))

    def linger(self, seconds: float) -> None:
        """Stay online (answering resyncs) for a while after the last shoe."""
        self.wait(seconds)


def start_background_controller(
    endpoint: Endpoint,
    *,
    dealer: Dealer,
    limits: Limits | None,
    pace: float = 2.0,
    shuffle_seconds: float | None = None,
    history: Iterable[ShoeEvent] = (),
    timed: Iterable[tuple[float, ShoeEvent]] | None = None,
) -> tuple[Controller, threading.Thread]:
    """A controller dealing forever on a daemon thread (``scoreboard demo --mqtt``).

    ``history`` is the shoe dealt before it came on (see :meth:`Controller.take_history`);
    ``timed`` what it deals next (default ``dealer.timed(pace, shuffle_seconds)``).
    Stop it with ``controller.stop()``.
    """
    controller = Controller(endpoint, limits=limits)
    controller.take_history(history)
    controller.start()
    if timed is None:
        timed = dealer.timed(pace, 3 * pace if shuffle_seconds is None else shuffle_seconds)
    thread = threading.Thread(
        target=controller.deal, args=(timed,), daemon=True, name="scoreboard-controller"
    )
    thread.start()
    return controller, thread
