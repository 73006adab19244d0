"""The sprite cache keeps what the board draws and forgets the least recently used."""

from __future__ import annotations

import pygame
import pytest

from scoreboard.screen.board.symbols import Sprites


def surface(size: int = 1) -> pygame.Surface:
    return pygame.Surface((size, size))


def test_the_least_recently_put_sprite_goes_first_past_capacity():
    sprites = Sprites(capacity=3)
    for name in "abcd":
        sprites.put((name,), surface())
    assert [(name,) in sprites for name in "abcd"] == [False, True, True, True]
    assert len(sprites) == 3


def test_a_sprite_read_again_outlives_older_ones():
    sprites = Sprites(capacity=3)
    first = sprites.put(("a",), surface())
    sprites.put(("b",), surface())
    sprites.put(("c",), surface())
    assert sprites.get(("a",)) is first  # a is now the most recently used
    sprites.put(("d",), surface())
    sprites.put(("e",), surface())
    assert [(name,) in sprites for name in "abcde"] == [True, False, False, True, True]


def test_putting_a_cached_key_again_refreshes_it():
    sprites = Sprites(capacity=2)
    sprites.put(("a",), surface())
    sprites.put(("b",), surface())
    newer = sprites.put(("a",), surface(2))
    sprites.put(("c",), surface())
    assert sprites.get(("a",)) is newer
    assert ("b",) not in sprites


def test_checking_membership_does_not_count_as_a_use():
    sprites = Sprites(capacity=2)
    sprites.put(("a",), surface())
    sprites.put(("b",), surface())
    assert ("a",) in sprites
    sprites.put(("c",), surface())
    assert ("a",) not in sprites


def test_a_full_cache_evicts_one_sprite_at_a_time_not_everything():
    sprites = Sprites(capacity=50)
    for index in range(51):
        sprites.ring((10 + index, 10), (200, 0, 0), "circle", 0.1)
    assert len(sprites) == 50
    assert ("ring", (60, 10), (200, 0, 0), "circle", 0.1) in sprites


def test_the_symbols_drawn_every_frame_stay_cached_past_capacity():
    sprites = Sprites(capacity=10)
    kept = sprites.disc((12, 12), (0, 0, 200), "circle")
    for index in range(40):
        sprites.disc((20 + index, 20), (200, 0, 0), "circle")
        assert sprites.disc((12, 12), (0, 0, 200), "circle") is kept  # drawn every frame


def test_a_cache_needs_room_for_one_sprite():
    with pytest.raises(ValueError, match="at least 1"):
        Sprites(capacity=0)
