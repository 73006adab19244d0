"""Road symbols: what each road entry looks like, as a ready-made sprite.

:class:`RoadPainter` turns bead, big-road and derived entries into sprites in
the theme's colours and shapes; :mod:`scoreboard.render.grid` places them.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from scoreboard.core.roads import BeadCell, BigRoadCell, Color, DerivedRoad, Roads
from scoreboard.core.rules import Winner
from scoreboard.render.symbols import Sprites
from scoreboard.render.text import TextCache
from scoreboard.theme import RGB, Theme

SIDE_KEY = {Winner.BANKER: "banker", Winner.PLAYER: "player", Winner.TIE: "tie"}
"""Each winner's label key (and key in ``theme.roads.letters``); see also
:attr:`RoadPainter.side_color` and :attr:`RoadPainter.side_shape`."""


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
        diameter = area.width
        if cell.winner is not None:
            shape = self.side_shape[cell.winner]
            ring = self.sprites.ring(area.size, self.side_color[cell.winner], shape, 0.13)
            surface.blit(ring, area)
        if cell.ties:
            surface.blit(self.sprites.slash(area.size, colors.tie, 0.11), area)
            if cell.ties > 1:
                label = self.text.fit(
                    str(cell.ties), diameter * 0.62, diameter * 0.6, colors.tie, bold=True
                )
                backing = self.sprites.disc(
                    (round(label.get_height() * 0.62),) * 2, colors.panel, "circle"
                )
                surface.blit(backing, backing.get_rect(center=area.center))
                surface.blit(label, label.get_rect(center=area.center))
        self._pair_dots(surface, area, cell.banker_pair, cell.player_pair)
        return self.sprites.put(key, surface)

    def bead(self, cell: BeadCell, size: tuple[int, int]) -> pygame.Surface:
        coup = cell.coup
        style = self.theme.roads
        text = self._bead_text(cell)
        natural = style.natural_mark and coup.natural
        key = ("bead", size, coup.winner, text, coup.banker_pair, coup.player_pair, natural)
        found = self.sprites.get(key)
        if found is not None:
            return found
        colors = self.theme.colors
        surface, area = _cell_canvas(size, 0.86)
        diameter = area.width
        shape = self.side_shape[coup.winner]
        if natural:
            halo = area.inflate(round(diameter * 0.1), round(diameter * 0.1))
            surface.blit(self.sprites.ring(halo.size, colors.accent, shape, 0.06), halo)
        surface.blit(self.sprites.disc(area.size, self.side_color[coup.winner], shape), area)
        label = self.text.fit(text, diameter * 0.78, diameter * 0.72, colors.bead_text, bold=True)
        surface.blit(label, label.get_rect(center=area.center))
        self._pair_dots(surface, area, coup.banker_pair, coup.player_pair)
        return self.sprites.put(key, surface)

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
        """Banker pair red at top-left, player pair blue at bottom-right (roads.md)."""
        colors = self.theme.colors
        dot = max(3, round(area.width * 0.3))
        edge = max(4, round(dot * 1.35))
        offset = round(area.width * 0.5 * 0.7071)
        cx, cy = area.center
        for present, color, sign in ((banker, colors.banker, -1), (player, colors.player, 1)):
            if present:
                center = (cx + sign * offset, cy + sign * offset)
                rim = self.sprites.disc((edge, edge), colors.panel, "circle")
                surface.blit(rim, rim.get_rect(center=center))
                fill = self.sprites.disc((dot, dot), color, "circle")
                surface.blit(fill, fill.get_rect(center=center))


def _cell_canvas(size: tuple[int, int], fraction: float) -> tuple[pygame.Surface, pygame.Rect]:
    """A transparent cell-sized sprite and the centred square its symbol fills."""
    diameter = round(min(size) * fraction)
    area = pygame.Rect(0, 0, diameter, diameter)
    area.center = (size[0] // 2, size[1] // 2)
    return pygame.Surface(size, pygame.SRCALPHA), area
