"""Panel contents: the painter every panel draws with, and what it reports having drawn.

:class:`PanelPainter` holds the text-size rule (:data:`CAP_FLOORS`: each text
keeps its role's floor, and a text too long at the floor is wrapped or cut,
never shrunk); the panels live in ``counters_panel``, ``ask_road``,
``limits_panel``, ``hand`` and ``chrome``, which import this module (never the
other way: no cycle).
Each draws one panel's content into its body rectangle on top of the cached
static layer; sizes are fractions of that rectangle, never pixels.  The
panels of labelled values (counters, header) return a :class:`PanelView` of
what they drew, and :attr:`PanelPainter.log` keeps every text drawn, so tests
and tools read the board from the drawing itself rather than from the state.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, TypeVar

import pygame

from scoreboard.screen.board.canvas import Op, Recorder, draw_rect
from scoreboard.screen.board.layout import ScreenLayout
from scoreboard.screen.board.marks import RoadPainter
from scoreboard.screen.board.text import CAP_FLOORS, TextCache, remember
from scoreboard.screen.theme.values import RGB, Theme

_T = TypeVar("_T")

MAX_PARTS = 256
"""How many drawn parts (:meth:`PanelPainter.part`) a painter keeps; a coup meets a few new ones."""

MAX_PLACED = 2048
"""How many text placements (:meth:`PanelPainter.put`) a painter keeps."""


@dataclass(frozen=True, slots=True)
class DrawnText:
    """A text as drawn: what it says, where, and how, enough to draw it again and compare.

    ``role`` says which floor of the text-size rule it keeps
    (:data:`~scoreboard.screen.board.text.CAP_FLOORS`): ``"number"`` for the numbers a
    player reads, ``"label"`` for the words naming them, ``"text"`` for the rest.
    """

    text: str
    rect: pygame.Rect
    size: int
    color: RGB
    bold: bool = False
    role: str = "text"


@dataclass(frozen=True, slots=True)
class Entry:
    """One labelled value on a panel, such as "Natural" and "B 1 · P 2".

    ``key`` names the label in the theme (``natural``, ``game``), whatever the
    languages shown.
    """

    key: str
    label: DrawnText
    value: DrawnText


@dataclass(frozen=True, slots=True)
class PanelView:
    """The labelled values a panel drew, in drawing order, and where its other parts went.

    ``regions`` names the rectangles of parts that are not labelled values
    (the header's ``marks``: the feed mark and any warning beside it), so a
    test can check that nothing covers them.

    >>> def drawn(text):
    ...     return DrawnText(text, pygame.Rect(0, 0, 1, 1), 9, (0, 0, 0))
    >>> view = PanelView((Entry("games", drawn("Games"), drawn("3")),))
    >>> view.pairs(), view.value("games").text
    ([('Games', '3')], '3')
    """

    entries: tuple[Entry, ...] = ()
    regions: tuple[tuple[str, pygame.Rect], ...] = ()

    def pairs(self) -> list[tuple[str, str]]:
        """(label, value) texts, as a reader of the screen would list them."""
        return [(entry.label.text, entry.value.text) for entry in self.entries]

    def value(self, key: str) -> DrawnText:
        """The value drawn beside the label ``key``; KeyError when the panel shows none."""
        for entry in self.entries:
            if entry.key == key:
                return entry.value
        raise KeyError(key)


def aligned(where: pygame.Rect, box: pygame.Rect, align: str) -> None:
    """Move ``where`` across ``box``: ``"left"``, ``"center"`` or ``"right"`` aligned.

    >>> where = pygame.Rect(0, 0, 10, 5)
    >>> aligned(where, pygame.Rect(100, 0, 50, 5), "right")
    >>> where.x
    140
    """
    if align == "center":
        where.centerx = box.centerx
    elif align == "right":
        where.right = box.right
    else:
        where.left = box.left


class PanelPainter:
    """Draws panel contents; shares the text cache and the road symbols.

    ``log``: set it to a list and every text a panel draws is appended to it as
    a :class:`DrawnText` (with its role), in drawing order, until it is set
    back to None.  Tests and tools read the sizes on the board from it; the
    kiosk leaves it None, which costs nothing.

    Layout is worked out once per content: where :meth:`put` places a text
    (its fitted size, cut and position) is kept per text, box and style, and a
    :meth:`part` of a panel (an ask-road row, a hand's head, a counter row)
    is kept as the operations it recorded, per the values it shows.  A coup
    that changes three numbers lays out three numbers.
    """

    def __init__(
        self, theme: Theme, layout: ScreenLayout, text: TextCache, roads: RoadPainter
    ) -> None:
        self.theme = theme
        self.layout = layout
        self.text = text
        self.roads = roads
        self.colors = theme.colors
        self.log: list[DrawnText] | None = None
        self._words: dict[tuple[str, str], str] = {}
        self._names: dict[str, tuple[str, ...]] = {}
        self._least: dict[tuple[str, bool], int] = {}
        self._placed: dict[tuple[Any, ...], DrawnText] = {}
        self._parts: dict[Hashable, tuple[tuple[Op, ...], Any]] = {}
        self._layouts: dict[Hashable, Any] = {}

    # -- helpers ----------------------------------------------------------------------
    def words(self, key: str, sep: str = " ") -> str:
        """The label ``key`` in every shown language, each once, joined by ``sep``."""
        found = self._words.get((key, sep))
        if found is None:
            found = self._words[(key, sep)] = sep.join(dict.fromkeys(self.names(key)))
        return found

    def names(self, key: str) -> tuple[str, ...]:
        """The label ``key`` in each shown language, primary first (the theme's, kept)."""
        found = self._names.get(key)
        if found is None:
            found = self._names[key] = self.theme.label(key)
        return found

    def floor(self, role: str) -> float:
        """The smallest cap height in pixels text of ``role`` may have on this screen."""
        return CAP_FLOORS[role] * self.layout.unit

    def min_size(self, role: str, *, bold: bool = False) -> int:
        """The smallest font size of ``role``: its capitals reach :meth:`floor`."""
        found = self._least.get((role, bold))
        if found is None:
            found = self.text.size_for_cap(self.floor(role), bold=bold)
            self._least[(role, bold)] = found
        return found

    def laid_out(self, key: Hashable, compute: Callable[[], _T]) -> _T:
        """``compute()``, worked out once per ``key`` (a panel's layout for a content shape).

        ``key`` names everything the layout depends on besides this painter's
        theme and layout; the value is shared: immutable values only.
        """
        layouts = self._layouts
        if key in layouts:
            return layouts[key]
        found = compute()
        remember(layouts, key, found, MAX_PLACED)
        return found

    def part(
        self, surface: pygame.Surface, key: Hashable, draw: Callable[[pygame.Surface], _T]
    ) -> _T:
        """``draw(surface)``, recorded once per ``key`` and replayed after; its result kept.

        ``key`` must name everything the drawing depends on besides this
        painter's theme and layout (a part's name, its rectangle, the values it
        shows): a different value is a different key, so a change is drawn.
        Only on a :class:`~scoreboard.screen.board.canvas.Recorder` (what the renderer
        draws the small panels on) and while no :attr:`log` is kept; elsewhere
        it just draws.  The result is shared between draws: values only.
        """
        if self.log is not None or not isinstance(surface, Recorder):
            return draw(surface)
        parts = self._parts
        found = parts.pop(key, None)
        if found is None:
            pen = Recorder(surface.frame_size)
            result = draw(pen)
            found = (tuple(pen.ops), result)
            if len(parts) >= MAX_PARTS:
                del parts[next(iter(parts))]  # the least recently used
        parts[key] = found  # (re)inserted last: most recently used
        surface.ops.extend(found[0])
        return found[1]

    def record(self, drawn: DrawnText) -> DrawnText:
        """Add ``drawn`` to :attr:`log` (when kept); returns it."""
        if self.log is not None:
            self.log.append(drawn)
        return drawn

    def placeholder(self, surface: pygame.Surface, name: str) -> None:
        """A neutral panel: its background and a large dash, for a panel that failed to draw.

        Drawn with shapes only, no text, so whatever broke the panel (a font, a
        value) cannot break its placeholder too.
        """
        body = self.layout.panels[name].body
        fill = self.colors.header_background if name == "header" else self.colors.panel
        draw_rect(surface, fill, body)
        length = max(4, round(min(body.width * 0.3, body.height * 0.6)))
        dash = pygame.Rect(0, 0, length, max(2, round(length * 0.09)))
        dash.center = body.center
        draw_rect(surface, self.colors.muted, dash, border_radius=dash.height // 2)

    def sized(
        self,
        text: str,
        box: pygame.Rect,
        *,
        bold: bool = False,
        height: float | None = None,
        cap: float | None = None,
        role: str = "text",
    ) -> tuple[str, int]:
        """The text and font size :meth:`put` draws in ``box``.

        As tall as ``height`` (default the box's) allows, shrunk to the box's
        width but never below the role's floor: a text too long at the floor
        is cut with an ellipsis instead.
        """
        text = self.text.drawable(text, bold=bold)
        if cap is None:
            size = self.text.fit_size(text, height or box.height, box.width, bold=bold)
        else:
            start = self.text.size_for_cap(cap, bold=bold)
            width = self.text.width(text, start, bold=bold)
            size = start if width <= box.width else max(6, int(start * box.width / width))
        least = self.min_size(role, bold=bold)
        if size < least:
            size = least
            text = self.text.shorten(text, size, box.width, bold=bold)
        return text, size

    def put(
        self,
        surface: pygame.Surface,
        text: str,
        box: pygame.Rect,
        color: RGB,
        *,
        bold: bool = False,
        align: str = "left",
        height: float | None = None,
        cap: float | None = None,
        role: str = "text",
    ) -> DrawnText:
        """Fit ``text`` into ``box`` (vertically centred) and return how it was drawn.

        ``height`` sizes it by its line box, ``cap`` by its capitals; see :meth:`sized`.
        The placement is worked out once per text, box and style; the returned
        value is shared by every draw of it (read it, never change its rect).
        """
        key = (text, box.x, box.y, box.w, box.h, color, bold, align, height, cap, role)
        placed = self._placed.get(key)
        if placed is None:
            shown, size = self.sized(text, box, bold=bold, height=height, cap=cap, role=role)
            rendered = self.text.render(shown, size, color, bold=bold)
            where = rendered.get_rect(top=box.centery - self.text.cap_middle(size, bold=bold))
            aligned(where, box, align)
            placed = DrawnText(shown, where, size, color, bold, role)
            remember(self._placed, key, placed, MAX_PLACED)
        else:
            rendered = self.text.render(placed.text, placed.size, color, bold=bold)
        surface.blit(rendered, placed.rect)
        return self.record(placed)

    def blit_text(
        self, surface: pygame.Surface, text: DrawnText, anchor: str, at: tuple[int, int]
    ) -> DrawnText:
        """Draw ``text`` with its ``anchor`` point (``"midleft"``, ...) at ``at``.

        Placed once per text and anchor, like :meth:`put`.
        """
        key = (text.text, text.size, text.color, text.bold, text.role, anchor, at)
        placed = self._placed.get(key)
        if placed is None:
            shown = self.text.drawable(text.text, bold=text.bold)
            rendered = self.text.render(shown, text.size, text.color, bold=text.bold)
            where = rendered.get_rect(**{anchor: at})
            placed = DrawnText(shown, where, text.size, text.color, text.bold, text.role)
            remember(self._placed, key, placed, MAX_PLACED)
        else:
            rendered = self.text.render(placed.text, placed.size, placed.color, bold=placed.bold)
        surface.blit(rendered, placed.rect)
        return self.record(placed)

    def put_lines(
        self,
        surface: pygame.Surface,
        texts: list[str],
        box: pygame.Rect,
        color: RGB,
        size: int,
        *,
        bold: bool = False,
        align: str = "left",
        role: str = "text",
    ) -> list[DrawnText]:
        """Lines of one size, stacked and centred on ``box`` vertically, aligned across it."""
        rendered = [self.text.render(line, size, color, bold=bold) for line in texts]
        step = round(self.text.cap_height(size, bold=bold) * 1.45)
        top = box.centery - (step * (len(texts) - 1)) // 2
        drawn = []
        for n, (line, glyphs) in enumerate(zip(texts, rendered, strict=True)):
            where = glyphs.get_rect(top=top + n * step - self.text.cap_middle(size, bold=bold))
            aligned(where, box, align)
            surface.blit(glyphs, where)
            drawn.append(self.record(DrawnText(line, where, size, color, bold, role)))
        return drawn

    def title(self, surface: pygame.Surface, name: str, extra: str = "") -> None:
        """The panel's title strip: primary label, then the other languages, muted."""
        box = self.layout.panels[name].title
        if box is None:
            return
        self.part(surface, ("title", name, extra), lambda pen: self._title(pen, box, name, extra))

    def _title(self, surface: pygame.Surface, box: pygame.Rect, name: str, extra: str) -> None:
        inner = box.inflate(-2 * self.layout.px(0.01), -round(box.height * 0.3))
        labels = self.names(name)
        where = self.put(
            surface, labels[0] + extra, inner, self.colors.title, bold=True, role="label"
        ).rect
        for other in labels[1:]:
            rest = pygame.Rect(where.right + inner.height // 2, inner.y, inner.width, inner.height)
            rest.width = max(1, inner.right - rest.x)
            if rest.width < self.text.width(other[:1], self.min_size("label")):
                break  # no room for even one character: the primary label says it
            where = self.put(surface, other, rest, self.colors.muted, role="label").rect

    def put_label(
        self,
        surface: pygame.Surface,
        key: str,
        box: pygame.Rect,
        color: RGB,
        cap: float,
        *,
        bold: bool = False,
        align: str = "left",
    ) -> list[DrawnText]:
        """The label ``key`` at capitals ``cap`` (or down to the label floor) in ``box``.

        Every shown language on one line when it fits; else one language a line
        when the box is tall enough for them; else the primary language alone,
        cut with an ellipsis if it must be.
        """
        size = self.text.size_for_cap(cap, bold=bold)
        least = self.min_size("label", bold=bold)
        full = self.words(key)
        widest = self.text.width(full, size, bold=bold)
        if widest > box.width:
            size = max(least, int(size * box.width / widest))
        if self.text.width(full, size, bold=bold) <= box.width:
            return self.put_lines(
                surface, [full], box, color, size, bold=bold, align=align, role="label"
            )
        names = list(dict.fromkeys(self.names(key)))
        size = self.text.size_for_cap(cap, bold=bold)
        widest = max(self.text.width(name, size, bold=bold) for name in names)
        if widest > box.width:
            size = max(least, int(size * box.width / widest))
        step = self.text.cap_height(size, bold=bold) * 1.45
        if len(names) > 1 and box.height >= step * (len(names) - 1) + step:
            lines = [self.text.shorten(n, size, box.width, bold=bold) for n in names]
        else:
            lines = [self.text.shorten(names[0], size, box.width, bold=bold)]
        return self.put_lines(
            surface, lines, box, color, size, bold=bold, align=align, role="label"
        )

    def label_fits(self, key: str, box: pygame.Rect, *, bold: bool = False) -> bool:
        """Whether :meth:`put_label` draws ``key`` in ``box`` without cutting any of it."""
        size = self.min_size("label", bold=bold)
        names = list(dict.fromkeys(self.names(key)))
        if self.text.width(" ".join(names), size, bold=bold) <= box.width:
            return True
        step = self.text.cap_height(size, bold=bold) * 1.45
        tall = box.height >= step * len(names)
        widest = max(self.text.width(name, size, bold=bold) for name in names)
        return widest <= box.width and (tall or len(names) == 1)

    def label_text(self, key: str, size: int, width: float, *, bold: bool = False) -> str:
        """The label of ``key`` in every shown language if it fits ``width`` at ``size``.

        Else the primary language alone, cut with an ellipsis if still too long:
        a narrow panel keeps one readable name rather than two small ones.
        """
        full = self.words(key)
        if self.text.width(full, size, bold=bold) <= width:
            return full
        return self.text.shorten(self.names(key)[0], size, width, bold=bold)

    def bet_name(self, bet: str, *, primary: bool = False) -> str:
        """A bet's name in the shown languages (``primary``: the first only).

        A feed's own bet that the theme has no label for is named from its key.
        """
        try:
            return self.names(bet)[0] if primary else self.words(bet)
        except AttributeError:
            return bet.replace("_", " ").title()

    def notice(self, surface: pygame.Surface, area: pygame.Rect, text: str) -> None:
        """A quiet message on a panel-coloured plate, centred in ``area`` (empty roads)."""
        height = min(area.height * 0.14, self.layout.unit * 0.045)
        box = pygame.Rect(0, 0, round(area.width * 0.8), round(height))
        box.center = area.center
        shown, size = self.sized(text, box, role="label")
        glyphs = self.text.render(shown, size, self.colors.muted)
        where = glyphs.get_rect(top=box.centery - self.text.cap_middle(size))
        where.centerx = box.centerx
        pad = self.text.cap_height(size)
        plate = where.inflate(round(pad * 1.6), round(pad * 0.4))
        draw_rect(surface, self.colors.panel, plate, border_radius=self.layout.radius)
        surface.blit(glyphs, where)
        self.record(DrawnText(shown, where, size, self.colors.muted, False, "label"))
