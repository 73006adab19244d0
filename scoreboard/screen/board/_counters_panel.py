"""The statistics panel: Banker, Player and Tie tiles over the labelled counts.

Functions of a :class:`~scoreboard.screen.board.panels.PanelPainter`, which returns
their :class:`~scoreboard.screen.board.panels.PanelView` from ``counters``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from scoreboard.game.limits import Limits
from scoreboard.roads.stats import Counts, Streaks, bet_count
from scoreboard.screen.board._small_panels import FrameInput, SmallPanel, Timing
from scoreboard.screen.board.canvas import Recorder, draw_rect
from scoreboard.screen.board.marks import SIDE_KEY
from scoreboard.screen.board.panels import DrawnText, Entry, PanelPainter, PanelView
from scoreboard.screen.theme.values import RGB
from scoreboard.table.state import TableState


def draw_counters(p: PanelPainter, surface: pygame.Surface, table: TableState) -> PanelView:
    """The counters panel for this table (see :func:`paint_counters`)."""
    return paint_counters(p, surface, counters_shows(table))


@dataclass(frozen=True, slots=True)
class CountersShows:
    """Everything the counters panel draws besides the theme: its change key.

    The shoe's counts and streaks, the variant's own counters and the limits
    (which side bets the table offers, in their order).
    """

    counts: Counts
    streaks: Streaks
    counters: tuple[str, ...]
    limits: Limits


def counters_shows(table: TableState) -> CountersShows:
    """What the counters panel shows for this table."""
    roads = table.roads
    return CountersShows(roads.counts, roads.streaks, table.variant.counters, table.limits)


def read_counters(_p: PanelPainter, given: FrameInput) -> CountersShows:
    """The counters' reading of one update: the table only."""
    return counters_shows(given.table)


def paint_counters(p: PanelPainter, surface: pygame.Surface, shows: CountersShows) -> PanelView:
    """Banker, Player and Tie tiles over two columns of labelled counts.

    The tiles' faces (colour and name) are in the static layer
    (:func:`draw_tile_faces`): a coup redraws the numbers on them, not the tiles.
    """
    body, tiles_h, gap = counters_body(p)
    entries = tiles(p, surface, shows.counts, body, tiles_h, gap)
    area = pygame.Rect(body.x, body.y + tiles_h + 2 * gap, body.width, 0)
    area.height = body.bottom - area.y
    entries += count_rows(p, surface, counted(p, shows), area, gap)
    return PanelView(tuple(entries))


def counters_body(p: PanelPainter) -> tuple[pygame.Rect, int, int]:
    """The panel's body, the tiles' height and the gap between tiles."""
    body = p.layout.panels["counters"].body
    return body, round(body.height * 0.46), p.layout.px(0.006)


def draw_tile_faces(p: PanelPainter, surface: pygame.Surface) -> None:
    """The three tiles' colours and names, once, into the static layer."""
    body, tiles_h, gap = counters_body(p)
    every = tile_boxes(body, tiles_h, gap)
    size = tile_name_size(p, every)
    for key, color, boxes in zip(SIDES, side_colors(p), every, strict=True):
        tile, name_box = boxes[:2]
        tile_face(p, surface, key=key, color=color, tile=tile, name_box=name_box, size=size)


SIDES = ("banker", "player", "tie")


def side_colors(p: PanelPainter) -> tuple[RGB, RGB, RGB]:
    return p.colors.banker, p.colors.player, p.colors.tie


def tiles(
    p: PanelPainter,
    surface: pygame.Surface,
    counts: Counts,
    body: pygame.Rect,
    tiles_h: int,
    gap: int,
) -> list[Entry]:
    """The three tiles' counts and shares (their faces are in the static layer)."""
    colors = p.colors
    boxes = p.laid_out(
        ("counter tiles", tuple(body), tiles_h, gap), lambda: tile_boxes(body, tiles_h, gap)
    )
    values = (counts.banker, counts.player, counts.tie)
    size = p.laid_out(
        ("counter tile names", tuple(body), tiles_h, gap), lambda: tile_name_size(p, boxes)
    )
    entries = []
    for key, count, color, (tile, name_box, count_box, pct_box) in zip(
        SIDES, values, side_colors(p), boxes, strict=True
    ):
        face = functools.partial(
            tile_face,
            p,
            Recorder(p.layout.size),
            key=key,
            color=color,
            tile=tile,
            name_box=name_box,
            size=size,
        )
        # Where the name is, worked out once; while texts are logged, as if drawn now.
        name = (
            face()
            if p.log is not None
            else p.laid_out(("counter tile", key, tuple(tile), size), face)
        )
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
        pct = f"{counts.percent(key):.1f}%" if counts.games else "–"  # no share of nothing
        p.put(surface, pct, pct_box, colors.bead_text, align="center", role="label")
    return entries


