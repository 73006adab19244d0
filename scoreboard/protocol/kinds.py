"""The payload kinds of the contract (v1 and v2 alike): one per topic under a table's prefix.

An enum (not strings threaded through the layers) so a new kind is one member
here and one entry in :mod:`scoreboard.protocol.messages`.  Members are
``StrEnum``: the journal stores their values and a kind compares equal to it.

>>> Kind.CONTROLLER_STATUS.suffix, Kind.RESYNC.suffix, Kind.COUP.schema
('controller/status', 'cmd/resync', 'coup.json')
"""

from __future__ import annotations

import enum


class Kind(enum.StrEnum):
    """What a payload is, by the topic it travels on."""

    COUP = "coup"
    EVENT = "event"
    SNAPSHOT = "snapshot"
    LIMITS = "limits"
    CONTROLLER_STATUS = "controller_status"
    RESYNC = "resync"
    # Pit commands: read by the table's controller, answered by it; no board reads them.
    PIT = "pit"
    PIT_ANSWER = "pit_answer"

    @property
    def suffix(self) -> str:
        """The topic below the table's prefix."""
        return _SUFFIXES.get(self, self.value)

    @property
    def schema(self) -> str:
        """The JSON Schema file in ``scoreboard/schemas`` that describes it."""
        return f"{self.value}.json"


_SUFFIXES = {Kind.CONTROLLER_STATUS: "controller/status", Kind.RESYNC: "cmd/resync"}
_SUFFIXES |= {Kind.PIT: "cmd/pit", Kind.PIT_ANSWER: "cmd/pit/answer"}
