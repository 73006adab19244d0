"""A renderer nobody holds is freed at once, and fonts are opened once per file and size.

The kiosk builds a renderer on every theme reload and two more to check the
theme (``require_drawable``).  A renderer in a reference cycle (a part holding a
method or closure of its owner) waits for Python's full collection, which a
big heap runs rarely: each reload kept a board's worth of surfaces and fonts
(issue 22).  Here the collector is off while a renderer is built, drawn and
dropped, and whatever it leaves for the collector is a cycle.
"""

from __future__ import annotations

import gc

import pygame
import pytest

from scoreboard.roads.good_roads import GoodRoadRules
from scoreboard.screen.board import _open_fonts as open_fonts
from scoreboard.screen.board.probe import require_drawable, sample_table
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.board.text import shared_cache
from scoreboard.screen.theme.loading import load_theme
from scoreboard.table.applied import FeedStatus

pytestmark = pytest.mark.usefixtures("pygame_display")


def left_for_the_collector(make) -> list[str]:
    """The package's objects that ``make()``'s work leaves only the cycle collector can free."""
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        make()
        gc.collect()
        return sorted({type(o).__qualname__ for o in gc.garbage if _ours(o)})
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


def _ours(thing: object) -> bool:
    return type(thing).__module__.startswith("scoreboard")


def draw_a_board(motion: bool) -> None:
    renderer = Renderer(
        load_theme("midnight"), (1920, 1080), motion=motion, good_roads=GoodRoadRules()
    )
    table = sample_table()
    for now in (0.0, 0.5, 1.0, 4.0):
        renderer.update(table, FeedStatus.LIVE, clock="21:45", now=now, notice="Void game 80?")
        renderer.blink(now)


@pytest.mark.parametrize("motion", [True, False], ids=["motion", "still"])
def test_a_renderer_dropped_is_freed_without_the_cycle_collector(motion):
    assert left_for_the_collector(lambda: draw_a_board(motion)) == []


def test_the_theme_check_leaves_nothing_for_the_cycle_collector():
    theme = load_theme("midnight")
    assert left_for_the_collector(lambda: require_drawable(theme)) == []


def test_a_second_renderer_of_the_theme_opens_no_font():
    theme = load_theme("midnight")
    require_drawable(theme)
    Renderer(theme, (1920, 1080)).render(sample_table(), FeedStatus.LIVE, clock="21:45")
    opened = open_fonts.opened()
    require_drawable(theme)
    Renderer(theme, (1920, 1080)).render(sample_table(), FeedStatus.LIVE, clock="21:45")
    assert open_fonts.opened() == opened


def test_a_font_is_opened_anew_after_pygame_quit_its_font_module():
    path = load_theme("classic").fonts.regular
    kept = open_fonts.font(path, 20)
    assert open_fonts.font(path, 20) is kept
    pygame.font.quit()
    pygame.font.init()
    again = open_fonts.font(path, 20)
    assert again is not kept and again.get_height() > 0


def test_the_shared_text_cache_is_made_anew_after_pygame_quit_its_font_module():
    fonts = load_theme("classic").fonts
    kept = shared_cache(fonts)
    assert shared_cache(fonts) is kept
    kept.render("Banker", 20, (0, 0, 0))
    pygame.font.quit()
    pygame.font.init()
    again = shared_cache(fonts)
    assert again is not kept and again.render("Banker", 21, (0, 0, 0)).get_width() > 0
