"""Road paper: the big road ruled per cell, derived roads per 2x2 entries (real boards' look)."""

from __future__ import annotations

import pygame

from scoreboard.render.screen import Renderer
from scoreboard.theme import load_theme


def ruled(surface: pygame.Surface, x: int, y0: int, y1: int, color) -> bool:
    """Whether the vertical line at ``x`` is drawn in the grid colour over most of y0..y1."""
    hits = sum(tuple(surface.get_at((x, y)))[:3] == color for y in range(y0, y1))
    return hits > (y1 - y0) * 0.6


def test_derived_roads_are_ruled_every_second_cell_and_the_big_road_every_cell() -> None:
    theme = load_theme("classic")
    renderer = Renderer(theme, (1920, 1080), motion=False)
    static, color = renderer.static, theme.colors.grid
    big = renderer.layout.grids["big_road"]
    rect = big.rect
    assert ruled(static, big.x(1), rect.top + 2, rect.bottom - 2, color)
    assert ruled(static, big.x(2), rect.top + 2, rect.bottom - 2, color)
    for road in ("big_eye_boy", "small_road", "cockroach_pig"):
        grid = renderer.layout.grids[road]
        top, bottom = grid.rect.top + 2, grid.rect.bottom - 2
        assert not ruled(static, grid.x(1), top, bottom, color), road
        assert ruled(static, grid.x(2), top, bottom, color), road
        assert ruled(static, grid.x(grid.cols) - renderer.layout.line, top, bottom, color), road
