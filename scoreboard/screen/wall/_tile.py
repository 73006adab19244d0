"""One lobby tile: a table's name, state, limits, the whole shoe's big road, counts, good roads.

The tile reads a view of its table (the lobby's ``TileView``, described here
by :class:`TileContent` so the renderer needs nothing of the lobby's feed) and
draws it into its rectangle, in the theme's colours and fonts, with the road
marks of the table display (:class:`~scoreboard.screen.board.marks.RoadPainter`).

Text is sized by its cap height as a share of its row, so the name and the
limits of a tile of 16 on a 1080p wall are over 2.5 % of the screen's height
(about 27 pixels: readable from a few metres); see docs/lobby.md.  A stale or
offline table's road is veiled, and its state says how old the data is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import pygame

from scoreboard.roads.engine import BigRoadCell
from scoreboard.roads.good_roads import GoodRoad
from scoreboard.screen.board.grid import draw_grid_lines
from scoreboard.screen.board.layout import Grid
from scoreboard.screen.board.marks import RoadPainter, most_contrasting
from scoreboard.screen.board.panels import aligned
from scoreboard.screen.board.text import TextCache
from scoreboard.screen.theme.values import RGB, Theme
from scoreboard.screen.wall._labels import LobbyWords
from scoreboard.screen.wall._layout import TileLayout, road_grid, tile_layout

__all__ = ["LobbyText", "TileContent", "TilePainter"]

CAP_OF_ROW = 0.62  # a text's cap height, of its row's height
SHRINK = 0.8  # a text too wide for its box may lose this much of its size before it is cut
VEIL_ALPHA = 170  # how much a stale or offline tile's road is veiled
MAX_PAPERS = 64  # road papers kept (one per grid size: a page has a few)
MAX_SPRITES = 512  # road marks kept by look and size
MAX_PLACED = 1024  # texts placed and kept (a page of 48 tiles shows about 350)


class TileContent(Protocol):
    """What a tile shows (the lobby's ``TileView``)."""

    table_id: str
    title: str
    pit: str
    state: Any  # an enum whose value is "live", "stale", ...
    age: tuple[int, str] | None
    currency: str
    bets: tuple[int, int] | None
    shoe_number: int
    game: int
    counts: tuple[int, int, int]
    good: tuple[GoodRoad, ...]
    road: Sequence[BigRoadCell]


@dataclass(frozen=True, slots=True)
class LobbyText:
    """A text as a tile or the page drew it: which part, what, where, its cap height."""

    part: str
    text: str
    rect: pygame.Rect
    cap: int


class TilePainter:
    """Draws tiles; ``log``, when a list, receives every :class:`LobbyText` drawn."""

    def __init__(self, theme: Theme, text: TextCache, roads: RoadPainter, words: LobbyWords):
        self.theme = theme
        self.text = text
        self.roads = roads
        self.words = words
        self.log: list[LobbyText] | None = None
        self._papers: dict[tuple[tuple[int, int], int], pygame.Surface] = {}
        self._sprites: dict[tuple[object, ...], pygame.Surface] = {}
        self._plates: dict[tuple[tuple[int, int], bool], pygame.Surface] = {}
        self._placed: dict[tuple[object, ...], tuple[str, pygame.Surface, pygame.Rect, int]] = {}
        colors = theme.colors
        self.state_colors: dict[str, RGB] = {
            "live": colors.ok,
            "shuffling": colors.warning,
            "final hand": colors.accent,
            "offline": colors.error,
            "stale": colors.warning,
            "waiting": colors.muted,
        }

    # -- text ------------------------------------------------------------------------------
    def put(
        self,
        surface: pygame.Surface,
        part: str,
        words: str,
        box: pygame.Rect,
        color: RGB,
        *,
        bold: bool = False,
        align: str = "left",
        cap: float | None = None,
        fallback: str | None = None,
    ) -> pygame.Rect:
        """``words`` with capitals ``cap`` tall (default: of ``box``), cut to its width.

        ``fallback`` (the first language alone, say) is put instead when ``words``
        would have to be cut.

        Where and how a text goes is worked out once per (text, box, style) and kept:
        a page turn puts the same names and numbers in the same boxes again.
        """
        key = (words, tuple(box), color, bold, align, cap, fallback)
        placed = self._placed.get(key)
        if placed is None:
            placed = self._place(words, box, color, bold=bold, align=align, cap=cap)
            if fallback is not None and placed[0] != words:
                placed = self._place(fallback, box, color, bold=bold, align=align, cap=cap)
            if len(self._placed) >= MAX_PLACED:
                self._placed.clear()
            self._placed[key] = placed
        shown, rendered, where, height = placed
        surface.blit(rendered, where)
        if self.log is not None:
            self.log.append(LobbyText(part, shown, where.copy(), height))
        return where

    def _place(
        self, words: str, box: pygame.Rect, color: RGB, *, bold: bool, align: str, cap: float | None
    ) -> tuple[str, pygame.Surface, pygame.Rect, int]:
        text = self.text
        size = text.size_for_cap(cap if cap is not None else box.height * CAP_OF_ROW, bold=bold)
        width = text.width(words, size, bold=bold)
        if width > box.width:  # a little smaller before anything is cut
            least = max(1, int(size * SHRINK))
            size = max(least, int(size * box.width / width))
            # Widths do not scale exactly with the size (hinting, rounding): step down
            # to the size that fits, so "Max 100,000" is not cut where it could stand.
            while size > least and text.width(words, size, bold=bold) > box.width:
                size -= 1
        shown = text.shorten(words, size, box.width, bold=bold)
        rendered = text.render(shown, size, color, bold=bold)
        where = rendered.get_rect()
        where.top = box.centery - text.cap_middle(size, bold=bold)
        aligned(where, box, align)
        return shown, rendered, where, text.cap_height(size, bold=bold)

    # -- the tile --------------------------------------------------------------------------
    def paint(self, surface: pygame.Surface, rect: pygame.Rect, view: TileContent) -> None:
        """Draw ``view`` into ``rect`` of ``surface`` (the whole rectangle, nothing outside)."""
        colors = self.theme.colors
        parts = tile_layout(rect)
        state = str(view.state.value)
        veiled = state in ("stale", "offline", "waiting")
        surface.set_clip(rect)
        try:
            # The accent border calls a good road: not over a veiled tile's old data.
            surface.blit(self._plate(rect.size, bool(view.good) and not veiled), rect)
            self.put(surface, "name", view.title, parts.name, colors.text, bold=True)
            self._state(surface, parts, state)
            self._limits(surface, parts, view)
            self._road(surface, parts, view.road)
            self._info(surface, parts, view)
            self._good(surface, parts, view.good)
            if veiled:
                veil = parts.road.union(parts.info).union(parts.good)
                shade = pygame.Surface(veil.size, pygame.SRCALPHA)
                shade.fill((*colors.panel, VEIL_ALPHA))
                surface.blit(shade, veil)
                if view.age is not None or state == "waiting":
                    words = (
                        self.words.say("waiting") if view.age is None else self.words.age(view.age)
                    )
                    where = parts.info.union(parts.good)
                    cap = parts.info.height * CAP_OF_ROW
                    ink = colors.muted if view.age is None else colors.error
                    first = words.split(self.words.sep)[0]
                    self.put(
                        surface,
                        "age",
                        words,
                        where,
                        ink,
                        bold=True,
                        align="center",
                        cap=cap,
                        fallback=first,
                    )
        finally:
            surface.set_clip(None)

    def _plate(self, size: tuple[int, int], highlighted: bool) -> pygame.Surface:
        """The tile's rounded plate and border (accent and doubled for a good road), kept."""
        key = (size, highlighted)
        plate = self._plates.get(key)
        if plate is None:
            colors = self.theme.colors
            plate = pygame.Surface(size)
            plate.fill(colors.background)
            area = plate.get_rect()
            radius = tile_layout(area).pad
            border = max(1, round(radius / 3)) * (2 if highlighted else 1)
            pygame.draw.rect(plate, colors.panel, area, 0, border_radius=radius)
            edge = colors.accent if highlighted else colors.border
            pygame.draw.rect(plate, edge, area, border, radius)
            if len(self._plates) >= MAX_PAPERS:
                self._plates.clear()
            self._plates[key] = plate
        return plate

    def _state(self, surface: pygame.Surface, parts: TileLayout, state: str) -> None:
        colors = self.theme.colors
        if state == "stale":
            words = self.words.say("stale_badge")
        elif state == "waiting":
            words = self.words.say("waiting_badge")
        else:
            words = self.words.state(state)
        plate = parts.state.inflate(0, -round(parts.state.height * 0.2))
        fill = self.state_colors.get(state, colors.muted)
        pygame.draw.rect(surface, fill, plate, 0, border_radius=max(2, plate.height // 4))
        ink = most_contrasting(fill, (colors.header_text, colors.text, (255, 255, 255), (0, 0, 0)))
        inner = plate.inflate(-parts.pad, 0)
        first = words.split(self.words.sep)[0]
        cap = plate.height * 0.5
        self.put(
            surface, "state", words, inner, ink, bold=True, align="center", cap=cap, fallback=first
        )

    def _limits(self, surface: pygame.Surface, parts: TileLayout, view: TileContent) -> None:
        colors = self.theme.colors
        if view.bets is None:
            words = self.words.theme_word("no_limits")
            self.put(surface, "limits", words, parts.limits, colors.muted, bold=True)
            return
        low, high = view.bets
        minimum = self.theme.label("minimum")[0]
        maximum = self.theme.label("maximum")[0]
        words = f"{minimum} {low:,} · {maximum} {high:,}"
        bare = f"{low:,} – {high:,}"  # when the words would cut a number: the numbers alone
        if view.currency and view.currency != "USD":
            words, bare = f"{words} {view.currency}", f"{bare} {view.currency}"
        self.put(surface, "limits", words, parts.limits, colors.text, bold=True, fallback=bare)

    def _road(self, surface: pygame.Surface, parts: TileLayout, road: Sequence[BigRoadCell]):
        columns = max((cell.col for cell in road), default=-1) + 1
        grid = road_grid(parts.road, columns)
        surface.blit(self._paper(grid), grid.rect)
        step = grid.rect.height // grid.rows  # square cells of whole pixels (road_grid)
        size = (max(2, step), max(2, step))
        x, y = grid.rect.topleft
        first = max(0, columns - grid.cols)  # a road longer than the tile: its newest columns
        sprite = self._sprite
        surface.blits(
            [
                (sprite(cell, size), (x + (cell.col - first) * step, y + cell.row * step))
                for cell in road
                if cell.col >= first
            ],
            doreturn=False,
        )

    def _sprite(self, cell: BigRoadCell, size: tuple[int, int]) -> pygame.Surface:
        """The road painter's mark for ``cell``, kept here by what it looks like.

        A page has a few cell sizes and a few dozen looks, against about 2,000
        cells a page: a plain dict in front of the painter's LRU.
        """
        key = (size, cell.winner, cell.ties, cell.banker_pair, cell.player_pair)
        found = self._sprites.get(key)
        if found is None:
            if len(self._sprites) >= MAX_SPRITES:
                self._sprites.clear()
            found = self._sprites[key] = self.roads.big_road(cell, size)
        return found

    def _paper(self, grid: Grid) -> pygame.Surface:
        """The ruled paper of a road grid of this size, drawn once per size."""
        key = (grid.rect.size, grid.cols)
        paper = self._papers.get(key)
        if paper is None:
            paper = pygame.Surface(grid.rect.size)
            paper.fill(self.theme.colors.panel)
            draw_grid_lines(
                paper, Grid(paper.get_rect(), grid.rows, grid.cols), self.theme.colors.grid, 1
            )
            if len(self._papers) >= MAX_PAPERS:
                self._papers.clear()
            self._papers[key] = paper
        return paper

    def _info(self, surface: pygame.Surface, parts: TileLayout, view: TileContent) -> None:
        colors = self.theme.colors
        box = parts.info
        letters = self.theme.roads.letters
        sides = (("banker", colors.banker), ("player", colors.player), ("tie", colors.tie))
        right = box.right
        for (side, color), count in reversed(list(zip(sides, view.counts, strict=True))):
            piece = pygame.Rect(box.left, box.top, right - box.left, box.height)
            drawn = self.put(
                surface,
                "counts",
                f"{letters.get(side, side[0].upper())} {count}",
                piece,
                color,
                bold=True,
                align="right",
            )
            right = drawn.left - max(2, parts.pad // 2)
        label = self.theme.label
        shoe = str(view.shoe_number) if view.shoe_number else "—"
        # The pit first (the pit sort groups by it), then the game, then the shoe as the
        # board numbers it (its id is for machines: the lobby's status carries it); a
        # narrow tile cuts the shoe.
        pieces = [f"{label('game')[0]} {view.game}", f"{label('shoe')[0]} {shoe}"]
        if view.pit:
            pieces.insert(0, self.words.first("pit", pit=view.pit))
        words = " · ".join(pieces)
        left = pygame.Rect(box.left, box.top, max(0, right - box.left - parts.pad), box.height)
        self.put(surface, "info", words, left, colors.muted)

    def _good(self, surface: pygame.Surface, parts: TileLayout, good: tuple[GoodRoad, ...]):
        if not good:
            return
        colors = self.theme.colors
        plate = parts.good.inflate(0, -max(2, parts.good.height // 8))
        pygame.draw.rect(surface, colors.accent, plate, 0, border_radius=max(2, plate.height // 4))
        ink = most_contrasting(colors.accent, (colors.header_text, colors.text, (0, 0, 0)))
        words = self.words.good_road(good[0])
        if len(good) > 1:
            words = f"{words} +{len(good) - 1}"
        self.put(surface, "good", words, plate.inflate(-parts.pad, 0), ink, bold=True)
