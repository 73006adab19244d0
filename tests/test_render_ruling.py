"""Road paper: the big road ruled per cell, derived roads per 2x2 entries (real boards' look)."""

from __future__ import annotations

import pygame

from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.loading import load_theme


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


def test_the_earlier_label_never_spills_out_of_its_band(tmp_path) -> None:
    """Three rows leave the derived roads' band too short for the label: the arrow alone shows.

    (The review's case: the label was drawn over the arrow and ran down past the grid.)
    """
    from scoreboard.cli.commands.screenshot import dealt_table
    from scoreboard.table.applied import FeedStatus
    from scoreboard.table.state import TableState

    source = load_theme("classic").source
    assert source is not None
    three = tmp_path / "three.yaml"
    three.write_text(source.read_text(encoding="utf-8").replace("  rows: 6\n", "  rows: 3\n", 1))
    theme = load_theme(three)
    table = TableState()
    table.set_rows(3)
    table = dealt_table(1, 80, table=table)
    renderer = Renderer(theme, (1920, 1080), motion=False)
    frame = renderer.render(table, FeedStatus.DEMO)
    for road in ("big_eye_boy", "small_road", "cockroach_pig"):
        grid = renderer.layout.grids[road]
        body = renderer.layout.panels[road].rect
        below = pygame.Rect(grid.rect.left, grid.rect.bottom + 1, grid.x(3) - grid.rect.left, 0)
        below.height = body.bottom - below.top
        assert below.height > 0, road
        drawn = frame.subsurface(below)
        assert pygame.image.tobytes(drawn, "RGB") == pygame.image.tobytes(
            renderer.static.subsurface(below), "RGB"
        ), road
