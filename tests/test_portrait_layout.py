"""Portrait is designed, not squeezed: readable derived roads and a bead plate for the shoe.

At 1080x1920 the derived roads' cells are at least as large as landscape 1080p's
(they were 10.5 px against 13.8: unreadable from the seats), and the bead plate
holds a whole 8-deck shoe (90 games) without taking a quarter of the screen.
"""

from __future__ import annotations

import pytest

from scoreboard.render.layout import compute_layout
from scoreboard.theme import DERIVED_PANELS, available_themes, load_theme

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
