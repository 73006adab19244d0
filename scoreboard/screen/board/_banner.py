"""The winner banner: what it says in the theme's languages, and its plate over the big road.

A casino sign rather than a debug box: the winner's colour lit from above,
the theme's accent rim and corner radius, a soft shadow, the words in a colour
that contrasts (WCAG AA for large text), the score on a chip.  Its text is
:data:`BANNER_CAP` tall when it fits, never below the readable minimum
(:data:`~scoreboard.screen.board._overlay.NUMBER_CAP`).
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

import pygame

from scoreboard.game.rules import Coup, Winner, result_coup
from scoreboard.screen.board._overlay import (
    BLACK,
    NUMBER_CAP,
    banner_anchor,
    cap_ratio,
    ink_on,
    plate,
    put_cap,
    relative_luminance,
    shade,
    size_for_cap,
)
from scoreboard.screen.board.layout import ScreenLayout
from scoreboard.screen.board.panels import DrawnText, PanelPainter
from scoreboard.screen.theme.values import RGB, Theme
from scoreboard.table.state import TableState

BANNER_CAP = 0.06
"""The winner banner's text (cap height, of the shorter screen side) when it fits."""

SIDE_KEYS = {Winner.BANKER: "banker", Winner.PLAYER: "player", Winner.TIE: "tie"}


@dataclass(frozen=True, slots=True)
class BannerLook:
    """What the winner banner says: who won, in each shown language, and the score."""

    winner: Winner
    words: tuple[str, ...]
    score: str | None
    placed: int = 0  # the game whose arrival placed the banner: a new one finds a new place

    @property
    def text(self) -> str:
        """The banner as one line: ``"BANKER WINS 7 – 5  莊贏"``."""
        first = self.words[0] if self.score is None else f"{self.words[0]} {self.score}"
        return "  ".join((first, *self.words[1:]))


def join_words(first: str, second: str) -> str:
    """Two words as their language writes them: a space, none between two ideographs.

    >>> join_words("BANKER", "WINS"), join_words("莊", "贏")
    ('BANKER WINS', '莊贏')
    """
    wide = ("W", "F")
    close = first and second and unicodedata.east_asian_width(first[-1]) in wide
    if close and unicodedata.east_asian_width(second[0]) in wide:
        return first + second
    return f"{first} {second}"


def winner_total_first(coup: Coup) -> str | None:
    """The score as a caller reads it, the winner's total first: ``"7 – 5"``; None if unknown.

    >>> from scoreboard.game.rules import result_coup
    >>> winner_total_first(result_coup(Winner.PLAYER, player_total=8, banker_total=3))
    '8 – 3'
    >>> winner_total_first(result_coup(Winner.BANKER)) is None
    True
    """
    player, banker = coup.player_total, coup.banker_total
    if player is None or banker is None:
        return None
    first, second = (player, banker) if coup.winner is Winner.PLAYER else (banker, player)
    return f"{first} – {second}"


def banner_look(theme: Theme, coup: Coup) -> BannerLook:
    """The banner for ``coup`` in the theme's languages (labels ``wins``, ``tie_result``)."""
    if coup.winner is Winner.TIE:
        words = theme.label("tie_result")
    else:
        side, wins = theme.label(SIDE_KEYS[coup.winner]), theme.label("wins")
        words = tuple(join_words(s, w) for s, w in zip(side, wins, strict=True))
    shown = tuple(dict.fromkeys(word.upper() for word in words))
    return BannerLook(coup.winner, shown, winner_total_first(coup))


@dataclass(frozen=True, slots=True)
class PaintedBanner:
    """One look of the banner, painted: the plate, the rectangle it touches, its texts."""

    plate: pygame.Rect
    rect: pygame.Rect
    image: pygame.Surface
    drawn: tuple[DrawnText, ...]


def newest_big_road_cell(
    table: TableState, layout: ScreenLayout, empty_columns: int
) -> pygame.Rect | None:
    """Where the big road's newest cell is drawn, as far as the table alone tells.

    Exact while the road fits its grid and nothing scrolls; once it overflows,
    the last ``empty_columns + 2`` columns, where a scrolled road keeps its
    newest.  The renderer knows better (a joint scroll) and can say so (see
    :class:`~scoreboard.screen.board._motion.Motion`'s ``newest``).  None without a
    big road grid or a cell on it.
    """
    grid = layout.grids.get("big_road")
    cells = table.roads.big_road
    if grid is None or not cells:
        return None
    if max(cell.col for cell in cells) < grid.cols:
        return grid.cell(cells[-1].col, 0)
    first = grid.cell(max(0, grid.cols - 2 - max(0, empty_columns)), 0)
    return first.union(grid.cell(grid.cols - 1, 0))


