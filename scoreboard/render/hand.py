"""The last hand: both hands as drawn cards, totals and the winner.

Functions of a :class:`~scoreboard.render.panels.PanelPainter`; card faces are
cached with the road sprites, keyed by size and card.
"""

from __future__ import annotations

import pygame

from scoreboard.core.cards import Card
from scoreboard.core.rules import Coup, Winner
from scoreboard.core.table import TableState
from scoreboard.render.marks import SIDE_KEY
from scoreboard.render.panels import PanelPainter

SUIT_GLYPHS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_TEXT = {"T": "10"}


def draw_last_coup(p: PanelPainter, surface: pygame.Surface, table: TableState) -> None:
    game = table.last_game
    p.title(surface, "last_coup", f"  #{game.number}" if game else "")
    body = p.layout.panels["last_coup"].body
    if game is None:
        p.put(
            surface,
            p.words("waiting"),
            body.inflate(-body.width // 10, -body.height // 2),
            p.colors.muted,
            align="center",
        )
        return
    coup = game.coup
    half = body.width // 2
    for i, (cards, total, side) in enumerate(
        (
            (coup.player, coup.player_total, Winner.PLAYER),
            (coup.banker, coup.banker_total, Winner.BANKER),
        )
    ):
        area = pygame.Rect(body.x + i * half, body.y, half, body.height)
        inset = area.inflate(-p.layout.px(0.008), 0)
        draw_hand(p, surface, inset, SIDE_KEY[side], cards, total, coup, side)
    if not coup.has_cards:
        fill = p.roads.side_color[coup.winner]
        below = pygame.Rect(body.x, body.y + round(body.height * 0.36), body.width, 0)
        below.height = body.bottom - below.y
        p.put(
            surface,
            p.words(SIDE_KEY[coup.winner]),
            below.inflate(-body.width // 4, -below.height // 4),
            fill,
            bold=True,
            align="center",
        )


def draw_hand(
    p: PanelPainter,
    surface: pygame.Surface,
    area: pygame.Rect,
    key: str,
    cards: tuple[Card, ...],
    total: int | None,
    coup: Coup,
    side: Winner,
) -> None:
    colors = p.colors
    color = p.roads.side_color[side]
    won = coup.winner is side
    head = pygame.Rect(area.x, area.y, area.width, round(area.height * 0.3))
    if won or coup.winner is Winner.TIE:
        fill = color if won else colors.tie
        pygame.draw.rect(surface, fill, head, border_radius=p.layout.radius)
        text_color = colors.bead_text
    else:
        pygame.draw.rect(surface, color, head, p.layout.line * 2, border_radius=p.layout.radius)
        text_color = color
    inner = head.inflate(-head.height // 2, -round(head.height * 0.3))
    p.put(surface, p.words(key), inner, text_color, bold=True)
    p.put(
        surface,
        "–" if total is None else str(total),
        inner,
        text_color,
        bold=True,
        align="right",
    )
    table_area = pygame.Rect(area.x, head.bottom, area.width, area.bottom - head.bottom)
    table_area = table_area.inflate(0, -round(table_area.height * 0.12))
    if not cards:
        return
    card_h = table_area.height
    card_w = round(card_h * 0.7)
    step = min(
        card_w + card_h * 0.08, (area.width - card_h) / 2 if len(cards) == 3 else card_w * 1.1
    )
    x = area.x + max(
        0, round((area.width - (step * 2 + (card_h if len(cards) == 3 else card_w))) / 2)
    )
    for n, card in enumerate(cards):
        face = card_face(p, card, (card_w, card_h))
        if n == 2:
            face = pygame.transform.rotate(face, 90)
            surface.blit(face, face.get_rect(midleft=(round(x + 2 * step), table_area.centery)))
        else:
            surface.blit(face, (round(x + n * step), table_area.y))


def card_face(p: PanelPainter, card: Card, size: tuple[int, int]) -> pygame.Surface:
    """A drawn card: white face, rank and suit in the corner, a large suit pip."""
    key = ("card", size, str(card))
    found = p.roads.sprites.get(key)
    if found is not None:
        return found
    colors = p.colors
    face = pygame.Surface(size, pygame.SRCALPHA)
    radius = max(2, size[0] // 9)
    pygame.draw.rect(face, colors.card_face, face.get_rect(), border_radius=radius)
    pygame.draw.rect(
        face, colors.card_edge, face.get_rect(), max(1, size[0] // 40), border_radius=radius
    )
    ink = colors.card_red if card.suit in ("H", "D") else colors.card_black
    rank = RANK_TEXT.get(card.rank, card.rank)
    corner = pygame.Rect(size[0] * 0.08, size[1] * 0.04, size[0] * 0.84, size[1] * 0.42)
    p.put(face, rank, corner, ink, bold=True)
    if card.suit:
        pip = pygame.Rect(size[0] * 0.15, size[1] * 0.46, size[0] * 0.7, size[1] * 0.5)
        p.put(face, SUIT_GLYPHS[card.suit], pip, ink, align="center")
    return p.roads.sprites.put(key, face)
