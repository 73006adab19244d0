"""The full frame: a cached static layer, panels redrawn only when they change.

:class:`Renderer` owns one off-screen frame.  ``update`` redraws the panels whose
content changed since the last call and returns their rectangles; ``blink``
touches only the newest entry's cell of each road that just grew.  The app copies
those rectangles to the display, so a frame that fails half-way never reaches
the screen.

Each panel is drawn inside its own guard: a panel that raises shows a neutral
placeholder (its background and a large dash), the other panels go on updating,
and the failure is counted (:attr:`Renderer.failures`), named
(:attr:`Renderer.failing`) and logged with its traceback once per panel a
minute.  While any panel fails, the header's feed mark says so: the screen never
shows LIVE over a board it could not draw.  A failing panel is tried again on
every update, so it recovers by itself once it can be drawn.

Not run as a doctest (it needs pygame's display and fonts initialised; the
tests in ``tests/test_render.py`` do this)::

>>> renderer = Renderer(load_theme("classic"), (1280, 720))   # doctest: +SKIP
>>> renderer.render(table, FeedStatus.DEMO)                   # doctest: +SKIP
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass

import pygame

from scoreboard.core.table import FeedStatus, TableState
from scoreboard.render.chrome import (
    draw_cut_card_mark,
    draw_footer,
    draw_header,
    draw_shuffle_banner,
    plate_shows,
)
from scoreboard.render.grid import RoadView, draw_grid_lines, draw_marks, sprite_size
from scoreboard.render.hand import draw_last_coup
from scoreboard.render.layout import PanelBox, ScreenLayout, compute_layout
from scoreboard.render.marks import RoadPainter
from scoreboard.render.panels import PanelPainter, PanelView
from scoreboard.render.symbols import Sprites
from scoreboard.render.text import TextCache
from scoreboard.theme import ROAD_PANELS, Theme

log = logging.getLogger(__name__)

STATIC_TITLES = (*ROAD_PANELS, "counters", "predictions")
BLINK_PERIOD = 0.5
REPEAT_LOG_SECONDS = 60.0
SHUFFLE_BANNER = "shuffle_banner"
"""The name the shuffle banner's failures are reported under (it is drawn over the roads)."""

PanelDrawer = Callable[[pygame.Surface, pygame.Rect, TableState], object]
"""Draws one panel: the frame, the panel's body rectangle, the table."""


@dataclass(frozen=True, slots=True)
class FrameInput:
    """What one update draws: the table and what the header shows beside it."""

    table: TableState
    status: FeedStatus
    clock: str
    now: float
    journal_failing: bool


