"""The full frame: a cached static layer, panels redrawn only when they change.

:class:`Renderer` owns one off-screen frame.  ``update`` redraws the panels whose
content changed since the last call and returns their rectangles; ``blink``
touches only the newest entry's cell of each road that just grew.  The app copies
those rectangles to the display, so a frame that fails half-way never reaches
the screen.

Not run as a doctest (it needs pygame's display and fonts initialised; the
tests in ``tests/test_render.py`` do this)::

>>> renderer = Renderer(load_theme("classic"), (1280, 720))   # doctest: +SKIP
>>> renderer.render(table, FeedStatus.DEMO)                   # doctest: +SKIP
"""

from __future__ import annotations

import logging
from collections.abc import Hashable

import pygame

from scoreboard.core.table import FeedStatus, TableState
from scoreboard.render.chrome import (
    draw_cut_card_mark,
    draw_footer,
    draw_header,
    draw_shuffle_banner,
    plate_shows,
)
from scoreboard.render.grid import RoadPainter, RoadView, draw_grid_lines, draw_marks, sprite_size
from scoreboard.render.hand import draw_last_coup
from scoreboard.render.layout import ScreenLayout, compute_layout
from scoreboard.render.panels import PanelPainter, PanelView
from scoreboard.render.symbols import Sprites
from scoreboard.render.text import TextCache
from scoreboard.theme import ROAD_PANELS, Theme

log = logging.getLogger(__name__)

STATIC_TITLES = (*ROAD_PANELS, "counters", "predictions")
BLINK_PERIOD = 0.5


