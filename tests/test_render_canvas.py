"""A recorded panel put down again reports every pixel it wrote.

An overlay drawn in place over the board is drawn again only where the board
changed, so a pixel written outside the rectangles an update returns would cut
into it unseen.
"""

from __future__ import annotations

import pygame
import pytest

from scoreboard.render.canvas import Recorder, draw_rect, put_down

pytestmark = pytest.mark.usefixtures("pygame_display")

MAGENTA = (255, 0, 255)


def recorded(spot_at: tuple[int, int]) -> Recorder:
    """An outlined box and a small spot cutting into its outline."""
    pen = Recorder((120, 80))
    draw_rect(pen, (0, 0, 0), pygame.Rect(10, 10, 60, 50), 3)
    spot = pygame.Surface((6, 6))
    spot.fill((0, 200, 0))
    pen.blit(spot, spot_at)
    return pen


def test_a_replay_that_redraws_a_whole_outline_returns_the_outline_s_area_too():
    static = pygame.Surface((120, 80))
    static.fill((240, 240, 240))
    before, after = recorded((8, 30)), recorded((8, 34))
    frame = pygame.Surface((120, 80))
    frame.fill(MAGENTA)  # what was on the frame: an overlay's pixels, say
    box = pygame.Rect(0, 0, 120, 80)
    areas = put_down(frame, static, before.ops, after.ops, box, full=False)
    written = pygame.mask.from_threshold(frame, MAGENTA, (1, 1, 1, 255))
    written.invert()
    reported = pygame.mask.Mask(frame.get_size())
    for area in areas:
        reported.draw(pygame.mask.Mask(area.size, fill=True), area.topleft)
    assert written.count() > 36  # more than the spot: the outline was drawn again whole
    assert written.overlap_area(reported, (0, 0)) == written.count()
