"""Which rows of a frame hold a pixel close to a colour, read from the frame's bytes.

The render tests measure drawn text by its ink: the rows holding a pixel of the
text's colour.  Each channel of a row is mapped at C speed to 1 (within the
tolerance) or 0, and a pixel is close when its three channels all are.
"""

from __future__ import annotations

import pygame


def rows_near(
    surface: pygame.Surface,
    box: pygame.Rect,
    colour: tuple[int, int, int],
    tolerance: int,
    step: int = 1,
) -> list[int]:
    """The rows ``y`` of ``box`` (clipped to the surface) with a pixel at ``x = box.left +
    k * step`` whose every channel is within ``tolerance`` of ``colour``'s."""
    box = box.clip(surface.get_rect())
    if not box.width or not box.height:
        return []
    data = pygame.image.tobytes(surface.subsurface(box), "RGB")
    near = [bytes(abs(v - c) <= tolerance for v in range(256)) for c in colour]
    row = 3 * box.width
    rows = []
    for y in range(box.height):
        line = data[y * row : (y + 1) * row]
        red, green, blue = (
            int.from_bytes(line[k :: 3 * step].translate(near[k]), "big") for k in range(3)
        )
        if red & green & blue:
            rows.append(box.top + y)
    return rows
