"""The lobby's frame: header, tiles, the responsible-gaming footer; only what changed redrawn.

:class:`LobbyRenderer` keeps the view each tile slot last drew.  A frame
compares each slot's new view with it and paints only the tiles that differ,
returning their rectangles (the dirty rectangles to put on the screen), so a
coup on one table redraws one tile whatever the number of tables.  A new page,
a different number of slots or a new theme repaints the whole frame.

>>> import os; os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
'dummy'
>>> from scoreboard.screen.theme.loading import load_theme
>>> renderer = LobbyRenderer(load_theme("classic"), (640, 360))
>>> renderer.draw([], page=0, pages=1, connected=True) == [renderer.frame.get_rect()]
True
>>> renderer.draw([], page=0, pages=1, connected=True)
[]
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from scoreboard.screen.board.marks import RoadPainter
from scoreboard.screen.board.symbols import Sprites
from scoreboard.screen.board.text import TextCache
from scoreboard.screen.theme.values import Theme
from scoreboard.screen.wall._labels import LobbyWords
from scoreboard.screen.wall._layout import LobbyLayout, lobby_layout
from scoreboard.screen.wall._tile import LobbyText, TileContent, TilePainter

__all__ = ["LobbyRenderer"]

HEADER_CAP = 0.42  # of the header's height
FOOTER_CAP = 0.45


class LobbyRenderer:
    """Draws lobby pages into :attr:`frame`; ``log`` (a list) receives every text drawn."""

    def __init__(self, theme: Theme, size: tuple[int, int]) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.theme = theme
        self.size = size
        self.frame = pygame.Surface(size)
        self.text = TextCache(theme.fonts)
        self.words = LobbyWords(theme)
        self.tiles = TilePainter(
            theme, self.text, RoadPainter(theme, Sprites(), self.text), self.words
        )
        self.layout: LobbyLayout | None = None
        self._shown: list[TileContent | None] = []
        self._header: tuple[object, ...] | None = None
        self._clock = ""
        self._page: int | None = None

    @property
    def log(self) -> list[LobbyText] | None:
        return self.tiles.log

    @log.setter
    def log(self, value: list[LobbyText] | None) -> None:
        self.tiles.log = value

    def draw(
        self,
        views: Sequence[TileContent],
        *,
        page: int,
        pages: int,
        connected: bool,
        clock: str = "",
    ) -> list[pygame.Rect]:
        """Draw page ``page`` (0-based) of ``pages`` showing ``views``; the rectangles changed.

        ``clock``: the time for the header's right end (HH:MM), as the board shows it.
        """
        self._clock = clock
        layout = self.layout
        if (
            layout is None
            or len(layout.tiles) != max(len(views), 4)
            or page != self._page
            or bool(views) != any(shown is not None for shown in self._shown)  # "waiting" goes
        ):
            return self._whole(views, page, pages, connected)
        dirty = self._header_if_changed(page, pages, connected)
        for index, slot in enumerate(layout.tiles):
            view = views[index] if index < len(views) else None
            if view != self._shown[index]:
                self._slot(slot, view)
                self._shown[index] = view
                dirty.append(slot)
        return dirty

    def _whole(
        self, views: Sequence[TileContent], page: int, pages: int, connected: bool
    ) -> list[pygame.Rect]:
        layout = self.layout = lobby_layout(self.size, len(views))
        self._page = page
        frame = self.frame
        frame.fill(self.theme.colors.background)
        self._header = None
        self._header_if_changed(page, pages, connected)
        self._footer(layout)
        self._shown = []
        for index, slot in enumerate(layout.tiles):
            view = views[index] if index < len(views) else None
            self._slot(slot, view)
            self._shown.append(view)
        if not views:  # no table heard of yet: say so rather than show an empty wall
            area = layout.tiles[0].unionall(layout.tiles[1:])
            cap = layout.header.height * HEADER_CAP
            words = self.words.say("no_tables")
            self.tiles.put(
                frame, "waiting", words, area, self.theme.colors.muted, align="center", cap=cap
            )
        return [frame.get_rect()]

    def _slot(self, slot: pygame.Rect, view: TileContent | None) -> None:
        if view is None:
            self.frame.fill(self.theme.colors.background, slot)
        else:
            self.tiles.paint(self.frame, slot, view)

    def _header_if_changed(self, page: int, pages: int, connected: bool) -> list[pygame.Rect]:
        key = (page, pages, connected, self._clock)
        if key == self._header or self.layout is None:
            return []
        self._header = key
        header = self.layout.header
        colors = self.theme.colors
        self.frame.fill(colors.header_background, header)
        pad = round(header.height * 0.4)
        box = header.inflate(-2 * pad, 0)
        cap = header.height * HEADER_CAP
        put = self.tiles.put
        title = self.theme.style.header_title or self.words.say("title")
        half = pygame.Rect(box.left, box.top, box.width // 2, box.height)
        put(self.frame, "title", title, half, colors.header_text, bold=True, cap=cap)
        right = pygame.Rect(box.centerx, box.top, box.width // 2, box.height)
        if self._clock:
            shown = put(
                self.frame, "clock", self._clock, right, colors.header_text, align="right", cap=cap
            )
            right.width = max(0, shown.left - pad - right.left)
        if pages > 1:
            words = self.words.say("page", page=str(page + 1), pages=str(pages))
            put(self.frame, "page", words, right, colors.header_text, align="right", cap=cap)
        if not connected:
            mark = pygame.Rect(box.left + box.width // 3, box.top, box.width // 3, box.height)
            put(
                self.frame,
                "feed",
                self.words.say("lobby_offline"),
                mark,
                colors.warning,
                bold=True,
                align="center",
                cap=cap,
            )
        return [header]

    def _footer(self, layout: LobbyLayout) -> None:
        """The responsible-gaming line: on every page, whatever the theme's style says."""
        footer = layout.footer
        colors = self.theme.colors
        self.frame.fill(colors.background, footer)
        disclaimer = " ".join(dict.fromkeys(self.theme.label("disclaimer")))
        box = footer.inflate(-round(footer.height), 0)
        self.tiles.put(
            self.frame,
            "disclaimer",
            disclaimer,
            box,
            colors.muted,
            align="center",
            cap=footer.height * FOOTER_CAP,
        )
