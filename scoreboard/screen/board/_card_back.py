"""A card's back: what the last hand shows of a card dealt but not yet revealed by its coup.

Drawn from the theme's colours (no face, no rank, nothing of the card it
stands for): a white border like a face's, and inside it the header's dark
colour crossed by a fine lattice in the accent colour, so it reads as a card
lying face down in every shipped theme.  Cached with the road sprites, keyed by
size and colours.
"""

from __future__ import annotations

import pygame

from scoreboard.screen.board._chrome import mix
from scoreboard.screen.board.canvas import draw_rect, mark_opaque, rounded_cross
from scoreboard.screen.board.panels import PanelPainter
from scoreboard.screen.theme.values import RGB

__all__ = ["card_back"]


def card_back(p: PanelPainter, size: tuple[int, int], radius: int) -> pygame.Surface:
    """A card back of ``size`` (wide for the third card, lying sideways) with corners ``radius``."""
    colors = p.colors
    key = ("card back", size, radius, colors.card_face, colors.header_background, colors.accent)
    found = p.roads.sprites.get(key)
    if found is not None:
        return found
    back = pygame.Surface(size, pygame.SRCALPHA)
    outline = back.get_rect()
    draw_rect(back, colors.card_face, outline, border_radius=radius)
    draw_rect(back, colors.card_edge, outline, max(1, min(size) // 40), border_radius=radius)
    margin = max(2, round(min(size) * 0.08))
    inner = outline.inflate(-2 * margin, -2 * margin)
    field = colors.header_background
    draw_rect(back, field, inner, border_radius=max(1, radius - margin // 2))
    _lattice(back, inner, mix(field, colors.accent, 0.45), max(4, round(min(size) * 0.16)))
    frame = inner.inflate(-2 * max(1, margin // 2), -2 * max(1, margin // 2))
    draw_rect(
        back, colors.accent, frame, max(1, min(size) // 60), border_radius=max(1, radius // 2)
    )
    back.set_alpha(255, pygame.RLEACCEL)  # alpha 0 or 255 only: blitted by runs, like a face
    back = mark_opaque(back, rounded_cross(outline, radius))
    return p.roads.sprites.put(key, back)


def _lattice(surface: pygame.Surface, area: pygame.Rect, color: RGB, step: int) -> None:
    """Diagonal lines both ways across ``area``, ``step`` apart, clipped to it."""
    clip = surface.get_clip()
    surface.set_clip(area)
    line = max(1, step // 8)
    for offset in range(-area.height, area.width + area.height, step):
        x = area.x + offset
        pygame.draw.line(surface, color, (x, area.y), (x + area.height, area.bottom), line)
        pygame.draw.line(surface, color, (x, area.bottom), (x + area.height, area.y), line)
    surface.set_clip(clip)
