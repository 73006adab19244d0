"""The controller's session stream: one link per session, every payload stamped with its seq.

Contract v2: every payload is stamped with the session and the next ``seq`` (a
snapshot with the seq of the last payload before it), and the last will names
the session it ends.  A will is fixed when the client connects, so a dropped
connection is not left to paho's own reconnect: :meth:`SessionStream.renew`
ends that link and opens a new one, with a new session and a new will.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable
from typing import Any

from scoreboard.controller.sessions import SessionStore
from scoreboard.link.client import Delivery, Link, Publish
from scoreboard.protocol import WILL_SEQ, ControllerStatus, Event, Origin, Snapshot, wire
from scoreboard.protocol.messages import pit_wire
from scoreboard.settings.endpoint import Endpoint
from scoreboard.table.pit import PitAnswer


class SessionStream:
    """Publishes events to one table's topics through a link of the current session.

    Stamping and publishing hold one lock, so the dealer's thread and ``stop()``
    on another never give two payloads the same seq.  ``wake`` is what the link
    calls when it has events to read.
    """

    def __init__(
        self,
        endpoint: Endpoint,
        *,
        sessions: SessionStore,
        client_id: str,
        wake: Callable[[], None],
    ) -> None:
        self.endpoint = endpoint
        self.topics = endpoint.topics
        self.sessions = sessions
        self.client_id = client_id
        self._wake = wake
        self._lock = threading.Lock()  # stamping and publishing: the dealer's thread and stop()
        self.origin = Origin(self.sessions.new_session(), 0)
        self.link = self._new_link()
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
            subscriptions=(self.topics.resync, self.topics.pit),
            will=self._message(will, retain=True),
        )

    def start(self) -> None:
        self.link.start(self._wake)

    def renew(self) -> None:
        """The connection dropped: end that link, open one with a new session and will."""
        self.link.stop()
        with self._lock:
            self._pending = []  # lost with the old link; the new session's snapshot heals
            self.origin = Origin(self.sessions.new_session(), 0)
            self.link = self._new_link()
        self.link.start(self._wake)

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

    def answer(self, answer: PitAnswer) -> None:
        """Answer a pit command on ``cmd/pit/answer`` (QoS 1, not retained, not stamped)."""
        topic, payload = pit_wire(self.topics, answer, self.endpoint.hmac_key)
        with self._lock:
            self._pending.append(self.link.publish(Publish(topic, payload, qos=1)))

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
