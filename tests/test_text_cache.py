"""Rendered text is kept least-recently-used and bounded, so a days-long demo cannot grow."""

from __future__ import annotations

import pygame

from scoreboard.render import text as text_module
from scoreboard.render.text import TextCache
from scoreboard.theme import load_theme

WHITE = (255, 255, 255)


def test_the_cache_stays_bounded_and_keeps_what_is_still_in_use() -> None:
    pygame.font.init()
    cache = TextCache(load_theme("classic").fonts)
    on_screen = cache.render("Banker", 20, WHITE)
    for shoe in range(3 * text_module._MAX_CACHED):
        cache.render(str(shoe), 20, WHITE)  # a new shoe number every shoe
        assert cache.render("Banker", 20, WHITE) is on_screen  # used every frame: kept
    assert len(cache._texts) <= text_module._MAX_CACHED
    assert ("0", False, 20, WHITE) not in cache._texts  # long gone from the screen
    assert (str(3 * text_module._MAX_CACHED - 1), False, 20, WHITE) in cache._texts
