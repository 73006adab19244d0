"""What the controller learns from its link: the connection, announcements, resyncs.

A policy object in the style guide's sense: it is fed the link's events and
sets flags the controller acts on, so it is tested without paho or a broker.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field

from scoreboard.controller._pit_desk import Ruling, refused
from scoreboard.link.client import (
    Connected,
    Disconnected,
    LinkEvent,
    Message,
    PublishRefused,
    Refused,
    Unreachable,
)
from scoreboard.protocol import ProtocolError, ResyncRequest, Topics, parse_message
from scoreboard.protocol.messages import parse_pit
from scoreboard.protocol.pit import command_id_of
from scoreboard.table.pit import PitCommand

log = logging.getLogger("scoreboard.controller")  # one name in the logs for the whole controller

#: Pit commands held for the controller's pit counter at most: beyond, dropped unanswered
#: (a controller that serves none, or a flood), so memory stays bounded.
MAX_PIT_HEARD = 64


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

    >>> from scoreboard.link.client import Connected, Disconnected
    >>> inbox = ControllerInbox(Topics("doc/v2/T1"), hmac_key=None)
    >>> inbox.take([Connected(session_present=False)])
    >>> inbox.connected, inbox.announce_due, inbox.resync_due, inbox.renew_due
    (True, True, False, False)
    >>> inbox.take([Disconnected("gone")]); inbox.renew_due
    True

    While it waits for a broker, the last failed attempt says which one and why:

    >>> inbox.take([Unreachable("the broker did not answer the CONNECT within 5 s", "h1:1883")])
    >>> inbox.last_failure
    'h1:1883: the broker did not answer the CONNECT within 5 s'
    """

    def __init__(self, topics: Topics, hmac_key: bytes | None) -> None:
        self.topics = topics
        self.hmac_key = hmac_key
        self.connected = False
        self.announce_due = False
        self.resync_due = False
        self.renew_due = False
        #: Why the broker refused this connection's last refused publish (MQTT 5), if it did:
        #: the table's displays are not getting what this controller sends.
        self.publish_refused: str | None = None
        #: The shoe ids the resync requests since the last answer named.
        self.shoes_asked: set[str] = set()
        #: ``broker: why`` of the last connection attempt that failed (for the waiting log line).
        self.last_failure: str | None = None
        #: Pit commands heard on ``cmd/pit`` (and refusals of those that could not be read),
        #: for the controller's :class:`~scoreboard.controller.pit_counter.PitCounter`.
        self.pit_heard: list[PitCommand | Ruling] = []

    def take(self, events: Iterable[LinkEvent], *, stopping: bool = False) -> None:
        """Read a batch of link events (``stopping``: a disconnect is expected, say nothing)."""
        batch = _Batch()
        for event in events:
            match event:
                case Connected():
                    self.connected = self.announce_due = True
                    self.publish_refused = None  # new connection: its answers will say again
                case PublishRefused(reason=reason):
                    if self.publish_refused is None:
                        log.error(
                            "controller: the broker refuses what this controller publishes (%s):"
                            " the table's displays do not get it; check its account and ACL",
                            reason,
                        )
                    self.publish_refused = reason
                case Disconnected(reason=reason):
                    if self.connected and not stopping:
                        log.warning("controller: disconnected (%s); waiting to reconnect", reason)
                        self.renew_due = True
                    self.connected = False
                case Refused(reason=reason):
                    log.error("controller: broker refused the connection: %s", reason)
                case Unreachable(reason=reason, broker=broker):
                    self.last_failure = f"{broker}: {reason}" if broker else reason
                case Message():
                    self._read(event, batch)
        self._log(batch)

    def _read(self, message: Message, batch: _Batch) -> None:
        if message.topic == self.topics.pit:
            self._read_pit(message, batch)
            return
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

    def _read_pit(self, message: Message, batch: _Batch) -> None:
        """A pit command; one that cannot be trusted or read is refused by its id, if it has one."""
        if len(self.pit_heard) >= MAX_PIT_HEARD:
            batch.ignored.append(f"pit command: {MAX_PIT_HEARD} already wait for an answer")
            return
        try:
            command = parse_pit(self.topics, message.topic, message.payload, key=self.hmac_key)
        except ProtocolError as error:
            command_id = command_id_of(message.payload)
            if command_id is None:
                batch.ignored.append(f"pit command without a readable id: {error}")
            else:
                self.pit_heard.append(refused(command_id, f"{error.reason}: {error}"))
            return
        if isinstance(command, PitCommand):
            self.pit_heard.append(command)

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
