"""Screen rectangles from a theme's proportions and the screen size.

Nothing here is a pixel constant: every size is a fraction of the screen or of
its shorter side (``unit``), so one theme fits 1280x720 and 3840x2160 alike.

Road grids are where the layout decides what a player can read: each road gets
square cells as large as its panel allows *and* at least the columns the theme
asks for (``theme.roads.columns``), so a whole shoe fits on any screen shape; a
derived road's cell is a fixed fraction of the big road's (``derived_cell``:
0.5 puts 2x2 derived entries in the space of one big-road cell, as real boards
do).  docs/display.md ("The layout grid") explains the figures.

Panels keep the theme's fractions of the screen, so a screen of another shape
than the layout was drawn for gets other cells.  The shipped portrait layouts
are drawn for 9:16 (1080x1920: big road 21 px, derived roads 10.5 px); on a
3:4 or 4:5 portrait screen (768x1024, 1024x1280) the big-road strip is as
wide but shorter for its width (0.12 or 0.11 of it, not 0.16) while its title
strip keeps its height, so its cells are height-bound at 9.8 and 12 px
(derived 4-5 px) and the bead plate, which has height to spare, keeps 36-45 px
cells.  Moving height from the bead plate to the roads needs a
layout drawn for that shape (a theme's own ``portrait`` rectangles); this
module does not guess at one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pygame

from scoreboard.screen.theme.values import DERIVED_PANELS, ROAD_PANELS, Theme

TITLED = (*ROAD_PANELS, "predictions", "counters", "last_coup", "limits")


@dataclass(frozen=True, slots=True)
class Grid:
    """A road's grid: ``rows`` x ``cols`` nearly square cells filling ``rect`` exactly.

    ``rect`` lies inside the panel's body, centred on it; cells are as tall as
    the layout chose and a hair wider (less than one cell in all) so the grid
    meets the body's right edge.
    """

    rect: pygame.Rect
    rows: int
    cols: int

    @property
    def cell_width(self) -> float:
        return self.rect.width / self.cols

    @property
    def cell_height(self) -> float:
        return self.rect.height / self.rows

    def x(self, col: int) -> int:
        return self.rect.x + round(col * self.cell_width)

    def y(self, row: int) -> int:
        return self.rect.y + round(row * self.cell_height)

    def cell(self, col: int, row: int) -> pygame.Rect:
        """The pixel rectangle of a visible cell (``col`` counted from the left edge).

        >>> Grid(pygame.Rect(0, 0, 100, 60), rows=6, cols=10).cell(2, 1)
        Rect(20, 10, 10, 10)
        """
        x0, y0 = self.x(col), self.y(row)
        return pygame.Rect(x0, y0, self.x(col + 1) - x0, self.y(row + 1) - y0)


@dataclass(frozen=True, slots=True)
class PanelBox:
    """A panel's outer rectangle, its title strip (if any) and its body."""

    name: str
    rect: pygame.Rect
    title: pygame.Rect | None
    body: pygame.Rect


@dataclass(frozen=True, slots=True)
class ScreenLayout:
    size: tuple[int, int]
    unit: int
    radius: int
    line: int
    panels: dict[str, PanelBox]
    grids: dict[str, Grid]
    #: A derived road's cell per big-road cell here (the theme's, or its layout's own).
    derived_cell: float = 0.5

    def px(self, fraction: float) -> int:
        """A length given as a fraction of the shorter screen side, at least 1 pixel.

        >>> ScreenLayout((1920, 1080), 1080, 6, 2, {}, {}).px(0.01)
        11
        """
        return max(1, round(fraction * self.unit))