TileBoxes = tuple[pygame.Rect, pygame.Rect, pygame.Rect, pygame.Rect]
"""A tile, and where its name, count and share go."""


def tile_boxes(body: pygame.Rect, tiles_h: int, gap: int) -> tuple[TileBoxes, ...]:
    """The three tiles across ``body``: (tile, name box, count box, share box) each."""
    tile_w = (body.width - 2 * gap) / 3
    boxes = []
    for i in range(3):
        tile = pygame.Rect(round(body.x + i * (tile_w + gap)), body.y + gap, round(tile_w), tiles_h)
        name_box = pygame.Rect(tile.x, tile.y, tile.width, round(tile.height * 0.3))
        count_box = pygame.Rect(tile.x, name_box.bottom, tile.width, round(tile.height * 0.44))
        pct_box = pygame.Rect(tile.x, count_box.bottom, tile.width, tile.bottom - count_box.bottom)
        boxes.append((tile, name_box.inflate(-gap * 2, -gap), count_box, pct_box.inflate(0, -gap)))
    return tuple(boxes)


def tile_face(
    p: PanelPainter,
    surface: pygame.Surface,
    key: str,
    color: RGB,
    tile: pygame.Rect,
    name_box: pygame.Rect,
    size: int,
) -> DrawnText:
    """A tile's colour and its side's name at ``size``; the name as drawn."""
    draw_rect(surface, color, tile, border_radius=p.layout.radius)
    name = tile_name(p, key, name_box.width)
    (drawn,) = p.put_lines(
        surface, [name], name_box, p.colors.bead_text, size, bold=True, align="center", role="label"
    )
    return drawn


def tile_name_size(p: PanelPainter, boxes: Sequence[TileBoxes]) -> int:
    """One size for the three tiles' names: the largest at which each fits its tile.

    Three sizes side by side read as a mistake (a long "Banker 莊" beside "Tie 和").
    """
    return min(
        p.sized(tile_name(p, key, name_box.width), name_box, bold=True, role="label")[1]
        for key, (_, name_box, _, _) in zip(SIDES, boxes, strict=True)
    )


def tile_name(p: PanelPainter, key: str, width: int) -> str:
    """A tile's name: every language, else the primary, else the side's letter (never cut)."""
    size = p.min_size("label", bold=True)
    for name in (p.words(key), p.names(key)[0]):
        if p.text.width(name, size, bold=True) <= width:
            return name
    return p.theme.roads.letters[key]


