"""What applying one event did (:class:`Applied`); what the feed mark says (:class:`FeedStatus`).

Kept apart from :mod:`scoreboard.table.state` (which re-exports both) so the
table module holds the table's state and rules only.

>>> Applied(changed=True).worth_keeping, UNCHANGED.worth_keeping
(True, False)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from scoreboard.table.amendments import Amendment
from scoreboard.table.integrity import IntegrityAlert

__all__ = ["CHANGED", "STALE", "TRANSIENT", "UNCHANGED", "Applied", "FeedStatus"]


class FeedStatus(enum.Enum):
    """What the feed mark on screen says."""

    DEMO = "demo"
    LIVE = "live"
    CONNECTING = "connecting"
    OFFLINE = "offline"
    CONTROLLER_OFFLINE = "controller offline"
    MISSING_GAMES = "missing games"


@dataclass(frozen=True, slots=True)
class Applied:
    """What applying one event did.

    ``changed``: the board changed (``version`` was bumped).  ``conflicts``: game
    numbers where the event contradicted what the table keeps (refused: the feed
    counts and logs it).  ``overrides``: game numbers a newer snapshot changed or
    voided (a correction or void the display had missed: logged).  ``retired``:
    how many coups the table newly learned are not a game's truth; such an event
    must be journaled even when nothing changed, so a restart remembers it.
    ``stale``: ignored because its origin is not newer than what the table
    applied (a replay, a duplicate, an older controller session): never journaled.
    ``completed``: the id of the unfinished previous shoe this snapshot completed
    (the journal archives the snapshot as that shoe's truth).  ``amendments``:
    the voids and corrections the event made (:mod:`scoreboard.table.amendments`);
    ``alerts``: the integrity alerts it raised (:mod:`scoreboard.table.integrity`).
    ``transient``: the change lasts only until the coup (a card dealt face down):
    the board redraws, the journal keeps no line of it.
    """

    changed: bool = False
    conflicts: tuple[int, ...] = ()
    overrides: tuple[int, ...] = ()
    retired: int = 0
    stale: bool = False
    completed: str | None = None
    amendments: tuple[Amendment, ...] = ()
    alerts: tuple[IntegrityAlert, ...] = ()
    transient: bool = False

    def __bool__(self) -> bool:
        raise TypeError("an Applied is not a truth value: ask .changed or .worth_keeping")

    @property
    def worth_keeping(self) -> bool:
        """True when the journal must record the event."""
        changed = self.changed and not self.transient
        return changed or self.retired > 0 or self.completed is not None


UNCHANGED = Applied()
CHANGED = Applied(changed=True)
STALE = Applied(stale=True)
TRANSIENT = Applied(changed=True, transient=True)
