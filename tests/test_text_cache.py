"""Rendered text is kept least-recently-used and bounded, so a days-long demo cannot grow."""

from __future__ import annotations

import pygame

from scoreboard.screen.board.text import MAX_CACHED, TextCache
from scoreboard.screen.theme.loading import load_theme

WHITE = (255, 255, 255)


def test_the_cache_stays_bounded_and_keeps_what_is_still_in_use() -> None:
    pygame.font.init()
    cache = TextCache(load_theme("classic").fonts)
    on_screen = cache.render("Banker", 20, WHITE)
    first = cache.render("0", 20, WHITE)
    shoes = 3 * MAX_CACHED
    for shoe in range(1, shoes):
        newest = cache.render(str(shoe), 20, WHITE)  # a new shoe number every shoe
        assert cache.render("Banker", 20, WHITE) is on_screen  # used every frame: kept
        assert len(cache) <= MAX_CACHED
    assert len(cache) == MAX_CACHED
    assert cache.render(str(shoes - 1), 20, WHITE) is newest  # recent: kept
    assert cache.render("0", 20, WHITE) is not first  # long gone from the screen: drawn anew


def test_fit_draws_at_the_size_fit_size_names() -> None:
    pygame.font.init()
    cache = TextCache(load_theme("classic").fonts)
    size = cache.fit_size("Big Eye Boy", 40, 60, bold=True)
    fitted = cache.fit("Big Eye Boy", 40, 60, WHITE, bold=True)
    assert fitted is cache.render("Big Eye Boy", size, WHITE, bold=True)
    width = cache.font(size, bold=True).size
    assert width("Big Eye Boy")[0] <= 60  # shrunk to the width
    assert size < cache.size_for_height(40)  # the width, not the height, decided
