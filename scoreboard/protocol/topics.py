"""The MQTT topic names under one table's prefix, and which payload kind each carries.

Kept apart from parsing so the feed, the controller and the commands can name
topics (``Topics``, ``default_prefix``, ``topic_for``) without reading payloads.
"""

from __future__ import annotations

from scoreboard.protocol.contract import VERSION
from scoreboard.protocol.kinds import Kind

#: What a table's topic prefix must be, as error messages put it.
PREFIX_RULE = "a topic without wildcards or a trailing /"


def default_prefix(table_id: str) -> str:
    """``baccarat/v2/<table>``: contract v2 on its own prefix (a v1 controller keeps v1's).

    >>> default_prefix("T1")
    'baccarat/v2/T1'
    """
    return f"baccarat/v{VERSION}/{table_id}"


def check_prefix(prefix: str) -> str:
    """``prefix`` if it can stand before ``/coup``; else ValueError."""
    if not prefix or any(c in prefix for c in "#+\0") or prefix.endswith("/"):
        raise ValueError(f"MQTT prefix {prefix!r}: expected {PREFIX_RULE}")
    return prefix


class Topics:
    """The topic names under one table's prefix.

    >>> topics = Topics("baccarat/v2/T1")
    >>> topics.resync, topics.kind_of("baccarat/v2/T1/controller/status")
    ('baccarat/v2/T1/cmd/resync', <Kind.CONTROLLER_STATUS: 'controller_status'>)
    >>> topics.version, Topics("baccarat/v1/T1").version
    (2, 1)
    """

    def __init__(self, prefix: str) -> None:
        self.prefix = check_prefix(prefix)
        #: payload kind -> topic, and back (``topic_for`` and ``kind_of``).
        self.by_kind: dict[Kind, str] = {kind: f"{prefix}/{kind.suffix}" for kind in Kind}
        self._kinds = {topic: kind for kind, topic in self.by_kind.items()}
        self.coup = self.by_kind[Kind.COUP]
        self.event = self.by_kind[Kind.EVENT]
        self.snapshot = self.by_kind[Kind.SNAPSHOT]
        self.limits = self.by_kind[Kind.LIMITS]
        self.controller_status = self.by_kind[Kind.CONTROLLER_STATUS]
        self.resync = self.by_kind[Kind.RESYNC]
        self.pit = self.by_kind[Kind.PIT]
        self.pit_answer = self.by_kind[Kind.PIT_ANSWER]

    @property
    def version(self) -> int:
        """The contract a display writes in (its resync requests): 1 on a v1 prefix, else 2.

        A prefix is v1 when one of its levels is ``v1`` (``baccarat/v1/T1``), where
        a v1 controller, which refuses ``"v": 2``, still publishes during a migration.
        """
        return 1 if "v1" in self.prefix.split("/") else VERSION

    def display_status(self, display_id: str) -> str:
        return f"{self.prefix}/display/{display_id}/status"

    @property
    def display_subscriptions(self) -> tuple[str, ...]:
        """What a display reads: everything the controller publishes, nothing displays write.

        The retained topics come first, in the order their seq grows (the status is
        a session's birth, the limits follow it, the snapshot is as of the latest
        payload): mosquitto sends retained messages in the order of the filters, so
        a display that subscribes afresh receives them oldest first there.  RabbitMQ
        3.x hands them last filter first (snapshot, limits, status): the display
        takes either order (docs/protocol.md, "On a cluster").
        """
        return (self.controller_status, self.limits, self.snapshot, self.coup, self.event)

    def kind_of(self, topic: str) -> Kind | None:
        return self._kinds.get(topic)


def topic_for(topics: Topics, kind: Kind | str) -> str:
    return topics.by_kind[Kind(kind)]
