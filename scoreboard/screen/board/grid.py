"""One routine draws every road: marks placed on a grid, scrolled by whole columns.

The roads differ only in the symbol each entry gets
(:class:`scoreboard.screen.board.marks.RoadPainter`); the grid, the scrolling and the
"newest entry" bookkeeping are shared.  Positions come from the road engine and
the window from :mod:`scoreboard.screen.board._scroll`; nothing here computes a road.
:class:`RoadWindow` builds sprites for the entries in visible columns only, so
drawing a road costs what the screen shows, not what the shoe holds.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass

import pygame

from scoreboard.roads.engine import BeadCell, BigRoadCell, DerivedCell, DerivedRoad, Roads
from scoreboard.screen.board._chrome import luminance
from scoreboard.screen.board._scroll import ColumnIndex, shown_columns
from scoreboard.screen.board.canvas import copy_area
from scoreboard.screen.board.layout import Grid, ScreenLayout, ruling_step
from scoreboard.screen.board.marks import RoadPainter
from scoreboard.screen.board.panels import PanelPainter
from scoreboard.screen.board.text import TextCache
from scoreboard.screen.theme.values import RGB, ROAD_PANELS, Colors, Theme

STATIC_TITLES = (*ROAD_PANELS, "counters", "predictions")

MARKER_TEXT = 0.024
"""The "earlier" marker's text size, of the shorter screen side: its letters measure
about 1.7 % (the text rule: nothing below 1.5 %)."""


@dataclass(frozen=True, slots=True)
class RoadView:
    """What a drawn road shows: the first visible column and the newest entry's cell."""

    first_col: int
    newest: pygame.Rect | None
    newest_sprite: pygame.Surface | None


def draw_grid_lines(
    surface: pygame.Surface, grid: Grid, color: RGB, width: int, step: int = 1
) -> None:
    """The ruled paper of a road panel (drawn once, into the static layer).

    ``step`` rules every step-th line: a derived road in half-size cells is
    ruled like big-road paper (one square per 2x2 entries), as on real boards,
    instead of a mesh of lines as dense as its dots.  The edges are always ruled.
    """
    rect = grid.rect
    for col in range(grid.cols + 1):
        if col % step and col != grid.cols:
            continue
        x = min(grid.x(col), rect.right - width)
        pygame.draw.line(surface, color, (x, rect.top), (x, rect.bottom - 1), width)
    for row in range(grid.rows + 1):
        if row % step and row != grid.rows:
            continue
        y = min(grid.y(row), rect.bottom - width)
        pygame.draw.line(surface, color, (rect.left, y), (rect.right - 1, y), width)


def sprite_size(grid: Grid) -> tuple[int, int]:
    return (max(2, int(grid.cell_width)), max(2, int(grid.cell_height)))


@dataclass(frozen=True, slots=True)
class RoadWindow:
    """Where one road's visible entries go: its grid, first shown column and marker columns."""

    grid: Grid
    start: int
    reserved: int

    @property
    def offset(self) -> int:
        """The grid column of road column ``start`` (past the marker when scrolled)."""
        return shown_columns(self.start, self.grid.cols, self.reserved)[0]

    @property
    def stop(self) -> int:
        """One past the last road column shown."""
        return self.start + shown_columns(self.start, self.grid.cols, self.reserved)[1]

    def cell(self, col: int, row: int) -> pygame.Rect | None:
        """The pixel cell of road position (col, row), or None when it is not shown."""
        if not (self.start <= col < self.stop and 0 <= row < self.grid.rows):
            return None
        return self.grid.cell(col - self.start + self.offset, row)


def marker_columns(grid: Grid, unit: int) -> int:
    """The grid columns the "earlier" marker takes: room for its text at the text rule's size."""
    band = MARKER_TEXT * unit * 1.6
    return max(1, min(grid.cols - 1, math.ceil(band / max(1.0, grid.cell_width))))


Corrected = Callable[[int], bool]
"""Whether game ``n``'s coup on the board was set by a correction (``TableState.corrected``)."""


def never(_game: int) -> bool:
    """No game was corrected."""
    return False


def entry_sprite(
    painter: RoadPainter,
    name: str,
    cell: BeadCell | BigRoadCell | DerivedCell,
    size: tuple[int, int],
    corrected: Corrected = never,
) -> pygame.Surface:
    """The sprite of one entry of road ``name`` (a corrected game's bead has its notch)."""
    if isinstance(cell, BeadCell):
        return painter.bead(cell, size, corrected=corrected(cell.game))
    if isinstance(cell, BigRoadCell):
        return painter.big_road(cell, size)
    return painter.derived(DerivedRoad(name).k, cell.color, size)


