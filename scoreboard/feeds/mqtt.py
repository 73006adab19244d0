"""The live feed: paho's network thread hands raw messages to the app loop.

paho runs callbacks on its own thread, and an exception there silently kills
that thread, so the callbacks here do nothing but put the raw message on a
queue and call ``wake()``, inside a guard that logs whatever goes wrong.  The
app loop then calls :meth:`MqttFeed.poll`, which parses, validates, applies and
journals each message, requests a resync when games are missing, and keeps the
display's retained status topic up to date.
"""

from __future__ import annotations

import logging
import queue
import ssl
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from scoreboard.config import MqttConfig
from scoreboard.core.table import Applied, FeedStatus, TableState, apply_event
from scoreboard.journal import Journal
from scoreboard.protocol import (
    DISPLAY_OFFLINE,
    ControllerStatus,
    Event,
    ProtocolError,
    ResyncRequest,
    Snapshot,
    Topics,
    canonical_json,
    display_status,
    encode,
    encode_payload,
    parse_message,
)

log = logging.getLogger(__name__)

SESSION_EXPIRY = 300  # seconds the broker keeps a display's queued QoS 1 messages (MQTT 5)
RESYNC_FIRST_RETRY = 2.0
RESYNC_MAX_RETRY = 10.0
# After subscribing, a live controller's retained status arrives at once; with none
# by then, no controller has announced itself since the broker (re)started.
CONTROLLER_STATUS_GRACE = 1.0


class _ShutdownNoise(logging.Filter):
    """paho logs an ERROR when its loop thread notices a socket closed by ``disconnect()``."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Client is not connected")


PAHO_LOG = logging.getLogger("scoreboard.paho")
PAHO_LOG.addFilter(_ShutdownNoise())


def default_client_id(who: str, topics: Topics) -> str:
    """``scoreboard-WHO-PREFIX`` (slashes as dashes), cut to MQTT's 128 characters."""
    return f"scoreboard-{who}-{topics.prefix.replace('/', '-')}"[:128]


def build_client(
    settings: MqttConfig,
    client_id: str,
    *,
    password: str | None = None,
) -> mqtt.Client:
    """A paho client set up from the config: protocol, credentials, TLS, backoff."""
    v5 = settings.protocol == "5"
    client = mqtt.Client(
        CallbackAPIVersion.VERSION2,
        client_id=client_id,
        protocol=mqtt.MQTTv5 if v5 else mqtt.MQTTv311,
        clean_session=None if v5 else True,
    )
    if settings.username is not None:
        client.username_pw_set(settings.username, password)
    if settings.tls is not None:
        client.tls_set(
            ca_certs=str(settings.tls.ca),
            certfile=str(settings.tls.cert) if settings.tls.cert else None,
            keyfile=str(settings.tls.key) if settings.tls.key else None,
            tls_version=ssl.PROTOCOL_TLS_CLIENT,
        )
    client.reconnect_delay_set(1, 10)
    client.enable_logger(PAHO_LOG)
    client.suppress_exceptions = True
    return client


def connect_async(client: mqtt.Client, settings: MqttConfig) -> None:
    """Start connecting in the background; paho reconnects on its own afterwards."""
    properties = None
    if settings.protocol == "5":
        properties = Properties(PacketTypes.CONNECT)
        properties.SessionExpiryInterval = SESSION_EXPIRY
    client.connect_async(
        settings.host, settings.port, keepalive=settings.keepalive, properties=properties
    )


@dataclass(frozen=True, slots=True)
class _Connected:
    session_present: bool


@dataclass(frozen=True, slots=True)
class _Subscribed:
    pass


@dataclass(frozen=True, slots=True)
class _Disconnected:
    reason: str


@dataclass(frozen=True, slots=True)
class _ConnectRefused:
    reason: str


@dataclass(frozen=True, slots=True)
class _Unreachable:
    pass


@dataclass(frozen=True, slots=True)
class _Message:
    topic: str
    payload: bytes
    received: float


