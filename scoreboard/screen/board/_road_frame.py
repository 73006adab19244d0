"""The road panels on the frame: which window each road shows, its marks, its newest cell.

:class:`RoadFrame` keeps what the renderer needs to know about the roads it
drew: the column index of every road (:class:`~scoreboard.screen.board._scroll.ShoeIndex`),
the window each road shows (each scrolls on its own,
:func:`~scoreboard.screen.board._scroll.own_start`), and where each road's newest entry
is drawn (:class:`~scoreboard.screen.board.grid.RoadView`, what the blink and the
banner read).  It draws a road whole (:meth:`draw_road`) or only some of its
cells (:meth:`draw_cells`); the renderer decides which, and guards the draw.
A road drawn whole blits only each mark's inked part (:func:`inked`).
"""

from __future__ import annotations

import weakref
from collections.abc import Hashable, Iterable, Mapping

import pygame

from scoreboard.screen.board._chrome import draw_cut_card_mark, plate_shows
from scoreboard.screen.board._scroll import ShoeIndex, own_start
from scoreboard.screen.board.canvas import copy_area
from scoreboard.screen.board.grid import (
    NewestMarks,
    RoadView,
    RoadWindow,
    blit_centred,
    centred,
    draw_earlier_marker,
    marker_columns,
    visible_marks,
)
from scoreboard.screen.board.layout import ScreenLayout
from scoreboard.screen.board.marks import RoadPainter
from scoreboard.screen.board.panels import PanelPainter
from scoreboard.screen.theme.values import Theme
from scoreboard.table.state import TableState

Placed = list[tuple[int, pygame.Rect, pygame.Surface]]
"""Marks as drawn: (entry index, cell, sprite)."""

_INKED: weakref.WeakKeyDictionary[pygame.Surface, tuple[pygame.Surface, int, int]] = (
    weakref.WeakKeyDictionary()
)


def inked(sprite: pygame.Surface) -> tuple[pygame.Surface, int, int]:
    """The part of ``sprite`` that has ink (alpha above 0), and where in it that part starts.

    A mark fills 72-86 % of its cell's width, and blending a clear pixel changes
    nothing, so blitting only the inked part puts down the same pixels while
    blending a third fewer.  Kept per sprite (a copy: it holds no reference to it).
    """
    found = _INKED.get(sprite)
    if found is None:
        ink = sprite.get_bounding_rect()
        if not (ink.w and ink.h):  # no ink at all: one clear pixel, which blends to nothing
            ink = pygame.Rect(0, 0, 1, 1)
        found = (sprite.subsurface(ink).copy(), ink.x, ink.y)
        _INKED[sprite] = found
    return found


def inked_blits(
    placed: Iterable[tuple[int, pygame.Rect, pygame.Surface]],
) -> list[tuple[pygame.Surface, tuple[int, int]]]:
    """``fblits`` pairs putting each placed mark's inked part where its sprite would go."""
    pairs = []
    for _, cell, sprite in placed:
        part, dx, dy = inked(sprite)
        x, y = centred(sprite, cell)
        pairs.append((part, (x + dx, y + dy)))
    return pairs


class RoadFrame:
    """The roads' part of one renderer's frame (see the module docstring)."""

    def __init__(
        self, theme: Theme, layout: ScreenLayout, roads: RoadPainter, panels: PanelPainter
    ) -> None:
        self.theme = theme
        self.layout = layout
        self.roads = roads
        self.panels = panels
        self.index = ShoeIndex(tuple(layout.grids))
        self.reserved = {
            name: marker_columns(grid, layout.unit) for name, grid in layout.grids.items()
        }
        self.windows: dict[str, RoadWindow] = {}
        #: What each road panel shows now (scroll, newest cell), by road name.
        self.views: dict[str, RoadView] = {}
        self.newest = NewestMarks(theme.roads.blink_seconds)

    def newest_big_road(self) -> pygame.Rect | None:
        """Where the big road's newest entry is drawn now (the winner banner sits beside it)."""
        view = self.views.get("big_road")
        return view.newest if view is not None else None

    def place_windows(self, held: Mapping[str, int] | None = None) -> None:
        """Scroll each road to the window its own columns put it at (each on its own).

        ``held``: the columns each road had before the coup being dealt, whose last
        card has not landed yet: a scroll to its new column would tell its result."""
        empty = self.theme.roads.empty_columns
        for name, grid in self.layout.grids.items():
            reserved = self.reserved[name]
            columns = self.index.columns[name].columns
            if held is not None:
                columns = held.get(name, columns)
            start = own_start(columns, grid.cols, reserved, empty)
            self.windows[name] = RoadWindow(grid, start, reserved)

    def columns(self) -> dict[str, int]:
        """How many columns each road has taken, as indexed now."""
        return {name: index.columns for name, index in self.index.columns.items()}

    def key(self, name: str, table: TableState) -> Hashable:
        """What road ``name``'s whole drawing depends on besides its entries."""
        empty = table.roads.length(name) == 0
        key: Hashable = (self.windows[name].start, empty)  # the shuffle screen: an overlay
        if name == "big_road":
            key = (key, plate_shows(table))
        return key

    def draw_cells(
        self,
        base: pygame.Surface,
        static: pygame.Surface,
        name: str,
        table: TableState,
        touched: list[int],
        dirty: list[pygame.Rect],
    ) -> None:
        """Redraw only road ``name``'s entries ``touched`` (the static layer under each)."""
        placed = visible_marks(
            self.roads,
            name,
            table.roads,
            self.index.columns[name],
            self.windows[name],
            touched,
            corrected=table.corrected,
        )
        for _, cell, sprite in placed:
            copy_area(base, static, cell)
            blit_centred(base, sprite, cell)
            dirty.append(cell)
        newest = table.roads.length(name) - 1
        self.set_view(name, table, [mark for mark in placed if mark[0] == newest])

    def draw_road(self, frame: pygame.Surface, name: str, table: TableState) -> None:
        """Road ``name`` whole, onto ``frame`` whose panel shows the static layer."""
        window = self.windows[name]
        index = self.index.columns[name]
        placed = visible_marks(
            self.roads, name, table.roads, index, window, corrected=table.corrected
        )
        frame.fblits(inked_blits(placed))
        if window.start > 0:
            label = self.theme.label("earlier")[0]
            draw_earlier_marker(
                frame, window, self.theme.colors, self.panels.text, label, self.layout.unit
            )
        self.set_view(name, table)
        if name == "big_road" and not len(index) and not table.shuffling:
            self.panels.notice(frame, window.grid.rect, self.panels.words("waiting", "  ·  "))
        if name == "big_road":
            draw_cut_card_mark(self.panels, frame, table)

    def set_view(self, name: str, table: TableState, placed: Placed | None = None) -> None:
        """Note where the road's newest entry is drawn (``placed``: its mark, if known)."""
        window, length = self.windows[name], table.roads.length(name)
        newest = None
        if length:
            if not placed:
                placed = visible_marks(
                    self.roads,
                    name,
                    table.roads,
                    self.index.columns[name],
                    window,
                    [length - 1],
                    corrected=table.corrected,
                )
            if placed:
                _, cell, sprite = placed[0]
                newest = (cell, sprite)
        self.views[name] = RoadView(window.start, *(newest or (None, None)))