def visible_marks(
    painter: RoadPainter,
    name: str,
    roads: Roads,
    index: ColumnIndex,
    window: RoadWindow,
    indices: Iterable[int] | None = None,
    *,
    corrected: Corrected = never,
) -> list[tuple[int, pygame.Rect, pygame.Surface]]:
    """(entry index, cell, sprite) of the shown entries: all of them, or only ``indices``.

    ``corrected(n)`` says which games the bead plate marks as corrected.

    A full road places a few hundred marks, so the window and the column
    edges are worked out once, not per mark (the cells equal ``window.cell``'s).
    """
    grid = window.grid
    size = sprite_size(grid)
    offset, shown = shown_columns(window.start, grid.cols, window.reserved)
    start, rows = window.start, grid.rows
    stop = start + shown
    wanted = list(index.entries(start, stop) if indices is None else indices)
    if not wanted:
        return []
    low, high = min(wanted), max(wanted) + 1
    cells = roads.entries(name, low, high)
    xs = edges(grid.rect.x, grid.cell_width, grid.cols)
    ys = edges(grid.rect.y, grid.cell_height, rows)
    placed = []
    derived: dict[object, pygame.Surface] = {}  # a derived road's sprite is one per colour
    for at in wanted:
        cell = cells[at - low]
        col, row = cell.col, cell.row
        if start <= col < stop and 0 <= row < rows:
            col += offset - start
            x0, y0 = xs[col], ys[row]
            rect = pygame.Rect(x0, y0, xs[col + 1] - x0, ys[row + 1] - y0)
            if isinstance(cell, DerivedCell):
                sprite = derived.get(cell.color)
                if sprite is None:
                    sprite = derived[cell.color] = entry_sprite(painter, name, cell, size)
            else:
                sprite = entry_sprite(painter, name, cell, size, corrected)
            placed.append((at, rect, sprite))
    return placed


@functools.lru_cache(maxsize=32)
def edges(origin: int, step: float, count: int) -> tuple[int, ...]:
    """The pixel edges of ``count`` cells ``step`` wide from ``origin`` (as ``Grid.cell``
    rounds them), worked out once per grid instead of twice per mark.

    >>> edges(10, 2.5, 4)
    (10, 12, 15, 18, 20)
    """
    return tuple(origin + round(i * step) for i in range(count + 1))


def centred(sprite: pygame.Surface, cell: pygame.Rect) -> tuple[int, int]:
    """Where ``sprite`` goes to sit centred in ``cell`` (as ``get_rect(center=...)`` puts it)."""
    width, height = sprite.get_size()
    return cell.x + cell.w // 2 - width // 2, cell.y + cell.h // 2 - height // 2


def blit_centred(
    surface: pygame.Surface, sprite: pygame.Surface, cell: pygame.Rect, scale: float = 1.0
) -> None:
    """A sprite centred in its cell, drawn at ``scale`` of its size (a mark being drawn in)."""
    if scale < 1.0:
        width, height = sprite.get_size()
        size = (max(1, round(width * scale)), max(1, round(height * scale)))
        sprite = pygame.transform.smoothscale(sprite, size)
    surface.blit(sprite, sprite.get_rect(center=cell.center))


def draw_earlier_marker(
    surface: pygame.Surface,
    window: RoadWindow,
    colors: Colors,
    text: TextCache,
    label: str,
    unit: int,
) -> pygame.Rect:
    """An accent band at the road's left edge with a left arrow and ``label`` read upwards.

    It says the road has scrolled: earlier results are off to the left.
    """
    grid = window.grid
    band = pygame.Rect(grid.rect.x, grid.rect.y, grid.x(window.offset) - grid.rect.x, grid.rect.h)
    pygame.draw.rect(surface, colors.accent, band)
    ink = colors.header_background if luminance(colors.accent) > 0.5 else colors.header_text
    if abs(luminance(ink) - luminance(colors.accent)) < 0.3:
        ink = (0, 0, 0) if luminance(colors.accent) > 0.5 else (255, 255, 255)
    height = MARKER_TEXT * unit
    side = min(band.width * 0.7, height * 1.1)
    top = band.y + max(2, round(band.width * 0.2))
    arrow = [
        (band.centerx - side / 2, top + side / 2),
        (band.centerx + side / 2, top),
        (band.centerx + side / 2, top + side),
    ]
    pygame.draw.polygon(surface, ink, arrow)
    room = band.bottom - (top + side) - 2 * max(2, round(band.width * 0.2))
    size = text.fit_size(label, height, room, bold=True)
    if size >= 0.9 * text.size_for_height(height):  # never below the text rule: the arrow alone
        words = pygame.transform.rotate(text.render(label, size, ink, bold=True), 90)
        where = words.get_rect(center=(band.centerx, (top + side + band.bottom) / 2))
        if band.contains(where) and where.top >= top + side:  # nor spilling out of the band
            surface.blit(words, where)
    return band


