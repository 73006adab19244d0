"""A road drawn whole blits each mark's inked part only: the pixels of the whole sprite.

Marks fill 72-86 % of their cells; the clear rest changes nothing when
blended, so ``road_frame.inked_blits`` puts down only the part with ink.  Every mark
of a full board (every shipped theme, 1080p and 4K), put down that way over the
theme's panel and over noise, must equal the whole sprite's blit.
"""

from __future__ import annotations

import random

import pygame
import pytest
from dealt import dealt_games, table_with

from scoreboard.screen.board._road_frame import inked, inked_blits
from scoreboard.screen.board.grid import visible_marks
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.loading import available_themes, load_theme
from scoreboard.table.applied import FeedStatus

pytestmark = pytest.mark.usefixtures("pygame_display")


def noise(size: tuple[int, int], seed: int) -> pygame.Surface:
    rng = random.Random(seed)
    surface = pygame.Surface(size)
    step = 3
    for x in range(0, size[0], step):
        for y in range(0, size[1], step):
            surface.fill((rng.randrange(256), rng.randrange(256), rng.randrange(256)), (x, y, 3, 3))
    return surface


@pytest.mark.parametrize("name", available_themes())
@pytest.mark.parametrize("size", [(1920, 1080), (3840, 2160)])
def test_every_mark_blitted_by_its_ink_equals_the_whole_sprite(name, size):
    theme = load_theme(name)
    renderer = Renderer(theme, size, motion=False)
    table = table_with(dealt_games(seed=5, coups=70))
    renderer.render(table, FeedStatus.DEMO)
    marks = []
    for road, window in renderer.windows.items():
        index = renderer.road_frame.index.columns[road]
        marks += visible_marks(renderer.roads, road, table.roads, index, window)
    sprites = {id(sprite): sprite for _, _, sprite in marks}
    assert len(sprites) > 10
    area = sum(sprite.get_width() * sprite.get_height() for _, _, sprite in marks)
    ink = sum(
        inked(sprite)[0].get_width() * inked(sprite)[0].get_height() for _, _, sprite in marks
    )
    assert ink < 0.8 * area  # a fifth fewer pixels blended at least
    for seed, sprite in enumerate(sprites.values()):
        for under in (pygame.Surface(sprite.get_size()), noise(sprite.get_size(), seed)):
            if under.get_at((0, 0)) == (0, 0, 0, 255):
                under.fill(theme.colors.panel)
            whole, trimmed = under.copy(), under.copy()
            whole.blit(sprite, (0, 0))
            cell = sprite.get_rect()
            trimmed.fblits(inked_blits([(0, cell, sprite)]))
            assert pygame.image.tobytes(whole, "RGB") == pygame.image.tobytes(trimmed, "RGB")
