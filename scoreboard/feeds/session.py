"""The display's side of the MQTT link: link events and a clock in, actions out.

A :class:`DisplaySession` is a plain object with no thread and no socket.
:meth:`DisplaySession.step` queues the link events drained since the last call
(:mod:`scoreboard.link`), then, given the table and ``now`` (the loop's
monotonic time),

- works through the queue for at most a time slice (``budget`` seconds of the
  session's own ``clock``), so the kiosk draws and the status goes out between
  slices however large a burst is; what is left waits (``next_deadline`` is
  then ``now``).  Of the queued retained snapshots only the newest is decoded,
  and one byte-identical to the last applied is not decoded at all;
- parses each message, applies it (:func:`~scoreboard.core.table.apply_event`)
  and journals what must survive a restart (``journal.keep``), a flood of
  refused coups of one game at most a few lines;
- counts what it refuses or ignores (protocol errors, conflicts, overrides,
  stale events) and logs a repeated refusal once, then a summary a minute;
- asks the controller for a resync while games are missing, in this shoe or
  at the end of the previous one (at once, then after 2 s, doubling to 10 s);
- keeps the feed mark: connecting, offline, controller offline (its status
  says so, or none came within a second of subscribing), missing games, live;
- returns what to publish: the resync requests and the display's retained
  status, the latter when it changed (at most every 0.5 s while a backlog is
  worked through) and again on every connect.

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
import time
from collections import Counter, deque
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Protocol

from scoreboard.config import Endpoint
from scoreboard.core.events import (
    ControllerStatus,
    CoupReceived,
    Event,
    Origin,
    ResyncRequest,
    Snapshot,
)
from scoreboard.core.table import Applied, FeedStatus, TableState, apply_event
from scoreboard.health import JournalHealth, RenderHealth
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
#: Seconds of work per step: the kiosk draws between steps, so a burst never freezes it.
STEP_BUDGET = 0.05
#: While a backlog is worked through, the status goes out at most this often.
BURST_STATUS_INTERVAL = 0.5
#: A status that differs only in ``render.last_frame`` goes out at most this often.
FRAME_STATUS_INTERVAL = 5.0
#: A repeated refusal is logged the first time, then summarised at most this often.
SUMMARY_INTERVAL = 60.0
#: Why a message was received and left unapplied: a newer snapshot was queued, the
#: snapshot was the one applied last, an older controller session, a replay of this one.
IGNORED = ("superseded", "unchanged", "stale", "replay")
#: Refused coups of one game journaled at most (each teaches the table one retired coup).
JOURNALED_REFUSALS_PER_GAME = 4


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


@dataclass(slots=True)
class _Tally:
    logged_at: float
    unreported: int = 0


class RepeatLog:
    """Log the first of a kind at once, then how many more at most once per ``interval``.

    A flood of identical refusals must not become a flood of log lines: each is
    counted, and the log says how many more came.

    >>> lines = []
    >>> repeats = RepeatLog(lines.append, lambda key, n: f"{key}: {n:,} more", interval=60)
    >>> for now in (0, 1, 2, 3):
    ...     repeats.note(["game 12"], now, lambda: "game 12 refused")
    >>> repeats.flush(30), repeats.flush(61), lines
    (None, None, ['game 12 refused', 'game 12: 3 more'])
    """

    def __init__(
        self,
        emit: Callable[[str], None],
        summary: Callable[[Hashable, int], str],
        *,
        interval: float = SUMMARY_INTERVAL,
    ) -> None:
        self._emit, self._summary, self.interval = emit, summary, interval
        self._tallies: dict[Hashable, _Tally] = {}

    def note(self, keys: Iterable[Hashable], now: float, first: Callable[[], str]) -> None:
        """One more of each of ``keys``: logged in full (``first()``) if one is new."""
        new = False
        for key in keys:
            tally = self._tallies.get(key)
            if tally is None:
                self._tallies[key] = _Tally(now)
                new = True
            else:
                tally.unreported += 1
        if new:
            self._emit(first())

    def flush(self, now: float) -> None:
        """Log the summaries that are due."""
        for key, tally in self._tallies.items():
            if tally.unreported and now - tally.logged_at >= self.interval:
                self._emit(self._summary(key, tally.unreported))
                tally.logged_at, tally.unreported = now, 0

    def next_due(self) -> float | None:
        """When the next summary is due, if any is waiting."""
        due = [t.logged_at + self.interval for t in self._tallies.values() if t.unreported]
        return min(due) if due else None

    def forget(self) -> None:
        """Start afresh (a new shoe), the summaries still owed logged first."""
        self.flush(float("inf"))
        self._tallies = {}


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
        self._pending: deque[LinkEvent] = deque()
        self._snapshots_pending = 0
        self._last_snapshot: bytes | None = None
        self._reported_failures: set[str] = set()
        self._missing: tuple[int, ...] = ()
        self._resync_due: float | None = None
        self._resync_interval = RESYNC_FIRST_RETRY
        self._published_status: bytes | None = None
        self._published_gist: bytes | None = None  # the status less the last frame's time
        self._published_at = float("-inf")
        self._status_held = False
        self._refusals_shoe: str | None = None
        self._journaled_refusals: Counter[int] = Counter()
        self._conflicts = RepeatLog(
            lambda line: log.warning("%s", line),
            lambda game, n: f"mqtt: game {game}: {n:,} more conflicting copies refused",
        )
        self._stale = RepeatLog(
            lambda line: log.info("%s", line),
            lambda key, n: f"mqtt: {n:,} more {key} messages ignored",
        )

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
        for event in events:
            if isinstance(event, Message) and event.topic == self.endpoint.topics.snapshot:
                self._snapshots_pending += 1
            self._pending.append(event)

    def step(self, events: Iterable[LinkEvent], table: TableState, now: float) -> list[Publish]:
        """Queue ``events``, work through one time slice at ``now``; returns what to publish."""
        self.queue(events)
        started = self._clock()
        handled = 0
        while self._pending and (handled == 0 or self._clock() - started < self.budget):
            event = self._pending.popleft()
            handled += 1
            try:
                self._handle(event, table, now)
            except Exception:  # a bug must not stop the board: keep the last good state
                self._reject("internal error", f"while handling {type(event).__name__}")
                log.exception("mqtt: error while handling input (ignored)")
        self._missing = table.missing
        self._summarise(table, now)
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
        """When :meth:`step` must run again without input: a backlog, a resync, a status..."""
        if self._pending:
            return now
        deadlines = [self._conflicts.next_due(), self._stale.next_due()]
        if self.connected:
            deadlines.append(self._resync_due)
            if self._status_held:
                deadlines.append(self._published_at + FRAME_STATUS_INTERVAL)
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

    def _summarise(self, table: TableState, now: float) -> None:
        """Log the repeat summaries due; forget the tallies of a shoe no longer shown."""
        if table.shoe_id != self._refusals_shoe:
            self._refusals_shoe = table.shoe_id
            self._conflicts.forget()
            self._journaled_refusals.clear()
        self._conflicts.flush(now)
        self._stale.flush(now)

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
                reason = getattr(event, "reason", "")  # why, where the link says (TLS...)
                self._report_once(
                    logging.WARNING,
                    "mqtt: broker %s:%d unreachable%s; retrying every 1-10 s",
                    settings.host,
                    settings.port,
                    f" ({reason})" if reason else "",
                )
            case Message():
                self._message(event, table, now)

    def _connected(self, table: TableState, now: float) -> None:
        self._reported_failures.clear()
        self.connected = True
        self.ever_connected = True
        self._published_status = None  # republish on every connect
        self.controller_online = None  # until its (retained) status arrives again
        self.subscribed_at = None
        self._resync_due = now if table.missing else None
        settings = self.endpoint.mqtt
        log.info("mqtt: connected to %s:%d", settings.host, settings.port)

    def _report_once(self, level: int, message: str, *args: object) -> None:
        """Log each cause of failed connections once until the next success (paho retries)."""
        line = message % args
        if line not in self._reported_failures:
            log.log(level, "%s", line)
            self._reported_failures.add(line)

    def _message(self, message: Message, table: TableState, now: float) -> None:
        if message.topic == self.endpoint.topics.snapshot:
            self._snapshots_pending -= 1
            if not self._worth_decoding(message):
                return
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
            self._controller_status(event, message, table, now)
        elif not isinstance(event, ResyncRequest):
            self._apply(event, message, table, now)
            if isinstance(event, Snapshot):
                self._last_snapshot = message.payload

    def _worth_decoding(self, message: Message) -> bool:
        """False for a snapshot a newer queued one supersedes, or the one applied last."""
        if self._snapshots_pending > 0:
            self.ignored["superseded"] += 1
            log.debug("mqtt: a snapshot superseded by a newer one queued (not decoded)")
            return False
        if message.payload and message.payload == self._last_snapshot:
            self.ignored["unchanged"] += 1
            log.debug("mqtt: the snapshot applied last, again (not decoded)")
            return False
        if message.payload:
            self.snapshots_decoded += 1
        return True

    def _controller_status(
        self, event: ControllerStatus, message: Message, table: TableState, now: float
    ) -> None:
        """The controller's birth or will; one of a session the table left behind is stale."""
        if event.origin is not None:
            follows: Callable[[int], bool] | None = getattr(table, "follows", None)
            if not event.online and follows is not None and not follows(event.origin.session):
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
        before: Origin | None = getattr(table, "position", None)
        applied = apply_event(table, event)
        if getattr(applied, "stale", False):
            origin = getattr(event, "origin", None)
            same = before is not None and origin is not None and before.session == origin.session
            self._ignore_stale("replay" if same else "stale", now)
            return True
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
        # Rejected or not, a retired original is journaled: a restart must remember it.
        if self.journal is not None and self._worth_a_line(event, applied):
            self.journal.keep(event, table, applied)
        if applied.changed and self.on_applied is not None:
            self.on_applied(event, message.received_at)
        return False

    def _worth_a_line(self, event: Event, applied: Applied) -> bool:
        """False for one more refused coup of a game whose refusals were journaled enough.

        Each refused coup teaches the table one retired coup, which the journal
        keeps; a flood of different ones must not become a line each.
        """
        if applied.changed or not applied.retired:
            return True  # the journal decides (it keeps what changed or retired)
        games = applied.conflicts
        if not games and isinstance(event, CoupReceived):
            games = (event.game.number,)
        if games and all(
            self._journaled_refusals[number] >= JOURNALED_REFUSALS_PER_GAME for number in games
        ):
            return False
        self._journaled_refusals.update(games)
        return True

    def _conflict(
        self, event: Event, applied: Applied, message: Message, table: TableState, now: float
    ) -> None:
        """Count every conflict; log the first of each game, then a summary a minute."""
        self.rejected += 1
        self.rejected_by_reason["conflict"] += 1
        self._conflicts.note(
            applied.conflicts,
            now,
            lambda: f"mqtt: rejected (conflict): {_conflict_text(event, applied, table, message)}",
        )

    def _ignore_stale(self, reason: str, now: float) -> None:
        self.ignored[reason] += 1
        why = "a replay of what the display applied" if reason == "replay" else "an older session"
        self._stale.note([reason], now, lambda: f"mqtt: ignored a {reason} message ({why})")

    def _reject(self, reason: str, message: str) -> None:
        self.rejected += 1
        self.rejected_by_reason[reason] += 1
        log.warning("mqtt: rejected (%s): %s", reason, message)

    # -- what to publish -------------------------------------------------------------------
    def _wanted(self, table: TableState) -> list[ResyncRequest]:
        """The resyncs the table needs: this shoe's gaps, the previous shoe's missing end."""
        wanted = []
        if self._missing:
            wanted.append(ResyncRequest(self.display_id, table.shoe_id, self._missing))
        unfinished = unfinished_shoe(table)
        if unfinished is not None:
            wanted.append(ResyncRequest(self.display_id, *unfinished))
        return wanted

    def _resync(self, table: TableState, now: float) -> list[Publish]:
        wanted = self._wanted(table)
        if not wanted:
            self._resync_due = None
            self._resync_interval = RESYNC_FIRST_RETRY
            return []
        if not self.connected or self._pending:  # what is missing may be in the backlog
            return []
        if self._resync_due is None:
            self._resync_due = now
        if now < self._resync_due:
            return []
        actions = []
        for request in wanted:
            topic, payload = wire(self.endpoint.topics, request, self.endpoint.hmac_key)
            log.info(
                "mqtt: shoe %s: games %s missing; asked for a resync",
                request.shoe,
                game_ranges(request.missing),
            )
            actions.append(Publish(topic, payload, qos=1))
        self._resync_due = now + self._resync_interval
        self._resync_interval = min(self._resync_interval * 2, RESYNC_MAX_RETRY)
        return actions

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
        )
        payload = canonical_json(status)
        status["render"]["last_frame"] = None
        gist = canonical_json(status)
        self._status_held = payload != self._published_status
        if not self._status_held:
            return None
        if self._published_status is not None:  # not the first since connecting
            since = now - self._published_at
            if self._pending and since < BURST_STATUS_INTERVAL:
                return None
            if gist == self._published_gist and since < FRAME_STATUS_INTERVAL:
                return None
        self._published_status, self._published_gist = payload, gist
        self._published_at, self._status_held = now, False
        return Publish(self.status_topic, payload, qos=1, retain=True)


def unfinished_shoe(table: TableState) -> tuple[str, tuple[int, ...]] | None:
    """The previous shoe's id and its missing games while it is unfinished, else None.

    Read from ``table.unfinished`` (an object with ``shoe`` and ``missing``) where
    the table knows it.

    >>> unfinished_shoe(TableState()) is None
    True
    """
    unfinished = getattr(table, "unfinished", None)
    if unfinished is None:
        return None
    return str(unfinished.shoe), tuple(unfinished.missing)


def _conflict_text(event: Event, applied: Applied, table: TableState, message: Message) -> str:
    """Why a coup or snapshot was refused, for the log."""
    if isinstance(event, Snapshot):
        return (
            f"{message.topic}: games {game_ranges(applied.conflicts)} differ from what a void"
            " or correct event (or an earlier coup) set; the display keeps its own"
        )
    number = applied.conflicts[0]
    game = table.game(number)
    kept = f" as {game.coup.winner.value}" if game is not None else ""
    return (
        f"{message.topic}: game {number} is already recorded{kept} with different content;"
        " only a correct event may change it"
    )
