"""The one MQTT link over paho, shared by the display and the simulated controller.

paho runs its callbacks on its own network thread, and an exception escaping
one silently kills that thread.  So the callbacks here do nothing but hand a
*link event* (a frozen value below) to a queue and call ``wake()``, inside a
guard that logs whatever goes wrong.  Whoever owns the link drains the queue
on its own thread with :meth:`Link.drain` and decides what the events mean:
the display's :class:`~scoreboard.feeds.session.DisplaySession`, or the
controller's inbox.  The paho client itself (protocol 5 or 3.1.1,
credentials, TLS, reconnect backoff, the last will, the MQTT 5 session expiry)
is built here and nowhere else.

>>> from scoreboard.config import Endpoint, MqttConfig
>>> from scoreboard.protocol import Topics
>>> link = Link(Endpoint(MqttConfig(port=1), Topics("doc/v1/T1")), client_id="doc")
>>> link.drain(), link.connected
([], False)
"""

from __future__ import annotations

import logging
import queue
import ssl
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from scoreboard.config import Endpoint
from scoreboard.protocol import Topics

log = logging.getLogger(__name__)

SESSION_EXPIRY = 300  # seconds the broker keeps a client's queued QoS 1 messages (MQTT 5)
RECONNECT_DELAYS = (1, 10)  # paho's reconnect backoff, first and longest wait in seconds


# -- link events: what paho's thread hands over -------------------------------------------
@dataclass(frozen=True, slots=True)
class Connected:
    """The broker accepted the connection (subscriptions are on their way)."""

    session_present: bool


@dataclass(frozen=True, slots=True)
class Subscribed:
    """The broker answered the subscriptions; ``refused`` names the ones it did not grant."""

    refused: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Disconnected:
    """The connection dropped (paho reconnects on its own)."""

    reason: str


@dataclass(frozen=True, slots=True)
class Refused:
    """The broker refused the connection (bad credentials, not authorised...)."""

    reason: str


@dataclass(frozen=True, slots=True)
class Unreachable:
    """A connection attempt failed before the broker answered."""


@dataclass(frozen=True, slots=True)
class Message:
    """A raw message, as received: parsing is the owner's job, on its own thread."""

    topic: str
    payload: bytes
    received_at: float


LinkEvent = Connected | Subscribed | Disconnected | Refused | Unreachable | Message


@dataclass(frozen=True, slots=True)
class Publish:
    """One message to send (also the shape of a last will)."""

    topic: str
    payload: bytes
    qos: int = 1
    retain: bool = False


