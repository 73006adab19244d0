"""Fonts and text surfaces, rendered once per value and reused.

Text is the costliest thing on the board to draw, and most of it never changes
between coups, so every (text, weight, size, colour) is rendered once and kept.
The kept surfaces are bounded least-recently-used: a demo that runs for days
keeps meeting new values (shoe numbers, percentages), and the ones no longer on
screen must age out rather than pile up.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

import pygame

from scoreboard.theme import RGB, Fonts

log = logging.getLogger(__name__)

MAX_CACHED = 1024
"""How many rendered strings a :class:`TextCache` keeps (a full frame shows a few hundred)."""


class TextCache:
    """Font files at any pixel size, and the rendered strings."""

    def __init__(self, fonts: Fonts, scale: float = 1.0) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.paths: dict[bool, Path] = {False: fonts.regular, True: fonts.bold}
        self.scale = scale
        self._fonts: dict[tuple[bool, int], pygame.font.Font] = {}
        self._texts: dict[tuple[str, bool, int, RGB], pygame.Surface] = {}
        probe = self.font(100, bold=False)
        # Pixel height of a line per unit of font size, to size text by box height.
        self.line_ratio = probe.get_height() / 100

    def __len__(self) -> int:
        """How many rendered strings are kept (never more than :data:`MAX_CACHED`)."""
        return len(self._texts)

    def font(self, size: int, *, bold: bool = False) -> pygame.font.Font:
        size = max(6, int(size))
        key = (bold, size)
        font = self._fonts.get(key)
        if font is None:
            font = pygame.font.Font(str(self.paths[bold]), size)
            self._fonts[key] = font
        return font

    def size_for_height(self, height: float) -> int:
        """The font size whose glyphs (not the font's generous CJK line gap) fill ``height``."""
        return max(6, int(height * self.scale / (self.line_ratio * 0.8)))

    def size_to_fit(self, height: float, max_width: float, width_at: Callable[[int], float]) -> int:
        """The font size for ``height``, shrunk until ``width_at(size)`` fits ``max_width``.

        ``width_at`` measures the text (or the widest of several) at a font size;
        a ``max_width`` of 0 or less sets no limit.
        """
        size = self.size_for_height(height)
        width = width_at(size)
        if width > max_width > 0:
            size = max(6, int(size * max_width / width))
        return size

    def render(self, text: str, size: int, color: RGB, *, bold: bool = False) -> pygame.Surface:
        """``text`` drawn at ``size``: the kept surface when it was drawn lately, else a new one."""
        key = (text, bold, max(6, int(size)), color)
        texts = self._texts
        surface = texts.pop(key, None)
        if surface is None:
            surface = self.font(size, bold=bold).render(text, True, color)
            if len(texts) >= MAX_CACHED:
                del texts[next(iter(texts))]  # the least recently used
        texts[key] = surface  # (re)inserted last: most recently used
        return surface

    def fit(
        self, text: str, height: float, max_width: float, color: RGB, *, bold: bool = False
    ) -> pygame.Surface:
        """Text as tall as ``height`` allows, shrunk until it fits ``max_width``."""
        size = self.fit_size(text, height, max_width, bold=bold)
        return self.render(text, size, color, bold=bold)

    def fit_size(self, text: str, height: float, max_width: float, *, bold: bool = False) -> int:
        """The font size :meth:`fit` draws ``text`` at."""
        return self.size_to_fit(height, max_width, lambda s: self.font(s, bold=bold).size(text)[0])
