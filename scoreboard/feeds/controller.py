"""A simulated shoe controller: deals real shoes and publishes them as protocol.md says.

It is what drives displays at a trade show and in the tests, and it is the
reference publisher for controller vendors: every coup (with cards), the shoe
events, a retained snapshot after every coup, the retained limits, its own
status with a last will, and an answer to ``cmd/resync``.

Publishing happens on the calling thread only; paho's callbacks just set flags
and queue the raw resync requests, which the calling thread parses.
While the broker is unreachable the controller waits (a real shoe cannot deal
into the void either) and on reconnect re-announces its status, the limits and
the snapshot, since a broker without persistence forgets retained messages.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Iterable
from datetime import UTC, datetime

import paho.mqtt.client as mqtt

from scoreboard.config import MqttConfig
from scoreboard.core.limits import Limits
from scoreboard.core.rules import Game
from scoreboard.core.shoe import Dealer, ShoeEvent
from scoreboard.feeds.mqtt import build_client, connect_async, default_client_id
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
    encode,
    encode_payload,
    parse_message,
    topic_for,
)

log = logging.getLogger(__name__)

RESYNC_MIN_INTERVAL = 0.25  # seconds between two answers to cmd/resync


def utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


class Controller:
    """Publishes shoe events from a dealer to one table's topics."""

    def __init__(
        self,
        settings: MqttConfig,
        *,
        topics: Topics,
        limits: Limits,
        password: str | None = None,
        hmac_key: bytes | None = None,
        client_id: str | None = None,
    ) -> None:
        self.settings = settings
        self.topics = topics
        self.limits = limits
        self.hmac_key = hmac_key
        self.client = build_client(
            settings,
            client_id or default_client_id("controller", topics),
            password=password,
        )
        offline = encode_payload(encode(ControllerStatus(False))[1], hmac_key)
        self.client.will_set(topics.controller_status, offline, qos=1, retain=True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self._connected = threading.Event()
        self._announce = threading.Event()
        self._resync = threading.Event()
        self._wakeup = threading.Event()
        self._stopping = threading.Event()
        #: Raw (topic, payload) from paho's thread, parsed by :meth:`_service`.
        self._inbox: queue.SimpleQueue[tuple[str, bytes]] = queue.SimpleQueue()
        self._last_resync = 0.0
        self.shoe_id: str | None = None
        self.games: list[Game] = []
        self._pending: list[mqtt.MQTTMessageInfo] = []

    # -- paho's thread ----------------------------------------------------------
    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        try:
            if reason_code.is_failure:
                log.error("controller: broker refused the connection: %s", reason_code)
                return
            client.subscribe(self.topics.resync, qos=1)
            self._announce.set()
            self._connected.set()
            self._wakeup.set()
        except Exception:
            log.exception("controller: error in on_connect (ignored)")

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        try:
            if self._connected.is_set() and not self._stopping.is_set():
                log.warning("controller: disconnected (%s); waiting to reconnect", reason_code)
            self._connected.clear()
        except Exception:
            log.exception("controller: error in on_disconnect (ignored)")

    def _on_message(self, client, userdata, message) -> None:
        try:
            self._inbox.put((message.topic, bytes(message.payload)))
            self._wakeup.set()
        except Exception:
            log.exception("controller: error in on_message (ignored)")

    # -- publishing ---------------------------------------------------------------
    def start(self) -> None:
        connect_async(self.client, self.settings)
        self.client.loop_start()

    def stop(self) -> None:
        """Publish ``offline`` (retained), flush what is queued, disconnect."""
        self._stopping.set()
        if self._connected.is_set():
            self.publish(ControllerStatus(False), retain=True)
        self.flush(timeout=5.0)
        self.client.disconnect()
        self.client.loop_stop()

    def publish(self, event: Event, *, retain: bool = False) -> None:
        kind, data = encode(event)
        info = self.client.publish(
            topic_for(self.topics, kind), encode_payload(data, self.hmac_key), qos=1, retain=retain
        )
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

    def _service(self) -> None:
        """Wait for the broker, then announce after a (re)connect and answer resyncs."""
        waiting_since = time.monotonic()
        next_report = waiting_since + 5.0
        while not self._connected.wait(timeout=0.5):
            if self._stopping.is_set():
                return
            if time.monotonic() >= next_report:
                log.warning(
                    "controller: waiting for the broker %s:%d (%.0f s so far)",
                    self.settings.host,
                    self.settings.port,
                    time.monotonic() - waiting_since,
                )
                next_report += 30.0
        if self._announce.is_set():
            self._announce.clear()
            self.publish(ControllerStatus(True), retain=True)
            self.publish(LimitsReceived(self.limits), retain=True)
            self._publish_snapshot()
            log.info("controller: online on %s", self.topics.prefix)
        self._read_inbox()
        if self._resync.is_set() and time.monotonic() - self._last_resync >= RESYNC_MIN_INTERVAL:
            self._resync.clear()
            self._last_resync = time.monotonic()
            self._publish_snapshot()

    def _read_inbox(self) -> None:
        """Parse what paho handed over; a valid ``cmd/resync`` asks for a snapshot.

        Logs once for the whole batch, however many messages arrived.
        """
        asked: list[str] = []
        ignored: list[str] = []
        failed = 0
        while True:
            try:
                topic, payload = self._inbox.get_nowait()
            except queue.Empty:
                break
            try:
                event = parse_message(self.topics, topic, payload, key=self.hmac_key)
            except ProtocolError as error:
                ignored.append(str(error))
                continue
            except Exception:  # a bug: report it once per batch, keep dealing
                if not failed:
                    log.exception("controller: error while reading a message (ignored)")
                failed += 1
                continue
            if isinstance(event, ResyncRequest):
                asked.append(f"{event.display} (missing {event.missing})")
        if asked:
            log.info("controller: resync asked by %s", ", ".join(asked))
            self._resync.set()
        if len(ignored) == 1:
            log.warning("controller: ignored %s", ignored[0])
        elif ignored:
            log.warning("controller: ignored %d messages, the first: %s", len(ignored), ignored[0])
        if failed > 1:
            log.error("controller: %d more messages could not be read (ignored)", failed - 1)

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
    settings: MqttConfig,
    *,
    topics: Topics,
    dealer: Dealer,
    limits: Limits,
    pace: float = 2.0,
    shuffle_seconds: float | None = None,
    hmac_key: bytes | None = None,
    password: str | None = None,
) -> tuple[Controller, threading.Thread]:
    """A controller dealing forever on a daemon thread (``scoreboard demo --mqtt``).

    Stop it with ``controller.stop()``.
    """
    controller = Controller(
        settings, topics=topics, limits=limits, password=password, hmac_key=hmac_key
    )
    controller.start()
    timed = dealer.timed(pace, 3 * pace if shuffle_seconds is None else shuffle_seconds)
    thread = threading.Thread(
        target=controller.deal, args=(timed,), daemon=True, name="scoreboard-controller"
    )
    thread.start()
    return controller, thread
