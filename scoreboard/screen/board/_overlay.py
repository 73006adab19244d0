"""What is drawn over the panels: the :class:`Overlay` protocol, the signage helpers
(contrast, text by cap height, raised plates) and the shuffle screen.

The winner banner (:mod:`scoreboard.screen.board._banner`) and the shuffle screen are
signage to be read from the seats, so their sizes are set by cap
height (the height of a capital or a digit) as a fraction of the shorter
screen side: numbers at least :data:`NUMBER_CAP`, labels at least
:data:`LABEL_CAP`, nothing below :data:`SMALLEST_CAP`.  A text too wide for its
box shrinks, never below its floor.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Protocol

import pygame

from scoreboard.screen.board.layout import ScreenLayout
from scoreboard.screen.board.panels import DrawnText, PanelPainter, aligned
from scoreboard.screen.theme.values import RGB, Colors
from scoreboard.table.state import TableState

NUMBER_CAP = 0.03
"""Numbers a player reads are at least this tall (cap height, of the shorter screen side)."""
LABEL_CAP = 0.018
"""Labels are at least this tall."""
SMALLEST_CAP = 0.015
"""Nothing drawn here is smaller."""


class Overlay(Protocol):
    """Something drawn over the panels for a while; the renderer composites it."""

    def area(self, now: float) -> pygame.Rect | None:
        """Where it draws at ``now``; None while hidden."""

    def version(self, now: float) -> Hashable:
        """Changes whenever its look changes (and only then)."""

    def draw(self, surface: pygame.Surface, now: float) -> None:
        """Draw it as it looks at ``now`` (nothing while hidden)."""


# -- colour -----------------------------------------------------------------------------
def relative_luminance(color: RGB) -> float:
    """WCAG relative luminance, 0 (black) to 1 (white).

    >>> relative_luminance((0, 0, 0)), relative_luminance((255, 255, 255))
    (0.0, 1.0)
    """

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in color)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio, 1 to 21.

    >>> round(contrast_ratio((255, 255, 255), (0, 0, 0)))
    21
    """
    high, low = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


LARGE_TEXT_CONTRAST = 3.0
"""WCAG AA for large text: every text drawn here is large."""


def ink_on(colors: Colors, fill: RGB) -> RGB:
    """The text colour for ``fill``: the theme's bead text if it contrasts, else another.

    >>> ink_on(Colors(), (255, 255, 255)) == Colors().header_background
    True
    """
    choices = (colors.bead_text, colors.header_text, colors.header_background, colors.text)
    for ink in choices:
        if contrast_ratio(ink, fill) >= LARGE_TEXT_CONTRAST:
            return ink
    return max(choices, key=lambda ink: contrast_ratio(ink, fill))


def shade(color: RGB, toward: RGB, amount: float) -> RGB:
    """``color`` moved ``amount`` of the way towards ``toward``.

    >>> shade((0, 0, 0), (200, 100, 50), 0.5)
    (100, 50, 25)
    """
    mixed = (round(a + (b - a) * amount) for a, b in zip(color, toward, strict=True))
    return tuple(mixed)  # type: ignore[return-value]


WHITE, BLACK = (255, 255, 255), (0, 0, 0)


# -- text by cap height ------------------------------------------------------------------
def cap_ratio(p: PanelPainter, *, bold: bool) -> float:
    """A capital's height per unit of font size in the theme's font."""
    cap = p.text.cap_height(200, bold=bold)  # 0: the font has no "H"
    return 0.7 if cap == 0 else max(0.3, cap / 200)