class MqttFeed:
    """A :class:`~scoreboard.app.Feed` reading one table's topics from an MQTT broker."""

    def __init__(
        self,
        settings: MqttConfig,
        *,
        topics: Topics,
        display_id: str,
        password: str | None = None,
        hmac_key: bytes | None = None,
        journal: Journal | None = None,
        client_id: str | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.settings = settings
        self.topics = topics
        self.display_id = display_id
        self.hmac_key = hmac_key
        self.journal = journal
        self.clock = clock
        self.status_topic = topics.display_status(display_id)
        self.client = build_client(
            settings,
            client_id or default_client_id(display_id, topics),
            password=password,
        )
        self.client.will_set(self.status_topic, DISPLAY_OFFLINE, qos=1, retain=True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.client.on_subscribe = self._on_subscribe
        self.client.on_connect_fail = self._on_connect_fail
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._wake: Callable[[], None] = lambda: None
        self.connected = False
        self._subscribed_at: float | None = None
        self.ever_connected = False
        self._reported_unreachable = False
        self.controller_online: bool | None = None
        self.rejected = 0
        self.rejected_by_reason: Counter[str] = Counter()
        self.applied = 0
        self._missing: tuple[int, ...] = ()
        self._resync_due: float | None = None
        self._resync_interval = RESYNC_FIRST_RETRY
        self._published_status: bytes | None = None
        #: Called after each applied event with (event, monotonic receive time): benchmarks.
        self.on_applied: Callable[[Any, float], None] | None = None

    @property
    def subscribed(self) -> bool:
        """True once the broker acknowledged the subscriptions of the current connection."""
        return self._subscribed_at is not None

    # -- paho's thread: never block, never raise ---------------------------------
    def _hand_over(self, make: Callable[[], object], callback: str) -> None:
        """Queue what ``make`` builds for the main loop and wake it; never raise.

        An exception escaping a paho callback silently kills paho's thread, so
        every callback goes through here.
        """
        try:
            self._queue.put(make())
            self._wake()
        except Exception:
            log.exception("mqtt: error in %s (ignored)", callback)

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        def connected() -> object:
            if reason_code.is_failure:
                return _ConnectRefused(str(reason_code))
            client.subscribe([(topic, 1) for topic in self.topics.display_subscriptions])
            return _Connected(bool(getattr(flags, "session_present", False)))

        self._hand_over(connected, "on_connect")

    def _on_subscribe(self, client, userdata, mid, reason_codes, properties) -> None:
        def subscribed() -> object:
            failed = [str(code) for code in reason_codes if code.is_failure]
            if failed:
                log.error("mqtt: broker refused subscriptions: %s", ", ".join(failed))
            return _Subscribed()

        self._hand_over(subscribed, "on_subscribe")

    def _on_connect_fail(self, client, userdata) -> None:
        self._hand_over(_Unreachable, "on_connect_fail")

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        self._hand_over(lambda: _Disconnected(str(reason_code)), "on_disconnect")

    def _on_message(self, client, userdata, message) -> None:
        self._hand_over(
            lambda: _Message(message.topic, bytes(message.payload), time.monotonic()),
            "on_message",
        )

    # -- the Feed protocol -------------------------------------------------------
    def start(self, wake: Callable[[], None]) -> None:
        self._wake = wake
        log.info(
            "mqtt: connecting to %s:%d (MQTT %s) as display %s, topics %s/{coup,event,...}",
            self.settings.host,
            self.settings.port,
            self.settings.protocol,
            self.display_id,
            self.topics.prefix,
        )
        connect_async(self.client, self.settings)
        self.client.loop_start()

    def poll(self, table: TableState, now: float) -> None:
        """Drain the queue: parse, validate, apply, journal; then resync and status."""
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            try:
                self._handle(item, table, now)
            except Exception:  # a bug must not stop the board: keep the last good state
                self._reject("internal error", f"while handling {type(item).__name__}")
                log.exception("mqtt: error while handling input (ignored)")
        self._missing = table.missing
        self._schedule_resync(table, now)
        self._publish_status(table)

    def status(self, now: float) -> FeedStatus:
        if not self.connected:
            return FeedStatus.OFFLINE if self.ever_connected else FeedStatus.CONNECTING
        if self.controller_online is False or self._controller_silent(now):
            return FeedStatus.CONTROLLER_OFFLINE
        if self._missing:
            return FeedStatus.MISSING_GAMES
        return FeedStatus.LIVE

    def next_deadline(self, now: float) -> float | None:
        if not self.connected:
            return None
        deadlines = [self._resync_due]
        if self.controller_online is None and self._subscribed_at is not None:
            silent_from = self._subscribed_at + CONTROLLER_STATUS_GRACE
            if silent_from > now:
                deadlines.append(silent_from)
        due = [deadline for deadline in deadlines if deadline is not None]
        return min(due) if due else None

    def _controller_silent(self, now: float) -> bool:
        """Subscribed for a while and still no controller status (not even a retained one)."""
        return (
            self.controller_online is None
            and self._subscribed_at is not None
            and now - self._subscribed_at >= CONTROLLER_STATUS_GRACE
        )

    def stop(self) -> None:
        """Say goodbye on the status topic (a will is only sent on a broken connection)."""
        try:
            if self.connected:
                info = self.client.publish(self.status_topic, DISPLAY_OFFLINE, qos=1, retain=True)
                info.wait_for_publish(timeout=2.0)
            self.client.disconnect()
        except Exception as error:  # shutting down: report, never hang
            log.warning("mqtt: error while disconnecting (%s)", error)
        self.client.loop_stop()

    # -- the main loop's side ----------------------------------------------------
    def _handle(self, item: Any, table: TableState, now: float) -> None:
        match item:
            case _Connected():
                self._reported_unreachable = False
                self.connected = True
                self.ever_connected = True
                self._published_status = None  # republish on every connect
                self.controller_online = None  # until its (retained) status arrives again
                self._subscribed_at = None
                self._resync_due = now if table.missing else None
                log.info("mqtt: connected to %s:%d", self.settings.host, self.settings.port)
            case _Subscribed():
                self._subscribed_at = now if self.connected else None
            case _Disconnected(reason=reason):
                if self.connected:
                    log.warning("mqtt: disconnected (%s); reconnecting", reason)
                self.connected = False
                self._subscribed_at = None
            case _ConnectRefused(reason=reason):
                if not self._reported_unreachable:
                    log.error("mqtt: broker refused the connection: %s (retrying)", reason)
                    self._reported_unreachable = True
                self.connected = False
            case _Unreachable():
                if not self._reported_unreachable:
                    log.warning(
                        "mqtt: broker %s:%d unreachable; retrying every 1-10 s",
                        self.settings.host,
                        self.settings.port,
                    )
                    self._reported_unreachable = True
            case _Message():
                self._message(item, table)

    def _message(self, message: _Message, table: TableState) -> None:
        if not message.payload:
            log.debug("mqtt: %s: retained message cleared", message.topic)
            return
        try:
            event = parse_message(self.topics, message.topic, message.payload, key=self.hmac_key)
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
        applied = apply_event(table, event)
        if applied.conflicts:
            self._reject("conflict", f"{message.topic}: {_conflict_text(event, applied, table)}")
        if applied.overrides:
            self.rejected_by_reason["snapshot override"] += 1
            log.warning(
                "mqtt: %s: games %s changed or voided by the snapshot (a missed correct or void?)",
                message.topic,
                _ranges(applied.overrides),
            )
        if applied.changed:
            self.applied += 1
        # Rejected or not, a retired original is journalled: a restart must remember it.
        if self.journal is not None:
            self.journal.keep(event, table, applied)
        if applied.changed and self.on_applied is not None:
            self.on_applied(event, message.received)

    def _reject(self, reason: str, message: str) -> None:
        self.rejected += 1
        self.rejected_by_reason[reason] += 1
        log.warning("mqtt: rejected (%s): %s", reason, message)

    def _schedule_resync(self, table: TableState, now: float) -> None:
        if not table.missing:
            self._resync_due = None
            self._resync_interval = RESYNC_FIRST_RETRY
            return
        if not self.connected:
            return
        if self._resync_due is None:
            self._resync_due = now
        if now >= self._resync_due:
            request = ResyncRequest(self.display_id, table.shoe_id, table.missing)
            payload = encode_payload(encode(request)[1], self.hmac_key)
            self.client.publish(self.topics.resync, payload, qos=1)
            log.info("mqtt: games %s missing; asked for a resync", _ranges(table.missing))
            self._resync_due = now + self._resync_interval
            self._resync_interval = min(self._resync_interval * 2, RESYNC_MAX_RETRY)

    def feed_word(self) -> str:
        """The ``feed`` field of the display status."""
        status = self.status(self.clock())
        return "connected" if status is FeedStatus.LIVE else status.value

    def _publish_status(self, table: TableState) -> None:
        if not self.connected:
            return
        payload = canonical_json(
            display_status(self.display_id, table, rejected=self.rejected, feed=self.feed_word())
        )
        if payload != self._published_status:
            self.client.publish(self.status_topic, payload, qos=1, retain=True)
            self._published_status = payload


def _conflict_text(event: Event, applied: Applied, table: TableState) -> str:
    """Why a coup or snapshot was refused, for the log."""
    if isinstance(event, Snapshot):
        return (
            f"games {_ranges(applied.conflicts)} differ from what a void or correct event"
            " (or an earlier coup) set; the display keeps its own"
        )
    number = applied.conflicts[0]
    game = table.game(number)
    kept = f" as {game.coup.winner.value}" if game is not None else ""
    return (
        f"game {number} is already recorded{kept} with different content;"
        " only a correct event may change it"
    )


def _ranges(numbers: tuple[int, ...]) -> str:
    """``(3, 4, 5, 9)`` -> ``"3-5, 9"`` for log lines."""
    parts: list[str] = []
    start = previous = None
    for n in numbers:
        if previous is not None and n == previous + 1:
            previous = n
            continue
        if start is not None:
            parts.append(f"{start}-{previous}" if start != previous else f"{start}")
        start = previous = n
    if start is not None:
        parts.append(f"{start}-{previous}" if start != previous else f"{start}")
    return ", ".join(parts)
