"""The one MQTT link over paho, shared by the display and the simulated controller.

paho runs its callbacks on its own network thread, and an exception escaping
one silently kills that thread.  So the callbacks here do nothing but hand a
*link event* (a frozen value below) to a queue and call ``wake()``, inside a
guard that logs whatever goes wrong.  Whoever owns the link drains the queue
on its own thread with :meth:`Link.drain` and decides what the events mean:
the display's :class:`~scoreboard.feeds._session.DisplaySession`, or the
controller's inbox.  The paho client itself (protocol 5 or 3.1.1,
credentials, TLS, reconnect backoff, the last will, the MQTT 5 session expiry)
is built here and nowhere else.

Three things a table needs beyond paho's defaults live here too:

- a *persistent session* under a stable client id (MQTT 5 session expiry,
  3.1.1 ``clean_session=False``), so the QoS 1 coups published while a display
  was down arrive when it comes back;
- a *named reason* on :class:`Unreachable` (``certificate verify failed:
  expired``...), read from the exception paho is handling when it calls
  ``on_connect_fail``, so a TLS mistake is not logged as a network outage;
- an *answer watch* (:mod:`scoreboard.link._ping`): paho waits a whole keepalive
  for the answer to its PINGREQ (a frozen broker went unnoticed for 2 x
  keepalive), a keepalive for a CONNACK and for ever for a SUBACK; the link
  gives them :data:`~scoreboard.link._ping.PING_TIMEOUT`,
  :data:`~scoreboard.link._ping.CONNECT_TIMEOUT` and
  :data:`~scoreboard.link._ping.SUBSCRIBE_TIMEOUT`, then ends the connection as
  failed (a CONNECT never answered is :class:`Unreachable`, a connection
  accepted and then left :class:`Disconnected`, each naming what went unanswered);
- *failover* over a list of brokers (a cluster's nodes, a bridged pair:
  ``mqtt.broker: [h1:p1, h2:p2]``): a failed connect or a lost connection moves
  the link to the next broker, after a jittered backoff so a floor of displays
  losing one node does not arrive on the next all in the same instant.  Each
  broker gets its own client id
  (:func:`~scoreboard.link._failover.broker_client_id`): a RabbitMQ node holds a
  persistent session's queue, and while that node is down the same id cannot
  subscribe anywhere else in the cluster.

>>> from scoreboard.settings.config import MqttConfig
>>> from scoreboard.settings.endpoint import Endpoint
>>> from scoreboard.protocol import Topics
>>> link = Link(Endpoint(MqttConfig(port=1), Topics("doc/v1/T1")), client_id="doc")
>>> link.drain(), link.connected
([], False)
"""

from __future__ import annotations

import contextlib
import logging
import queue
import select
import socket
import ssl
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from scoreboard.link._backoff import Backoff
from scoreboard.link._failover import Failover, broker_client_id, moving_on, starting_broker
from scoreboard.link._failure import connect_failure, unanswered_connect
from scoreboard.link._ping import AnswerWatch, questions
from scoreboard.protocol import Topics
from scoreboard.settings.endpoint import Endpoint
from scoreboard.settings.reader import host_port

log = logging.getLogger(__name__)


# -- link events: what paho's thread hands over -------------------------------------------
@dataclass(frozen=True, slots=True)
class Connected:
    """The broker accepted the connection (subscriptions are on their way); ``broker`` names it."""

    session_present: bool
    broker: str = ""


@dataclass(frozen=True, slots=True)
class Subscribed:
    """The broker answered the subscriptions; ``refused`` names the ones it did not grant."""

    refused: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Disconnected:
    """The connection to ``broker`` dropped (the link reconnects on its own)."""

    reason: str
    broker: str = ""


@dataclass(frozen=True, slots=True)
class Refused:
    """The broker refused the connection (bad credentials, not authorised...)."""

    reason: str


@dataclass(frozen=True, slots=True)
class Unreachable:
    """A connection attempt failed before the broker answered; ``reason`` names why.

    ``reason`` is :func:`~scoreboard.link._failure.connect_failure` of the error:
    a refused port, an unknown host, or a certificate the link will not trust
    (``certificate verify failed: unknown CA``), which a pit technician fixes on
    the display, not on the network.
    ``broker`` is the one tried (``host:port``).
    """

    reason: str = ""
    broker: str = ""