class Renderer:
    """Turns a table state into pixels for one theme and one screen size."""

    def __init__(self, theme: Theme, size: tuple[int, int]) -> None:
        self.theme = theme
        self.size = size
        self.layout: ScreenLayout = compute_layout(theme, size)
        self.text = TextCache(theme.fonts, theme.style.text_scale)
        self.sprites = Sprites()
        self.roads = RoadPainter(theme, self.sprites, self.text)
        self.panels = PanelPainter(theme, self.layout, self.text, self.roads)
        self.frame = pygame.Surface(size)
        self.static = self._static_layer()
        #: What each road panel shows now (scroll, newest cell), by road name.
        self.views: dict[str, RoadView] = {}
        #: The labelled values the header and the counters panel show now.
        self.panel_views: dict[str, PanelView] = {}
        self._keys: dict[str, Hashable] = {}
        self._signatures: dict[str, Hashable] = {}
        self._blinking: list[str] = []
        self._blink_start = 0.0
        self._blink_phase = 0

    # -- public ---------------------------------------------------------------------------
    def invalidate(self) -> None:
        """Forget what is on the frame: the next update redraws everything."""
        self._keys.clear()

    def render(
        self, table: TableState, status: FeedStatus, *, clock: str = "", now: float = 0.0
    ) -> pygame.Surface:
        """The complete frame for this state (what ``screenshot`` saves)."""
        self.invalidate()
        self.update(table, status, clock=clock, now=now)
        return self.frame

    def update(
        self, table: TableState, status: FeedStatus, *, clock: str = "", now: float = 0.0
    ) -> list[pygame.Rect]:
        """Redraw the panels whose content changed; return the rectangles touched."""
        dirty: list[pygame.Rect] = []
        if not self._keys:
            self.frame.blit(self.static, (0, 0))
            dirty.append(self.frame.get_rect())
        version = (table.version, table.shuffling)
        keys: dict[str, Hashable] = {
            "header": (
                table.table_name,
                table.table_id,
                table.shoe_number,
                table.last_number,
                status,
                clock,
                plate_shows(table),
            ),
            "counters": version,
            "predictions": version,
            "last_coup": version,
            "limits": (id(table.limits), table.limits.currency),
            "footer": (),
            **{road: version for road in ROAD_PANELS},
        }
        grown: list[str] = []
        for name, key in keys.items():
            box = self.layout.panels.get(name)
            if box is None or self._keys.get(name) == key:
                continue
            full_redraw = name not in self._keys
            self._keys[name] = key
            self.frame.blit(self.static, box.rect, box.rect)
            self._draw_panel(name, table, status, clock)
            dirty.append(box.rect)
            if name in ROAD_PANELS and self._road_grew(name, table) and not full_redraw:
                grown.append(name)
        if table.shuffling and "big_road" in self.layout.panels and dirty:
            dirty.append(draw_shuffle_banner(self.panels, self.frame))
        if grown:
            self._blinking, self._blink_start, self._blink_phase = grown, now, 0
        if table.shuffling:
            self._blinking = []  # the banner covers the roads; a blink would cut into it
        return dirty

    def next_blink(self, now: float) -> float | None:
        """When ``blink`` must run next, or None when nothing blinks."""
        if not self._blinking:
            return None
        elapsed = now - self._blink_start
        return self._blink_start + (int(elapsed / BLINK_PERIOD) + 1) * BLINK_PERIOD

    def blink(self, now: float) -> list[pygame.Rect]:
        """Show or hide the newest entries; touches only their cells."""
        if not self._blinking:
            return []
        elapsed = now - self._blink_start
        done = elapsed >= self.theme.roads.blink_seconds
        phase = 0 if done else int(elapsed / BLINK_PERIOD) % 2
        if phase == self._blink_phase and not done:
            return []
        self._blink_phase = phase
        dirty = []
        for road in self._blinking:
            view = self.views.get(road)
            if view is None or view.newest is None or view.newest_sprite is None:
                continue
            cell = view.newest
            self.frame.blit(self.static, cell, cell)
            if phase == 0:
                sprite = view.newest_sprite
                self.frame.blit(sprite, sprite.get_rect(center=cell.center))
            dirty.append(cell)
        if done:
            self._blinking = []
        return dirty

    # -- drawing ----------------------------------------------------------------------------
    def _road_grew(self, road: str, table: TableState) -> bool:
        entries = table.roads.road(road)
        length = len(entries)
        signature = (table.shoe_id, length, tuple(entries[-1:]))
        grew = self._signatures.get(road) != signature and length > 0
        self._signatures[road] = signature
        return grew

    def _draw_panel(self, name: str, table: TableState, status: FeedStatus, clock: str) -> None:
        frame, panels = self.frame, self.panels
        if name in ROAD_PANELS:
            grid = self.layout.grids[name]
            marks = self.roads.marks(name, table.roads, sprite_size(grid))
            self.views[name] = draw_marks(frame, grid, marks, self.theme.roads.empty_columns)
            if name == "big_road" and not marks and not table.shuffling:
                panels.notice(frame, grid.rect, panels.words("waiting", "  ·  "))
            if name == "big_road":
                draw_cut_card_mark(panels, frame, table)
        elif name == "header":
            self.panel_views[name] = draw_header(panels, frame, table, status, clock)
        elif name == "counters":
            self.panel_views[name] = panels.counters(frame, table)
        elif name == "predictions":
            panels.predictions(frame, table.roads)
        elif name == "last_coup":
            draw_last_coup(panels, frame, table)
        elif name == "limits":
            panels.limits(frame, table.limits)
        elif name == "footer":
            draw_footer(panels, frame)

    def _static_layer(self) -> pygame.Surface:
        """Background, panel cards, titles and road grids: drawn once per theme and size."""
        colors, layout = self.theme.colors, self.layout
        surface = pygame.Surface(self.size)
        surface.fill(colors.background)
        for name, box in layout.panels.items():
            if name == "header":
                pygame.draw.rect(surface, colors.header_background, box.rect)
                pygame.draw.line(
                    surface,
                    colors.accent,
                    box.rect.bottomleft,
                    (box.rect.right, box.rect.bottom),
                    layout.line,
                )
                continue
            if name == "footer":
                continue
            pygame.draw.rect(surface, colors.panel, box.rect, border_radius=layout.radius)
            pygame.draw.rect(
                surface, colors.border, box.rect, layout.line, border_radius=layout.radius
            )
            if box.title is not None:
                y = box.title.bottom - 1
                inset = layout.px(0.01)
                pygame.draw.line(
                    surface,
                    colors.grid,
                    (box.rect.x + inset, y),
                    (box.rect.right - inset, y),
                    layout.line,
                )
            if name in STATIC_TITLES:
                self.panels.title(surface, name)
            grid = layout.grids.get(name)
            if grid is not None:
                draw_grid_lines(surface, grid, colors.grid, layout.line)
        return surface
