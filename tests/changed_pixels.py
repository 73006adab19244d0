"""Which sampled pixels differ between two frames, read from their bytes.

Calling ``get_at`` per pixel costs a Python call each; comparing a frame's rows
as bytes skips every row that is the same at C speed, and only the rows that
differ are looked at pixel by pixel.
"""

from __future__ import annotations

import pygame


def changed_points(
    before: pygame.Surface, after: pygame.Surface, step: int, channels: str = "RGB"
) -> list[tuple[int, int]]:
    """The points every ``step`` pixels (x and y), row by row, whose ``channels`` differ."""
    width, height = before.get_size()
    old, new = pygame.image.tobytes(before, channels), pygame.image.tobytes(after, channels)
    size = len(channels)
    row = size * width
    points = []
    for y in range(0, height, step):
        start = y * row
        if old[start : start + row] != new[start : start + row]:
            points += [
                (x, y)
                for x in range(0, width, step)
                if old[start + size * x : start + size * (x + 1)]
                != new[start + size * x : start + size * (x + 1)]
            ]
    return points