def compute_layout(theme: Theme, size: tuple[int, int]) -> ScreenLayout:
    """Place every panel of the theme's layout for this screen's orientation."""
    width, height = size
    unit = min(width, height)
    style = theme.style
    radius = max(0, round(style.corner_radius * unit))
    line = max(1, round(style.border_width * unit))
    pad = max(2, round(0.006 * unit))
    title_h = max(8, round(style.title_height * unit))
    panels: dict[str, PanelBox] = {}
    chosen = theme.layout(width, height)
    for panel in chosen.panels:
        fx, fy, fw, fh = panel.rect
        x0, y0 = round(fx * width), round(fy * height)
        rect = pygame.Rect(x0, y0, round((fx + fw) * width) - x0, round((fy + fh) * height) - y0)
        if panel.name in TITLED:
            title = pygame.Rect(rect.x, rect.y, rect.width, min(title_h, rect.height // 2))
            body = pygame.Rect(rect.x + pad, title.bottom, rect.width - 2 * pad, 0)
            body.height = max(1, rect.bottom - pad - body.y)
        else:
            title = None
            body = rect.inflate(-2 * pad, 0)
        panels[panel.name] = PanelBox(panel.name, rect, title, body)
    derived = chosen.derived(theme.roads)
    grids = road_grids(theme, panels, derived)
    return ScreenLayout((width, height), unit, radius, line, panels, grids, derived)


def road_grids(
    theme: Theme, panels: Mapping[str, PanelBox], derived_cell: float | None = None
) -> dict[str, Grid]:
    """Each road panel's grid: the big road and bead plate first, the derived roads from them.

    ``derived_cell``: a derived road's cell per big-road cell (default the theme's roads').
    """
    derived_cell = theme.roads.derived_cell if derived_cell is None else derived_cell
    roads = theme.roads
    grids: dict[str, Grid] = {}
    big_cell: float | None = None
    for name in ROAD_PANELS:
        box = panels.get(name)
        if box is None or name in DERIVED_PANELS:
            continue
        grids[name] = grid_in(box.body, roads.rows, roads.columns[name])
        if name == "big_road":
            big_cell = grids[name].cell_height
    for name in DERIVED_PANELS:
        box = panels.get(name)
        if box is None:
            continue
        wanted = None if big_cell is None else big_cell * derived_cell
        # Ruled every ``step`` cells (a square per 2x2 half-size entries): whole squares only,
        # so the paper never ends in a sliver of a square.
        step = ruling_step(derived_cell, name)
        grids[name] = grid_in(box.body, roads.rows, roads.columns["derived"], wanted, step)
    return grids


def grid_in(
    body: pygame.Rect, rows: int, columns: int, cell: float | None = None, step: int = 1
) -> Grid:
    """The grid of ``rows`` square cells in ``body`` with at least ``columns`` columns.

    The cell is ``cell`` when given (a derived road's, from the big road's), else
    as tall as the body allows; it shrinks when that would leave fewer than
    ``columns`` columns or overflow the body.  The columns are a multiple of
    ``step`` (the paper's ruling), the cells widened to fill the body.

    >>> grid = grid_in(pygame.Rect(0, 0, 500, 120), rows=6, columns=20)
    >>> grid.cols, grid.rect.size
    (25, (500, 120))
    >>> grid = grid_in(pygame.Rect(0, 0, 300, 120), rows=6, columns=20)
    >>> grid.cols, grid.rect.size
    (20, (300, 90))
    >>> grid_in(pygame.Rect(0, 0, 300, 120), rows=6, columns=20, cell=10.0).cols
    30
    >>> grid_in(pygame.Rect(0, 0, 310, 120), rows=6, columns=20, cell=10.0, step=2).cols
    30
    """
    side = body.height / rows if cell is None else min(cell, body.height / rows)
    side = max(1.0, min(side, body.width / max(1, columns)))
    cols = max(1, int(body.width / side + 1e-6))
    cols = max(step, cols - cols % step)
    height = min(body.height, max(rows, round(rows * side)))
    top = body.y + (body.height - height) // 2  # a grid shrunk to fit its columns stays centred
    return Grid(pygame.Rect(body.x, top, body.width, height), rows, cols)


def ruling_step(derived_cell: float, road: str) -> int:
    """Every how many cells a road's paper is ruled: 2 for derived roads in half-size cells.

    ``derived_cell``: a derived road's cell per big-road cell in the layout shown.

    >>> ruling_step(0.5, "small_road"), ruling_step(0.5, "big_road")
    (2, 1)
    >>> ruling_step(0.65, "cockroach_pig")
    2
    """
    if road not in DERIVED_PANELS:
        return 1
    return max(1, round(1 / derived_cell))
