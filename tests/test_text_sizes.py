"""Readable from the seats: every text on the board keeps its role's cap-height floor.

With ``unit`` the shorter screen side, the numbers a player reads (minimum and
maximum bets, the B/P/T counts, the game number, the last hand's totals) have
capitals at least 3 % of unit tall, labels 1.8 %, and nothing is below 1.5 %
(:data:`scoreboard.screen.board.text.CAP_FLOORS`).  Every panel is drawn with the
painter's text log on, every shipped theme at five sizes, and each logged text
is measured from the font (the ink of "H" at its size).  The road symbols'
letters are measured on their pixels.
"""

from __future__ import annotations

import pygame
import pytest
from shipped_themes import shipped_theme

from scoreboard.cli.commands.screenshot import dealt_table
from scoreboard.game.limits import Limits
from scoreboard.game.rules import Winner, result_coup
from scoreboard.game.variants import VARIANTS
from scoreboard.roads.engine import BeadCell
from scoreboard.screen.board._ask_road import draw_ask_road
from scoreboard.screen.board._chrome import draw_footer, draw_header
from scoreboard.screen.board._counters_panel import draw_counters
from scoreboard.screen.board._hand import draw_last_coup
from scoreboard.screen.board._limits_panel import draw_limits
from scoreboard.screen.board.grid import sprite_size
from scoreboard.screen.board.panels import DrawnText
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.board.text import CAP_FLOORS
from scoreboard.screen.theme.loading import available_themes
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState

SIZES = [(1920, 1080), (1080, 1920), (1280, 720), (1280, 1024), (3840, 2160)]
IDS = [f"{w}x{h}" for w, h in SIZES]

pytestmark = pytest.mark.usefixtures("pygame_display")


def ez_table() -> TableState:
    """A long EZ Baccarat shoe (its long "1:1 (Dragon 7 push)" pays) with known limits."""
    variant = VARIANTS["ez"]
    table = TableState(table_id="T12", variant=variant, limits=Limits.default_for(variant))
    return dealt_table(1, 80, table=table)


def drawn_panels(renderer: Renderer, table: TableState, status: FeedStatus = FeedStatus.LIVE):
    """Every text each panel draws, by panel: titles, header, counters, ask road, hand, limits."""
    painter, surface = renderer.panels, renderer.static.copy()
    found: dict[str, list[DrawnText]] = {}

    def logged(name: str, draw) -> None:
        painter.log = found.setdefault(name, [])
        draw()
        painter.log = None

    for name, box in renderer.layout.panels.items():
        if box.title is not None:
            logged(name, lambda name=name: painter.title(surface, name))
    logged("header", lambda: draw_header(painter, surface, table, status, "21:45"))
    logged("counters", lambda: draw_counters(painter, surface, table))
    logged("predictions", lambda: draw_ask_road(painter, surface, table.roads))
    logged("last_coup", lambda: draw_last_coup(painter, surface, table))
    logged("limits", lambda: draw_limits(painter, surface, table.limits))
    logged("footer", lambda: draw_footer(painter, surface))
    return found


def cap(renderer: Renderer, text: DrawnText) -> int:
    return renderer.text.cap_height(text.size, bold=text.bold)


@pytest.mark.parametrize("name", available_themes())
@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_every_text_keeps_the_floor_of_its_role(name, size):
    renderer = Renderer(shipped_theme(name), size)
    unit = min(size)
    for panel, texts in drawn_panels(renderer, ez_table()).items():
        assert texts or panel in {"footer"}, f"{panel} drew no text"
        for text in texts:
            floor = CAP_FLOORS[text.role] * unit
            assert cap(renderer, text) >= floor - 0.5, (
                f"{panel}: {text.text!r} ({text.role}) has capitals {cap(renderer, text)} px, "
                f"under {floor:.1f}"
            )


