"""The MQTT topic names under one table's prefix, and which payload kind each carries.

Kept apart from parsing so the feed, the controller and the commands can name
topics (``Topics``, ``default_prefix``, ``topic_for``) without reading payloads.
"""

from __future__ import annotations


def default_prefix(table_id: str) -> str:
    return f"baccarat/v1/{table_id}"


class Topics:
    """The topic names under one table's prefix."""

    def __init__(self, prefix: str) -> None:
        if not prefix or any(c in prefix for c in "#+\0") or prefix.endswith("/"):
            raise ValueError(
                f"MQTT prefix {prefix!r}: expected a topic without wildcards or a trailing /"
            )
        self.prefix = prefix
        self.coup = f"{prefix}/coup"
        self.event = f"{prefix}/event"
        self.snapshot = f"{prefix}/snapshot"
        self.limits = f"{prefix}/limits"
        self.controller_status = f"{prefix}/controller/status"
        self.resync = f"{prefix}/cmd/resync"

    def display_status(self, display_id: str) -> str:
        return f"{self.prefix}/display/{display_id}/status"

    @property
    def display_subscriptions(self) -> tuple[str, ...]:
        """What a display reads: everything the controller publishes, nothing displays write."""
        return (self.coup, self.event, self.snapshot, self.limits, self.controller_status)

    def kind_of(self, topic: str) -> str | None:
        return {
            self.coup: "coup",
            self.event: "event",
            self.snapshot: "snapshot",
            self.limits: "limits",
            self.controller_status: "controller_status",
            self.resync: "resync",
        }.get(topic)


def topic_for(topics: Topics, kind: str) -> str:
    return {
        "coup": topics.coup,
        "event": topics.event,
        "snapshot": topics.snapshot,
        "limits": topics.limits,
        "controller_status": topics.controller_status,
        "resync": topics.resync,
    }[kind]
