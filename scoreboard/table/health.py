"""What the board knows about its own health, as values for the status and the screen.

The display status (``protocol.display_status``) and the screen both read these,
so what the board shows and what it reports about itself come from one place:
a panel that failed to draw, or a journal that cannot write, is never known to
one and not the other.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RenderHealth:
    """How drawing goes: panels that failed on the last frame, failures so far, last frame.

    ``last_frame`` is the wall-clock time (Unix seconds) the last frame reached the
    screen, ``None`` before the first.

    >>> RenderHealth().ok, RenderHealth(failing=("big_road",), failures=3).ok
    (True, False)
    """

    failing: tuple[str, ...] = ()
    failures: int = 0
    last_frame: float | None = None

    @property
    def ok(self) -> bool:
        return not self.failing


class JournalState(enum.StrEnum):
    """Whether the journal keeps what the board shows: ``ok``, ``off`` (none), ``failing``."""

    OK = "ok"
    OFF = "off"
    FAILING = "failing"


@dataclass(frozen=True, slots=True)
class JournalHealth:
    """The journal's state; while ``failing``, the board runs from memory.

    >>> JournalHealth(JournalState.FAILING, "No space left on device").ok
    False
    """

    state: JournalState = JournalState.OFF
    reason: str = ""

    @property
    def ok(self) -> bool:
        return self.state is not JournalState.FAILING
