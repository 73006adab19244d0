"""The statistics panel: Banker, Player and Tie tiles over the labelled counts.

Functions of a :class:`~scoreboard.render.panels.PanelPainter`, which returns
their :class:`~scoreboard.render.panels.PanelView` from ``counters``.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from scoreboard.core.roads import Counts
from scoreboard.core.table import TableState
from scoreboard.render.canvas import draw_rect
from scoreboard.render.marks import SIDE_KEY
from scoreboard.render.panels import DrawnText, Entry, PanelPainter, PanelView
from scoreboard.theme import RGB


def draw_counters(p: PanelPainter, surface: pygame.Surface, table: TableState) -> PanelView:
    """Banker, Player and Tie tiles over two columns of labelled counts."""
    body = p.layout.panels["counters"].body
    gap = p.layout.px(0.006)
    tiles_h = round(body.height * 0.46)
    entries = tiles(p, surface, table.roads.counts, body, tiles_h, gap)
    area = pygame.Rect(body.x, body.y + tiles_h + 2 * gap, body.width, 0)
    area.height = body.bottom - area.y
    entries += count_rows(p, surface, counted(p, table), area, gap)
    return PanelView(tuple(entries))


def tiles(
    p: PanelPainter,
    surface: pygame.Surface,
    counts: Counts,
    body: pygame.Rect,
    tiles_h: int,
    gap: int,
) -> list[Entry]:
    colors = p.colors
    tile_w = (body.width - 2 * gap) / 3
    sides = (
        ("banker", counts.banker, colors.banker),
        ("player", counts.player, colors.player),
        ("tie", counts.tie, colors.tie),
    )
    entries = []
    for i, (key, count, color) in enumerate(sides):
        tile = pygame.Rect(round(body.x + i * (tile_w + gap)), body.y + gap, round(tile_w), tiles_h)
        draw_rect(surface, color, tile, border_radius=p.layout.radius)
        name_box = pygame.Rect(tile.x, tile.y, tile.width, round(tile.height * 0.3))
        name = p.put(
            surface,
            tile_name(p, key, name_box.inflate(-gap * 2, -gap).width),
            name_box.inflate(-gap * 2, -gap),
            colors.bead_text,
            bold=True,
            align="center",
            role="label",
        )
        count_box = pygame.Rect(tile.x, name_box.bottom, tile.width, round(tile.height * 0.44))
        shown = p.put(
            surface,
            str(count),
            count_box,
            colors.bead_text,
            bold=True,
            align="center",
            role="number",
        )
        entries.append(Entry(key, name, shown))
        pct_box = pygame.Rect(tile.x, count_box.bottom, tile.width, tile.bottom - count_box.bottom)
        pct = f"{counts.percent(key):.1f}%"
        p.put(
            surface,
            pct,
            pct_box.inflate(0, -gap),
            colors.bead_text,
            align="center",
            role="label",
        )
    return entries


def tile_name(p: PanelPainter, key: str, width: int) -> str:
    """A tile's name: every language, else the primary, else the side's letter (never cut)."""
    size = p.min_size("label", bold=True)
    for name in (p.words(key), p.theme.label(key)[0]):
        if p.text.width(name, size, bold=True) <= width:
            return name
    return p.theme.roads.letters[key]


def counted(p: PanelPainter, table: TableState) -> list[tuple[str, str, RGB]]:
    """The labelled counts under the tiles: (label key, value, value colour)."""
    counts, colors = table.roads.counts, p.colors
    rows: list[tuple[str, str, RGB]] = [
        ("banker_pair", str(counts.banker_pairs), colors.banker),
        ("player_pair", str(counts.player_pairs), colors.player),
        ("natural", naturals(p, counts), colors.accent),
        ("games", str(counts.games), colors.text),
    ]
    for name in table.variant.counters:
        rows.append((name, str(getattr(counts, name)), colors.accent))
    streaks = table.roads.streaks
    letters = p.theme.roads.letters
    side = streaks.current_side
    current = "–"
    if side is not None:
        letter = letters[SIDE_KEY[side]]
        current = f"{letter} × {streaks.current_length}"
    longest = (
        f"{letters['banker']} {streaks.longest_banker} · {letters['player']} "
        f"{streaks.longest_player}"
    )
    rows.append(("streak", current, colors.text))
    rows.append(("longest", longest, colors.text))
    return rows


def count_rows(
    p: PanelPainter,
    surface: pygame.Surface,
    rows: list[tuple[str, str, RGB]],
    area: pygame.Rect,
    gap: int,
) -> list[Entry]:
    """Two columns of label (left) and value (right), one font size for all.

    One column instead when two would cut the labels and one has the height.
    """
    cols = 2 if rows_fit(p, rows, area, gap, 2) or not rows_fit(p, rows, area, gap, 1) else 1
    per_col = (len(rows) + cols - 1) // cols
    row_h = area.height / per_col
    col_w = (area.width - 2 * gap * (cols - 1)) / cols
    size = max(row_size(p, rows, row_h * 0.6, col_w - 2 * gap), p.min_size("label"))
    entries = []
    for index, (key, value, color) in enumerate(rows):
        col, row = divmod(index, per_col)
        cell = pygame.Rect(
            round(area.x + col * (col_w + 2 * gap)),
            round(area.y + row * row_h),
            round(col_w),
            round(row_h),
        )
        bold = DrawnText(value, cell, size, color, bold=True, role="label")
        shown = p.blit_text(surface, bold, "midright", cell.midright)
        room = shown.rect.left - cell.left - gap
        label = p.label_text(key, size, room)
        muted = DrawnText(label, cell, size, p.colors.muted, role="label")
        entries.append(Entry(key, p.blit_text(surface, muted, "midleft", cell.midleft), shown))
    return entries


def rows_fit(
    p: PanelPainter, rows: Sequence[tuple[str, str, RGB]], area: pygame.Rect, gap: int, cols: int
) -> bool:
    """Whether ``cols`` columns hold every row at the label floor, uncut and tall enough."""
    size = p.min_size("label")
    per_col = (len(rows) + cols - 1) // cols
    if area.height / per_col < 1.5 * p.text.cap_height(size):
        return False
    room = (area.width - 2 * gap * (cols - 1)) / cols - gap
    measure = p.text.width
    return all(
        measure(p.theme.label(key)[0], size) + measure(value, size, bold=True) <= room
        for key, value, _ in rows
    )


def row_size(
    p: PanelPainter, rows: Sequence[tuple[str, str, RGB]], height: float, room: float
) -> int:
    """The largest font size at which every label and its value fit side by side."""
    if room <= 0:
        return 6  # no room at all: the smallest size
    measure = p.text.width
    return p.text.size_to_fit(
        height,
        room,
        lambda size: max(
            measure(p.words(key), size) + measure(value, size, bold=True) for key, value, _ in rows
        ),
    )


def naturals(p: PanelPainter, counts: Counts) -> str:
    if not p.theme.style.split_naturals:
        return str(counts.naturals)
    letters = p.theme.roads.letters
    return (
        f"{letters['banker']} {counts.banker_naturals} · "
        f"{letters['player']} {counts.player_naturals}"
    )
