"""Fonts and text surfaces, rendered once per value and reused.

Text is the costliest thing on the board to draw, and most of it never changes
between coups, so every (text, weight, size, colour) is rendered once and kept.
The kept surfaces are bounded least-recently-used: a demo that runs for days
keeps meeting new values (shoe numbers, percentages), and the ones no longer on
screen must age out rather than pile up.

Each character is drawn by the first font of the theme's chain that has a glyph
for it (:meth:`~scoreboard.screen.theme.values.Fonts.chain`: the theme's font, then the
shipped kana and Hangul, Vietnamese and Thai fonts), so "บิ๊กโรด 12" is drawn in
runs: the Thai by the Thai font, the digits by the theme's, on one baseline.
Measurements (cap height, ascent) are the theme's font's: the chain only fills in.

Text reaches the board from the feed (a table name, bet names, a currency), and
the protocol refuses what no board can draw; still, a character no font of the
chain has, or a control character, must never stop a frame nor vanish without a
trace.  Every string is passed through :meth:`TextCache.drawable` first, which
swaps each such character for a visible replacement mark.
"""

from __future__ import annotations

import contextlib
import logging
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pygame
import pygame.freetype

from scoreboard.screen.board import _open_fonts as open_fonts
from scoreboard.screen.theme.values import RGB, Fonts

log = logging.getLogger(__name__)
_K = TypeVar("_K")
_V = TypeVar("_V")

MAX_CACHED = 1024
"""How many rendered strings a :class:`TextCache` keeps (a full frame shows a few hundred)."""

REPLACEMENTS = ("\ufffd", "\u25a1", "?")
"""The marks for a character that cannot be drawn, best first: the first the font has is used.

A font with none of them gets ``"\ufffd"`` anyway, which it draws as its own
"missing glyph" shape (a box in most fonts).
"""

NEVER_DRAWN = frozenset({"Cc", "Cs"})
"""Unicode categories no font may be asked to draw: control characters, lone surrogates."""

CAP_FLOORS: dict[str, float] = {"number": 0.03, "label": 0.018, "text": 0.015}
"""The smallest cap height each role of text may have, as a fraction of the shorter screen side.

The board is read from the seats, about 3 m away: the numbers a player looks
for (minimum and maximum bets, the B/P/T counts, the game number, the last
hand's totals) are ``"number"``, the words naming things are ``"label"``, and
nothing at all is smaller than ``"text"``.  The cap height is the ink height
of a capital "H" (:meth:`TextCache.cap_height`): what the eye reads, whatever
line gap the font adds.  At 1080 pixels: 32.4, 19.4 and 16.2 pixels.
"""

ELLIPSIS = "\u2026"


MAX_MEASURED = 8192
"""How many measurements (widths, drawable forms, sizes) a :class:`TextCache` keeps."""


def remember(memo: dict[_K, _V], key: _K, value: _V, limit: int = 0) -> None:
    """Keep ``value``; a memo grown to ``limit`` (:data:`MAX_MEASURED`) starts again.

    For measurements that are cheap to redo: values churn (shoe numbers,
    percentages), and starting again costs a few re-measurements, not a leak.

    >>> memo = {}
    >>> for n in range(5):
    ...     remember(memo, n, n * n, limit=3)
    >>> memo
    {3: 9, 4: 16}
    """
    if len(memo) >= (limit or MAX_MEASURED):
        memo.clear()
    memo[key] = value


def undrawable_category(char: str) -> bool:
    """True for a character no font is asked to draw (a control character or a lone surrogate).

    >>> undrawable_category(chr(0)), undrawable_category(chr(0xD800)), undrawable_category("A")
    (True, True, False)
    """
    return unicodedata.category(char) in NEVER_DRAWN


SHARED = 2
"""How many fonts-and-scale text caches :func:`shared_cache` keeps (a theme reload meets a
second theme while the first is still on screen)."""

_shared: OrderedDict[tuple[object, ...], TextCache] = OrderedDict()


def shared_cache(fonts: Fonts, scale: float = 1.0) -> TextCache:
    """The process's :class:`TextCache` for ``fonts`` (the files as they are now) at ``scale``.

    Every board of a theme draws the same words at sizes that often coincide:
    the theme probe's three boards all at 1080 pixels' unit, and the kiosk's own
    at 1920x1080 the probe's landscape board again; a renderer rebuilt for a
    language's turn or a reload of the same theme draws nothing anew.  Each cache
    is bounded, and so is how many are kept (:data:`SHARED`); a font file
    replaced on disk is another key, so nothing drawn with the old file is shown.
    It draws with one font per file until a board that draws on has drawn its first
    frame (:meth:`TextCache.settle`): a start opens no font per size.
    """
    files = (*fonts.chain(bold=False), *fonts.chain(bold=True))
    key = (*(open_fonts.version(path) for path in files), scale)
    cache = _shared.pop(key, None)
    if cache is None or not cache.usable():
        cache = TextCache(fonts, scale, own_sizes=False)
    _shared[key] = cache  # (re)inserted last: the most recently asked for
    while len(_shared) > SHARED:
        _shared.popitem(last=False)
    return cache


