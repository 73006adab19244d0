"""Screen rectangles from a theme's proportions and the screen size.

Nothing here is a pixel constant: every size is a fraction of the screen or of
its shorter side (``unit``), so one theme fits 1280x720 and 3840x2160 alike.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from scoreboard.theme import ROAD_PANELS, Theme

TITLED = (*ROAD_PANELS, "predictions", "counters", "last_coup", "limits")


@dataclass(frozen=True, slots=True)
class Grid:
    """A road's grid: ``rows`` x ``cols`` nearly square cells filling ``rect`` exactly."""

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
    grids: dict[str, Grid] = {}
    for panel in theme.layout(width, height).panels:
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
        if panel.name in ROAD_PANELS:
            grids[panel.name] = _grid(body, theme.roads.rows)
    return ScreenLayout((width, height), unit, radius, line, panels, grids)


def _grid(body: pygame.Rect, rows: int) -> Grid:
    cell = max(1.0, body.height / rows)
    cols = max(1, round(body.width / cell))
    return Grid(pygame.Rect(body), rows, cols)