# -- building the client ----------------------------------------------------------------------
class _ShutdownNoise(logging.Filter):
    """paho logs an ERROR when its loop thread notices a socket closed by ``disconnect()``."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Client is not connected")


PAHO_LOG = logging.getLogger("scoreboard.paho")
PAHO_LOG.addFilter(_ShutdownNoise())


def default_client_id(who: str, topics: Topics) -> str:
    """``scoreboard-WHO-PREFIX`` (slashes as dashes), cut to MQTT's 128 characters.

    >>> default_client_id("d1", Topics("baccarat/v1/T1"))
    'scoreboard-d1-baccarat-v1-T1'
    """
    return f"scoreboard-{who}-{topics.prefix.replace('/', '-')}"[:128]


def build_client(endpoint: Endpoint, client_id: str, *, will: Publish | None = None) -> mqtt.Client:
    """A paho client set up from the endpoint: protocol, credentials, TLS, backoff, will."""
    settings = endpoint.mqtt
    v5 = settings.protocol == "5"
    client = mqtt.Client(
        CallbackAPIVersion.VERSION2,
        client_id=client_id,
        protocol=mqtt.MQTTv5 if v5 else mqtt.MQTTv311,
        clean_session=None if v5 else True,
    )
    if settings.username is not None:
        client.username_pw_set(settings.username, endpoint.password)
    if settings.tls is not None:
        client.tls_set(
            ca_certs=str(settings.tls.ca),
            certfile=str(settings.tls.cert) if settings.tls.cert else None,
            keyfile=str(settings.tls.key) if settings.tls.key else None,
            tls_version=ssl.PROTOCOL_TLS_CLIENT,
        )
    if will is not None:
        client.will_set(will.topic, will.payload, qos=will.qos, retain=will.retain)
    client.reconnect_delay_set(*RECONNECT_DELAYS)
    client.enable_logger(PAHO_LOG)
    client.suppress_exceptions = True
    return client


def _connect_properties(endpoint: Endpoint) -> Properties | None:
    """MQTT 5: ask the broker to keep the session (queued QoS 1 messages) a while."""
    if endpoint.mqtt.protocol != "5":
        return None
    properties = Properties(PacketTypes.CONNECT)
    properties.SessionExpiryInterval = SESSION_EXPIRY
    return properties


def _nothing() -> None:
    """The default wake-up: nobody to wake."""


# -- the link ---------------------------------------------------------------------------------
#: What ``Link.publish`` returns: wait on it to know the broker has the message.
Delivery = mqtt.MQTTMessageInfo


class Link:
    """One MQTT connection: start, publish, drain link events, stop.

    ``subscriptions`` are made (QoS 1) on every connect, from paho's thread, so
    a reconnect resubscribes at once.  ``clock`` stamps each message's
    ``received_at`` (monotonic by default, like every deadline in the loop).
    """

    def __init__(
        self,
        endpoint: Endpoint,
        *,
        client_id: str,
        subscriptions: Sequence[str] = (),
        will: Publish | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.endpoint = endpoint
        self.subscriptions = tuple(subscriptions)
        self._clock = clock
        self._events: queue.SimpleQueue[LinkEvent] = queue.SimpleQueue()
        self._wake: Callable[[], None] = _nothing
        self._client = build_client(endpoint, client_id, will=will)
        self._client.on_connect = self._on_connect
        self._client.on_subscribe = self._on_subscribe
        self._client.on_disconnect = self._on_disconnect
        self._client.on_connect_fail = self._on_connect_fail
        self._client.on_message = self._on_message

    @property
    def connected(self) -> bool:
        """paho's own view, readable from any thread."""
        return bool(self._client.is_connected())

    def start(self, wake: Callable[[], None] = _nothing) -> None:
        """Connect in the background; ``wake()`` is called (on paho's thread) per link event."""
        self._wake = wake
        settings = self.endpoint.mqtt
        self._client.connect_async(
            settings.host,
            settings.port,
            keepalive=settings.keepalive,
            properties=_connect_properties(self.endpoint),
        )
        self._client.loop_start()

    def publish(self, message: Publish) -> Delivery:
        """Queue ``message`` for sending (thread-safe); wait on the result for the broker's ack."""
        return self._client.publish(
            message.topic, message.payload, qos=message.qos, retain=message.retain
        )

    def drain(self) -> list[LinkEvent]:
        """Every link event handed over since the last drain, oldest first (thread-safe)."""
        events: list[LinkEvent] = []
        while True:
            try:
                events.append(self._events.get_nowait())
            except queue.Empty:
                return events

    def stop(self) -> None:
        """Disconnect cleanly (no last will) and end paho's thread."""
        try:
            self._client.disconnect()
        except Exception as error:  # shutting down: report, never hang
            log.warning("mqtt: error while disconnecting (%s)", error)
        self._client.loop_stop()

    def drop(self) -> None:
        """End the link as a power cut would: no DISCONNECT, so the broker sends the will."""
        self._client.loop_stop()
        sock = self._client.socket()
        if sock is not None:
            sock.close()

    # -- paho's thread: never block, never raise -------------------------------------------
    def _hand_over(self, make: Callable[[], LinkEvent], callback: str) -> None:
        try:
            self._events.put(make())
            self._wake()
        except Exception:
            log.exception("mqtt: error in %s (ignored)", callback)

    def _on_connect(
        self, client: mqtt.Client, _userdata: Any, flags: Any, reason_code: Any, _properties: Any
    ) -> None:
        def connected() -> LinkEvent:
            if reason_code.is_failure:
                return Refused(str(reason_code))
            if self.subscriptions:
                client.subscribe([(topic, 1) for topic in self.subscriptions])
            return Connected(bool(getattr(flags, "session_present", False)))

        self._hand_over(connected, "on_connect")

    def _on_subscribe(
        self, _client: mqtt.Client, _userdata: Any, _mid: int, codes: Any, _properties: Any
    ) -> None:
        self._hand_over(
            lambda: Subscribed(tuple(str(code) for code in codes if code.is_failure)),
            "on_subscribe",
        )

    def _on_connect_fail(self, _client: mqtt.Client, _userdata: Any) -> None:
        self._hand_over(Unreachable, "on_connect_fail")

    def _on_disconnect(
        self, _client: mqtt.Client, _userdata: Any, _flags: Any, reason_code: Any, _properties: Any
    ) -> None:
        self._hand_over(lambda: Disconnected(str(reason_code)), "on_disconnect")

    def _on_message(self, _client: mqtt.Client, _userdata: Any, message: Any) -> None:
        self._hand_over(
            lambda: Message(message.topic, bytes(message.payload), self._clock()), "on_message"
        )