def size_for_cap(p: PanelPainter, cap: float, *, bold: bool) -> int:
    """The smallest font size whose capitals are at least ``cap`` pixels tall."""
    return max(6, -int(-cap // cap_ratio(p, bold=bold)))


def put_cap(
    p: PanelPainter,
    surface: pygame.Surface,
    text: str,
    box: pygame.Rect,
    color: RGB,
    caps: tuple[float, float],
    *,
    bold: bool = False,
    align: str = "center",
) -> DrawnText:
    """``text`` with capitals ``caps[0]`` px tall (shrunk to fit ``box``, never below ``caps[1]``).

    The capitals are centred in ``box``, so texts of one size share a baseline.
    """
    shown = p.text.drawable(text, bold=bold)
    size = size_for_cap(p, caps[0], bold=bold)
    width = p.text.width(shown, size, bold=bold)
    if width > box.width:
        size = max(size_for_cap(p, caps[1], bold=bold), int(size * box.width / width))
    rendered = p.text.render(shown, size, color, bold=bold)
    cap = cap_ratio(p, bold=bold) * size
    ascent = p.text.ascent(size, bold=bold)
    where = rendered.get_rect(top=round(box.centery + cap / 2 - ascent))
    aligned(where, box, align)
    surface.blit(rendered, where)
    return DrawnText(shown, where, size, color, bold)


def plate(
    surface: pygame.Surface,
    rect: pygame.Rect,
    fill: RGB,
    edge: RGB,
    *,
    radius: int,
    line: int,
    shadow: int = 0,
    light: float = 0.14,
) -> None:
    """A raised sign: a soft shadow below, ``fill`` lit from above by ``light``, an ``edge``."""
    for step in range(3 if shadow else 0):  # a soft edge: three fainter, wider layers
        spread = round(shadow * (3 - step) / 3)
        dark = pygame.Surface(rect.inflate(spread * 2, spread * 2).size, pygame.SRCALPHA)
        pygame.draw.rect(dark, (0, 0, 0, 28), dark.get_rect(), border_radius=radius + spread)
        surface.blit(dark, dark.get_rect(center=(rect.centerx, rect.centery + shadow)))
    sign = pygame.transform.scale(light_column(rect.height, fill, light), rect.size)
    outline = pygame.Surface(rect.size, pygame.SRCALPHA)
    pygame.draw.rect(outline, (255, 255, 255, 255), outline.get_rect(), border_radius=radius)
    sign.blit(outline, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
    surface.blit(sign, rect)
    if line:
        pygame.draw.rect(surface, edge, rect, line, border_radius=radius)


@functools.lru_cache(maxsize=16)
def light_column(height: int, fill: RGB, light: float) -> pygame.Surface:
    """One pixel's width of a plate's fill lit from above: each row one colour, so the
    plate is this column stretched (a banner is painted anew for every coup).

    >>> column = light_column(3, (100, 100, 100), 0.5)
    >>> [tuple(column.get_at((0, y)))[:3] for y in range(3)]
    [(178, 178, 178), (114, 114, 114), (50, 50, 50)]
    """
    column = pygame.Surface((1, max(1, height)), pygame.SRCALPHA)
    top, bottom = shade(fill, WHITE, light), shade(fill, BLACK, light)
    last = max(1, height - 1)
    for y in range(height):
        pygame.draw.line(column, shade(top, bottom, y / last), (0, y), (1, y))
    return column


def banner_anchor(layout: ScreenLayout) -> pygame.Rect:
    """Where the banner centres: the big road, or the board under the header."""
    panel = layout.panels.get("big_road")
    if panel is not None:
        return pygame.Rect(panel.rect)
    return board_area(layout)


def board_area(layout: ScreenLayout) -> pygame.Rect:
    """The board under the header and above the footer (the disclaimer stays visible)."""
    width, height = layout.size
    header, footer = layout.panels.get("header"), layout.panels.get("footer")
    top = header.rect.bottom if header is not None else 0
    bottom = footer.rect.top if footer is not None and footer.rect.top > top else height
    return pygame.Rect(0, top, width, max(1, bottom - top))


# -- the shuffle screen ------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ShownText:
    """A text of the shuffle screen: its role (``title``, ``number``, ``label``), how it
    was drawn and the box it had to stay in."""

    role: str
    drawn: DrawnText
    box: pygame.Rect


@dataclass(frozen=True, slots=True)
class ShuffleView:
    """What the shuffle screen covered and every text it drew."""

    rect: pygame.Rect
    texts: tuple[ShownText, ...]


def draw_shuffle_screen(p: PanelPainter, surface: pygame.Surface, table: TableState) -> pygame.Rect:
    """The board under the header while the next shoe is prepared; the rectangle covered."""
    return shuffle_screen(p, surface, table).rect


def shuffle_screen(p: PanelPainter, surface: pygame.Surface, table: TableState) -> ShuffleView:
    """ "Shuffling" and the finished shoe's summary over the whole board under the header.

    The summary is what the shoe's players remember: its number and games, the
    Banker, Player and Tie wins with their shares, pairs, naturals, the longest
    streaks and the variant's counters; then the table's minimum and maximum bet
    (when known), for whoever sits down during the shuffle.  The footer's
    disclaimer stays visible.
    """
    layout, colors = p.layout, p.colors
    area = board_area(layout)
    pygame.draw.rect(surface, colors.background, area)
    margin = layout.px(0.014)
    card = area.inflate(-2 * margin, -2 * margin)
    inside = layout.px(0.03)
    plate(
        surface, card, colors.panel, colors.accent, radius=layout.radius * 2, line=layout.px(0.003)
    )
    screen = _ShuffleScreen(p, surface)
    screen.lay_out(card.inflate(-2 * inside, -2 * inside), table)
    return ShuffleView(area, tuple(screen.texts))


class _ShuffleScreen:
    """Lays the shuffle screen out top to bottom: title, summary heading, tiles, counters."""

    def __init__(self, p: PanelPainter, surface: pygame.Surface) -> None:
        self.p, self.surface = p, surface
        self.unit = p.layout.unit
        self.texts: list[ShownText] = []

    def text(
        self, role: str, text: str, box: pygame.Rect, color: RGB, cap: float, **options: object
    ) -> None:
        floor = {"number": NUMBER_CAP, "label": LABEL_CAP}.get(role, SMALLEST_CAP) * self.unit
        bold = bool(options.get("bold", False))
        align = str(options.get("align", "center"))
        caps = (max(cap, floor), floor)
        drawn = put_cap(self.p, self.surface, text, box, color, caps, bold=bold, align=align)
        self.texts.append(ShownText(role, drawn, box))

    def lay_out(self, box: pygame.Rect, table: TableState) -> None:
        """The blocks stacked and centred, all scaled to the room (a tall screen: larger)."""
        p, unit = self.p, self.unit
        stats = self.counters(table)
        most = 5 if box.width >= 1.2 * unit else 3
        rows = -(-len(stats) // most)
        columns = -(-len(stats) // rows)
        # title, note, heading, tiles, one row of counters, gap: fractions of the shorter side
        base = (0.11, 0.055, 0.065, 0.31, 0.125, 0.025)
        need = sum(base[:4]) + rows * base[4] + 3 * base[5]
        scale = max(0.7, min(1.7, box.height / (need * unit)))
        title_h, note_h, head_h, tiles_h, stat_h, gap = (round(unit * f * scale) for f in base)
        used = title_h + note_h + head_h + tiles_h + rows * stat_h + 3 * gap
        y = box.y + max(0, (box.height - used) // 2)
        colors = p.colors
        self.text("title", p.words("shuffling", "  ·  "), self.row(box, y, title_h),
                  colors.accent, title_h * 0.58, bold=True)  # fmt: skip
        y += title_h
        self.text("label", p.words("shuffle_note", "  ·  "), self.row(box, y, note_h),
                  colors.muted, note_h * 0.43)  # fmt: skip
        y += note_h + gap
        self.heading(self.row(box, y, head_h), table)
        y += head_h + gap
        self.tiles(self.row(box, y, tiles_h), table)
        y += tiles_h + gap
        self.counter_grid(pygame.Rect(box.x, y, box.width, rows * stat_h), stats, columns)

    @staticmethod
    def row(box: pygame.Rect, y: int, height: int) -> pygame.Rect:
        return pygame.Rect(box.x, y, box.width, height)

    def heading(self, row: pygame.Rect, table: TableState) -> None:
        """ "Shoe summary" with the shoe's number and games, between two accent rules."""
        p = self.p
        shoe = str(table.shoe_number) if table.shoe_number else "–"
        text = f"{p.words('shoe_summary', '  ·  ')}   —   {p.words('shoe')} {shoe}"
        self.text("label", text, row.inflate(-row.width // 6, 0), p.colors.title, row.height * 0.43)
        drawn = self.texts[-1].drawn.rect
        y = row.centery
        line = p.layout.px(0.002)
        pad = self.unit * 0.02
        for start, end in ((row.x, drawn.left - pad), (drawn.right + pad, row.right)):
            if end > start:
                pygame.draw.line(self.surface, p.colors.accent, (start, y), (end, y), line)

    def tiles(self, row: pygame.Rect, table: TableState) -> None:
        """Banker, Player and Tie: big counts on the sides' colours, with their shares."""
        p, colors, counts = self.p, self.p.colors, table.roads.counts
        gap = round(self.unit * 0.02)
        width = min((row.width - 2 * gap) // 3, round(row.height * 1.45))
        x = row.centerx - (3 * width + 2 * gap) // 2
        sides = (("banker", colors.banker), ("player", colors.player), ("tie", colors.tie))
        for key, fill in sides:
            tile = pygame.Rect(x, row.y, width, row.height)
            plate(self.surface, tile, fill, fill, radius=p.layout.radius * 2, line=0)
            ink = ink_on(colors, fill)
            inner = tile.inflate(-gap, 0)
            name_h, count_h = round(tile.height * 0.26), round(tile.height * 0.46)
            name = pygame.Rect(inner.x, tile.y + round(tile.height * 0.03), inner.width, name_h)
            count = pygame.Rect(inner.x, name.bottom, inner.width, count_h)
            share = pygame.Rect(inner.x, count.bottom, inner.width, tile.bottom - count.bottom)
            self.text("label", p.words(key), name, ink, name_h * 0.45, bold=True)
            self.text("number", str(getattr(counts, key)), count, ink, count_h * 0.62, bold=True)
            self.text("number", f"{counts.percent(key):.1f}%", share, ink, share.height * 0.42)
            x += width + gap

    def counters(self, table: TableState) -> list[tuple[str, str, RGB]]:
        """(label, value, colour) of the finished shoe's other counters."""
        p, colors, counts = self.p, self.p.colors, table.roads.counts
        letters = p.theme.roads.letters
        streaks = table.roads.streaks
        longest = (
            f"{letters['banker']} {streaks.longest_banker} · "
            f"{letters['player']} {streaks.longest_player}"
        )
        stats = [
            (p.words("games"), str(counts.games), colors.text),
            (p.words("banker_pair"), str(counts.banker_pairs), colors.banker),
            (p.words("player_pair"), str(counts.player_pairs), colors.player),
            (p.words("natural"), str(counts.naturals), colors.accent),
            (p.words("longest"), longest, colors.text),
        ]
        for name in table.variant.counters:
            stats.append((p.words(name), str(getattr(counts, name)), colors.accent))
        return stats + self.limits(table)

    def limits(self, table: TableState) -> list[tuple[str, str, RGB]]:
        """The minimum and maximum bet, when known: new players sit down during the shuffle."""
        bets = table.limits.bets
        main = [bets[name] for name in ("player", "banker") if name in bets] or list(bets.values())
        if not main:
            return []
        p = self.p
        low, high = min(m for m, _ in main), max(m for _, m in main)
        return [
            (p.words("min_bet"), f"{low:,}", p.colors.accent),
            (p.words("max_bet"), f"{high:,}", p.colors.text),
        ]

    def counter_grid(
        self, area: pygame.Rect, stats: list[tuple[str, str, RGB]], columns: int
    ) -> None:
        """Each counter as a label over its value, ``columns`` to a row, rows centred."""
        p = self.p
        gap = round(self.unit * 0.016)
        rows = -(-len(stats) // columns)
        cell_h = area.height // rows
        for row in range(rows):
            chunk = stats[row * columns : (row + 1) * columns]
            width = (area.width - (columns - 1) * gap) // columns
            x = area.centerx - (len(chunk) * width + (len(chunk) - 1) * gap) // 2
            for label, value, color in chunk:
                cell = pygame.Rect(x, area.y + row * cell_h, width, cell_h - gap // 2)
                pygame.draw.rect(self.surface, p.colors.background, cell,
                                 border_radius=p.layout.radius)  # fmt: skip
                inner = cell.inflate(-gap, 0)
                top = pygame.Rect(inner.x, cell.y, inner.width, round(cell.height * 0.4))
                low = pygame.Rect(inner.x, top.bottom, inner.width, cell.bottom - top.bottom)
                self.text("label", label, top, p.colors.muted, top.height * 0.42)
                self.text("number", value, low, color, low.height * 0.5, bold=True)
                x += width + gap
