"""Road paper ends on whole squares: a derived road ruled every 2 cells has an even count.

A derived road in half-size cells is ruled one square per 2x2 entries; with an odd
number of columns its paper ended in a sliver half a square wide.  Checked on the
layout of every shipped theme at landscape, portrait and odd sizes, and on the
ruled pixels themselves.
"""

from __future__ import annotations

import itertools

import pytest

from scoreboard.screen.board.layout import ruling_step
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.loading import available_themes, load_theme

SIZES = [(1920, 1080), (1280, 720), (1366, 768), (1080, 1920), (3840, 2160), (2560, 1080)]
IDS = [f"{w}x{h}" for w, h in SIZES]

pytestmark = pytest.mark.usefixtures("pygame_display")


@pytest.mark.parametrize("name", available_themes())
@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_every_road_is_ruled_in_whole_squares(name, size):
    theme = load_theme(name)
    renderer = Renderer(theme, size)
    checked = 0
    for road, grid in renderer.layout.grids.items():
        step = ruling_step(renderer.layout.derived_cell, road)
        assert grid.cols % step == 0 and grid.rows % step == 0, (road, grid.cols, step)
        if step > 1:
            checked += 1
            squares = [grid.x(col) for col in range(0, grid.cols + 1, step)]
            widths = [b - a for a, b in itertools.pairwise(squares)]
            assert max(widths) - min(widths) <= 1, (road, widths)  # the last one too
    assert checked  # the shipped themes draw derived roads in half-size cells
