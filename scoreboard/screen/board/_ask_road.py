"""The ask road: what each derived road would add after a Banker and after a Player.

Functions of a :class:`~scoreboard.screen.board.panels.PanelPainter`; the entries
are the road engine's own predictions, drawn in each road's symbol.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

import pygame

from scoreboard.game.rules import Winner
from scoreboard.roads.engine import DERIVED_ROADS, Color, DerivedRoad, Roads
from scoreboard.screen.board._small_panels import FrameInput, SmallPanel, Timing
from scoreboard.screen.board.canvas import draw_rect
from scoreboard.screen.board.marks import SIDE_KEY
from scoreboard.screen.board.panels import PanelPainter


def draw_ask_road(p: PanelPainter, surface: pygame.Surface, roads: Roads) -> None:
    """The ask road for these roads (see :func:`paint_ask_road`)."""
    paint_ask_road(p, surface, ask_shows(roads))


AskShows = tuple[tuple[Color | None, ...], ...]
"""What the ask road draws, its change key: for a next Banker, then a next Player, each
derived road's entry in :data:`~scoreboard.roads.engine.DERIVED_ROADS` order (None: none)."""


def ask_shows(roads: Roads) -> AskShows:
    """The entries the ask road shows for these roads."""
    predictions = roads.predictions
    return tuple(tuple(map(predictions.get(side, {}).get, DERIVED_ROADS)) for side in SIDES)


def read_ask_road(_p: PanelPainter, given: FrameInput) -> AskShows:
    """The ask road's reading of one update: the table's roads only."""
    return ask_shows(given.table.roads)


def paint_ask_road(p: PanelPainter, surface: pygame.Surface, shows: AskShows) -> None:
    """For a next Banker and a next Player, each derived road's entry (a dash for none).

    Two rows when the panel is tall enough, else side by side in one row
    (a short strip under the bead plate).  A row is drawn once per the
    entries it shows and replayed after (:meth:`PanelPainter.part`).
    """
    rows, named = p.laid_out("ask road", lambda: ask_layout(p))
    for row, side, shown in zip(rows, SIDES, shows, strict=True):
        predicted = dict(zip(DERIVED_ROADS, shown, strict=True))
        p.part(
            surface,
            ("ask row", side, shown),
            functools.partial(ask_row, p, row=row, winner=side, predicted=predicted, named=named),
        )


SIDES = (Winner.BANKER, Winner.PLAYER)


def ask_layout(p: PanelPainter) -> tuple[tuple[pygame.Rect, ...], bool]:
    """The two rows' rectangles, and whether both rows name their side (else the chips do)."""
    body = p.layout.panels["predictions"].body
    one_row = body.height < 2 * 1.6 * p.floor("label")
    rows = []
    for i in range(2):
        if one_row:
            half = body.width // 2
            row = pygame.Rect(body.x + i * half, body.y, half, body.height)
            rows.append(row.inflate(-p.layout.px(0.01), 0) if i == 0 else row)
        else:
            row_h = body.height / 2
            rows.append(pygame.Rect(body.x, round(body.y + i * row_h), body.width, round(row_h)))
    least = p.min_size("label")
    named = all(  # both names or neither, so the two rows look alike
        p.text.width(p.names(SIDE_KEY[side])[0], least) <= ask_label(row).width
        for row, side in zip(rows, SIDES, strict=True)
    )
    return tuple(rows), named


def ask_label(row: pygame.Rect) -> pygame.Rect:
    """Where a row of the ask road names its side: between the chip and the three cells."""
    size = ask_size(row)
    label = pygame.Rect(row.x + size + size // 3, row.y, 0, row.height)
    label.width = max(1, row.right - 3 * round(size * 1.15) - label.x)
    return label


def ask_size(row: pygame.Rect) -> int:
    return round(min(row.height * 0.86, row.width / 7))


def ask_row(
    p: PanelPainter,
    surface: pygame.Surface,
    row: pygame.Rect,
    winner: Winner,
    predicted: Mapping[DerivedRoad, Color | None],
    *,
    named: bool,
) -> None:
    colors = p.colors
    key = SIDE_KEY[winner]
    size = ask_size(row)
    chip = pygame.Rect(row.x, 0, size, size)
    chip.centery = row.centery
    shape = p.roads.side_shape[winner]
    surface.blit(p.roads.sprites.disc(chip.size, p.roads.side_color[winner], shape), chip)
    letter = p.theme.roads.letters[key]
    inner = chip.inflate(-size // 5, -size // 5)
    p.put(surface, letter, inner, colors.bead_text, bold=True, align="center")
    slot = round(size * 1.15)
    label = ask_label(row)
    if named:  # else the chip's letter names the side: no name cut down to "B…"
        text = p.label_text(key, p.min_size("label"), label.width)
        p.put(surface, text, label, colors.text, height=row.height * 0.6, role="label")
    for road, k in DERIVED_ROADS.items():
        cell = pygame.Rect(0, 0, size, size)
        cell.centery = row.centery
        cell.right = row.right - (3 - k) * slot
        draw_rect(surface, colors.grid, cell, p.layout.line, border_radius=p.layout.radius // 2)
        entry = predicted.get(road)
        if entry is None:
            dash = cell.inflate(-round(size * 0.6), -round(size * 0.92))
            draw_rect(surface, colors.muted, dash)
            continue
        sprite = p.roads.derived(k, entry, cell.size)
        surface.blit(sprite, sprite.get_rect(center=cell.center))


ASK_ROAD = SmallPanel("predictions", read_ask_road, paint_ask_road, Timing.LANDED)
"""The ask road takes a coup with the roads: once its last card has landed."""
