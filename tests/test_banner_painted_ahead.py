"""The winner banner is painted ahead: the first banner of a renderer paints no plate.

A new renderer's first winner banner painted its plate (the soft shadow) in
the frame that showed it, about 30 ms at 4K: that frame's publish -> flip was
the dearest of a shoe.  The banner now paints each winner's first-coup banner
when it is built; these tests hold that the frame showing the banner finds its
plate painted, and that what it shows is what a cold paint draws.
"""

from __future__ import annotations

import pygame
import pytest

from scoreboard.game.rules import Game, Winner, result_coup
from scoreboard.screen.board._banner import plated
from scoreboard.screen.board._motion import Motion, MotionSettings
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.loading import load_theme
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState

SETTINGS = MotionSettings(enabled=True, deal_seconds=0.3, banner_seconds=3.0, draw_in_seconds=0.35)
COUPS = {
    Winner.BANKER: result_coup(Winner.BANKER, player_total=2, banker_total=7),
    Winner.PLAYER: result_coup(Winner.PLAYER, player_total=9, banker_total=0),
    Winner.TIE: result_coup(Winner.TIE, player_total=6, banker_total=6),
}

pytestmark = pytest.mark.usefixtures("pygame_display")


def first_coup(theme_name: str, size: tuple[int, int], winner: Winner):
    """A renderer and its Motion built from cold, and a shoe's first coup arriving."""
    plated.cache_clear()
    theme = load_theme(theme_name)
    renderer = Renderer(theme, size, motion=False)
    motion = Motion(SETTINGS, renderer.panels, renderer.layout)
    table = TableState()
    table.new_shoe("S1")
    renderer.render(table, FeedStatus.DEMO)
    table.add_game(Game(1, COUPS[winner]))
    renderer.update(table, FeedStatus.DEMO, now=0.0)
    motion.coup_arrived(table, 0.0)
    return motion


@pytest.mark.parametrize("winner", list(Winner))
@pytest.mark.parametrize(("theme", "size"), [("classic", (1920, 1080)), ("midnight", (1080, 1920))])
def test_the_first_banner_of_a_renderer_finds_its_plate_painted(theme, size, winner):
    motion = first_coup(theme, size, winner)
    before = plated.cache_info()
    painted = motion.banner.painted(2.5)  # the result is up: the banner shows
    assert painted is not None
    after = plated.cache_info()
    assert after.misses == before.misses, "the banner's frame painted its plate"
    assert after.hits == before.hits + 1


@pytest.mark.parametrize("winner", list(Winner))
def test_a_prepainted_banner_shows_what_a_cold_paint_draws(winner):
    motion = first_coup("classic", (1920, 1080), winner)
    warm = motion.banner.painted(2.5)
    look = motion.banner_look(2.5)
    assert warm is not None and look is not None
    plated.cache_clear()
    cold = motion.banner.paint(look)
    assert (cold.rect, cold.plate) == (warm.rect, warm.plate)
    assert pygame.image.tobytes(cold.image, "RGBA") == pygame.image.tobytes(warm.image, "RGBA")
