"""The display's side of the MQTT link: link events and a clock in, actions out.

A :class:`DisplaySession` is a plain object with no thread and no socket.
:meth:`DisplaySession.step` queues the link events drained since the last call
(:mod:`scoreboard.link.client`), then, given the table and ``now`` (the loop's
monotonic time),

- works through the queue for at most a time slice (``budget`` seconds of the
  session's own ``clock``), so the kiosk draws and the status goes out between
  slices however large a burst is; what is left waits (``next_deadline`` is
  then ``now``).  Of the queued retained snapshots only the newest is decoded,
  and one byte-identical to the last applied is not decoded at all (:mod:`.backlog`);
- parses each message, applies it (:func:`~scoreboard.table.state.apply_event`)
  and journals what must survive a restart (``journal.keep``), a flood of
  refused coups of one game at most a few lines;
- counts what it refuses or ignores (protocol errors, conflicts, overrides, stale
  events) and logs a repeated refusal once, then a summary a minute (:mod:`.repeats`);
- asks the controller for a resync while games are missing, in this shoe or at the
  end of the previous one (at once, then after 2 s, doubling to 10 s; :mod:`.resync`),
  and when no snapshot came after subscribing (a broker that lost or never had the
  retained one: jittered, backing off to a minute);
- keeps the feed mark: connecting, offline, controller offline (its status
  says so, or none came within a second of subscribing), missing games, live; a
  controller payload published just now (not from the retained store) shows it
  online where its retained status never arrives (another RabbitMQ node);
- returns what to publish: the resync requests and the display's retained
  status, the latter when it changed (at most every 0.5 s while a backlog is
  worked through) and again on every connect (:mod:`.pacing`).

>>> from scoreboard.settings.config import MqttConfig
>>> from scoreboard.settings.endpoint import Endpoint
>>> from scoreboard.table.state import TableState
>>> from scoreboard.link.client import Connected, Subscribed
>>> from scoreboard.protocol import Topics
>>> session = DisplaySession(Endpoint(MqttConfig(), Topics("doc/v1/T1")), "d1")
>>> session.status(0.0).value
'connecting'
>>> [p.topic for p in session.step([Connected(False), Subscribed()], TableState(), 0.0)]
['doc/v1/T1/display/d1/status']
>>> session.status(0.5).value, session.status(1.0).value
('live', 'controller offline')
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Protocol

from scoreboard.feeds._backlog import STEP_BUDGET, Backlog
from scoreboard.feeds._following import Following
from scoreboard.feeds._pacing import StatusPacing
from scoreboard.feeds._resync import (
    ResyncSchedule,
    SnapshotWatch,
    resync_message,
    wanted_resyncs,
)
from scoreboard.feeds.repeats import (
    Announcements,
    OnceLog,
    RateLog,
    Refusals,
    game_ranges,
)
from scoreboard.game.events import (
    ControllerStatus,
    Event,
    LimitsReceived,
    Origin,
    ResyncRequest,
    Snapshot,
)
from scoreboard.game.limits import Limits, describe
from scoreboard.link.client import (
    Connected,
    Disconnected,
    LinkEvent,
    Message,
    Publish,
    Refused,
    Subscribed,
    Unreachable,
)
from scoreboard.protocol import ProtocolError, parse_message
from scoreboard.protocol.display import DISPLAY_OFFLINE, display_status
from scoreboard.settings.endpoint import Endpoint
from scoreboard.settings.reader import host_port
from scoreboard.table.applied import Applied, FeedStatus
from scoreboard.table.health import JournalHealth, RenderHealth
from scoreboard.table.state import TableState, apply_event
from scoreboard.table.visible import escaped

__all__ = ["CONTROLLER_STATUS_GRACE", "IGNORED", "DisplaySession", "Keeper", "feed_word"]

log = logging.getLogger(__name__)

# After subscribing, a live controller's retained status arrives at once; with none
# by then, no controller has announced itself since the broker (re)started.
#: A rejection's log line quotes at most this many characters of why.
MAX_LOGGED_REASON = 300
CONTROLLER_STATUS_GRACE = 1.0
#: Why a message was received and left unapplied: a newer snapshot was queued, the
#: snapshot was the one applied last, an older controller session, a replay of this one.
IGNORED = ("superseded", "unchanged", "stale", "replay")


class Keeper(Protocol):
    """Where applied events go to survive a restart (:class:`~scoreboard.journal.Journal`)."""

    def keep(self, event: Event, table: TableState, applied: Applied) -> None: ...

    @property
    def health(self) -> JournalHealth: ...


def feed_word(status: FeedStatus) -> str:
    """The ``feed`` field of the display status: the mark's word, ``connected`` when live.

    >>> feed_word(FeedStatus.LIVE), feed_word(FeedStatus.MISSING_GAMES)
    ('connected', 'missing games')
    """
    return "connected" if status is FeedStatus.LIVE else status.value


class DisplaySession:
    """One display's view of its link: what it applied, refused, shows and must publish."""

    def __init__(
        self,
        endpoint: Endpoint,
        display_id: str,
        *,
        journal: Keeper | None = None,
        on_applied: Callable[[Event, float], None] | None = None,
        budget: float = STEP_BUDGET,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.endpoint = endpoint
        self.display_id = display_id
        self.journal = journal
        #: Called after each event that changed the table, with its receive time (benchmarks).
        self.on_applied = on_applied
        #: Seconds of ``clock`` one step may spend on queued events (at least one is handled).
        self.budget = budget
        self._clock = clock
        self.status_topic = endpoint.topics.display_status(display_id)
        self.connected = False
        self.ever_connected = False
        self.controller_online: bool | None = None
        self.subscribed_at: float | None = None
        #: The broker of the current (or last) connection, ``host:port``.
        self.broker = ""
        #: Resyncs asked because no snapshot came after subscribing.
        self.snapshot_requests = 0
        self.applied = 0
        self.rejected = 0
        self.rejected_by_reason: Counter[str] = Counter()
        #: What was received but left unapplied, by reason (:data:`IGNORED`).  Not
        #: rejections: a superseded snapshot is dropped unread, good or bad.
        self.ignored: Counter[str] = Counter()
        #: Snapshot payloads decoded (the expensive part of a burst).
        self.snapshots_decoded = 0
        #: The kiosk's last word on drawing (:meth:`report`), for the status.
        self.render = RenderHealth()
        #: The controller sent limits: the status names it, not the config, as their source.
        self.limits_heard = False
        self._pending = Backlog(endpoint.topics.snapshot)
        self._failures = OnceLog(lambda level, line: log.log(level, "%s", line))
        self._missing: tuple[int, ...] = ()
        self._resyncs = ResyncSchedule()
        self._snapshots = SnapshotWatch()
        self._pacing = StatusPacing()
        self._refusals = Refusals()
        self._following = Following()  # is the board still following the one that talks?
        self._rejections = RateLog(
            lambda line: log.warning("%s", line),
            "mqtt: rejected ({}): {:,} more in the last minute (not logged one by one)",
        )
        self._announce = Announcements(lambda level, line: log.log(level, "%s", line), "mqtt: ")

    @property
    def subscribed(self) -> bool:
        """True once the broker answered the subscriptions of the current connection."""
        return self.subscribed_at is not None

    @property
    def backlog(self) -> int:
        """Link events queued and not yet handled (a burst being worked through)."""
        return len(self._pending)

    @property
    def will(self) -> Publish:
        """The last will the link leaves with the broker: this display went offline."""
        return Publish(self.status_topic, DISPLAY_OFFLINE, qos=1, retain=True)

    def goodbye(self) -> Publish | None:
        """What to publish on a clean stop (a will is only sent on a broken connection)."""
        return self.will if self.connected else None

    def journal_health(self) -> JournalHealth:
        """The journal's own word on its health; ``off`` without one."""
        health = getattr(self.journal, "health", None)
        return health if isinstance(health, JournalHealth) else JournalHealth()

    # -- the step --------------------------------------------------------------------------
    def queue(self, events: Iterable[LinkEvent]) -> None:
        """Add link events to the backlog, oldest first."""
        self._pending.extend(events)

    def step(self, events: Iterable[LinkEvent], table: TableState, now: float) -> list[Publish]:
        """Queue ``events``, work through one time slice at ``now``; returns what to publish."""
        self.queue(events)
        for event in self._pending.slice(self.budget, self._clock):
            try:
                self._handle(event, table, now)
            except Exception:  # a bug must not stop the board: keep the last good state
                self._reject("internal error", f"while handling {type(event).__name__}", now)
                log.exception("mqtt: error while handling input (ignored)")
        self._missing = table.missing
        self._refusals.summarise(table.shoe_id, now)
        self._rejections.flush(now)
        self._announce.flush(now)
        actions = self._resync(table, now)
        status = self._status_message(table, now)
        if status is not None:
            actions.append(status)
        return actions

    def status(self, now: float) -> FeedStatus:
        """The feed mark at ``now``."""
        if not self.connected:
            return FeedStatus.OFFLINE if self.ever_connected else FeedStatus.CONNECTING
        if self.controller_online is False or self._controller_silent(now) or self._following.lost:
            return FeedStatus.CONTROLLER_OFFLINE
        if self._missing:
            return FeedStatus.MISSING_GAMES
        return FeedStatus.LIVE

    def next_deadline(self, now: float) -> float | None:
        """When :meth:`step` must run again without input: a backlog, a resync, a status..."""
        if self._pending:
            return now
        deadlines = [
            self._refusals.next_due(),
            self._rejections.next_due(),
            self._announce.next_due(),
        ]
        if self.connected:
            deadlines += [self._resyncs.next_at, self._snapshots.next_at, self._pacing.next_due()]
            if self.controller_online is None and self.subscribed_at is not None:
                silent_from = self.subscribed_at + CONTROLLER_STATUS_GRACE
                if silent_from > now:
                    deadlines.append(silent_from)
        due = [deadline for deadline in deadlines if deadline is not None]
        return min(due) if due else None

    def _controller_silent(self, now: float) -> bool:
        """Subscribed for a while and still no controller status (not even a retained one)."""
        return (
            self.controller_online is None
            and self.subscribed_at is not None
            and now - self.subscribed_at >= CONTROLLER_STATUS_GRACE
        )

    # -- link events -----------------------------------------------------------------------
    def _handle(self, event: LinkEvent, table: TableState, now: float) -> None:
        match event:
            case Connected():
                self._connected(event, table, now)
            case Subscribed(refused=refused):
                if refused:
                    log.error("mqtt: broker refused subscriptions: %s", ", ".join(refused))
                self.subscribed_at = now if self.connected else None
                if self.connected:
                    self._snapshots.subscribed(now)
            case Disconnected(reason=reason, broker=broker):
                if self.connected:
                    log.warning(
                        "mqtt: disconnected from %s (%s); reconnecting",
                        broker or self.broker,
                        reason,
                    )
                self.connected = False
                self.subscribed_at = None
                self._snapshots.lost()
            case Refused(reason=reason):
                self._failures.report(
                    logging.ERROR, "mqtt: broker refused the connection: %s (retrying)", reason
                )
                self.connected = False
            case Unreachable():
                settings = self.endpoint.mqtt
                reason = event.reason  # why, where the link says (TLS...)
                self._failures.report(
                    logging.WARNING,
                    "mqtt: broker %s unreachable%s; %s",
                    event.broker or host_port(settings.host, settings.port),
                    f" ({reason})" if reason else "",
                    "trying the next" if settings.fallbacks else "retrying every 1-10 s",
                )
            case Message():
                self._message(event, table, now)

    def _connected(self, event: Connected, table: TableState, now: float) -> None:
        self._failures.clear()
        self.connected = True
        self.ever_connected = True
        self._pacing.reconnected()  # republish on every connect
        self.controller_online = None  # until its (retained) status arrives again
        self.subscribed_at = None
        self._resyncs.reconnected(now, bool(table.missing))
        settings = self.endpoint.mqtt
        self.broker = event.broker or host_port(settings.host, settings.port)
        log.info("mqtt: connected to %s", self.broker)

    def _message(self, message: Message, table: TableState, now: float) -> None:
        if message.topic == self.endpoint.topics.snapshot:
            self._snapshots.seen()
            skipped = self._pending.skipped(message)
            if skipped is not None:
                self.ignored[skipped] += 1
                return
            if message.payload:
                self.snapshots_decoded += 1
        if not message.payload:
            log.debug("mqtt: %s: retained message cleared", message.topic)
            return
        try:
            event = parse_message(
                self.endpoint.topics, message.topic, message.payload, key=self.endpoint.hmac_key
            )
        except ProtocolError as error:
            self._reject(error.reason, str(error), now)
            return
        if isinstance(event, ControllerStatus):
            self._controller_status(event, message, table, now)
        elif not isinstance(event, ResyncRequest):
            self._apply(event, message, table, now)
            if isinstance(event, Snapshot):
                self._pending.applied(message.payload)

    def _controller_status(
        self, event: ControllerStatus, message: Message, table: TableState, now: float
    ) -> None:
        """The controller's birth or will; one of a session the table left behind is stale."""
        if event.origin is not None:
            if not event.online and not table.follows(event.origin.session):
                self._ignore_stale("stale", now)
                return
            # The core adopts the controller's session from its birth.
            if self._apply(event, message, table, now):
                return
        if event.online != self.controller_online:
            log.info("mqtt: controller %s", "online" if event.online else "offline")
        self.controller_online = event.online

    def _apply(self, event: Event, message: Message, table: TableState, now: float) -> bool:
        """Apply, count, log and journal ``event``; True when it was stale (ignored)."""
        before, limits = table.position, table.limits
        shoe = getattr(event, "shoe", None)
        finished = shoe is not None and table.is_archived(shoe)
        applied = apply_event(table, event)
        if finished and not applied.stale and not applied.changed and applied.completed is None:
            self._names_a_finished_shoe(event, str(shoe), now)  # no news of the deal
            return False
        if applied.stale:
            self._stale(event, before, now)
            return True
        if getattr(event, "origin", None) is not None:
            self._following.heard(now)
            if not message.retained:
                self._heard_live(event)
        if applied.conflicts:
            self._conflict(event, applied, message, table, now)
        if applied.overrides:
            self.rejected_by_reason["snapshot override"] += 1
            log.warning(
                "mqtt: %s: games %s changed or voided by the snapshot (a missed correct or void?)",
                message.topic,
                game_ranges(applied.overrides),
            )
        if applied.changed:
            self.applied += 1
        self._limits_said(event, limits, table)
        self._announce(applied, now)
        # Rejected or not, a retired original is journaled: a restart must remember it.
        if self.journal is not None and self._refusals.worth_a_line(event, applied):
            self.journal.keep(event, table, applied)
        if applied.changed and self.on_applied is not None:
            self.on_applied(event, message.received_at)
        return False

    def _limits_said(self, event: Event, before: Limits, table: TableState) -> None:
        """The controller's limits replace the config's (or its earlier ones): one line."""
        if not isinstance(event, LimitsReceived):
            return
        self.limits_heard = True
        if table.limits != before:
            log.info(
                "mqtt: limits %s -> %s (the controller's)",
                escaped(describe(before)),
                escaped(describe(table.limits)),
            )

    def _heard_live(self, event: Event) -> None:
        """A payload the controller published just now, applied: it is online.

        Where its retained status never arrives (RabbitMQ keeps retained messages
        per node) the mark would otherwise stay at controller offline.  A payload
        that applied is newer than any will the display holds (a will stands after
        its session's payloads), so it overrides an offline status too.
        """
        if isinstance(event, ControllerStatus) or self.controller_online:
            return
        log.info("mqtt: controller online (heard from it; no retained status came)")
        self.controller_online = True

    def _conflict(
        self, event: Event, applied: Applied, message: Message, table: TableState, now: float
    ) -> None:
        """Count every conflict; log the first of each game, then a summary a minute."""
        self.rejected += 1
        self.rejected_by_reason["conflict"] += 1
        self._refusals.conflict(event, applied, message.topic, table, now)

    def _stale(self, event: Event, before: Origin | None, now: float) -> None:
        """A payload older than the position: a replay of the followed session, or another's."""
        origin = getattr(event, "origin", None)
        same = before is not None and origin is not None and before.session == origin.session
        self._ignore_stale("replay" if same else "stale", now)
        if origin is not None and not same:
            self._following.older_session(origin, before, now)

    def _names_a_finished_shoe(self, event: Event, shoe: str, now: float) -> None:
        """A payload about a shoe the board finished, changing nothing: counted, and watched."""
        self._ignore_stale("stale", now)  # news of nothing the board shows
        origin = getattr(event, "origin", None)
        if origin is not None:
            self._following.finished_shoe(origin, shoe, now)

    def _ignore_stale(self, reason: str, now: float) -> None:
        self.ignored[reason] += 1
        self._refusals.ignored(reason, now)

    def _reject(self, reason: str, message: str, now: float) -> None:
        """Count every rejection; log the first few of each reason a minute in full."""
        self.rejected += 1
        self.rejected_by_reason[reason] += 1
        if len(message) > MAX_LOGGED_REASON:  # a hostile value must not become a 60 kB line
            message = message[:MAX_LOGGED_REASON] + "…"
        self._rejections.note(reason, now, f"mqtt: rejected ({reason}): {message}")

    # -- what to publish -------------------------------------------------------------------
    def _resync(self, table: TableState, now: float) -> list[Publish]:
        wanted = wanted_resyncs(self.display_id, table, self._missing)
        # Never while offline, nor while what is missing may be in the backlog.
        ready = self.connected and not self._pending
        due = self._resyncs.due(wanted, ready=ready, now=now)
        if due:
            self._snapshots.asked(now)
        # Nobody answers while the controller's will says it is offline.
        elif self._snapshots.due(now, ready=ready and self.controller_online is not False):
            self.snapshot_requests += 1
            due = [ResyncRequest(self.display_id, table.shoe_id, ())]
        return [resync_message(self.endpoint, request) for request in due]

    def _status_message(self, table: TableState, now: float) -> Publish | None:
        """The retained status when it changed, paced while a backlog is worked through."""
        if not self.connected:
            return None
        status = display_status(
            self.display_id,
            table,
            rejected=self.rejected,
            feed=feed_word(self.status(now)),
            render=self.render,
            journal=self.journal_health(),
            ignored={reason: self.ignored[reason] for reason in IGNORED},
            limits_heard=self.limits_heard,
        )
        status["broker"] = self.broker
        payload = self._pacing.offer(status, now, busy=bool(self._pending))
        if payload is None:
            return None
        return Publish(self.status_topic, payload, qos=1, retain=True)
