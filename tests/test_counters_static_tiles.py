"""The counters' tiles live in the static layer and the cards are blitted by runs: same pixels.

A coup redraws the numbers on the Banker, Player and Tie tiles over the static
layer, which holds the tiles' colours and names, and puts the last hand's card
faces down as run-length blits.  Every frame an update leaves must equal a full
``render`` of the same state by a second renderer, at every shipped theme and
the sizes the issue names; a site's own counters panel gets a plain panel.
"""

from __future__ import annotations

import pygame
import pytest
from dealt import dealt_games, table_with
from shipped_themes import shipped_theme

from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.loading import available_themes
from scoreboard.table.applied import FeedStatus

SIZES = [(1920, 1080), (1080, 1920), (1280, 720), (3840, 2160)]

pytestmark = pytest.mark.usefixtures("pygame_display")


def same_frame(a: pygame.Surface, b: pygame.Surface) -> bool:
    return pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB")


@pytest.mark.parametrize("name", available_themes())
@pytest.mark.parametrize("size", SIZES)
def test_coups_over_the_static_tiles_equal_a_full_render(name, size):
    theme = shipped_theme(name)
    games = dealt_games(seed=11, coups=46)
    live, full = Renderer(theme, size, motion=False), Renderer(theme, size, motion=False)
    table = table_with(games[:40])
    live.render(table, FeedStatus.DEMO, clock="21:45")
    counters = live.layout.panels["counters"].rect
    for game in games[40:]:
        table.add_game(game)
        dirty = live.update(table, FeedStatus.DEMO, clock="21:45")
        assert counters.collidelist(dirty) >= 0  # the counts changed: the panel was replayed
        assert same_frame(live.frame, full.render(table, FeedStatus.DEMO, clock="21:45"))


@pytest.mark.parametrize("name", available_themes())
def test_the_tiles_are_on_the_screen_with_their_counts(name):
    theme = shipped_theme(name)
    renderer = Renderer(theme, (1920, 1080), motion=False)
    frame = renderer.render(table_with(dealt_games(seed=2, coups=30)), FeedStatus.DEMO)
    body = renderer.layout.panels["counters"].body
    shown = {entry.key: entry for entry in renderer.panel_views["counters"].entries}
    for side in ("banker", "player", "tie"):
        count = shown[side].value.rect
        assert body.contains(count) and shown[side].label.text
        beside = (count.x - 2, count.centery)  # on the tile, left of its count
        assert tuple(frame.get_at(beside))[:3] == getattr(theme.colors, side)


def test_a_sites_own_counters_panel_gets_a_plain_panel():
    theme = shipped_theme("classic")
    drawn: list[pygame.Rect] = []
    own = Renderer(
        theme, (1920, 1080), motion=False, drawers={"counters": lambda _f, b, _t: drawn.append(b)}
    )
    frame = own.render(table_with(dealt_games(seed=2, coups=30)), FeedStatus.DEMO)
    body = own.layout.panels["counters"].body
    spots = [(x, y) for x in range(body.x, body.right, 7) for y in range(body.y, body.bottom, 7)]
    colors = {tuple(frame.get_at(spot))[:3] for spot in spots}
    assert drawn == [body]
    assert theme.colors.banker not in colors and theme.colors.player not in colors
