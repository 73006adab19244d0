"""The display's side of the MQTT link: link events and a clock in, actions out.

A :class:`DisplaySession` is a plain object with no thread, no socket and no
clock of its own.  :meth:`DisplaySession.step` takes the link events drained
since the last call (:mod:`scoreboard.link`), the table and ``now`` (the
loop's monotonic time) and

- parses each message, applies it (:func:`~scoreboard.core.table.apply_event`)
  and journals what must survive a restart (``journal.keep``);
- counts and logs what it refuses: protocol errors, conflicts, and the
  overrides a newer snapshot brought;
- asks the controller for a resync while games are missing (at once, then
  after 2 s, doubling to 10 s);
- keeps the feed mark: connecting, offline, controller offline (its status
  says so, or none came within a second of subscribing), missing games, live;
- returns what to publish: the resync requests and the display's retained
  status, the latter only when it changed (and again on every connect).

>>> from scoreboard.config import Endpoint, MqttConfig
>>> from scoreboard.core.table import TableState
>>> from scoreboard.link import Connected, Subscribed
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
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Protocol

from scoreboard.config import Endpoint
from scoreboard.core.events import ControllerStatus, Event, ResyncRequest, Snapshot
from scoreboard.core.table import Applied, FeedStatus, TableState, apply_event
from scoreboard.link import (
    Connected,
    Disconnected,
    LinkEvent,
    Message,
    Publish,
    Refused,
    Subscribed,
    Unreachable,
)
from scoreboard.protocol import (
    DISPLAY_OFFLINE,
    ProtocolError,
    canonical_json,
    display_status,
    parse_message,
    wire,
)

log = logging.getLogger(__name__)

RESYNC_FIRST_RETRY = 2.0
RESYNC_MAX_RETRY = 10.0
# After subscribing, a live controller's retained status arrives at once; with none
# by then, no controller has announced itself since the broker (re)started.
CONTROLLER_STATUS_GRACE = 1.0


class Keeper(Protocol):
    """Where applied events go to survive a restart (:class:`~scoreboard.journal.Journal`)."""

    def keep(self, event: Event, table: TableState, applied: Applied) -> None: ...


def feed_word(status: FeedStatus) -> str:
    """The ``feed`` field of the display status: the mark's word, ``connected`` when live.

    >>> feed_word(FeedStatus.LIVE), feed_word(FeedStatus.MISSING_GAMES)
    ('connected', 'missing games')
    """
    return "connected" if status is FeedStatus.LIVE else status.value


def game_ranges(numbers: Iterable[int]) -> str:
    """Game numbers for a log line, runs folded.

    >>> game_ranges((3, 4, 5, 9, 11, 12)), game_ranges(())
    ('3-5, 9, 11-12', '')
    """
    runs: list[list[int]] = []
    for number in numbers:
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ", ".join(f"{run[0]}-{run[-1]}" if len(run) > 1 else f"{run[0]}" for run in runs)


class DisplaySession:
    """One display's view of its link: what it applied, refused, shows and must publish."""

    def __init__(
        self,
        endpoint: Endpoint,
        display_id: str,
        *,
        journal: Keeper | None = None,
        on_applied: Callable[[Event, float], None] | None = None,
    ) -> None:
        self.endpoint = endpoint
        self.display_id = display_id
        self.journal = journal
        #: Called after each event that changed the table, with its receive time (benchmarks).
        self.on_applied = on_applied
        self.status_topic = endpoint.topics.display_status(display_id)
        self.connected = False
        self.ever_connected = False
        self.controller_online: bool | None = None
        self.subscribed_at: float | None = None
        self.applied = 0
        self.rejected = 0
        self.rejected_by_reason: Counter[str] = Counter()
        self._reported_unreachable = False
        self._missing: tuple[int, ...] = ()
        self._resync_due: float | None = None
        self._resync_interval = RESYNC_FIRST_RETRY
        self._published_status: bytes | None = None

    @property
    def subscribed(self) -> bool:
        """True once the broker answered the subscriptions of the current connection."""
        return self.subscribed_at is not None

    @property
    def will(self) -> Publish:
        """The last will the link leaves with the broker: this display went offline."""
        return Publish(self.status_topic, DISPLAY_OFFLINE, qos=1, retain=True)

    def goodbye(self) -> Publish | None:
        """What to publish on a clean stop (a will is only sent on a broken connection)."""
        return self.will if self.connected else None

    # -- the step --------------------------------------------------------------------------
    def step(self, events: Iterable[LinkEvent], table: TableState, now: float) -> list[Publish]:
        """Apply ``events`` to ``table`` at ``now``; returns what to publish, in order."""
        for event in events:
            try:
                self._handle(event, table, now)
            except Exception:  # a bug must not stop the board: keep the last good state
                self._reject("internal error", f"while handling {type(event).__name__}")
                log.exception("mqtt: error while handling input (ignored)")
        self._missing = table.missing
        actions = self._resync(table, now)
        status = self._status_message(table, now)
        if status is not None:
            actions.append(status)
        return actions

    def status(self, now: float) -> FeedStatus:
        """The feed mark at ``now``."""
        if not self.connected:
            return FeedStatus.OFFLINE if self.ever_connected else FeedStatus.CONNECTING
        if self.controller_online is False or self._controller_silent(now):
            return FeedStatus.CONTROLLER_OFFLINE
        if self._missing:
            return FeedStatus.MISSING_GAMES
        return FeedStatus.LIVE

    def next_deadline(self, now: float) -> float | None:
        """When :meth:`step` must run again without input: a resync or the status grace."""
        if not self.connected:
            return None
        deadlines = [self._resync_due]
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
                self._connected(table, now)
            case Subscribed(refused=refused):
                if refused:
                    log.error("mqtt: broker refused subscriptions: %s", ", ".join(refused))
                self.subscribed_at = now if self.connected else None
            case Disconnected(reason=reason):
                if self.connected:
                    log.warning("mqtt: disconnected (%s); reconnecting", reason)
                self.connected = False
                self.subscribed_at = None
            case Refused(reason=reason):
                self._report_once(
                    logging.ERROR, "mqtt: broker refused the connection: %s (retrying)", reason
                )
                self.connected = False
            case Unreachable():
                settings = self.endpoint.mqtt
                self._report_once(
                    logging.WARNING,
                    "mqtt: broker %s:%d unreachable; retrying every 1-10 s",
                    settings.host,
                    settings.port,
                )
            case Message():
                self._message(event, table)

    def _connected(self, table: TableState, now: float) -> None:
        self._reported_unreachable = False
        self.connected = True
        self.ever_connected = True
        self._published_status = None  # republish on every connect
        self.controller_online = None  # until its (retained) status arrives again
        self.subscribed_at = None
        self._resync_due = now if table.missing else None
        settings = self.endpoint.mqtt
        log.info("mqtt: connected to %s:%d", settings.host, settings.port)

    def _report_once(self, level: int, message: str, *args: object) -> None:
        """Log a failed connection once until the next success (paho retries forever)."""
        if not self._reported_unreachable:
            log.log(level, message, *args)
            self._reported_unreachable = True

    def _message(self, message: Message, table: TableState) -> None:
        if not message.payload:
            log.debug("mqtt: %s: retained message cleared", message.topic)
            return
        try:
            event = parse_message(
                self.endpoint.topics, message.topic, message.payload, key=self.endpoint.hmac_key
            )
        except ProtocolError as error:
            self._reject(error.reason, str(error))
            return
        if isinstance(event, ControllerStatus):
            if event.online != self.controller_online:
                log.info("mqtt: controller %s", "online" if event.online else "offline")
            self.controller_online = event.online
            return
        if isinstance(event, ResyncRequest):
            return
        self._apply(event, message, table)

    def _apply(self, event: Event, message: Message, table: TableState) -> None:
        applied = apply_event(table, event)
        if applied.conflicts:
            self._reject("conflict", f"{message.topic}: {_conflict_text(event, applied, table)}")
        if applied.overrides:
            self.rejected_by_reason["snapshot override"] += 1
            log.warning(
                "mqtt: %s: games %s changed or voided by the snapshot (a missed correct or void?)",
                message.topic,
                game_ranges(applied.overrides),
            )
        if applied.changed:
            self.applied += 1
        # Rejected or not, a retired original is journaled: a restart must remember it.
        if self.journal is not None:
            self.journal.keep(event, table, applied)
        if applied.changed and self.on_applied is not None:
            self.on_applied(event, message.received_at)

    def _reject(self, reason: str, message: str) -> None:
        self.rejected += 1
        self.rejected_by_reason[reason] += 1
        log.warning("mqtt: rejected (%s): %s", reason, message)

    # -- what to publish -------------------------------------------------------------------
    def _resync(self, table: TableState, now: float) -> list[Publish]:
        missing = self._missing
        if not missing:
            self._resync_due = None
            self._resync_interval = RESYNC_FIRST_RETRY
            return []
        if not self.connected:
            return []
        if self._resync_due is None:
            self._resync_due = now
        if now < self._resync_due:
            return []
        request = ResyncRequest(self.display_id, table.shoe_id, missing)
        topic, payload = wire(self.endpoint.topics, request, self.endpoint.hmac_key)
        log.info("mqtt: games %s missing; asked for a resync", game_ranges(missing))
        self._resync_due = now + self._resync_interval
        self._resync_interval = min(self._resync_interval * 2, RESYNC_MAX_RETRY)
        return [Publish(topic, payload, qos=1)]

    def _status_message(self, table: TableState, now: float) -> Publish | None:
        if not self.connected:
            return None
        status = display_status(
            self.display_id, table, rejected=self.rejected, feed=feed_word(self.status(now))
        )
        payload = canonical_json(status)
        if payload == self._published_status:
            return None
        self._published_status = payload
        return Publish(self.status_topic, payload, qos=1, retain=True)


def _conflict_text(event: Event, applied: Applied, table: TableState) -> str:
    """Why a coup or snapshot was refused, for the log."""
    if isinstance(event, Snapshot):
        return (
            f"games {game_ranges(applied.conflicts)} differ from what a void or correct event"
            " (or an earlier coup) set; the display keeps its own"
        )
    number = applied.conflicts[0]
    game = table.game(number)
    kept = f" as {game.coup.winner.value}" if game is not None else ""
    return (
        f"game {number} is already recorded{kept} with different content;"
        " only a correct event may change it"
    )
