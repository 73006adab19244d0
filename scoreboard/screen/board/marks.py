"""Road symbols: what each road entry looks like, as a ready-made sprite.

:class:`RoadPainter` turns bead, big-road and derived entries into sprites in
the theme's colours and shapes; :mod:`scoreboard.screen.board.grid` places them.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from scoreboard.game.rules import Winner
from scoreboard.roads.engine import BeadCell, BigRoadCell, Color, DerivedRoad, Roads
from scoreboard.screen.board.symbols import Sprites
from scoreboard.screen.board.text import TextCache
from scoreboard.screen.theme.values import RGB, Theme


def relative_luminance(color: RGB) -> float:
    """WCAG 2 relative luminance of an sRGB colour, 0 (black) to 1 (white)."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = color
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast_ratio(a: RGB, b: RGB) -> float:
    """WCAG 2 contrast ratio of two colours, 1 (same) to 21 (black on white).

    >>> round(contrast_ratio((0, 0, 0), (255, 255, 255)), 1), contrast_ratio((9, 9, 9), (9, 9, 9))
    (21.0, 1.0)
    """
    light, dark = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def most_contrasting(color: RGB, candidates: tuple[RGB, ...]) -> RGB:
    """The candidate that stands out most against ``color``.

    >>> most_contrasting((20, 60, 200), ((30, 70, 210), (255, 255, 255)))
    (255, 255, 255)
    """
    return max(candidates, key=lambda c: contrast_ratio(c, color))


SIDE_KEY = {Winner.BANKER: "banker", Winner.PLAYER: "player", Winner.TIE: "tie"}
"""Each winner's label key (and key in ``theme.roads.letters``); see also
:attr:`RoadPainter.side_color` and :attr:`RoadPainter.side_shape`."""


NATURAL_RING = 0.08
"""The natural ring's width, as a fraction of the cell: bold enough to see from the seats."""

NATURAL_GAP = 0.03
"""The gap of panel colour between a natural's ring and its bead (a fraction of the cell)."""

BEAD_LETTER = 0.4
"""A bead letter's cap height, as a fraction of the bead plate's cell."""

CORRECTED_NOTCH = 0.4
"""The corrected game's corner notch: its sides, as a fraction of the bead plate's cell."""

TIE_BADGE = 0.66
"""The tie-count badge's diameter, as a fraction of a big-road cell."""


@dataclass(frozen=True, slots=True)
class Mark:
    """One entry to draw: its road position and its ready-made sprite."""

    col: int
    row: int
    sprite: pygame.Surface


