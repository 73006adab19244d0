"""The monitor the kiosk draws on: is there one, and which way up is it mounted.

With no display at all SDL falls back to an invisible driver (pygame-ce picks
``offscreen``); a kiosk that drew there would run for ever showing nothing, so
:func:`check_display` refuses it unless someone chose that driver on purpose
(``SDL_VIDEODRIVER=dummy`` in tests and CI).

Rotation, for a monitor mounted on its side when the OS does not rotate the
output: the renderer always draws the upright (logical) frame; the kiosk copies each
changed rectangle of it onto the screen turned by the mounting angle, so the
cost follows the changed area, not the screen.  ``angle`` is how far the
picture is turned *clockwise* on the panel: a panel mounted turned 90 degrees
counter-clockwise shows an upright board with ``--rotate 90``.

>>> logical_size((1920, 1080), 90)
(1080, 1920)
>>> tuple(screen_rect(pygame.Rect(0, 0, 10, 20), (1080, 1920), 90))
(1900, 0, 20, 10)
"""

from __future__ import annotations

import pygame

from scoreboard.screen.board.canvas import copy_area
from scoreboard.settings.config import ROTATIONS as ANGLES

#: SDL's drivers that show nothing: fine when chosen (tests, CI), a mistake when fallen back to.
INVISIBLE_DRIVERS = frozenset({"offscreen", "dummy"})
NO_DISPLAY = (
    "no display to show the board on (SDL found none and fell back to its {driver} driver). "
    "Run it in a graphical session (set DISPLAY or WAYLAND_DISPLAY), under the kiosk's own "
    "session (see kiosk/), or render a picture with `scoreboard screenshot -o board.png`; "
    "SDL_VIDEODRIVER=dummy draws offscreen on purpose."
)


class NoDisplayError(RuntimeError):
    """No screen to draw on: SDL fell back to an invisible driver nobody asked for."""


def check_display(driver: str, chosen: str | None) -> None:
    """Raise :class:`NoDisplayError` when ``driver`` shows nothing and nobody ``chosen`` it.

    ``chosen`` is ``SDL_VIDEODRIVER`` as it was before SDL started (pygame-ce does
    not set it when it falls back).

    >>> check_display("offscreen", chosen="offscreen")
    >>> check_display("x11", chosen=None)
    >>> check_display("offscreen", chosen=None)
    Traceback (most recent call last):
    ...
    scoreboard.kiosk.monitor.NoDisplayError: no display to show the board on (SDL found none ...
    """
    if driver in INVISIBLE_DRIVERS and not chosen:
        raise NoDisplayError(NO_DISPLAY.format(driver=driver))


def check_angle(angle: int) -> int:
    """``angle`` if it is one of :data:`ANGLES`, else ValueError."""
    if angle not in ANGLES:
        raise ValueError(f"rotate must be one of {', '.join(map(str, ANGLES))}, got {angle!r}")
    return angle


def logical_size(screen: tuple[int, int], angle: int) -> tuple[int, int]:
    """The upright frame's size on a screen of size ``screen`` turned by ``angle``."""
    width, height = screen
    return (height, width) if angle in (90, 270) else (width, height)


def screen_rect(rect: pygame.Rect, logical: tuple[int, int], angle: int) -> pygame.Rect:
    """Where the logical ``rect`` of a frame of size ``logical`` lands on the screen.

    >>> tuple(screen_rect(pygame.Rect(0, 0, 10, 20), (100, 50), 180))
    (90, 30, 10, 20)
    >>> tuple(screen_rect(pygame.Rect(0, 0, 10, 20), (100, 50), 270))
    (0, 90, 20, 10)
    """
    width, height = logical
    x, y, w, h = rect
    if angle == 90:
        return pygame.Rect(height - y - h, x, h, w)
    if angle == 180:
        return pygame.Rect(width - x - w, height - y - h, w, h)
    if angle == 270:
        return pygame.Rect(y, width - x - w, h, w)
    return pygame.Rect(rect)


#: Rotated copies go tile by tile: a transpose of a whole screen thrashes the cache
#: (a 1080p frame turned in one piece costs about twice as much as in tiles).
TILE = 256


def copy_rotated(
    screen: pygame.Surface, frame: pygame.Surface, rect: pygame.Rect, angle: int
) -> pygame.Rect:
    """Copy ``frame``'s ``rect`` onto ``screen`` turned by ``angle``; returns the screen rect."""
    rect = pygame.Rect(rect).clip(frame.get_rect())
    if angle == 0:
        copy_area(screen, frame, rect)  # SDL's blit, split where it would copy slowly
        return rect
    size = frame.get_size()
    for y in range(rect.top, rect.bottom, TILE):
        for x in range(rect.left, rect.right, TILE):
            tile = pygame.Rect(x, y, TILE, TILE).clip(rect)
            # pygame turns counter-clockwise; a multiple of 90 degrees is an exact copy.
            turned = pygame.transform.rotate(frame.subsurface(tile), -angle)
            screen.blit(turned, screen_rect(tile, size, angle))
    return screen_rect(rect, size, angle)
