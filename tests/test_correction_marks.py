"""The bead plate's mark on a corrected game: a notch in the cell's top-right corner."""

from __future__ import annotations

import pygame
import pytest
from test_marks import on_panel, painter
from test_notices_state import dealt

from scoreboard.game.rules import Game, Winner, result_coup
from scoreboard.roads.engine import BeadCell
from scoreboard.screen.board._scroll import ShoeIndex
from scoreboard.screen.board.grid import RoadWindow, visible_marks
from scoreboard.screen.board.marks import CORRECTED_NOTCH, contrast_ratio
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.loading import available_themes, load_theme

CELL = (48, 48)

pytestmark = pytest.mark.usefixtures("pygame_display")


def corner(surface: pygame.Surface) -> list[tuple[int, int, int]]:
    """The pixels well inside the notch: near the top-right corner, along the edges."""
    width, _ = surface.get_size()
    leg = round(min(CELL) * CORRECTED_NOTCH)
    points = [(width - 2, 1), (width - 1 - leg // 3, 1), (width - 2, leg // 3), (width - 4, 3)]
    return [tuple(surface.get_at(p))[:3] for p in points]


@pytest.mark.parametrize("name", available_themes())
@pytest.mark.parametrize("winner", [Winner.BANKER, Winner.PLAYER, Winner.TIE])
def test_a_corrected_bead_has_a_notch_that_stands_out_from_the_panel(name, winner):
    roads = painter(name)
    cell = BeadCell(0, 0, 7, result_coup(winner, banker_pair=True, player_pair=True))
    marked = on_panel(roads, roads.bead(cell, CELL, corrected=True))
    plain = on_panel(roads, roads.bead(cell, CELL))
    colors = roads.theme.colors
    assert set(corner(plain)) == {colors.panel}
    assert set(corner(marked)) == {roads.natural_color}
    assert contrast_ratio(roads.natural_color, colors.panel) >= 3
    centre = (CELL[0] // 2, CELL[1] // 2)
    assert marked.get_at(centre) == plain.get_at(centre)  # the bead itself is unchanged


def test_the_marked_bead_is_a_cached_sprite_of_its_own():
    roads = painter("classic")
    cell = BeadCell(0, 0, 3, result_coup(Winner.BANKER))
    marked = roads.bead(cell, CELL, corrected=True)
    assert roads.bead(cell, CELL, corrected=True) is marked
    assert roads.bead(cell, CELL) is not marked


def test_only_the_corrected_games_bead_is_marked_on_the_grid():
    renderer = Renderer(load_theme("midnight"), (1920, 1080), motion=False)
    table = dealt("BPBPBP")
    table.correct(Game(4, result_coup(Winner.BANKER)))
    index = ShoeIndex(("bead_plate",))
    index.sync(table.roads)
    window = RoadWindow(renderer.layout.grids["bead_plate"], 0, 1)
    args = (renderer.roads, "bead_plate", table.roads, index.columns["bead_plate"], window)
    plain = visible_marks(*args)
    marked = visible_marks(*args, corrected=table.corrected)
    differs = [at for (at, _, a), (_, _, b) in zip(plain, marked, strict=True) if a is not b]
    assert differs == [3]  # game 4, the fourth bead
    frame = renderer.static.copy()
    _, rect, sprite = marked[3]
    frame.blit(sprite, rect)
    notch = (rect.right - 3, rect.top + 2)
    assert tuple(frame.get_at(notch))[:3] == renderer.roads.natural_color