class TextCache:
    """Font files at any pixel size (each opened once per process: :mod:`._open_fonts`), and
    the rendered strings."""

    def __init__(self, fonts: Fonts, scale: float = 1.0, *, own_sizes: bool = True) -> None:
        """``own_sizes``: see :attr:`own_sizes`."""
        if not pygame.font.get_init():
            pygame.font.init()
        self.chains: dict[bool, tuple[Path, ...]] = {
            bold: fonts.chain(bold=bold) for bold in (False, True)
        }
        self.scale = scale
        #: Each size drawn with a font of its own, which keeps its glyphs from frame to frame
        #: (False: with the file's one font, resized; see :meth:`one_font_per_file`).
        self.own_sizes = own_sizes
        self._fonts: dict[tuple[bool, int], pygame.font.Font] = {}  # by (bold, at)
        self._own: dict[tuple[bool, int, int], pygame.font.Font] = {}  # by (bold, size, at)
        self._texts: dict[tuple[str, bool, int, RGB], pygame.Surface] = {}
        self._glyphs: dict[tuple[bool, str], int] = {}
        self._in: dict[tuple[bool, int, str], bool] = {}
        self._faces: dict[tuple[bool, int], pygame.freetype.Font] = {}
        self._replacement: dict[bool, str] = {}
        self._caps: dict[tuple[bool, int], int] = {}
        self._ascents: dict[tuple[bool, int], int] = {}
        # Measurements are pure given the fonts, and a panel asks the same ones every frame.
        self._widths: dict[tuple[str, int, bool], int] = {}
        self._shown: dict[tuple[str, bool], str] = {}
        self._cap_sizes: dict[tuple[float, bool], int] = {}
        # Pixel height of a line per unit of font size, to size text by box height.
        self.line_ratio = open_fonts.font(self.chains[False][0], 100).get_height() / 100

    def usable(self) -> bool:
        """False once pygame quit its font modules since this opened its fonts (they are dead)."""
        kept = (*self._fonts.values(), *self._own.values())
        fonts = all(open_fonts.alive(font.get_height) for font in kept)
        return fonts and all(
            open_fonts.alive(face.get_sized_ascender) for face in self._faces.values()
        )

    def __len__(self) -> int:
        """How many rendered strings are kept (never more than :data:`MAX_CACHED`)."""
        return len(self._texts)

    @contextlib.contextmanager
    def one_font_per_file(self) -> Iterator[None]:
        """Meanwhile each file's one font, resized, measures and draws (:mod:`._open_fonts`).

        For boards drawn once and dropped (the theme probe's three, a screenshot): a
        font opened per size costs a millisecond and a megabyte, and would be kept for
        sizes no board draws again.
        """
        own, self.own_sizes = self.own_sizes, False
        try:
            yield
        finally:
            self.own_sizes = own

    def settle(self) -> None:
        """From now on each size is drawn with a font of its own (:attr:`own_sizes`): a board
        drawing frame after frame calls it once its first frame is drawn."""
        self.own_sizes = True

    def ascent(self, size: int, *, bold: bool = False) -> int:
        """How far the theme's font reaches above its baseline at ``size`` (a metric: no glyph
        is drawn, so the file's one font, resized, answers)."""
        key = (bold, max(6, int(size)))
        ascent = self._ascents.get(key)
        if ascent is None:
            ascent = self._ascents[key] = self._resized(key[1], bold, 0).get_ascent()
        return ascent

    def font(self, size: int, *, bold: bool = False, at: int = 0) -> pygame.font.Font:
        """The ``at``-th font of the chain (0: the theme's own) at ``size``, to draw with.

        Without ``own_sizes``, the file's one font resized (:mod:`._open_fonts`): use
        it before asking for another size of the same font.
        """
        size = max(6, int(size))
        if self.own_sizes:
            own = self._own.get((bold, size, at))
            if own is None:
                own = self._own[(bold, size, at)] = open_fonts.font_at(self.chains[bold][at], size)
            return own
        return self._resized(size, bold, at)

    def _resized(self, size: int, bold: bool, at: int) -> pygame.font.Font:
        font = self._fonts.get((bold, at))
        if font is None:
            font = self._fonts[(bold, at)] = open_fonts.font(self.chains[bold][at], size)
        return open_fonts.sized(font, size)

    def has_glyph(self, char: str, *, bold: bool = False) -> bool:
        """Whether a font of the chain draws ``char`` (a single character) itself."""
        return self.owner(char, bold=bold) >= 0

    def owner(self, char: str, *, bold: bool = False) -> int:
        """The place in the chain of the first font with a glyph for ``char`` (-1: none has).

        SDL_ttf draws a missing glyph as the font's blank or boxed "notdef" and
        says nothing, so FreeType, which does say, is asked once per font and character.
        """
        key = (bold, char)
        known = self._glyphs.get(key)
        if known is None:
            known = -1
            if not undrawable_category(char):
                for at in range(len(self.chains[bold])):
                    if self._in_font(char, bold, at):
                        known = at
                        break
            self._glyphs[key] = known
        return known

    def runs(self, text: str, *, bold: bool = False) -> list[tuple[int, str]]:
        """``text`` (already :meth:`drawable`) cut where the font that draws it changes.

        A word with a character only a later font has is drawn whole by that font
        when it has every letter of it ("Người", not "Ng" + "ười" in two fonts).
        A character no font has (the replacement mark, when none has that either)
        goes to the theme's font, which draws its own "missing" box.
        """
        owners = [max(self.owner(char, bold=bold), 0) for char in text]
        start = 0
        for end in [*(i for i, char in enumerate(text) if char.isspace()), len(text)]:
            later = max(owners[start:end], default=0)
            if later and all(self._in_font(char, bold, later) for char in text[start:end]):
                owners[start:end] = [later] * (end - start)
            start = end + 1
        found: list[tuple[int, str]] = []
        for char, at in zip(text, owners, strict=True):
            if found and at == found[-1][0]:
                found[-1] = (at, found[-1][1] + char)
            else:
                found.append((at, char))
        return found

    def _in_font(self, char: str, bold: bool, at: int) -> bool:
        """Whether the ``at``-th font of the chain has ``char`` (kept per font and character)."""
        key = (bold, at, char)
        known = self._in.get(key)
        if known is None:
            known = self._in[key] = self._face(bold, at).get_metrics(char)[0] is not None
        return known

    def drawable(self, text: str, *, bold: bool = False) -> str:
        """``text`` with each character the font cannot draw replaced by a visible mark."""
        key = (text, bold)
        shown = self._shown.get(key)
        if shown is None:
            shown = text
            if not all(self.has_glyph(char, bold=bold) for char in text):
                mark = self._replacement_mark(bold)
                shown = "".join(char if self.has_glyph(char, bold=bold) else mark for char in text)
            remember(self._shown, key, shown)
        return shown

    def width(self, text: str, size: int, *, bold: bool = False) -> int:
        """The pixel width of ``text`` as :meth:`render` draws it at ``size``."""
        key = (text, max(6, int(size)), bold)
        width = self._widths.get(key)
        if width is None:
            runs = self.runs(self.drawable(text, bold=bold), bold=bold)
            width = sum(int(self.font(size, bold=bold, at=at).size(run)[0]) for at, run in runs)
            remember(self._widths, key, width)
        return width

    def _face(self, bold: bool, at: int) -> pygame.freetype.Font:
        face = self._faces.get((bold, at))
        if face is None:
            face = self._faces[(bold, at)] = open_fonts.face(self.chains[bold][at])
        return face

    def _replacement_mark(self, bold: bool) -> str:
        mark = self._replacement.get(bold)
        if mark is None:
            have = [m for m in REPLACEMENTS if self.has_glyph(m, bold=bold)]
            mark = have[0] if have else REPLACEMENTS[0]
            self._replacement[bold] = mark
        return mark

    def cap_height(self, size: int, *, bold: bool = False) -> int:
        """The ink height in pixels of a capital "H" at font ``size``: the size a reader sees."""
        key = (bold, max(6, int(size)))
        cap = self._caps.get(key)
        if cap is None:
            metrics = open_fonts.metrics(self.chains[bold][0], key[1], "H")[0]
            cap = 0 if metrics is None else metrics[3] - metrics[2]
            self._caps[key] = cap
        return cap

    def cap_middle(self, size: int, *, bold: bool = False) -> int:
        """How far below the top of a rendered line the middle of its capitals is.

        Text is centred on its capitals, not on its line box: the box has room
        for accents and CJK ink above and descenders below, and centring it
        would push the descenders out of a tight strip.
        """
        return round(self.ascent(size, bold=bold) - self.cap_height(size, bold=bold) / 2)

    def size_for_cap(self, cap: float, *, bold: bool = False) -> int:
        """The smallest font size whose capitals are at least ``cap`` pixels tall."""
        key = (cap, bold)
        found = self._cap_sizes.get(key)
        if found is None:
            found = self._size_for_cap(cap, bold)
            remember(self._cap_sizes, key, found)
        return found

    def _size_for_cap(self, cap: float, bold: bool) -> int:
        probe = self.cap_height(200, bold=bold) / 200 or 0.7
        size = max(6, int(cap / probe))
        while self.cap_height(size, bold=bold) < cap and size < 4096:
            size += 1
        while size > 6 and self.cap_height(size - 1, bold=bold) >= cap:
            size -= 1
        return size

    def shorten(self, text: str, size: int, max_width: float, *, bold: bool = False) -> str:
        """``text`` cut at the end with an ellipsis until it fits ``max_width`` at ``size``.

        Used where shrinking the font would take it below its role's floor: a
        long table name loses its end, never its readability.
        """
        if self.width(text, size, bold=bold) <= max_width:
            return text
        mark = ELLIPSIS if self.has_glyph(ELLIPSIS, bold=bold) else "..."
        low, high = 0, len(text)
        while low < high:  # the longest prefix that fits with the mark
            mid = (low + high + 1) // 2
            if self.width(text[:mid].rstrip() + mark, size, bold=bold) <= max_width:
                low = mid
            else:
                high = mid - 1
        return text[:low].rstrip() + mark

    def lines(self, text: str, size: int, width: float, *, bold: bool = False) -> list[str]:
        """``text`` on one line if it fits ``width`` at ``size``, else broken in two.

        The break goes at the space that leaves the longer line shortest (so
        "1:1 (Dragon 7 push)" becomes "1:1" over "(Dragon 7 push)"); a line still
        too long is cut with an ellipsis.
        """
        text = self.drawable(text, bold=bold)
        if self.width(text, size, bold=bold) <= width or " " not in text.strip():
            return [self.shorten(text, size, width, bold=bold)]
        cuts = [i for i, char in enumerate(text) if char == " "]
        best = min(
            cuts,
            key=lambda i: max(
                self.width(text[:i], size, bold=bold), self.width(text[i + 1 :], size, bold=bold)
            ),
        )
        return [
            self.shorten(part.strip(), size, width, bold=bold)
            for part in (text[:best], text[best + 1 :])
        ]

    def size_for_height(self, height: float) -> int:
        """The font size whose glyphs (not the font's generous CJK line gap) fill ``height``."""
        return max(6, int(height * self.scale / (self.line_ratio * 0.8)))

    def size_to_fit(self, height: float, max_width: float, width_at: Callable[[int], float]) -> int:
        """The font size for ``height``, shrunk until ``width_at(size)`` fits ``max_width``.

        ``width_at`` measures the text (or the widest of several) at a font size;
        a ``max_width`` of 0 or less sets no limit.
        """
        size = self.size_for_height(height)
        width = width_at(size)
        if width > max_width > 0:
            size = max(6, int(size * max_width / width))
        return size

    def render(self, text: str, size: int, color: RGB, *, bold: bool = False) -> pygame.Surface:
        """``text`` drawn at ``size``: the kept surface when it was drawn lately, else a new one."""
        key = (text, bold, max(6, int(size)), color)
        texts = self._texts
        surface = texts.pop(key, None)
        if surface is None:
            surface = self._draw(self.drawable(text, bold=bold), size, color, bold)
            if len(texts) >= MAX_CACHED:
                del texts[next(iter(texts))]  # the least recently used
        texts[key] = surface  # (re)inserted last: most recently used
        return surface

    def _draw(self, shown: str, size: int, color: RGB, bold: bool) -> pygame.Surface:
        """``shown`` drawn run by run, each font's baseline on the theme's font's."""
        runs = self.runs(shown, bold=bold)
        main = self.font(size, bold=bold)
        if len(runs) <= 1 and (not runs or runs[0][0] == 0):
            return main.render(shown, True, color)
        drawn = [(self.font(size, bold=bold, at=at), run) for at, run in runs]
        parts = [(font, font.render(run, True, color)) for font, run in drawn]
        width = sum(part.get_width() for _, part in parts)
        surface = pygame.Surface((width, main.get_height()), pygame.SRCALPHA)
        x = 0
        for font, part in parts:
            # MAX, not alpha blending: the surface is clear, and its black must not darken edges
            y = main.get_ascent() - font.get_ascent()
            surface.blit(part, (x, y), special_flags=pygame.BLEND_RGBA_MAX)
            x += part.get_width()
        return surface

    def fit(
        self, text: str, height: float, max_width: float, color: RGB, *, bold: bool = False
    ) -> pygame.Surface:
        """Text as tall as ``height`` allows, shrunk until it fits ``max_width``."""
        size = self.fit_size(text, height, max_width, bold=bold)
        return self.render(text, size, color, bold=bold)

    def fit_size(self, text: str, height: float, max_width: float, *, bold: bool = False) -> int:
        """The font size :meth:`fit` draws ``text`` at."""
        return self.size_to_fit(height, max_width, lambda s: self.width(text, s, bold=bold))
