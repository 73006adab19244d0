"""The lobby's feed: one MQTT link subscribed under the root prefix for every table.

The lobby reads what the tables already publish for their displays, retained
(the controller's status, the limits, the snapshot after every coup) plus the
live ``event`` topic (shuffle, cut card, new shoe, voids): enough to draw every
tile without a single coup message.  Each payload is validated exactly as a
display validates it (:func:`~scoreboard.protocol.parse_message` with the
table's topics and HMAC key) and applied with the core's ``apply_event``: a
payload that fails is refused, counted per table and logged once per table and
cause, and the tile keeps its last good state.

The link's thread only queues; :meth:`LobbyFeed.poll` runs on the lobby's loop.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable, Mapping

from scoreboard.feeds.repeats import OnceLog
from scoreboard.game.events import Event, ResyncRequest
from scoreboard.link.client import (
    Connected,
    Disconnected,
    Link,
    Message,
    Publish,
    Refused,
    Subscribed,
    Unreachable,
)
from scoreboard.lobby.floor import Floor, TableRefused, check_table_id
from scoreboard.protocol import ProtocolError, Topics, parse_message
from scoreboard.settings.endpoint import Endpoint

log = logging.getLogger(__name__)

#: The topics of each table the lobby reads, retained first (the order their seq grows).
SUFFIXES = ("controller/status", "limits", "snapshot", "event")
#: How many distinct (table, cause) refusals are remembered as logged.
MAX_LOGGED_CAUSES = 4096
MAX_LOGGED_REASON = 300
#: At most this many refusal lines a minute, whatever the number of tables (a flood of
#: made-up ids would otherwise write one line per id).
LOGGED_A_MINUTE = 20
GOODBYE_SECONDS = 2.0


def subscriptions(root: str) -> tuple[str, ...]:
    """The wildcard filters of a lobby under ``root``.

    >>> subscriptions("baccarat/v2")[:2]
    ('baccarat/v2/+/controller/status', 'baccarat/v2/+/limits')
    """
    return tuple(f"{root}/+/{suffix}" for suffix in SUFFIXES)


def status_topic(root: str, lobby_id: str) -> str:
    """``<root>/lobby/<id>/status``: where a lobby says it is online and what it shows."""
    return f"{root}/lobby/{lobby_id}/status"


class LobbyFeed:
    """The floor's tables, kept up to date from the broker."""

    def __init__(
        self,
        endpoint: Endpoint,
        *,
        root: str,
        lobby_id: str,
        keys: Mapping[str, bytes] | None = None,
        will: Publish | None = None,
    ) -> None:
        self.endpoint = endpoint
        self.root = root
        self.keys = dict(keys or {})
        self.link = Link(
            endpoint,
            client_id=f"scoreboard-lobby-{lobby_id}",
            subscriptions=subscriptions(root),
            will=will,
        )
        self.connected = False
        self.ever_connected = False
        self.rejected = 0
        self.rejected_by_reason: Counter[str] = Counter()
        self._topics: dict[str, Topics] = {}
        self._logged: set[tuple[str, str]] = set()
        self._log_window, self._log_lines = float("-inf"), 0
        self._failures = OnceLog(log.log)

    def start(self, wake: Callable[[], None]) -> None:
        settings = self.endpoint.mqtt
        log.info(
            "lobby: connecting to %s:%d (MQTT %s), tables under %s/+",
            settings.host,
            settings.port,
            settings.protocol,
            self.root,
        )
        self.link.start(wake)

    def poll(self, floor: Floor, now: float, wall: float | None = None) -> int:
        """Apply what arrived to ``floor``; returns the messages handled.

        ``now``: the axis the floor's ages are on (the lobby's monotonic clock);
        ``wall``: Unix time now, for a snapshot's ``ts`` (default ``now``).
        """
        handled = 0
        for event in self.link.drain():
            match event:
                case Message():
                    handled += 1
                    self._message(floor, event, now, now if wall is None else wall)
                case Connected():
                    self._failures.clear()
                    self.connected = self.ever_connected = True
                    log.info("lobby: connected to %s", event.broker or self.link.broker)
                case Subscribed(refused=refused) if refused:
                    log.error("lobby: broker refused subscriptions: %s", ", ".join(refused))
                case Disconnected(reason=reason):
                    if self.connected:
                        log.warning("lobby: disconnected (%s); reconnecting", reason)
                    self.connected = False
                case Refused(reason=reason):
                    self.connected = False
                    self._failures.report(
                        logging.ERROR, "lobby: broker refused the connection: %s", reason
                    )
                case Unreachable(reason=reason, broker=broker):
                    self._failures.report(
                        logging.WARNING,
                        "lobby: broker %s unreachable%s; retrying every 1-10 s",
                        broker or self.link.broker,
                        f" ({reason})" if reason else "",
                    )
        return handled

    def publish(self, message: Publish) -> None:
        self.link.publish(message)

    def stop(self, goodbye: Publish | None = None) -> None:
        """Say goodbye (the will's payload, retained; even mid-reconnect), then disconnect."""
        if goodbye is not None:
            said = self.link.goodbye(goodbye, GOODBYE_SECONDS)
            if not said and self.connected:
                log.warning("lobby: the goodbye was not acknowledged in %.0f s", GOODBYE_SECONDS)
        self.link.stop()

    # -- one message ------------------------------------------------------------------
    def _message(self, floor: Floor, message: Message, now: float, wall: float) -> None:
        table_id = self._table_of(message.topic)
        if table_id is None or not message.payload:
            return  # not a table topic (the filters allow none), or a cleared retained topic
        try:
            check_table_id(table_id)
        except TableRefused as error:
            self._refuse(table_id, "table refused", str(error))
            return
        try:  # validated before the table is admitted: junk never takes a tile
            event = parse_message(
                self._topics_of(table_id),
                message.topic,
                message.payload,
                key=self.keys.get(table_id, self.endpoint.hmac_key),
            )
        except ProtocolError as error:
            known = floor.tables.get(table_id)
            if known is not None:
                known.refused += 1
            else:
                self._topics.pop(table_id, None)  # nothing kept for an id never admitted
            self._refuse(table_id, error.reason, str(error))
            return
        self._apply(floor, table_id, event, message, now, wall)

    def _apply(
        self, floor: Floor, table_id: str, event: Event, message: Message, now: float, wall: float
    ) -> None:
        if isinstance(event, ResyncRequest):
            return
        try:
            entry = floor.entry(table_id, now)
        except TableRefused as error:
            self._refuse(table_id, "table refused", str(error))
            return
        try:
            applied = entry.take(event, now, wall=wall, live=not message.retained)
        except Exception:  # a bug must not stop the lobby: the tile keeps its last state
            entry.refused += 1
            self._refuse(table_id, "internal error", "while applying an event")
            log.exception("lobby: table %s: error while applying %s", table_id, type(event))
            return
        if applied is not None and applied.conflicts:
            entry.refused += 1
            self._refuse(table_id, "conflict", f"games {list(applied.conflicts)[:10]}")

    def _table_of(self, topic: str) -> str | None:
        head = self.root + "/"
        if not topic.startswith(head):
            return None
        table_id, _, suffix = topic[len(head) :].partition("/")
        return table_id if suffix in SUFFIXES else None

    def _topics_of(self, table_id: str) -> Topics:
        found = self._topics.get(table_id)
        if found is None:
            found = self._topics[table_id] = Topics(f"{self.root}/{table_id}")
        return found

    def _refuse(self, table_id: str, reason: str, detail: str) -> None:
        """Count every refusal; log the first of each table and cause."""
        self.rejected += 1
        self.rejected_by_reason[reason] += 1
        cause = (table_id[:80], reason)
        if cause in self._logged:
            return
        if len(self._logged) < MAX_LOGGED_CAUSES:
            self._logged.add(cause)
        now = time.monotonic()
        if now - self._log_window >= 60.0:
            self._log_window, self._log_lines = now, 0
        self._log_lines += 1
        if self._log_lines > LOGGED_A_MINUTE:
            if self._log_lines == LOGGED_A_MINUTE + 1:
                log.warning(
                    "lobby: over %d refusals this minute; the rest are counted"
                    " (the status's rejected), not logged",
                    LOGGED_A_MINUTE,
                )
            return
        if len(detail) > MAX_LOGGED_REASON:
            detail = detail[:MAX_LOGGED_REASON] + "…"
        log.warning(
            "lobby: table %s: rejected (%s): %s (further ones counted, not logged)",
            cause[0],
            reason,
            detail,
        )