@dataclass(frozen=True, slots=True)
class PublishRefused:
    """The broker acknowledged a publish with a failure (MQTT 5 PUBACK reason code >= 0x80).

    Typically "Not authorized": the account's ACL does not let it write that
    topic, so nobody subscribed ever gets the message.  MQTT 3.1.1 has no such
    answer (the broker drops the message silently), so this cannot be known there.
    """

    reason: str


@dataclass(frozen=True, slots=True)
class Message:
    """A raw message, as received: parsing is the owner's job, on its own thread."""

    topic: str
    payload: bytes
    received_at: float
    #: Sent from the broker's retained store on subscribing (not published just now).
    retained: bool = False


LinkEvent = Connected | Subscribed | Disconnected | Refused | Unreachable | PublishRefused | Message


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


class _Client(mqtt.Client):
    """paho's client with three changes the link needs; each replaces one private step of 2.2.

    - The CONNECT is timed by the link's answer watch, not the keepalive: paho
      ends a CONNECT unanswered for one keepalive, and at the default 1 s a
      loaded cluster node whose CONNACK takes 1.5 s was never reached, every
      attempt cut (measured here with a peer that answers late).  While
      connecting, :data:`~scoreboard.link._ping.CONNECT_TIMEOUT` decides instead;
      once connected (pings) and while disconnecting, paho's own check stands.
    - The wait before a reconnect is :class:`~scoreboard.link._backoff.Backoff`'s,
      jittered per client, instead of paho's fixed 1, 2, 4, 8, 10 s that brought
      a whole floor back in the same instants after a broker restart.
    - The socket is waited on with ``poll()``, not ``select()``: ``select()``
      cannot take a descriptor numbered past 1023, which a floor of 300 tables in
      one process reaches (three per link), and paho took the error for a lost
      connection without a word or a callback and tried again, for ever.
    """

    def __init__(self, *args: Any, backoff: Backoff, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.backoff = backoff
        self._stopping = threading.Event()  # ends a reconnect wait at once

    def _check_keepalive(self) -> None:
        if _state_name(self) == "MQTT_CS_CONNECTING":
            return
        super()._check_keepalive()

    def _reconnect_wait(self) -> None:
        wait = self.backoff.next_wait()
        deadline = time.monotonic() + wait
        while not self._thread_terminate and _state_name(self) not in _ENDING:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or self._stopping.wait(min(remaining, 0.5)):
                return

    def _loop(self, timeout: float = 1.0) -> mqtt.MQTTErrorCode:
        sock = self._sock
        if sock is None:
            return super()._loop(timeout)  # paho's own answer: not connected
        wake = self._sockpairR
        try:
            readable, writable, woken = _wait_on(sock, wake, self.want_write(), timeout)
        except (OSError, ValueError):  # the socket was closed meanwhile (a disconnect)
            return mqtt.MQTTErrorCode.MQTT_ERR_CONN_LOST
        if readable:
            rc = self.loop_read()
            if rc or self._sock is None:
                return rc
        if woken and wake is not None:  # a publish() or disconnect() queued something
            with contextlib.suppress(BlockingIOError):
                wake.recv(10000)
        if writable or woken:
            rc = self.loop_write()
            if rc or self._sock is None:
                return rc
        return self.loop_misc()

    def loop_start(self) -> mqtt.MQTTErrorCode:
        self._stopping.clear()
        return super().loop_start()

    def loop_stop(self) -> mqtt.MQTTErrorCode:
        """Stop paho's thread and close its wake-up socket pair, which paho leaves to the GC.

        A controller renews its link on every lost connection: a floor of 300
        renewing at once held 600 such descriptors until a collection.
        """
        self._stopping.set()
        rc = super().loop_stop()
        if self._thread is None:  # ended (not called from paho's own thread)
            for end in (self._sockpairR, self._sockpairW):
                if end is not None:
                    end.close()
            self._sockpairR = self._sockpairW = None
        return rc


_ENDING = ("MQTT_CS_DISCONNECTING", "MQTT_CS_DISCONNECTED")


def _state_name(client: mqtt.Client) -> str:
    return str(getattr(getattr(client, "_state", None), "name", ""))


def _wait_on(
    sock: Any, wake: socket.socket | None, want_write: bool, timeout: float
) -> tuple[bool, bool, bool]:
    """Wait up to ``timeout`` s for the socket or the wake-up pair: (readable, writable, woken).

    Bytes TLS already decrypted count as readable without waiting.  An error or a
    hang-up counts as readable, as ``select()`` has it: the read then finds why.
    """
    pending = sock.pending() if hasattr(sock, "pending") else 0
    poller = select.poll()
    fd = sock.fileno()
    poller.register(fd, select.POLLIN | (select.POLLOUT if want_write else 0))
    if wake is not None:
        poller.register(wake.fileno(), select.POLLIN)
    ready = dict(poller.poll(0 if pending else timeout * 1000))
    events = ready.get(fd, 0)
    readable = bool(pending) or bool(events & ~select.POLLOUT)
    woken = wake is not None and bool(ready.get(wake.fileno(), 0) & select.POLLIN)
    return readable, bool(events & select.POLLOUT), woken


def default_client_id(who: str, topics: Topics) -> str:
    """``scoreboard-WHO-PREFIX`` (slashes as dashes), cut to MQTT's 128 characters.

    >>> default_client_id("d1", Topics("baccarat/v1/T1"))
    'scoreboard-d1-baccarat-v1-T1'
    """
    return f"scoreboard-{who}-{topics.prefix.replace('/', '-')}"[:128]


def build_client(
    endpoint: Endpoint, client_id: str, *, will: Publish | None = None, reconnect: bool = True
) -> _Client:
    """A paho client set up from the endpoint: protocol, credentials, TLS, backoff, will.

    ``reconnect`` False: after a lost connection paho leaves reconnecting to the
    owner (the link's failover moves to the next broker instead).
    """
    settings = endpoint.mqtt
    v5 = settings.protocol == "5"
    client = _Client(
        CallbackAPIVersion.VERSION2,
        backoff=Backoff(),
        client_id=client_id,
        protocol=mqtt.MQTTv5 if v5 else mqtt.MQTTv311,
        clean_session=None if v5 else False,  # 3.1.1: the broker keeps the session
        reconnect_on_failure=reconnect,
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
    client.enable_logger(PAHO_LOG)
    client.suppress_exceptions = True
    return client


def session_client_id(endpoint: Endpoint, default: str) -> str:
    """The client id to connect with: ``mqtt.client_id`` if configured, else ``default``.

    Either is the same on every start, which is what lets the broker hand a
    restarted display the session (and the messages) it left.

    >>> from scoreboard.settings.config import MqttConfig
    >>> topics = Topics("doc/v1/T1")
    >>> session_client_id(Endpoint(MqttConfig(), topics), "scoreboard-d1")
    'scoreboard-d1'
    >>> session_client_id(Endpoint(MqttConfig(client_id="T1-a"), topics), "scoreboard-d1")
    'T1-a'
    """
    return endpoint.mqtt.client_id or default


def _connect_properties(endpoint: Endpoint) -> Properties | None:
    """MQTT 5: ask the broker to keep the session (queued QoS 1 messages) a while."""
    if endpoint.mqtt.protocol != "5":
        return None
    properties = Properties(PacketTypes.CONNECT)
    properties.SessionExpiryInterval = endpoint.mqtt.session_expiry
    return properties


def _nothing() -> None:
    """The default wake-up: nobody to wake."""


# -- the link ---------------------------------------------------------------------------------
#: What ``Link.publish`` returns: wait on it to know the broker has the message.
Delivery = mqtt.MQTTMessageInfo


class Link:
    """One MQTT connection: start, publish, drain link events, stop.

    ``subscriptions`` are made (QoS 1) on every connect, from paho's thread, so
    a reconnect resubscribes at once.  ``client_id`` is the owner's stable
    default (``mqtt.client_id`` overrides it); the broker keeps the session
    under it for ``mqtt.session_expiry`` seconds.  ``clock`` stamps each
    message's ``received_at`` (monotonic by default, like every deadline in
    the loop).  With one broker paho reconnects to it on its own; with several
    (``mqtt.broker`` a list) a :class:`Failover` moves the link along the list.
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
        self.client_id = session_client_id(endpoint, client_id)
        self._clock = clock
        self._will = will
        self._events: queue.SimpleQueue[LinkEvent] = queue.SimpleQueue()
        self._wake: Callable[[], None] = _nothing
        timeouts = endpoint.mqtt.connect_timeout, endpoint.mqtt.subscribe_timeout
        self._answers = AnswerWatch(questions=questions(*timeouts))  # mqtt.*_timeout
        self._answered = False  # the broker answered the current CONNECT (accepted or refused)
        self._brokers = endpoint.mqtt.brokers
        self._index = starting_broker(self._brokers)
        self._failover = Failover(self._move) if len(self._brokers) > 1 else None
        self._client = self._build(self._index)

    @property
    def connected(self) -> bool:
        """paho's own view, readable from any thread."""
        return bool(self._client.is_connected())

    @property
    def backoff(self) -> Backoff:
        """The current client's reconnect waits (full jitter, capped at 10 s)."""
        return self._client.backoff

    @property
    def broker(self) -> str:
        """The broker the link is on or trying (``host:port``), readable from any thread."""
        return host_port(*self._brokers[self._index])

    def start(self, wake: Callable[[], None] = _nothing) -> None:
        """Connect in the background; ``wake()`` is called (on paho's thread) per link event."""
        self._wake = wake
        self._connect(self._client, self._index)
        self._answers.start(self._cut)
        if self._failover is not None:
            self._failover.start()

    def publish(self, message: Publish) -> Delivery:
        """Queue ``message`` for sending (thread-safe); wait on the result for the broker's ack.

        A publish the broker refuses comes back as a :class:`PublishRefused` link event.
        """
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
        if self._failover is not None:
            self._failover.stop()
        try:
            self._client.disconnect()
        except Exception as error:  # shutting down: report, never hang
            log.warning("mqtt: error while disconnecting (%s)", error)
        self._answers.stop()
        self._client.loop_stop()

    def goodbye(self, message: Publish, timeout: float) -> bool:
        """Publish a clean stop's last word (the offline status); True once the broker has it.

        Published even while the link reconnects: paho sends what it still holds (an
        online status queued before a drop) first and this after it, so offline is the
        last word.  Waits up to ``timeout`` only while connected (else the will said it).
        """
        delivery = self.publish(message)
        if not self.connected:
            return False
        with contextlib.suppress(RuntimeError, ValueError):  # lost meanwhile: the will says it
            delivery.wait_for_publish(timeout=timeout)
        return bool(delivery.is_published())

    def drop(self) -> None:
        """End the link as a power cut would: no DISCONNECT, so the broker sends the will."""
        if self._failover is not None:
            self._failover.stop()
        self._answers.stop()
        self._client.loop_stop()
        sock = self._client.socket()
        if sock is not None:
            sock.close()

    # -- the broker list ---------------------------------------------------------------------
    def _build(self, index: int) -> _Client:
        client_id = broker_client_id(self.client_id, index) if self._failover else self.client_id
        client = build_client(
            self.endpoint, client_id, will=self._will, reconnect=self._failover is None
        )
        client.on_connect = self._on_connect
        client.on_subscribe = self._on_subscribe
        client.on_disconnect = self._on_disconnect
        client.on_connect_fail = self._on_connect_fail
        client.on_message = self._on_message
        client.on_publish = self._on_publish
        client.on_log = self._answers.on_log
        return client

    def _connect(self, client: mqtt.Client, index: int) -> None:
        settings = self.endpoint.mqtt
        host, port = self._brokers[index]
        client.connect_async(
            host,
            port,
            keepalive=settings.keepalive,
            clean_start=False if settings.protocol == "5" else mqtt.MQTT_CLEAN_START_FIRST_ONLY,
            properties=_connect_properties(self.endpoint),
        )
        client.loop_start()

    def _move(self) -> None:
        """On the failover's thread: end the failed client, connect the next broker's."""
        old = self._client
        with contextlib.suppress(Exception):  # already gone: nothing to end
            old.disconnect()
        old.loop_stop()
        index = (self._index + 1) % len(self._brokers)
        client = self._build(index)
        self._index, self._client = index, client
        self._answers.reset()
        self._answered = False
        self._connect(client, index)

    def _worked(self) -> None:
        """A working connection (subscribed, or accepted with nothing to subscribe).

        The next failure waits little again: paho's reconnect and the failover's move.
        """
        self._client.backoff.succeeded()
        if self._failover is not None:
            self._failover.succeeded()

    def _failed(self, client: mqtt.Client) -> None:
        """The current client's connect failed or its connection was lost: move on."""
        if self._failover is not None and client is self._client:
            moving_on(self._brokers, self._index)
            self._failover.due()

    def _cut(self, reason: str) -> bool:
        """End a connection the broker stopped answering; paho then reports it and reconnects.

        False when there is something to read (perhaps the answer: paho's thread
        has yet to read it), so the watch looks again instead.
        """
        sock = self._client.socket()
        if not isinstance(sock, socket.socket):
            return True  # no connection left to end: paho has seen it go
        try:
            poller = select.poll()  # not select(): a floor's descriptors go past 1023
            poller.register(sock.fileno(), select.POLLIN)
            if poller.poll(0):
                return False
            self._answers.cut_reason = reason
            sock.shutdown(socket.SHUT_RDWR)
        except (OSError, ValueError):  # closed meanwhile: paho has seen it
            self._answers.cut_reason = None
        return True

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
        if client is not self._client:
            return  # a client the failover has left
        broker = self.broker
        self._answered = True

        def connected() -> LinkEvent:
            self._answers.reset()
            if reason_code.is_failure:
                return Refused(str(reason_code))
            if self.subscriptions:
                client.subscribe([(topic, 1) for topic in self.subscriptions])
            else:
                self._worked()
            return Connected(bool(getattr(flags, "session_present", False)), broker)

        self._hand_over(connected, "on_connect")

    def _on_subscribe(
        self, client: mqtt.Client, _userdata: Any, _mid: int, codes: Any, _properties: Any
    ) -> None:
        if client is not self._client:
            return
        self._worked()
        self._hand_over(
            lambda: Subscribed(tuple(str(code) for code in codes if code.is_failure)),
            "on_subscribe",
        )

    def _on_connect_fail(self, client: mqtt.Client, _userdata: Any) -> None:
        # paho calls this inside its ``except OSError`` around the attempt: the
        # error being handled is why (a refused port, an untrusted certificate...).
        if client is not self._client:
            return
        error = sys.exc_info()[1]
        broker = self.broker
        self._hand_over(lambda: Unreachable(connect_failure(error), broker), "on_connect_fail")
        self._failed(client)

    def _on_disconnect(
        self, client: mqtt.Client, _userdata: Any, _flags: Any, reason_code: Any, _properties: Any
    ) -> None:
        if client is not self._client:
            return
        broker = self.broker
        answered, self._answered = self._answered, False

        def disconnected() -> LinkEvent:
            cut, self._answers.cut_reason = self._answers.cut_reason, None
            self._answers.reset()
            # The CONNECT went unanswered (not a disconnect of our own): never reached.
            if not answered and (cut or getattr(reason_code, "is_failure", True)):
                keepalive = self.endpoint.mqtt.keepalive
                return Unreachable(cut or unanswered_connect(str(reason_code), keepalive), broker)
            return Disconnected(cut or str(reason_code), broker)

        self._hand_over(disconnected, "on_disconnect")
        self._failed(client)

    def _on_publish(
        self, _client: mqtt.Client, _userdata: Any, _mid: int, reason_code: Any, _properties: Any
    ) -> None:
        if getattr(reason_code, "is_failure", False):
            self._hand_over(lambda: PublishRefused(str(reason_code)), "on_publish")

    def _on_message(self, _client: mqtt.Client, _userdata: Any, message: Any) -> None:
        self._hand_over(
            lambda: Message(
                message.topic, bytes(message.payload), self._clock(), bool(message.retain)
            ),
            "on_message",
        )
