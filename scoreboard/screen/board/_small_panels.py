"""What a small panel is (header, counters, ask road, last hand, limits, footer): one unit.

Each panel module declares its :class:`SmallPanel`: what the panel reads
(``read``: the table, the theme and the time gathered into one frozen value)
next to how it draws that value (``draw``, which sees nothing else).  The value
is the panel's change key: the renderer redraws the panel when it differs from
the one last drawn, so the key cannot leave out an input of the drawing.  A new
small panel is a unit in its own module and one entry in the renderer's
``SMALL_PANELS``.

The renderer draws these onto a recorder (:mod:`scoreboard.screen.board.canvas`),
so only what changed in them reaches the frame.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Generic, TypeVar

import pygame

from scoreboard.screen.board.guard import PanelGuard
from scoreboard.screen.board.panels import PanelPainter, PanelView
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState

Shown = TypeVar("Shown")


@dataclass(frozen=True, slots=True)
class FrameInput:
    """What one update draws from: the table, what the header shows beside it, and how
    the renderer's motion and guard stand (``shown``: the last hand's cards on view, None
    all; ``backs``: that hand was seen dealt face down)."""

    table: TableState
    status: FeedStatus
    clock: str
    now: float
    journal_failing: bool
    guard: PanelGuard
    shown: int | None = None
    backs: bool = False

    @property
    def fault(self) -> bool:
        """A panel other than the header fails now (read late: the header is drawn last)."""
        return self.guard.fault_shown()


class Timing(Enum):
    """When the renderer looks at a panel."""

    NOW = "now"
    """At every update."""
    MOVING = "moving"
    """At every update and every animation step while on the frame (the hand's cards)."""
    LANDED = "landed"
    """With the roads: once the coup's last card has landed (a full frame: at once)."""


@dataclass(frozen=True, slots=True)
class SmallPanel(Generic[Shown]):
    """One small panel: its layout name, what it reads and how it draws what it read.

    ``read(painter, given)`` gathers every input of the drawing into one value
    that compares by content (frozen values, never a mutable object), and
    ``draw(painter, surface, shown)`` draws from that value alone, returning the
    labelled values it drew (or None).  ``last``: drawn after the other panels and
    the roads, because it shows how their draws went.
    """

    name: str
    read: Callable[[PanelPainter, FrameInput], Shown]
    draw: Callable[[PanelPainter, pygame.Surface, Shown], PanelView | None]
    timing: Timing = Timing.NOW
    last: bool = False