def beside(newest: pygame.Rect, road: pygame.Rect, gap: int) -> tuple[tuple[int, int], ...]:
    """The stretches (left, right) of ``road`` beside ``newest``: the empty one after it first.

    Covering the road after the newest cell hides nothing; the banner stays in
    one of them, so the cell being drawn in stays in sight.

    >>> beside(pygame.Rect(300, 0, 20, 20), pygame.Rect(0, 0, 1000, 200), 10)
    ((330, 1000), (0, 290))
    """
    return ((newest.right + gap, road.right), (road.left, newest.left - gap))


@functools.lru_cache(maxsize=8)
def plated(
    size: tuple[int, int],
    box: tuple[int, int, int, int],
    fill: RGB,
    edge: RGB,
    radius: int,
    line: int,
    shadow: int,
) -> pygame.Surface:
    """A transparent banner image with its plate (shadow, lit fill, edge) at ``box``.

    Kept: a new coup's banner often has the size of an earlier one, and the
    plate's soft shadow is the costliest part of painting it.  Callers copy it
    before drawing their text on it.
    """
    image = pygame.Surface(size, pygame.SRCALPHA)
    plate(image, pygame.Rect(box), fill, edge, radius=radius, line=line, shadow=shadow)
    return image


Part = tuple[str, bool]
"""A text on a sign, and whether it sits on a chip (the score)."""
Lines = tuple[tuple[Part, ...], ...]


@dataclass(frozen=True, slots=True)
class Placing:
    """One place a sign may go: centred on ``anchor``'s height within ``span`` (left,
    right), holding ``lines`` there.  A sign takes the first placing where its text
    fits at a readable size, else the last."""

    anchor: pygame.Rect
    span: tuple[int, int]
    lines: Lines


