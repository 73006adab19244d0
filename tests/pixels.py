"""Pixel comparisons shared by the render tests."""

from __future__ import annotations

import pygame


def changed_area(a: pygame.Surface, b: pygame.Surface) -> pygame.Rect | None:
    """The bounding box of the pixels that differ between two surfaces of one size (None: none)."""
    mask = pygame.mask.from_threshold(a, (0, 0, 0), (1, 1, 1, 255), b, 1)
    mask.invert()  # from_threshold with a surface marks the pixels that are alike
    rects = mask.get_bounding_rects()
    return rects[0].unionall(rects[1:]) if rects else None