BLINK_PERIOD = 0.5
"""Half a blink: the newest entries flash once a second (WCAG 2.3.1 allows three)."""


class NewestMarks:
    """The newest entries of the roads that grew: drawn in, then blinking, then still."""

    def __init__(self, blink_seconds: float) -> None:
        self.blink_seconds = blink_seconds
        self.roads: list[str] = []
        self._start: float | None = None
        self._look: Hashable = None

    def begin(self, roads: list[str], drawn_at: float | None) -> None:
        """These roads just grew; ``drawn_at``: when their newest marks were drawn whole
        (None while the motion still draws them in: the blink starts after)."""
        self.roads, self._start = roads, drawn_at
        self._look = None if drawn_at is None else ("blink", 0)

    def next_change(self, now: float) -> float | None:
        if not self.roads or self._start is None:
            return None
        elapsed = now - self._start
        due = self._start + (int(elapsed / BLINK_PERIOD) + 1) * BLINK_PERIOD
        return due if due > now else due + BLINK_PERIOD  # float rounding: always ahead of now

    def draw(
        self,
        surface: pygame.Surface,
        static: pygame.Surface,
        views: Mapping[str, RoadView],
        now: float,
        scale: float | None,
    ) -> list[pygame.Rect]:
        """Draw the newest marks as they look at ``now`` (``scale``: the draw-in, None = done)."""
        if not self.roads:
            return []
        if scale is not None:
            look: Hashable = ("in", round(scale, 3))
        else:
            if self._start is None:
                self._start = now
            elapsed = now - self._start
            done = elapsed >= self.blink_seconds
            look = "done" if done else ("blink", int(elapsed / BLINK_PERIOD) % 2)
        if look == self._look:
            return []
        self._look = look
        size = 0.0 if look == ("blink", 1) else 1.0 if scale is None else scale
        dirty = self._paint(surface, static, views, size)
        if look == "done":
            self.roads = []
        return dirty

    def settle(
        self, surface: pygame.Surface, static: pygame.Surface, views: Mapping[str, RoadView]
    ) -> list[pygame.Rect]:
        """Draw the marks still animating whole and still, before newer marks take over.

        A coup that arrives while the last one's mark is drawn in or blinking would
        otherwise leave that mark as it was at that instant: shrunk, or blinked off.
        """
        if not self.roads:
            return []
        dirty = self._paint(surface, static, views, 1.0)
        self.roads, self._look = [], "done"
        return dirty

    def _paint(
        self,
        surface: pygame.Surface,
        static: pygame.Surface,
        views: Mapping[str, RoadView],
        size: float,
    ) -> list[pygame.Rect]:
        """Each growing road's newest mark over its paper at ``size`` (0: the paper only)."""
        dirty = []
        for road in self.roads:
            view = views.get(road)
            if view is None or view.newest is None or view.newest_sprite is None:
                continue
            cell = view.newest
            copy_area(surface, static, cell)  # a road cell: SDL's blit is slow on some
            if size > 0:
                blit_centred(surface, view.newest_sprite, cell, size)
            dirty.append(cell)
        return dirty


def static_layer(theme: Theme, layout: ScreenLayout, panels: PanelPainter) -> pygame.Surface:
    """Background, panel cards, titles and road grids: drawn once per theme and size."""
    colors = theme.colors
    surface = pygame.Surface(layout.size)
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
        pygame.draw.rect(surface, colors.border, box.rect, layout.line, border_radius=layout.radius)
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
            panels.title(surface, name)
        grid = layout.grids.get(name)
        if grid is not None:
            step = ruling_step(layout.derived_cell, name)
            draw_grid_lines(surface, grid, colors.grid, layout.line, step)
    return surface
