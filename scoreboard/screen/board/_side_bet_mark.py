"""The last hand's side-bet marks: a pill per side bet the table offers that the hand won.

"Small 6 22:1" at the right of the panel's title, in the accent colour, so the
floor sees at a glance that the coup on screen paid a side bet; a table that
offers none of them never shows one.
"""

from __future__ import annotations

import pygame

from scoreboard.game.limits import Limits
from scoreboard.game.rules import Coup
from scoreboard.game.side_bets import bets_won
from scoreboard.roads.stats import coup_tiers
from scoreboard.screen.board._chrome import draw_pill
from scoreboard.screen.board.panels import PanelPainter


def side_bet_marks(p: PanelPainter, limits: Limits, coup: Coup) -> tuple[str, ...]:
    """The marks' texts: each offered side bet the coup won, its name and its pay."""
    return tuple(
        f"{p.names(bet)[0]} {pay}:1" for bet, pay in bets_won(limits.side_bets, coup_tiers(coup))
    )


def draw_side_bet_marks(p: PanelPainter, surface: pygame.Surface, marks: tuple[str, ...]) -> None:
    """The marks right to left in the last hand's title strip, beside its "#game"."""
    box = p.layout.panels["last_coup"].title
    if box is None or not marks:
        return
    p.part(surface, ("side bet marks", marks, tuple(box)), lambda pen: _draw(p, pen, box, marks))


def _draw(
    p: PanelPainter, surface: pygame.Surface, box: pygame.Rect, marks: tuple[str, ...]
) -> None:
    height = round(box.height * 0.72)
    gap = p.layout.px(0.006)
    right = box.right - p.layout.px(0.01)
    left = box.x + box.width // 2  # the title and game number keep the left half
    for text in reversed(marks):
        if right - left < height * 2:
            break  # no room for another pill: the first ones say the most
        lane = pygame.Rect(left, 0, right - left, height)
        lane.centery = box.centery
        right = draw_pill(p, surface, text.upper(), p.colors.accent, lane).left - gap
