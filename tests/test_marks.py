"""The road symbols read from the seats: measured on the sprites' pixels, every shipped theme.

Each sprite is laid on the panel colour, as the board draws it, and sampled at
points computed from the cell size.
"""

from __future__ import annotations

import pygame
import pytest

from scoreboard.game.rules import Coup, Winner, result_coup
from scoreboard.roads.engine import BeadCell, BigRoadCell
from scoreboard.screen.board.marks import RoadPainter, contrast_ratio
from scoreboard.screen.board.symbols import Sprites
from scoreboard.screen.board.text import TextCache
from scoreboard.screen.theme.loading import available_themes, load_theme

CELL = (64, 64)

pytestmark = pytest.mark.usefixtures("pygame_display")


def painter(name: str) -> RoadPainter:
    theme = load_theme(name)
    return RoadPainter(theme, Sprites(), TextCache(theme.fonts, theme.style.text_scale))


def on_panel(roads: RoadPainter, sprite: pygame.Surface) -> pygame.Surface:
    cell = pygame.Surface(sprite.get_size())
    cell.fill(roads.theme.colors.panel)
    cell.blit(sprite, (0, 0))
    return cell


def rgb(surface: pygame.Surface, x: float, y: float) -> tuple[int, int, int]:
    r, g, b, _ = surface.get_at((round(x), round(y)))
    return (r, g, b)


def bead(coup: Coup) -> BeadCell:
    return BeadCell(0, 0, 1, coup)


def big(winner: Winner | None, ties: int, *, banker_pair: bool = False) -> BigRoadCell:
    return BigRoadCell(0, 0, winner, ties, banker_pair, False, False, 1, 0, 0)


@pytest.mark.parametrize("name", available_themes())
def test_the_natural_ring_is_bold_and_stands_out_from_the_panel(name):
    roads = painter(name)
    natural = on_panel(roads, roads.bead(bead(result_coup(Winner.BANKER, natural=True)), CELL))
    plain = on_panel(roads, roads.bead(bead(result_coup(Winner.BANKER)), CELL))
    panel, ring = roads.theme.colors.panel, roads.natural_color
    assert contrast_ratio(ring, panel) >= 3
    x = CELL[0] / 2  # down from the top edge: ring, gap, then the bead
    like_ring = [contrast_ratio(rgb(natural, x, y), ring) < 1.3 for y in range(CELL[1] // 4)]
    start = like_ring.index(True)
    end = like_ring.index(False, start)  # the first band of the ring's colour from the edge
    ringed = list(range(start, end))
    assert start <= 2 and len(ringed) >= 0.07 * CELL[1], f"the ring is {len(ringed)} px wide"
    assert all(contrast_ratio(rgb(natural, x, y), panel) >= 3 for y in ringed)
    # a gap of panel colour between the ring and the bead, so the ring reads on any bead
    assert contrast_ratio(rgb(natural, x, max(ringed) + 2), panel) < 1.5
    assert rgb(plain, x, max(ringed) - 1) == panel  # a plain bead has no ring


@pytest.mark.parametrize("name", available_themes())
@pytest.mark.parametrize("winner", [Winner.PLAYER, Winner.BANKER])
def test_a_pair_dot_has_a_rim_that_stands_out_on_its_own_bead(name, winner):
    """A player pair dot on a Player bead (and a banker one on a Banker bead) is not lost."""
    roads = painter(name)
    pairs = {"player_pair": winner is Winner.PLAYER, "banker_pair": winner is Winner.BANKER}
    size = (96, 96)
    cell = on_panel(roads, roads.bead(bead(result_coup(winner, **pairs)), size))
    dot = roads.side_color[winner]
    area = round(size[0] * 0.86)  # the bead's diameter
    sign = 1 if winner is Winner.PLAYER else -1  # bottom-right, top-left
    offset = round(area * 0.5 * 0.7071)
    cx, cy = size[0] / 2 + sign * offset, size[1] / 2 + sign * offset
    radius = round(area * 0.3) / 2
    assert contrast_ratio(rgb(cell, cx, cy), dot) < 1.2  # the dot itself
    for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1)):  # a rim of at least 45 % of its radius
        around = rgb(cell, cx + dx * radius * 1.45, cy + dy * radius * 1.45)
        assert contrast_ratio(around, dot) >= 3, (around, dot)


@pytest.mark.parametrize("name", available_themes())
def test_the_tie_count_sits_in_a_corner_clear_of_the_slash(name):
    roads = painter(name)
    one = on_panel(roads, roads.big_road(big(Winner.BANKER, 1), CELL))
    three = on_panel(roads, roads.big_road(big(Winner.BANKER, 3), CELL))
    badge = roads.tie_badge(CELL)
    assert badge.right == CELL[0] and badge.top == 0  # the top-right corner
    differ = [
        (x, y) for x in range(CELL[0]) for y in range(CELL[1]) if rgb(one, x, y) != rgb(three, x, y)
    ]
    assert differ, "the count is not drawn"
    assert all(badge.collidepoint(point) for point in differ), "the count covers the cell"
    tie = roads.theme.colors.tie
    for t in (-0.2, -0.1, 0.0):  # the slash from its lower end to its middle shows
        point = (CELL[0] / 2 + t * CELL[0], CELL[1] / 2 - t * CELL[1])
        assert contrast_ratio(rgb(three, *point), tie) < 1.3


@pytest.mark.parametrize("name", available_themes())
def test_the_tie_count_is_legible_on_its_badge(name):
    """The digits differ between a count of 2 and of 3: tall, on the badge, in a contrasting ink."""
    roads = painter(name)
    two = on_panel(roads, roads.big_road(big(Winner.PLAYER, 2), CELL))
    three = on_panel(roads, roads.big_road(big(Winner.PLAYER, 3), CELL))
    badge = roads.tie_badge(CELL)
    differ = [
        (x, y) for x in range(CELL[0]) for y in range(CELL[1]) if rgb(two, x, y) != rgb(three, x, y)
    ]
    assert differ and all(badge.collidepoint(point) for point in differ)
    rows = [y for _, y in differ]
    assert max(rows) - min(rows) + 1 >= 0.25 * CELL[1]
    tie = roads.theme.colors.tie
    assert max(contrast_ratio(rgb(three, x, y), tie) for x, y in differ) >= 3


def test_contrast_of_the_theme_colours_that_motivated_the_rims():
    """A Player dot on a Player bead was blue on blue: the same colour, ratio 1."""
    classic = load_theme("classic").colors
    assert contrast_ratio(classic.player, classic.player) == 1.0
    assert contrast_ratio(classic.player, (255, 255, 255)) > 3
