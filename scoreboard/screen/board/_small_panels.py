"""The small panels (header, counters, ask road, last hand, limits, footer), drawn by name.

The renderer draws these onto a recorder (:mod:`scoreboard.screen.board.canvas`), so
only what changed in them reaches the frame; this module says which they are
and which painter draws each from one update's input.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from scoreboard.screen.board._ask_road import draw_ask_road
from scoreboard.screen.board._chrome import draw_footer, draw_header
from scoreboard.screen.board._counters_panel import draw_counters
from scoreboard.screen.board._hand import draw_last_coup
from scoreboard.screen.board._limits_panel import draw_limits
from scoreboard.screen.board._notices import alert_count, shoe_text
from scoreboard.screen.board.panels import PanelPainter, PanelView
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState

RECORDED = frozenset({"header", "counters", "predictions", "last_coup", "limits", "footer"})
"""The small panels drawn through a recorder: only what changed in them reaches the frame."""


@dataclass(frozen=True, slots=True)
class FrameInput:
    """What one update draws: the table and what the header shows beside it."""

    table: TableState
    status: FeedStatus
    clock: str
    now: float
    journal_failing: bool


def draw_small_panel(
    panels: PanelPainter,
    name: str,
    frame: pygame.Surface,
    given: FrameInput,
    *,
    fault: bool,
    shown: int | None,
    backs: bool = False,
) -> PanelView | None:
    """Draw small panel ``name``; the labelled values it shows (header and counters).

    ``fault``: the header's mark says DISPLAY FAULT; ``shown``: how many of the
    last hand's cards are on view (None: all); ``backs``: the hand was seen dealt face
    down, so the cards not yet on view lie as card backs.
    """
    table = given.table
    if name == "header":
        return draw_header(
            panels,
            frame,
            table,
            given.status,
            given.clock,
            fault=fault,
            journal_failing=given.journal_failing,
        )
    if name == "counters":
        return draw_counters(panels, frame, table)
    if name == "predictions":
        draw_ask_road(panels, frame, table.roads)
    elif name == "last_coup":
        draw_last_coup(panels, frame, table, shown=shown, backs=backs)
    elif name == "limits":
        draw_limits(panels, frame, table.limits, scheduled=table.scheduled)
    elif name == "footer":
        draw_footer(panels, frame, alerts=alert_count(table), shoe=shoe_text(panels, table))
    return None