class SignPainter:
    """Paints casino signs: a lit plate with a rim and shadow, lines of words on it.

    Shared by the winner banner and the notices
    (:mod:`scoreboard.screen.board._notices`): each says where it may go and what it
    says; this finds the first place where the words fit at a readable size
    (capitals :data:`BANNER_CAP` of the shorter side when they fit, never below
    :data:`~scoreboard.screen.board._overlay.NUMBER_CAP`) and paints it.
    """

    def __init__(self, panels: PanelPainter, layout: ScreenLayout, cap: float = BANNER_CAP) -> None:
        self.panels = panels
        self.layout = layout
        self.cap = cap
        self.shadow = layout.px(0.008)

    def plate_for(self, placing: Placing, lines: int) -> pygame.Rect:
        """The plate for ``lines`` lines, centred in ``placing``'s span."""
        anchor, layout = placing.anchor, self.layout
        height = min(round(layout.unit * self.cap * 2.3 * lines), round(anchor.height * 0.8))
        left, right = placing.span
        inset = round(layout.unit * 0.02)
        width = min(round(anchor.width * 0.84), right - left - 2 * inset)
        plate = pygame.Rect(0, 0, max(1, width), height)
        plate.center = ((left + right) // 2, anchor.centery)
        return plate

    def room(self, placing: Placing) -> int:
        """How wide a line may be on the plate at ``placing``."""
        plate = self.plate_for(placing, len(placing.lines))
        return plate.width - plate.height // 2

    def least_size(self) -> int:
        """The smallest font size a sign's words are drawn at (number-floor capitals)."""
        return size_for_cap(self.panels, self.layout.unit * NUMBER_CAP, bold=True)

    def fit(self, placings: Sequence[Placing]) -> tuple[pygame.Rect, Lines, int]:
        """The plate of the first placing whose lines fit, its lines and their font size."""
        floor = self.least_size()
        for number, placing in enumerate(placings, start=1):
            lines = placing.lines
            plate_box = self.plate_for(placing, len(lines))
            inner = plate_box.inflate(-plate_box.height // 2, -plate_box.height // 4)
            cap = min(self.layout.unit * self.cap, inner.height * 0.5 / len(lines))
            size = min(self._size(line, inner.width, cap, floor) for line in lines)
            needed = max(self._width(line, size) for line in lines)
            if (needed <= inner.width and inner.width > 0) or number == len(placings):
                snug = max(needed + plate_box.height, round(plate_box.height * 2.2))
                plate_box.inflate_ip(min(0, snug - plate_box.width), 0)  # no wider than the text
                return plate_box, lines, size
        raise ValueError("a sign needs at least one placing")

    def paint(self, placings: Sequence[Placing], fill: RGB, edge: RGB) -> PaintedBanner:
        """The sign's image (shadow included) at the first placing where it fits."""
        layout, colors = self.layout, self.panels.colors
        plate_box, lines, size = self.fit(placings)
        rect = plate_box.inflate(self.shadow * 2, self.shadow * 2).move(0, self.shadow)
        rect.union_ip(plate_box)
        box = plate_box.move(-rect.x, -rect.y)
        line, radius = layout.px(0.004), layout.radius * 2
        image = plated(rect.size, tuple(box), fill, edge, radius, line, self.shadow).copy()
        inner = box.inflate(-box.height // 2, -box.height // 4)
        pitch = inner.height // len(lines)
        drawn: list[DrawnText] = []
        for index, parts in enumerate(lines):
            row = pygame.Rect(inner.x, inner.y + index * pitch, inner.width, pitch)
            drawn += self._line(image, parts, row, size, fill, ink_on(colors, fill))
        shown = tuple(
            DrawnText(d.text, d.rect.move(rect.topleft), d.size, d.color, d.bold) for d in drawn
        )
        return PaintedBanner(plate_box, rect, image, shown)

    def _size(self, parts: Sequence[Part], room: int, cap: float, floor: int) -> int:
        """The font size for ``cap``, shrunk to fit ``room`` but not below ``floor``."""
        size = size_for_cap(self.panels, cap, bold=True)
        width = self._width(parts, size)
        if width > room:
            size = max(floor, int(size * room / width))
        return size

    def _width(self, parts: Sequence[Part], size: int) -> int:
        spacing = round(size * 0.6)
        widths = [self.panels.text.width(text, size, bold=True) for text, _ in parts]
        chips = sum(round(size * 0.7) for _, chip in parts if chip)
        return sum(widths) + chips + spacing * (len(parts) - 1)

    def _line(
        self,
        image: pygame.Surface,
        parts: Sequence[Part],
        inner: pygame.Rect,
        size: int,
        fill: RGB,
        ink: RGB,
    ) -> list[DrawnText]:
        """The parts side by side, centred; the score on a chip of the text colour."""
        p = self.panels
        cap = cap_ratio(p, bold=True) * size
        x = inner.centerx - self._width(parts, size) // 2
        drawn = []
        for text, chip in parts:
            width = p.text.width(text, size, bold=True) + (round(size * 0.7) if chip else 0)
            box = pygame.Rect(x, inner.y, width, inner.height)
            color = ink
            if chip:
                pill = pygame.Rect(0, 0, width, round(cap * 1.7))
                pill.center = box.center
                pygame.draw.rect(image, ink, pill, border_radius=pill.height // 2)
                color = fill
            elif relative_luminance(ink) > relative_luminance(fill):  # light text: a drop shadow
                drop = box.move(0, max(1, round(cap * 0.05)))
                put_cap(p, image, text, drop, shade(fill, BLACK, 0.5), (cap, cap), bold=True)
            drawn.append(put_cap(p, image, text, box, color, (cap, cap), bold=True))
            x += width + round(size * 0.6)
        return drawn


L = TypeVar("L", bound=Hashable)


class Sign(Generic[L]):
    """A sign over the board as an :class:`~scoreboard.screen.board._compose.Overlay`: what it
    shows at any moment is ``look_at(now)`` (None: hidden), each look painted once."""

    def __init__(self, look_at: Callable[[float], L | None]) -> None:
        self.look_at = look_at
        self._cache: dict[L, PaintedBanner] = {}

    def paint(self, look: L) -> PaintedBanner:
        """The image of ``look``; a subclass says how."""
        raise NotImplementedError

    def painted(self, now: float) -> PaintedBanner | None:
        """The sign as drawn at ``now`` (its plate, texts and rectangle); None while hidden."""
        look = self.look_at(now)
        if look is None:
            return None
        found = self._cache.get(look)
        if found is None:
            if len(self._cache) >= 8:
                self._cache.clear()
            found = self._cache[look] = self.paint(look)
        return found

    def area(self, now: float) -> pygame.Rect | None:
        painted = self.painted(now)
        return None if painted is None else pygame.Rect(painted.rect)

    def version(self, now: float) -> Hashable:
        return self.look_at(now)

    def draw(self, surface: pygame.Surface, now: float) -> None:
        painted = self.painted(now)
        if painted is not None:
            surface.blit(painted.image, painted.rect)


class WinnerBanner(Sign[BannerLook]):
    """The winner banner: the winner's colour, the result, the score.

    ``look_at(now)`` says what it shows (None: hidden).  It never hides a road
    entry: the plate goes on the big road's empty stretch after its newest cell
    (``newest()``) when the text fits there at a readable size (one line, else
    two: the score and the other languages below), and otherwise over the last
    hand's panel, whose cards the player has just seen dealt (the whole board's
    middle without one).
    """

    def __init__(
        self,
        panels: PanelPainter,
        layout: ScreenLayout,
        look_at: Callable[[float], BannerLook | None],
        newest: Callable[[], pygame.Rect | None] = lambda: None,
    ) -> None:
        """``newest()`` says where the big road's newest cell is drawn when the banner goes up."""
        super().__init__(look_at)
        self.panels = panels
        self.layout = layout
        self.newest = newest
        self.signs = SignPainter(panels, layout)
        self.anchor = banner_anchor(layout)
        last_hand = layout.panels.get("last_coup")
        self.fallback = pygame.Rect(last_hand.rect) if last_hand is not None else self.anchor
        self._spans: dict[int, tuple[tuple[int, int], ...]] = {}  # by the game that placed it
        self.prepaint()

    def prepaint(self) -> None:
        """Paint each winner's banner once where a shoe's first coup puts it, and drop it.

        The first banner of a renderer otherwise paints its plate (the soft
        shadow) and loads its font size in the frame that shows it, about 30 ms
        at 4K; kept by :func:`plated` and the text cache, later banners of that
        size (digits are as wide as each other) cost a few milliseconds.  The
        pixels are the same: the same functions paint them.
        """
        grid, road = self.layout.grids.get("big_road"), self.layout.panels.get("big_road")
        if grid is None or road is None:
            return
        spans = beside(grid.cell(0, 0), road.rect, self.layout.px(0.01))[:1]
        for winner in Winner:
            player, banker = {Winner.PLAYER: (9, 8), Winner.BANKER: (8, 9)}.get(winner, (5, 5))
            coup = result_coup(winner, player_total=player, banker_total=banker)
            self.paint_at(banner_look(self.panels.theme, coup), spans)

    def _place(self, look: BannerLook) -> tuple[tuple[int, int], ...]:
        """Where the banner may go, found once per placing game (a text update keeps it)."""
        found = self._spans.get(look.placed)
        if found is None:
            newest, road = self.newest(), self.layout.panels.get("big_road")
            found = (
                ()
                if newest is None or road is None
                else beside(newest, road.rect, self.layout.px(0.01))[:1]  # never over history
            )
            if len(self._spans) >= 4:
                self._spans.clear()
            self._spans[look.placed] = found
        return found

    def placings(
        self, look: BannerLook, spans: tuple[tuple[int, int], ...] | None = None
    ) -> list[Placing]:
        """Beside the newest cell on one line, then on two (the score and the other
        languages below), then the same over the fallback.  ``spans``: the stretches
        beside the newest cell, when not the ones found for ``look``."""
        words: list[Part] = [(look.words[0], False)]
        if look.score is not None:
            words.append((look.score, True))
        others = [(word, False) for word in look.words[1:]]
        under = words[1:] + others
        found = []
        fallback = (self.fallback.left, self.fallback.right)
        stretches = [
            (self.anchor, span) for span in (self._place(look) if spans is None else spans)
        ]
        for anchor, span in (*stretches, (self.fallback, fallback)):
            found.append(Placing(anchor, span, (tuple(words + others),)))
            if under:
                found.append(Placing(anchor, span, (tuple(words[:1]), tuple(under))))
        return found

    def paint(self, look: BannerLook) -> PaintedBanner:
        """The banner's image (shadow included) for ``look``, beside the newest cell."""
        return self.paint_at(look)

    def paint_at(
        self, look: BannerLook, spans: tuple[tuple[int, int], ...] | None = None
    ) -> PaintedBanner:
        """The banner's image for ``look``, beside the newest cell or in ``spans``."""
        colors = self.panels.colors
        fill = {Winner.BANKER: colors.banker, Winner.PLAYER: colors.player}.get(
            look.winner, colors.tie
        )
        return self.signs.paint(self.placings(look, spans), fill, colors.accent)