class RoadPainter:
    """Turns road entries into sprites in the theme's colours and shapes."""

    def __init__(self, theme: Theme, sprites: Sprites, text: TextCache) -> None:
        self.theme = theme
        self.sprites = sprites
        self.text = text
        colors = theme.colors
        self.side_color: dict[Winner, RGB] = {
            Winner.BANKER: colors.banker,
            Winner.PLAYER: colors.player,
            Winner.TIE: colors.tie,
        }
        self.side_shape = {
            Winner.BANKER: theme.symbols.banker,
            Winner.PLAYER: theme.symbols.player,
            Winner.TIE: "circle",
        }

    # -- marks for a whole road ---------------------------------------------------
    def marks(self, road: str, roads: Roads, size: tuple[int, int]) -> list[Mark]:
        if road == "bead_plate":
            return [Mark(c.col, c.row, self.bead(c, size)) for c in roads.bead_plate]
        if road == "big_road":
            return [Mark(c.col, c.row, self.big_road(c, size)) for c in roads.big_road]
        k = DerivedRoad(road).k
        return [Mark(c.col, c.row, self.derived(k, c.color, size)) for c in roads.derived(k)]

    # -- single symbols -------------------------------------------------------------
    def derived(self, k: int, color: Color, size: tuple[int, int]) -> pygame.Surface:
        """Big eye boy: hollow ring; small road: filled dot; cockroach pig: slash."""
        rgb = self.theme.colors.banker if color is Color.RED else self.theme.colors.player
        shape = self.theme.symbols.red if color is Color.RED else self.theme.symbols.blue
        inner = (max(2, round(size[0] * 0.8)), max(2, round(size[1] * 0.8)))
        if k == 1:
            sprite = self.sprites.ring(inner, rgb, shape, 0.17)
        elif k == 2:
            sprite = self.sprites.disc((round(size[0] * 0.72), round(size[1] * 0.72)), rgb, shape)
        else:
            sprite = self.sprites.slash(size, rgb, 0.16, shape)
        return sprite

    def big_road(self, cell: BigRoadCell, size: tuple[int, int]) -> pygame.Surface:
        key = ("big", size, cell.winner, cell.ties, cell.banker_pair, cell.player_pair)
        found = self.sprites.get(key)
        if found is not None:
            return found
        colors = self.theme.colors
        surface, area = _cell_canvas(size, 0.84)
        if cell.winner is not None:
            shape = self.side_shape[cell.winner]
            ring = self.sprites.ring(area.size, self.side_color[cell.winner], shape, 0.13)
            surface.blit(ring, area)
        if cell.ties:
            surface.blit(self.sprites.slash(area.size, colors.tie, 0.11), area)
        self._pair_dots(surface, area, cell.banker_pair, cell.player_pair)
        if cell.ties > 1:
            self._tie_count(surface, cell.ties)
        return self.sprites.put(key, surface)

    def tie_badge(self, size: tuple[int, int]) -> pygame.Rect:
        """Where a big-road cell of ``size`` shows its tie count: a badge in its top-right corner.

        Off the slash's middle and clear of both pair dots (top-left and
        bottom-right), as large as the corner allows.
        """
        side = max(4, round(min(size) * TIE_BADGE))
        return pygame.Rect(size[0] - side, 0, side, side)

    def _tie_count(self, surface: pygame.Surface, ties: int) -> None:
        """The count on a tie-coloured badge with a rim, in the cell's top-right corner."""
        colors = self.theme.colors
        badge = self.tie_badge(surface.get_size())
        rim = most_contrasting(colors.tie, (colors.panel, colors.bead_text))
        surface.blit(self.sprites.disc(badge.size, rim, "circle"), badge)
        inner = badge.inflate(-max(2, badge.width // 7), -max(2, badge.width // 7))
        surface.blit(self.sprites.disc(inner.size, colors.tie, "circle"), inner)
        ink = most_contrasting(colors.tie, (colors.bead_text, colors.panel, colors.text))
        text = str(ties) if ties < 10 else "9+"
        size = self.text.size_for_cap(inner.height * 0.64, bold=True)
        label = self.text.render(text, size, ink, bold=True)
        if label.get_width() > inner.width:
            label = self.text.fit(text, inner.height * 0.9, inner.width, ink, bold=True)
        surface.blit(label, label.get_rect(center=inner.center))

    def bead(
        self, cell: BeadCell, size: tuple[int, int], *, corrected: bool = False
    ) -> pygame.Surface:
        """A bead plate entry; ``corrected``: its game was corrected (a notch in a corner)."""
        coup = cell.coup
        style = self.theme.roads
        text = self._bead_text(cell)
        natural = style.natural_mark and coup.natural
        pairs = (coup.banker_pair, coup.player_pair)
        key = ("bead", size, coup.winner, text, *pairs, natural, corrected)
        found = self.sprites.get(key)
        if found is not None:
            return found
        surface, area = _cell_canvas(size, 0.86)
        shape = self.side_shape[coup.winner]
        if natural:
            ring = _square(size, 0.98)
            thickness = NATURAL_RING / 0.98
            surface.blit(self.sprites.ring(ring.size, self.natural_color, shape, thickness), ring)
            area = _square(size, 0.98 - 2 * NATURAL_RING - 2 * NATURAL_GAP)
        surface.blit(self.sprites.disc(area.size, self.side_color[coup.winner], shape), area)
        label = self.bead_label(text, size, area.width)
        surface.blit(label, label.get_rect(center=area.center))
        self._pair_dots(surface, area, coup.banker_pair, coup.player_pair)
        if corrected:
            self.corrected_notch(surface)
        return self.sprites.put(key, surface)

    def corrected_notch(self, surface: pygame.Surface) -> pygame.Rect:
        """The corrected game's mark: a triangle filling the cell's top-right corner.

        That corner is free on every bead (the pair dots sit top-left and
        bottom-right).  The notch is in the natural ring's colour (the accent where
        it stands out on the panel), set off from the bead by a gap of panel
        colour, so it reads on any bead.  Returns the rectangle it covers.
        """
        width, height = surface.get_size()
        leg = max(4, round(min(width, height) * CORRECTED_NOTCH))
        gap = max(1, round(leg * NATURAL_GAP / CORRECTED_NOTCH))
        right = width - 1
        outer = [(right - leg - 2 * gap, 0), (right, 0), (right, leg + 2 * gap)]
        pygame.draw.polygon(surface, self.theme.colors.panel, outer)
        pygame.draw.polygon(
            surface, self.natural_color, [(right - leg, 0), (right, 0), (right, leg)]
        )
        return pygame.Rect(width - leg - 1, 0, leg + 1, leg + 1)

    def bead_label(self, text: str, size: tuple[int, int], room: int) -> pygame.Surface:
        """A bead's letter: capitals 40 % of the cell, the same on a natural's smaller bead.

        Narrowed only when it would not fit ``room`` (the bead's diameter).
        """
        font = self.text.size_for_cap(min(size) * BEAD_LETTER, bold=True)
        width = self.text.width(text, font, bold=True)
        if width > room * 0.8:
            font = max(6, int(font * room * 0.8 / width))
        return self.text.render(text, font, self.theme.colors.bead_text, bold=True)

    @property
    def natural_color(self) -> RGB:
        """The natural ring and the corrected notch: the accent where it stands out on the
        panel, else the text colour.

        A gap of panel colour keeps the ring apart from the bead, so it reads on any bead.
        """
        colors = self.theme.colors
        if contrast_ratio(colors.accent, colors.panel) >= 3:
            return colors.accent
        return colors.text

    def _bead_text(self, cell: BeadCell) -> str:
        coup = cell.coup
        letters = self.theme.roads.letters
        side = SIDE_KEY[coup.winner]
        if self.theme.roads.bead_text == "total":
            total = coup.player_total if coup.winner is Winner.PLAYER else coup.banker_total
            if total is not None:
                return str(total)
        return letters.get(side, side[0].upper())

    def _pair_dots(
        self, surface: pygame.Surface, area: pygame.Rect, banker: bool, player: bool
    ) -> None:
        """Banker pair red at top-left, player pair blue at bottom-right (roads.md).

        Each dot has a rim in the colour that stands out most against it, so a
        player pair dot reads on a Player bead as well as on the panel.
        """
        colors = self.theme.colors
        dot = max(3, round(area.width * 0.3))
        edge = max(5, round(dot * 1.6))
        offset = round(area.width * 0.5 * 0.7071)
        cx, cy = area.center
        for present, color, sign in ((banker, colors.banker, -1), (player, colors.player, 1)):
            if present:
                center = (cx + sign * offset, cy + sign * offset)
                rim = self.sprites.disc((edge, edge), self.rim_color(color), "circle")
                surface.blit(rim, rim.get_rect(center=center))
                fill = self.sprites.disc((dot, dot), color, "circle")
                surface.blit(fill, fill.get_rect(center=center))

    def rim_color(self, dot: RGB) -> RGB:
        """The rim of a dot of colour ``dot``: the colour that stands out most against it."""
        colors = self.theme.colors
        return most_contrasting(dot, (colors.panel, colors.bead_text, (0, 0, 0), (255, 255, 255)))


def _square(size: tuple[int, int], fraction: float) -> pygame.Rect:
    """The centred square of ``fraction`` of a cell of ``size``."""
    diameter = round(min(size) * fraction)
    area = pygame.Rect(0, 0, diameter, diameter)
    area.center = (size[0] // 2, size[1] // 2)
    return area


def _cell_canvas(size: tuple[int, int], fraction: float) -> tuple[pygame.Surface, pygame.Rect]:
    """A transparent cell-sized sprite and the centred square its symbol fills."""
    return pygame.Surface(size, pygame.SRCALPHA), _square(size, fraction)
