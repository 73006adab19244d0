"""Where the lobby's tiles go: a header, a footer, and a grid of tiles sized for the page.

Pure geometry of the screen's size and the number of tiles on the page, so
the same page is laid out alike at any size and every tile can be checked to
lie inside the screen and apart from the others.  The grid is the one that
makes the tiles largest at about :data:`TILE_ASPECT` (wider than tall), so 16
tables are 4 x 4 on a landscape screen and 2 x 8 on a portrait one.

>>> page = lobby_layout((1920, 1080), 16)
>>> (page.cols, page.rows), page.tiles[0].width > page.tiles[0].height
((4, 4), True)
>>> lobby_layout((1080, 1920), 16).cols
2
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

from scoreboard.screen.board.layout import Grid

__all__ = ["MIN_SLOTS", "LobbyLayout", "TileLayout", "lobby_layout", "road_grid", "tile_layout"]

TILE_ASPECT = 1.8  # width / height a tile is laid out for
MIN_ASPECT, MAX_ASPECT = 1.5, 2.6  # how far a tile may stray from it to fill the page
MIN_SLOTS = 4  # a page of fewer tables still lays out four tiles (no giant tiles)
HEADER = 0.07  # of the shorter side
FOOTER = 0.045
GAP = 0.006  # of the shorter side
#: The big road of a tile has at least this many columns (an early shoe is not drawn huge).
MIN_ROAD_COLUMNS = 24
MIN_ROAD_CELL = 3  # pixels: below this a mark is no mark; the newest columns show
ROAD_ROWS = 6

# A tile's rows, as fractions of its height (top to bottom); the good roads' row
# under them takes what is left (0.12).
NAME_ROW = 0.21
LIMITS_ROW = 0.21
ROAD_ROW = 0.34
INFO_ROW = 0.12


@dataclass(frozen=True, slots=True)
class LobbyLayout:
    size: tuple[int, int]
    header: pygame.Rect
    footer: pygame.Rect
    cols: int
    rows: int
    tiles: tuple[pygame.Rect, ...]


@dataclass(frozen=True, slots=True)
class TileLayout:
    """The parts of one tile: name and state on top, then limits, road, shoe and counts, roads."""

    rect: pygame.Rect
    name: pygame.Rect
    state: pygame.Rect
    limits: pygame.Rect
    road: pygame.Rect
    info: pygame.Rect
    good: pygame.Rect
    pad: int


def grid_shape(count: int, area: tuple[int, int]) -> tuple[int, int]:
    """``(cols, rows)`` for ``count`` tiles in ``area``: the largest tiles near the aspect.

    >>> grid_shape(48, (1920, 980)), grid_shape(4, (1920, 980)), grid_shape(48, (1080, 1800))
    ((7, 7), (2, 2), (4, 12))
    """
    width, height = area
    best: tuple[float, int, int] = (-1.0, 1, count)
    for cols in range(1, count + 1):
        rows = math.ceil(count / cols)
        tile_w, tile_h = width / cols, height / rows
        scale = min(tile_w / TILE_ASPECT, tile_h)  # the height of the largest tile of the aspect
        if scale > best[0] + 1e-9:
            best = (scale, cols, rows)
    return best[1], best[2]


def lobby_layout(size: tuple[int, int], count: int) -> LobbyLayout:
    """The page for ``count`` tiles (at least :data:`MIN_SLOTS` laid out) on a ``size`` screen."""
    width, height = size
    gap = max(2, round(GAP * min(size)))
    unit = min(size)  # bands as tall on a portrait wall as on a landscape one
    header = pygame.Rect(0, 0, width, round(HEADER * unit))
    footer = pygame.Rect(0, height - round(FOOTER * unit), width, round(FOOTER * unit))
    area = pygame.Rect(
        gap, header.bottom + gap, width - 2 * gap, footer.top - header.bottom - 2 * gap
    )
    slots = max(MIN_SLOTS, count)
    cols, rows = grid_shape(slots, area.size)
    tile_w = (area.width - (cols - 1) * gap) / cols
    tile_h = (area.height - (rows - 1) * gap) / rows
    # Never much taller or wider than the aspect: a few tiles on a portrait wall stay
    # tiles (their text sized for them), the grid centred in the room left.
    tile_h = min(tile_h, tile_w / MIN_ASPECT)
    tile_w = min(tile_w, tile_h * MAX_ASPECT)
    used_w = cols * tile_w + (cols - 1) * gap
    used_h = rows * tile_h + (rows - 1) * gap
    area = pygame.Rect(
        area.x + round((area.width - used_w) / 2),
        area.y + round((area.height - used_h) / 2),
        round(used_w),
        round(used_h),
    )
    tiles = []
    for index in range(slots):
        row, col = divmod(index, cols)
        left = area.x + round(col * (tile_w + gap))
        top = area.y + round(row * (tile_h + gap))
        right = area.x + round(col * (tile_w + gap) + tile_w)
        bottom = area.y + round(row * (tile_h + gap) + tile_h)
        tiles.append(pygame.Rect(left, top, right - left, bottom - top))
    return LobbyLayout(size, header, footer, cols, rows, tuple(tiles))


def tile_layout(rect: pygame.Rect) -> TileLayout:
    """The parts of the tile in ``rect``."""
    pad = max(2, round(min(rect.width, rect.height) * 0.04))
    inner = rect.inflate(-2 * pad, -2 * pad)
    heights = [round(f * inner.height) for f in (NAME_ROW, LIMITS_ROW, ROAD_ROW, INFO_ROW)]
    heights.append(inner.height - sum(heights))
    rows: list[pygame.Rect] = []
    top = inner.top
    for h in heights:
        rows.append(pygame.Rect(inner.left, top, inner.width, h))
        top += h
    name_row = rows[0]
    state_w = round(name_row.width * 0.36)
    name = pygame.Rect(name_row.left, name_row.top, name_row.width - state_w - pad, name_row.height)
    state = pygame.Rect(name_row.right - state_w, name_row.top, state_w, name_row.height)
    road = rows[2].inflate(0, -max(2, pad // 2))
    return TileLayout(rect, name, state, rows[1], road, rows[3], rows[4], pad)


def road_grid(area: pygame.Rect, columns: int) -> Grid:
    """The whole shoe's big road in ``area``: square cells, at least :data:`MIN_ROAD_COLUMNS`.

    Cells never go below :data:`MIN_ROAD_CELL` pixels: a road longer than the
    area holds at that size (a marathon demo shoe) gets the columns that fit, and
    the tile shows its newest ones; the grid never runs past ``area``.

    >>> grid = road_grid(pygame.Rect(0, 0, 240, 60), 10)
    >>> grid.cols, grid.rect.height
    (24, 60)
    >>> road_grid(pygame.Rect(0, 0, 240, 60), 60).rect.height < 60
    True
    >>> road_grid(pygame.Rect(0, 0, 240, 60), 900).rect.width <= 240
    True
    """
    cols = max(MIN_ROAD_COLUMNS, min(columns, max(1, area.width // MIN_ROAD_CELL)))
    cell = max(1, min(area.height // ROAD_ROWS, area.width // cols))
    cols = max(cols, area.width // cell)  # fill the width with paper
    rect = pygame.Rect(area.x, area.y, cell * cols, cell * ROAD_ROWS)
    return Grid(rect, ROAD_ROWS, cols)
