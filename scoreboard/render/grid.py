"""One routine draws every road: marks placed on a grid, scrolled by whole columns.

The roads differ only in the symbol each entry gets
(:class:`scoreboard.render.marks.RoadPainter`); the grid, the scrolling and the
"newest entry" bookkeeping are shared (:func:`draw_marks`).  Positions come
from the road engine; nothing here computes a road.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from scoreboard.render.layout import Grid
from scoreboard.render.marks import Mark
from scoreboard.theme import RGB


@dataclass(frozen=True, slots=True)
class RoadView:
    """What a drawn road shows: the first visible column and the newest entry's cell."""

    first_col: int
    newest: pygame.Rect | None
    newest_sprite: pygame.Surface | None


def first_visible_column(last_col: int, cols: int, empty_columns: int) -> int:
    """Scroll so the newest column and up to ``empty_columns`` empty ones stay visible.

    >>> first_visible_column(5, 10, 2), first_visible_column(30, 10, 2)
    (0, 23)
    """
    keep = min(max(0, empty_columns), cols - 1)
    return max(0, last_col + 1 + keep - cols)


def draw_grid_lines(surface: pygame.Surface, grid: Grid, color: RGB, width: int) -> None:
    """The ruled paper of a road panel (drawn once, into the static layer)."""
    rect = grid.rect
    for col in range(grid.cols + 1):
        x = min(grid.x(col), rect.right - width)
        pygame.draw.line(surface, color, (x, rect.top), (x, rect.bottom - 1), width)
    for row in range(grid.rows + 1):
        y = min(grid.y(row), rect.bottom - width)
        pygame.draw.line(surface, color, (rect.left, y), (rect.right - 1, y), width)


def draw_marks(
    surface: pygame.Surface, grid: Grid, marks: Sequence[Mark], empty_columns: int
) -> RoadView:
    """Blit the visible marks centred in their cells; the last mark is the newest."""
    if not marks:
        return RoadView(0, None, None)
    last_col = max(mark.col for mark in marks)
    first = first_visible_column(last_col, grid.cols, empty_columns)
    for mark in marks:
        col = mark.col - first
        if 0 <= col < grid.cols and 0 <= mark.row < grid.rows:
            cell = grid.cell(col, mark.row)
            surface.blit(mark.sprite, mark.sprite.get_rect(center=cell.center))
    newest = marks[-1]
    rect = None
    if 0 <= newest.col - first < grid.cols and newest.row < grid.rows:
        rect = grid.cell(newest.col - first, newest.row)
    return RoadView(first, rect, newest.sprite)


def sprite_size(grid: Grid) -> tuple[int, int]:
    return (max(2, int(grid.cell_width)), max(2, int(grid.cell_height)))
