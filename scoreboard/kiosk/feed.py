"""What the kiosk loop asks of a feed: the Feed protocol, and KeyInput for one that takes keys.

Apart from :mod:`scoreboard.kiosk.loop` (which re-exports both) so a feed's author reads
the contract without the loop; ``docs/architecture.md`` describes it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

from scoreboard.table.applied import FeedStatus
from scoreboard.table.health import JournalHealth, RenderHealth
from scoreboard.table.state import TableState


class Feed(Protocol):
    """What the loop needs of a feed; ``now`` is always the monotonic clock's."""

    def start(self, wake: Callable[[], None]) -> None: ...
    def poll(self, table: TableState, now: float) -> None: ...
    def status(self, now: float) -> FeedStatus: ...
    def next_deadline(self, now: float) -> float | None: ...
    def report(self, render: RenderHealth) -> None:
        """How drawing goes, after every frame attempt (for the display status)."""
        ...

    def journal_health(self) -> JournalHealth:
        """Whether the journal keeps the board; FAILING puts a warning on screen."""
        ...

    def stop(self) -> None: ...


@runtime_checkable
class KeyInput(Protocol):
    """A feed that takes the kiosk's keys (the dealer keypad) and has a line for the screen."""

    def key(self, key: str, down: bool, now: float) -> None:
        """A key went down or up: pygame's name for it, when the loop took it (monotonic)."""
        ...

    def keys_in_play(self, now: float) -> bool:
        """Whether key timing matters now (a key down, a release in doubt): a sleeping
        loop then looks for keys every ``KEY_POLL_SECONDS``, else ``KEY_IDLE_SECONDS``."""
        ...

    def release_all(self) -> None:
        """The window lost the keyboard (SDL sends no key-up for what was held)."""
        ...

    def prompt(self, now: float) -> str | None:
        """The line to show the dealer now (a question to confirm, pending modifiers)."""
        ...