def counted(p: PanelPainter, shows: CountersShows) -> list[tuple[str, str, RGB]]:
    """The labelled counts under the tiles: (label key, value, value colour)."""
    counts, colors = shows.counts, p.colors
    rows: list[tuple[str, str, RGB]] = [
        ("banker_pair", str(counts.banker_pairs), colors.banker),
        ("player_pair", str(counts.player_pairs), colors.player),
        ("natural", naturals(p, counts), colors.accent),
        ("games", str(counts.games), colors.text),
    ]
    for name in shows.counters:
        rows.append((name, str(getattr(counts, name)), colors.accent))
    offered = shows.limits.side_bets  # only the side bets this table offers are counted
    for bet in (name for name in shows.limits.order if name in offered):
        rows.append((bet, str(bet_count(counts, offered[bet])), colors.accent))
    streaks = shows.streaks
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
    Both are chosen for values of two digits at least (:func:`reserved`), so the
    panel keeps its shape through a shoe instead of reflowing when a streak
    reaches 10.  The layout is worked out once per set of values, and each row drawn once
    per value and place (:meth:`PanelPainter.part`): a coup redraws the rows
    whose values changed.
    """
    room_for = [(key, reserved(value), color) for key, value, color in rows]
    cells, size = p.laid_out(
        ("count rows", tuple(room_for), tuple(area), gap),
        lambda: row_cells(p, room_for, area, gap),
    )
    return [
        p.part(
            surface,
            ("count row", key, value, color, size, tuple(cell)),
            functools.partial(
                count_row, p, key=key, value=value, color=color, cell=cell, size=size, gap=gap
            ),
        )
        for (key, value, color), cell in zip(rows, cells, strict=True)
    ]


def reserved(value: str) -> str:
    """``value`` with each number widened to two digits at least, all of them 8s (the room
    a count needs later in the shoe).

    >>> reserved("B 9 · P 12"), reserved("0"), reserved("P × 3")
    ('B 88 · P 88', '88', 'P × 88')
    """
    return re.sub(r"\d+", lambda number: "8" * max(2, len(number.group())), value)


def row_cells(
    p: PanelPainter, rows: Sequence[tuple[str, str, RGB]], area: pygame.Rect, gap: int
) -> tuple[tuple[pygame.Rect, ...], int]:
    """Each row's cell, in one or two columns, and the font size they share."""
    cols = 2 if rows_fit(p, rows, area, gap, 2) or not rows_fit(p, rows, area, gap, 1) else 1
    per_col = (len(rows) + cols - 1) // cols
    row_h = area.height / per_col
    usable = area.width - 2 * gap * (cols - 1)
    widths = column_widths(p, rows, area, gap, cols) or (usable / cols,) * cols
    size = max(
        min(
            row_size(p, rows[col * per_col : (col + 1) * per_col], row_h * 0.6, width - 2 * gap)
            for col, width in enumerate(widths)
        ),
        p.min_size("label"),
    )
    # A line of text is drawn as tall as its font's line (a CJK font's is generous): where
    # that is taller than a row, the rows close up so the first and last stay in the area.
    line = p.text.render("Hg", size, p.colors.text).get_height()
    overhang = max(0.0, (line - row_h) / 2)
    if overhang and per_col > 1:
        row_h = (area.height - 2 * overhang) / per_col
    cells = []
    for index in range(len(rows)):
        col, row = divmod(index, per_col)
        cells.append(
            pygame.Rect(
                round(area.x + sum(widths[:col]) + col * 2 * gap),
                round(area.y + overhang + row * row_h),
                round(widths[col]),
                round(row_h),
            )
        )
    return tuple(cells), size


def count_row(
    p: PanelPainter,
    surface: pygame.Surface,
    key: str,
    value: str,
    color: RGB,
    cell: pygame.Rect,
    size: int,
    gap: int,
) -> Entry:
    """One labelled count: the value at the cell's right, its label in the room left of it."""
    bold = DrawnText(value, cell, size, color, bold=True, role="label")
    shown = p.blit_text(surface, bold, "midright", cell.midright)
    room = shown.rect.left - cell.left - 2 * gap  # a label never touches its value
    label = p.label_text(key, size, room)
    muted = DrawnText(label, cell, size, p.colors.muted, role="label")
    return Entry(key, p.blit_text(surface, muted, "midleft", cell.midleft), shown)


def rows_fit(
    p: PanelPainter, rows: Sequence[tuple[str, str, RGB]], area: pygame.Rect, gap: int, cols: int
) -> bool:
    """Whether ``cols`` columns hold every row at the label floor, uncut and tall enough."""
    return column_widths(p, rows, area, gap, cols) is not None


def column_widths(
    p: PanelPainter, rows: Sequence[tuple[str, str, RGB]], area: pygame.Rect, gap: int, cols: int
) -> tuple[float, ...] | None:
    """The widths of ``cols`` columns that hold their rows at the label floor, uncut.

    Equal when equal columns hold them; else each as wide as its widest row plus a
    share of what is left (a column of short counts beside the longest streaks),
    so a few more rows (a table's side bets) never cut "Longest".  None: they do not fit.
    """
    size = p.min_size("label")
    per_col = (len(rows) + cols - 1) // cols
    if area.height / per_col < 1.5 * p.text.cap_height(size):
        return None
    usable = area.width - 2 * gap * (cols - 1)
    measure = p.text.width
    needs = [
        max(
            (
                measure(p.names(key)[0], size) + measure(value, size, bold=True) + gap
                for key, value, _ in rows[col * per_col : (col + 1) * per_col]
            ),
            default=0,
        )
        for col in range(cols)
    ]
    if all(need <= usable / cols for need in needs):
        return (usable / cols,) * cols
    if sum(needs) > usable:
        return None
    extra = (usable - sum(needs)) / cols
    return tuple(need + extra for need in needs)


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


COUNTERS = SmallPanel("counters", read_counters, paint_counters, Timing.LANDED)
"""The counters take a coup with the roads: once its last card has landed."""
