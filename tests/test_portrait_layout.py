"""Portrait is designed, not squeezed: readable derived roads and a bead plate for the shoe.

At 1080x1920 the derived roads' cells are at least as large as landscape 1080p's
(they were 10.5 px against 13.8: unreadable from the seats), and the bead plate
holds a whole 8-deck shoe (90 games) without taking a quarter of the screen.
"""

from __future__ import annotations

import pytest

from scoreboard.screen.board.layout import compute_layout
from scoreboard.screen.theme.loading import available_themes, load_theme
from scoreboard.screen.theme.values import DERIVED_PANELS

pytestmark = pytest.mark.usefixtures("pygame_display")


@pytest.mark.parametrize("name", available_themes())
def test_portrait_derived_roads_are_as_readable_as_landscape_1080p(name):
    theme = load_theme(name)
    landscape = compute_layout(theme, (1920, 1080)).grids
    portrait = compute_layout(theme, (1080, 1920)).grids
    for road in DERIVED_PANELS:
        assert portrait[road].cell_height >= landscape[road].cell_height - 0.5, road
        assert portrait[road].cols >= 48  # a whole shoe's derived road, as in landscape


@pytest.mark.parametrize("name", available_themes())
def test_the_portrait_bead_plate_holds_a_shoe_in_under_a_fifth_of_the_screen(name):
    layout = compute_layout(load_theme(name), (1080, 1920))
    bead = layout.grids["bead_plate"]
    assert bead.cols * bead.rows >= 90
    assert layout.panels["bead_plate"].rect.height < 0.2 * 1920


@pytest.mark.parametrize("size", [(1080, 1920), (720, 1280)])
@pytest.mark.parametrize("name", available_themes())
def test_the_portrait_header_shows_the_brand_whole(name, size):
    from scoreboard.cli.commands.screenshot import dealt_table
    from scoreboard.screen.board._chrome import draw_header
    from scoreboard.screen.board.renderer import Renderer
    from scoreboard.table.applied import FeedStatus

    theme = load_theme(name)
    renderer = Renderer(theme, size)
    painter = renderer.panels
    painter.log = drawn = []
    try:
        table = dealt_table(1, 82)
        draw_header(painter, renderer.static.copy(), table, FeedStatus.CONTROLLER_OFFLINE, "21:45")
    finally:
        painter.log = None
    titles = [t.text for t in drawn if t.text.startswith(theme.style.header_title[:4])]
    assert titles == [theme.style.header_title], [t.text for t in drawn]