@pytest.mark.parametrize("name", available_themes())
@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_the_numbers_a_player_reads_are_drawn_as_numbers(name, size):
    renderer = Renderer(shipped_theme(name), size)
    table = ez_table()
    found = drawn_panels(renderer, table)
    counts = table.roads.counts
    coup = table.last_game.coup

    def numbers(panel: str) -> list[str]:
        return [t.text for t in found[panel] if t.role == "number"]

    assert numbers("limits") == ["25", "10,000"]  # the main bets' minimum and maximum
    assert {str(counts.banker), str(counts.player), str(counts.tie)} <= set(numbers("counters"))
    assert str(table.last_number) in numbers("header")
    assert numbers("last_coup") == [str(coup.player_total), str(coup.banker_total)]


@pytest.mark.parametrize("name", available_themes())
def test_the_ez_pays_wrap_or_cut_without_shrinking_the_limits_table(name):
    """The same bets with a short Banker pay draw the table at the very same size."""
    theme = shipped_theme(name)
    ez = ez_table()
    short = TableState(variant=ez.variant, limits=ez.limits)
    short.limits = Limits(ez.limits.currency, ez.limits.bets, {**ez.limits.pays, "banker": "1:1"})
    renderer = Renderer(theme, (1920, 1080))
    sizes = {}
    for label, table in (("ez", ez), ("short", short)):
        texts = drawn_panels(renderer, table)["limits"]
        sizes[label] = {t.size for t in texts if t.role == "label" and t.text[:1].isdigit()}
    assert sizes["ez"] == sizes["short"], "the EZ pays changed the table's font size"


@pytest.mark.parametrize("name", available_themes())
def test_a_long_table_name_is_cut_not_shrunk_below_the_label_floor(name):
    renderer = Renderer(shipped_theme(name), (1080, 1920))
    table = ez_table()
    table.table_name = "Salon Privé — Grand Baccarat Table Number Twelve by the Window"
    texts = drawn_panels(renderer, table)["header"]
    title = [t for t in texts if "Salon" in t.text or t.text.endswith("…")]
    assert title, [t.text for t in texts]
    assert cap(renderer, title[0]) >= CAP_FLOORS["label"] * 1080 - 0.5
    assert title[0].text.endswith("…")


def ink_rows(sprite: pygame.Surface, ink: tuple[int, int, int], fill: tuple[int, int, int]) -> int:
    """How many rows of the bead hold its letter: a pixel nearer ``ink`` than ``fill``."""

    def near(pixel: tuple[int, ...], color: tuple[int, int, int]) -> int:
        return sum((a - b) ** 2 for a, b in zip(pixel[:3], color, strict=True))

    box = sprite.get_rect().inflate(-sprite.get_width() // 3, -sprite.get_height() // 8)
    rows = 0
    for y in range(box.top, box.bottom):
        pixels = [sprite.get_at((x, y)) for x in range(box.left, box.right)]
        if any(p[3] > 128 and near(p, ink) < near(p, fill) for p in pixels):
            rows += 1
    return rows


BEAD_SIZES = [(1920, 1080), (1080, 1920), (1280, 720), (3840, 2160)]


@pytest.mark.parametrize("name", available_themes())
@pytest.mark.parametrize("size", BEAD_SIZES, ids=[f"{w}x{h}" for w, h in BEAD_SIZES])
@pytest.mark.parametrize("natural", [False, True])
def test_bead_letters_keep_the_text_floor(name, size, natural):
    """The bead plate's letters, measured on their pixels: at least 1.5 % of unit tall.

    1280x1024 is left out: a 5:4 screen gets 29 px bead cells to keep 15
    columns, and a letter of 15.4 px (1.5 % of 1024) does not fit a 25 px bead
    with room for the pair dots (it gets 12 px, 1.2 %).
    """
    theme = shipped_theme(name)
    renderer = Renderer(theme, size)
    grid = renderer.layout.grids["bead_plate"]
    coup = result_coup(Winner.BANKER, natural=natural)
    sprite = renderer.roads.bead(BeadCell(0, 0, 1, coup), sprite_size(grid))
    letters = ink_rows(sprite, theme.colors.bead_text, theme.colors.banker)
    assert letters >= CAP_FLOORS["text"] * min(size) - 0.5, f"{letters} px"
