"""The kiosk's theme side: the file watcher, the renderer factory, the theme's road rows.

The watcher reloads on change and keeps the last good theme on a bad edit.  Re-exported
by :mod:`scoreboard.kiosk.loop`, whose loop checks it every few seconds and on SIGHUP.
"""

from __future__ import annotations

import ctypes
import functools
import logging
from collections.abc import Callable, Mapping
from pathlib import Path

import pygame

from scoreboard.kiosk.monitor import logical_size
from scoreboard.roads.good_roads import GoodRoadRules
from scoreboard.screen.board.probe import require_drawable
from scoreboard.screen.board.renderer import PanelDrawer, Renderer
from scoreboard.screen.board.shuffle_overlay import Promo
from scoreboard.screen.theme.loading import load_theme
from scoreboard.screen.theme.values import Theme, ThemeError
from scoreboard.table.state import TableState

log = logging.getLogger("scoreboard.kiosk.loop")  # the kiosk's one name in the logs


class ThemeWatcher:
    """Reloads a theme file when it changes; a bad edit keeps the last good theme."""

    def __init__(self, theme: Theme) -> None:
        self.theme = theme
        self.path: Path | None = theme.source
        self._stamp = self._read_stamp()

    def _read_stamp(self) -> tuple[int, int] | None:
        if self.path is None:
            return None
        try:
            info = self.path.stat()
        except OSError:
            return None
        return (info.st_mtime_ns, info.st_size)

    def check(self, *, force: bool = False) -> Theme | None:
        """A newly loaded theme, or None when unchanged or invalid (errors are logged)."""
        if self.path is None:
            return None
        stamp = self._read_stamp()
        if not force and stamp == self._stamp:
            return None
        self._stamp = stamp
        try:
            theme = require_drawable(load_theme(self.path, self.theme.chosen))
        except ThemeError as error:
            for line in error.errors:
                log.error("theme reload refused, keeping %s: %s", self.theme.name, line)
            return None
        log.info("theme %s reloaded from %s", theme.name, self.path)
        self.theme = theme
        return theme


RendererFactory = Callable[[Theme, tuple[int, int]], Renderer]


def motion_renderer(
    motion: bool,
    *,
    drawers: Mapping[str, PanelDrawer] | None = None,
    good_roads: GoodRoadRules | None = None,
    promo: Promo | None = None,
) -> RendererFactory:
    """The renderer factory with motion on (the theme decides) or off (config, ``--no-motion``),
    and the good-road plate when ``good_roads`` gives its thresholds (off by default);
    ``promo``: the venue's images on the shuffle screen.

    Motion on is the renderer's default: the theme's ``motion`` section decides.
    """
    return lambda theme, size: Renderer(
        theme, size, drawers=drawers, motion=motion, good_roads=good_roads, promo=promo
    )


def renderer_on(
    screen: pygame.Surface, make: RendererFactory, theme: Theme, rotate: int
) -> Renderer:
    """``make``'s renderer for ``theme`` on ``screen`` turned by ``rotate``.

    On a screen not turned it draws on the display's own surface (nothing is
    copied on the way to the screen); turned, on its own upright frame, which the
    kiosk copies onto the screen turned.
    """
    renderer = make(theme, logical_size(screen.get_size(), rotate))
    if rotate == 0:
        renderer.draw_on(screen)
    return renderer


def give_back_memory() -> None:
    """Hand the heap's free pages back to the system (glibc's ``malloc_trim``; elsewhere nothing).

    A reload draws two boards to check the theme while the old board is still up,
    then frees both: glibc keeps freed heap pages, so the process would stay at
    that peak, a board (about 40 MB at 1920x1080) more than it held before the
    first reload (issue 22).  A few milliseconds, once per reload.
    """
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None where the C library has none (musl, macOS)."""
    try:
        found: Callable[[int], int] | None = getattr(ctypes.CDLL(None), "malloc_trim", None)
    except OSError:
        return None
    return found


def use_theme_rows(table: TableState, theme: Theme) -> bool:
    """Give the table the theme's row count (the theme owns it); True when it changed.

    The road engine places every road on ``rows`` rows and the renderer draws a
    grid of ``theme.roads.rows``: the two must agree, or cells land on rows the
    grid lacks and are dropped.
    """
    return table.set_rows(theme.roads.rows)
