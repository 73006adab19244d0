"""The good roads on a table's own display: a plate in the big road's title row.

Off unless the config (``display.good_roads.enabled``) or ``--good-roads`` asks:
a casino decides whether its tables advertise patterns.  When on, the patterns
that hold now (:func:`scoreboard.roads.good_roads.good_roads`, so a void, a
correction or a new shoe that breaks one clears it) are named right of the
"Big Road" caption, in the theme's languages ("Long Banker 長莊 ×7"), on an
outlined plate that keeps clear of the caption and of the cut card's "final
hand" plate; the road's cells are below the title row, so no mark is covered.
Text keeps the label floor of the text-size rule; what does not fit becomes
"+2".  The responsible-gaming line stays in the footer.

The plate is redrawn only when what it shows changed or something else drew
over its rectangle, and then only that rectangle: a coup that changes no
pattern costs a comparison.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import pygame

from scoreboard.roads.good_roads import GoodRoad, GoodRoadRules, good_road_name, good_roads
from scoreboard.screen.board._chrome import draw_cut_card_plate, plate_in_header, plate_shows
from scoreboard.screen.board.canvas import Recorder, copy_area, draw_rect
from scoreboard.screen.board.layout import ScreenLayout
from scoreboard.screen.board.panels import DrawnText, PanelPainter
from scoreboard.table.state import TableState

__all__ = ["GoodRoadPlate", "good_road_words"]

log = logging.getLogger(__name__)

SEPARATOR = "  ·  "


def good_road_words(good: GoodRoad, languages: Sequence[str]) -> str:
    """A good road named in each of ``languages`` (:func:`good_road_name`), counted.

    >>> from scoreboard.roads.good_roads import Pattern
    >>> good_road_words(GoodRoad(Pattern.LONG_BANKER, 7), ("zh", "en"))
    '長莊 Long Banker ×7'
    >>> good_road_words(GoodRoad(Pattern.SINGLE_JUMP, 5), ("en",))
    'Single jump ×5'
    """
    names = dict.fromkeys(good_road_name(good.pattern, lang) for lang in languages)
    return f"{' '.join(names)} ×{good.length}"


class GoodRoadPlate:
    """Draws the good roads of a table into the big road's title row, only when they change."""

    def __init__(self, panels: PanelPainter, layout: ScreenLayout, rules: GoodRoadRules) -> None:
        self.panels = panels
        self.rules = rules
        #: The plate's rectangle on the frame now (None: nothing shown).
        self.drawn: pygame.Rect | None = None
        #: The words on the plate now ("" when none).
        self.text = ""
        self._version: int | None = None
        self._found: tuple[GoodRoad, ...] = ()
        self._shown: tuple[tuple[GoodRoad, ...], bool] | None = None
        self.reach = pygame.Rect(0, 0, 0, 0)
        self.rooms = self._rooms(layout)

    def _rooms(self, layout: ScreenLayout) -> tuple[pygame.Rect, pygame.Rect] | None:
        """Where the plate may go without and with the "final hand" plate up (None: no title)."""
        box = layout.panels.get("big_road")
        if box is None or box.title is None or plate_in_header(self.panels):
            return None
        title = box.title
        caption = Recorder(layout.size)
        self.panels.title(caption, "big_road")
        left = max((op.rect.right for op in caption.ops), default=title.x)
        gap = layout.px(0.012)
        strip = pygame.Rect(title.x, 0, box.body.right - title.x, round(title.height * 0.7))
        strip.centery = title.centery
        cut = draw_cut_card_plate(self.panels, Recorder(layout.size), strip)
        #: Where the plate's text may reach (a descender at the label floor on a small
        #: screen is taller than the plate): the title row inside its border and rule.
        line = 2 * layout.line  # the panel's border above, the title's rule below
        self.reach = pygame.Rect(title.x, title.y + line, title.width, title.height - 2 * line)
        free = pygame.Rect(left + gap, strip.y, max(0, strip.right - left - gap), strip.height)
        narrow = free.copy()
        narrow.width = max(0, cut.left - gap - free.x)
        return free, narrow

    def update(
        self,
        base: pygame.Surface,
        static: pygame.Surface,
        table: TableState,
        dirty: list[pygame.Rect],
        full: bool,
    ) -> list[pygame.Rect]:
        """Redraw the plate if its good roads changed or ``dirty`` reached it; what it touched."""
        if self.rooms is None:
            return []
        if table.version != self._version:
            self._found = () if table.shuffling else good_roads(table.roads, self.rules)
            self._version = table.version
        shown = (self._found, plate_shows(table))
        room = self.rooms[1] if shown[1] else self.rooms[0]
        area = pygame.Rect(room.x, self.reach.y, room.width, self.reach.height)
        if not full and shown == self._shown and area.collidelist(dirty) < 0:
            return []
        self._shown = None  # a draw that raises is tried again next update
        if area.width <= 0:
            return []
        copy_area(base, static, area)
        before = self.text
        self.drawn = self._draw(base, room, self._found)
        if self.text != before:  # what the pit sees, in the journal: at a pattern's change only
            log.info("good roads shown: %s", self.text or "none")
        self._shown = shown
        return [area]

    def _draw(
        self, surface: pygame.Surface, room: pygame.Rect, found: tuple[GoodRoad, ...]
    ) -> pygame.Rect | None:
        self.text = ""
        if not found or room.width <= 0:
            return None
        p = self.panels
        height = room.height
        pad = round(height * 0.45)
        inner = pygame.Rect(0, 0, room.width - 2 * pad, height)
        if inner.width < p.text.width("…", p.min_size("label", bold=True), bold=True):
            return None
        languages = p.theme.languages
        wordings = [[good_road_words(good, languages) for good in found]]
        if len(languages) > 1:  # too long in every language: the primary one says it
            wordings.append([good_road_words(good, languages[:1]) for good in found])
        text, size = self._fitting(wordings, inner, height)
        ink = p.colors.title
        label = p.text.render(text, size, ink, bold=True)
        plate = pygame.Rect(room.x, room.y, label.get_width() + 2 * pad, height)
        draw_rect(surface, p.colors.panel, plate, border_radius=max(2, height // 4))
        line = max(1, round(height * 0.08))
        draw_rect(surface, p.colors.accent, plate, line, border_radius=max(2, height // 4))
        where = label.get_rect(midleft=(plate.x + pad, plate.centery))
        shown = where.clip(self.reach)
        surface.blit(label, shown, shown.move(-where.x, -where.y))
        p.record(DrawnText(text, where, size, ink, True, "label"))
        self.text = text
        return plate

    def _fitting(self, wordings: list[list[str]], box: pygame.Rect, height: int) -> tuple[str, int]:
        """As many good roads as fit at the label floor, the rest counted ("+2").

        Every language first; then the primary one; only then the first good road
        is cut with "…".
        """
        p = self.panels
        least = p.min_size("label", bold=True)
        shown, size = "", least
        for words in wordings:
            for count in range(len(words), 0, -1):
                rest = len(words) - count
                text = SEPARATOR.join(words[:count]) + (f"  +{rest}" if rest else "")
                shown, size = p.sized(text, box, bold=True, height=height * 0.8, role="label")
                if shown == p.text.drawable(text, bold=True):
                    return shown, max(size, least)
        return shown, max(size, least)
