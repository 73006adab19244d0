"""Nothing covers anything: the header's marks and numbers, and every panel inside its own body.

Rectangles come from what the painters report (the header's view, the text
log) and from the pixels that changed, every shipped theme, both orientations.
"""

from __future__ import annotations

import pygame
import pytest
from pixels import changed_area
from shipped_themes import shipped_theme

from scoreboard.cli.commands.screenshot import dealt_table
from scoreboard.game.limits import Limits
from scoreboard.game.variants import VARIANTS
from scoreboard.screen.board._ask_road import draw_ask_road
from scoreboard.screen.board._chrome import draw_footer, draw_header
from scoreboard.screen.board._counters_panel import draw_counters
from scoreboard.screen.board._hand import draw_last_coup
from scoreboard.screen.board._limits_panel import draw_limits
from scoreboard.screen.board.panels import DrawnText
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.loading import available_themes
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState

SIZES = [
    (1080, 1920),
    (720, 1280),
    (1920, 1080),
    (1280, 720),
    (1280, 1024),
    (3840, 2160),
    (3840, 1080),
    (2560, 1080),
]
IDS = [f"{w}x{h}" for w, h in SIZES]

pytestmark = pytest.mark.usefixtures("pygame_display")


def table() -> TableState:
    variant = VARIANTS["ez"]
    shown = TableState(table_id="T12", variant=variant, limits=Limits.default_for(variant))
    return dealt_table(3, 72, table=shown)


def ink(renderer: Renderer, text: DrawnText) -> pygame.Rect:
    """Where the glyphs of ``text`` are (its line box is taller than its ink)."""
    glyphs = renderer.text.render(text.text, text.size, text.color, bold=text.bold)
    return glyphs.get_bounding_rect().move(text.rect.topleft)


STATES = [
    (status, fault, journal)
    for status in FeedStatus
    for fault, journal in ((False, False), (True, False), (False, True), (True, True))
]


@pytest.mark.parametrize("name", available_themes())
@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_no_status_mark_covers_the_game_caption_and_number(name, size):
    """CONNECTING, OFFLINE, SHOE OFFLINE, MISSING GAMES, DEMO, LIVE, DISPLAY FAULT, JOURNAL."""
    renderer = Renderer(shipped_theme(name), size)
    shown = table()
    header = renderer.layout.panels["header"].body
    for status, fault, journal in STATES:
        surface = renderer.static.copy()
        view = draw_header(
            renderer.panels, surface, shown, status, "21:45", fault=fault, journal_failing=journal
        )
        marks = dict(view.regions)["marks"]
        assert header.contains(marks), (status, marks, header)
        for entry in view.entries:
            for text in (entry.label, entry.value):
                where = ink(renderer, text)
                assert not where.colliderect(marks), (status, fault, journal, text.text, where)
                assert header.contains(where), (text.text, where)
        numbers = [entry.value for entry in view.entries] + [entry.label for entry in view.entries]
        for i, one in enumerate(numbers):
            for other in numbers[i + 1 :]:
                assert not ink(renderer, one).colliderect(ink(renderer, other)), (one, other)


@pytest.mark.parametrize("name", available_themes())
@pytest.mark.parametrize("size", [(1080, 1920), (1920, 1080)], ids=["portrait", "landscape"])
def test_the_title_stays_clear_of_the_numbers_with_a_long_table_name(name, size):
    renderer = Renderer(shipped_theme(name), size)
    shown = table()
    shown.table_name = "Salon Privé — Grand Baccarat Table Number Twelve by the Window"
    log: list[DrawnText] = []
    renderer.panels.log = log
    view = draw_header(renderer.panels, renderer.static.copy(), shown, FeedStatus.LIVE, "21:45")
    title = log[0] if log[0].text.startswith(("Baccarat", "Salon")) else log[1]
    drawn = [e.label for e in view.entries] + [e.value for e in view.entries]
    for text in drawn:
        assert not ink(renderer, title).colliderect(ink(renderer, text)), (title.text, text.text)
    assert not ink(renderer, title).colliderect(dict(view.regions)["marks"])


def panel_drawers(renderer: Renderer, shown: TableState):
    painter = renderer.panels
    return {
        "header": lambda s: draw_header(painter, s, shown, FeedStatus.MISSING_GAMES, "21:45"),
        "counters": lambda s: draw_counters(painter, s, shown),
        "predictions": lambda s: draw_ask_road(painter, s, shown.roads),
        "last_coup": lambda s: draw_last_coup(painter, s, shown),
        "limits": lambda s: draw_limits(painter, s, shown.limits),
        "footer": lambda s: draw_footer(painter, s),
    }


@pytest.mark.parametrize("name", available_themes())
@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_nothing_a_panel_draws_leaves_its_panel(name, size):
    """Every pixel a panel changes is inside its body (titles: inside the panel's title strip)."""
    renderer = Renderer(shipped_theme(name), size)
    shown = table()
    for panel, draw in panel_drawers(renderer, shown).items():
        box = renderer.layout.panels.get(panel)
        if box is None:
            continue
        surface = renderer.static.copy()
        draw(surface)
        area = changed_area(renderer.static, surface)
        if area is None:
            continue
        allowed = box.body if box.title is None else box.body.union(box.title)
        assert allowed.contains(area), f"{panel} drew {area}, outside {allowed}"


@pytest.mark.parametrize("name", available_themes())
@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_no_two_texts_of_a_panel_overlap(name, size):
    renderer = Renderer(shipped_theme(name), size)
    shown = table()
    for panel, draw in panel_drawers(renderer, shown).items():
        if panel not in renderer.layout.panels:
            continue
        log: list[DrawnText] = []
        renderer.panels.log = log
        draw(renderer.static.copy())
        renderer.panels.log = None
        inks = [(text.text, ink(renderer, text)) for text in log]
        for i, (one, where) in enumerate(inks):
            for other, there in inks[i + 1 :]:
                assert not where.colliderect(there), (
                    f"{panel}: {one!r} {where} over {other!r} {there}"
                )