class Renderer:
    """Turns a table state into pixels for one theme and one screen size."""

    def __init__(
        self,
        theme: Theme,
        size: tuple[int, int],
        *,
        drawers: Mapping[str, PanelDrawer] | None = None,
    ) -> None:
        """``drawers`` replaces how the named panels are drawn (see :data:`PanelDrawer`).

        It is the documented hook for a test's failing panel and for a site's own
        panel; the built-in painters draw every panel it does not name.
        """
        self.theme = theme
        self.drawers: Mapping[str, PanelDrawer] = dict(drawers or {})
        #: Failed panel draws since this renderer was built.
        self.failures = 0
        self._failing: dict[str, None] = {}  # an ordered set: panels whose last draw failed
        self._logged: dict[str, float] = {}
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

    @property
    def failing(self) -> tuple[str, ...]:
        """The panels that show the placeholder now: their last draw failed."""
        return tuple(self._failing)

    def render(
        self,
        table: TableState,
        status: FeedStatus,
        *,
        clock: str = "",
        now: float = 0.0,
        journal_failing: bool = False,
    ) -> pygame.Surface:
        """The complete frame for this state (what ``screenshot`` saves)."""
        self.invalidate()
        self.update(table, status, clock=clock, now=now, journal_failing=journal_failing)
        return self.frame

    def update(
        self,
        table: TableState,
        status: FeedStatus,
        *,
        clock: str = "",
        now: float = 0.0,
        journal_failing: bool = False,
    ) -> list[pygame.Rect]:
        """Redraw the panels whose content changed; return the rectangles touched.

        ``journal_failing`` puts the journal warning beside the feed mark.  The
        header is drawn last, so its mark reflects the panels of this very frame.
        """
        dirty: list[pygame.Rect] = []
        if not self._keys:
            self.frame.blit(self.static, (0, 0))
            dirty.append(self.frame.get_rect())
        version = (table.version, table.shuffling)
        keys: dict[str, Hashable] = {
            "counters": version,
            "predictions": version,
            "last_coup": version,
            "limits": (id(table.limits), table.limits.currency),
            "footer": (),
            **{road: version for road in ROAD_PANELS},
        }
        given = FrameInput(table, status, clock, now, journal_failing)
        grown = [name for name, key in keys.items() if self._refresh(name, key, given, dirty)]
        header = (
            table.table_name,
            table.table_id,
            table.shoe_number,
            table.last_number,
            status,
            clock,
            plate_shows(table),
            self._fault_shown(),
            journal_failing,
        )
        self._refresh("header", header, given, dirty)
        if table.shuffling and "big_road" in self.layout.panels and dirty:
            dirty.append(self._shuffle_banner(now))
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

    def _refresh(
        self, name: str, key: Hashable, given: FrameInput, dirty: list[pygame.Rect]
    ) -> bool:
        """Redraw panel ``name`` if its ``key`` changed; True when it is a road that just grew."""
        box = self.layout.panels.get(name)
        if box is None or self._keys.get(name) == key:
            return False
        full_redraw = name not in self._keys
        self.frame.blit(self.static, box.rect, box.rect)
        drawn = self._guarded(name, given.now, lambda: self._draw_panel(name, box, given))
        dirty.append(box.rect)
        if not drawn:
            self.frame.blit(self.static, box.rect, box.rect)  # no half-drawn panel stays
            self.panels.placeholder(self.frame, name)
            self.views.pop(name, None)  # nothing of it blinks or is read off the screen
            self.panel_views.pop(name, None)
            return False  # the key is not kept: the next update tries the panel again
        self._keys[name] = key
        return name in ROAD_PANELS and self._road_grew(name, given.table) and not full_redraw

    def _guarded(self, name: str, now: float, draw: Callable[[], object]) -> bool:
        """Run ``draw()``; False when it raised: counted, named, logged once a minute."""
        try:
            draw()
        except Exception:
            self.failures += 1
            self._failing[name] = None
            if self._logged.get(name, -REPEAT_LOG_SECONDS) + REPEAT_LOG_SECONDS <= now:
                self._logged[name] = now
                log.exception("panel %s failed to draw; it shows a placeholder", name)
            return False
        self._failing.pop(name, None)
        return True

    def _fault_shown(self) -> bool:
        """The header's mark says DISPLAY FAULT: a panel other than the header fails."""
        return any(name != "header" for name in self._failing)

    def _shuffle_banner(self, now: float) -> pygame.Rect:
        """The banner over the roads, guarded like a panel; the rectangle it touched."""
        drawn: list[pygame.Rect] = []
        self._guarded(
            SHUFFLE_BANNER, now, lambda: drawn.append(draw_shuffle_banner(self.panels, self.frame))
        )
        return drawn[0] if drawn else self.layout.panels["big_road"].rect

    def _draw_panel(self, name: str, box: PanelBox, given: FrameInput) -> None:
        frame, panels, table = self.frame, self.panels, given.table
        drawer = self.drawers.get(name)
        if drawer is not None:
            drawer(frame, box.body, table)
        elif name in ROAD_PANELS:
            self._draw_road(name, table)
        elif name == "header":
            self.panel_views[name] = draw_header(
                panels,
                frame,
                table,
                given.status,
                given.clock,
                fault=self._fault_shown(),
                journal_failing=given.journal_failing,
            )
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

    def _draw_road(self, name: str, table: TableState) -> None:
        frame, panels = self.frame, self.panels
        grid = self.layout.grids[name]
        marks = self.roads.marks(name, table.roads, sprite_size(grid))
        self.views[name] = draw_marks(frame, grid, marks, self.theme.roads.empty_columns)
        if name == "big_road" and not marks and not table.shuffling:
            panels.notice(frame, grid.rect, panels.words("waiting", "  ·  "))
        if name == "big_road":
            draw_cut_card_mark(panels, frame, table)

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
