"""Road symbols as anti-aliased sprites, drawn once per size and colour.

Each sprite is drawn four times larger and scaled down smoothly, which gives
clean edges on every screen without depending on the driver's antialiasing.
"""

from __future__ import annotations

import math
from collections import OrderedDict

import pygame

from scoreboard.screen.theme.values import RGB

_SS = 4  # supersampling factor


def _canvas(size: tuple[int, int]) -> pygame.Surface:
    return pygame.Surface((size[0] * _SS, size[1] * _SS), pygame.SRCALPHA)


def _finish(canvas: pygame.Surface, size: tuple[int, int]) -> pygame.Surface:
    return pygame.transform.smoothscale(canvas, size)


def _shape(canvas: pygame.Surface, shape: str, color: RGB, box: pygame.Rect, width: int) -> None:
    """Outline (``width`` > 0) or fill (``width`` 0) a circle, square or diamond in ``box``."""
    if shape == "square":
        radius = max(1, box.width // 6)
        pygame.draw.rect(canvas, color, box, width, border_radius=radius)
    elif shape == "diamond":
        cx, cy = box.center
        points = [(cx, box.top), (box.right, cy), (cx, box.bottom), (box.left, cy)]
        pygame.draw.polygon(canvas, color, points, width)
    else:
        pygame.draw.ellipse(canvas, color, box, width)


CAPACITY = 2000
"""Sprites kept by default: every symbol of a few themes and sizes at once."""


class Sprites:
    """Caches every symbol the roads draw, keyed by what it looks like.

    Past ``capacity`` the least recently used sprite goes, one at a time: a
    board keeps the symbols it draws every frame warm however many others a
    long shoe or a theme switch asked for (clearing everything made the next
    frame redraw every symbol).

    >>> sprites = Sprites(capacity=2)
    >>> for key in ("a", "b", "c"):
    ...     _ = sprites.put((key,), pygame.Surface((1, 1)))
    >>> sprites.get(("a",)) is None, len(sprites)
    (True, 2)
    """

    def __init__(self, capacity: int = CAPACITY) -> None:
        if capacity < 1:
            raise ValueError(f"a sprite cache holds at least 1 sprite, got {capacity}")
        self.capacity = capacity
        self._cache: OrderedDict[tuple[object, ...], pygame.Surface] = OrderedDict()

    def __len__(self) -> int:
        return len(self._cache)

    def __contains__(self, key: tuple[object, ...]) -> bool:
        """Whether ``key`` is cached; unlike :meth:`get` it does not count as a use."""
        return key in self._cache

    def get(self, key: tuple[object, ...]) -> pygame.Surface | None:
        """The cached sprite, now the most recently used; None when it is not cached."""
        found = self._cache.get(key)
        if found is not None:
            self._cache.move_to_end(key)
        return found

    def put(self, key: tuple[object, ...], surface: pygame.Surface) -> pygame.Surface:
        """Cache ``surface`` as the most recently used; past capacity the oldest use goes."""
        cache = self._cache
        cache[key] = surface
        cache.move_to_end(key)
        while len(cache) > self.capacity:
            cache.popitem(last=False)
        return surface

    def ring(
        self, size: tuple[int, int], color: RGB, shape: str, thickness: float
    ) -> pygame.Surface:
        """A hollow symbol (big road, big eye boy); ``thickness`` is a fraction of the size."""
        key = ("ring", size, color, shape, round(thickness, 3))
        found = self.get(key)
        if found is not None:
            return found
        canvas = _canvas(size)
        diameter = min(size) * _SS
        width = max(_SS, round(diameter * thickness))
        box = pygame.Rect(0, 0, diameter, diameter)
        box.center = canvas.get_rect().center
        _shape(canvas, shape, color, box, width)
        return self.put(key, _finish(canvas, size))

    def disc(self, size: tuple[int, int], color: RGB, shape: str) -> pygame.Surface:
        """A filled symbol (bead plate, small road, pair dots)."""
        key = ("disc", size, color, shape)
        found = self.get(key)
        if found is not None:
            return found
        canvas = _canvas(size)
        diameter = min(size) * _SS
        box = pygame.Rect(0, 0, diameter, diameter)
        box.center = canvas.get_rect().center
        _shape(canvas, shape, color, box, 0)
        return self.put(key, _finish(canvas, size))

    def slash(self, size: tuple[int, int], color: RGB, thickness: float, shape: str = "circle"):
        """A short diagonal stroke (cockroach pig, tie on the big road); squares get a tick mark."""
        key = ("slash", size, color, round(thickness, 3), shape)
        found = self.get(key)
        if found is not None:
            return found
        canvas = _canvas(size)
        w, h = canvas.get_size()
        stroke = max(_SS, round(min(w, h) * thickness))
        inset = min(w, h) * 0.18
        if shape == "square":
            # A second, distinct shape for colour-blind viewers: a backslash.
            start, end = (inset, inset), (w - inset, h - inset)
        else:
            start, end = (inset, h - inset), (w - inset, inset)
        _thick_line(canvas, color, start, end, stroke)
        return self.put(key, _finish(canvas, size))


def _thick_line(
    canvas: pygame.Surface,
    color: RGB,
    start: tuple[float, float],
    end: tuple[float, float],
    width: int,
) -> None:
    """A line with round caps, as a polygon so its ends are not ragged."""
    (x1, y1), (x2, y2) = start, end
    angle = math.atan2(y2 - y1, x2 - x1)
    dx, dy = math.sin(angle) * width / 2, -math.cos(angle) * width / 2
    points = [(x1 + dx, y1 + dy), (x2 + dx, y2 + dy), (x2 - dx, y2 - dy), (x1 - dx, y1 - dy)]
    pygame.draw.polygon(canvas, color, points)
    pygame.draw.circle(canvas, color, (round(x1), round(y1)), width // 2)
    pygame.draw.circle(canvas, color, (round(x2), round(y2)), width // 2)
