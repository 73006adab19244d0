"""Ultrawide screens (issue 25): 3840x1080 and 2560x1080 get the themes' ``wide`` layout,
drawn for their shape, not landscape stretched: the bead plate sized to the shoe, the
ask road's marks beside their labels, every panel readable."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from pixels import changed_area

from scoreboard.cli.commands.screenshot import dealt_table
from scoreboard.screen.board._ask_road import ask_layout, ask_size
from scoreboard.screen.board.panels import DrawnText
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.loading import available_themes, load_theme, parse_theme
from scoreboard.screen.theme.values import ThemeError
from scoreboard.table.applied import FeedStatus

THEMES = Path(__file__).resolve().parent.parent / "themes"

WIDE = [(3840, 1080), (2560, 1080)]
IDS = [f"{w}x{h}" for w, h in WIDE]
SHOE = 84  # the coups of a long eight-deck shoe: the bead plate holds them all

pytestmark = pytest.mark.usefixtures("pygame_display")


@pytest.mark.parametrize("name", available_themes())
@pytest.mark.parametrize("size", WIDE, ids=IDS)
def test_an_ultrawide_screen_gets_the_wide_layout(name, size):
    theme = load_theme(name)
    assert "wide" in theme.layouts
    assert theme.layout(*size) is theme.layouts["wide"]


@pytest.mark.parametrize("name", available_themes())
@pytest.mark.parametrize("size", [(1920, 1080), (1280, 1024), (2048, 1080), (1080, 1920)])
def test_other_screens_keep_their_layouts(name, size):
    theme = load_theme(name)
    assert theme.layout(*size) is not theme.layouts["wide"]


@pytest.mark.parametrize("name", available_themes())
@pytest.mark.parametrize("size", WIDE, ids=IDS)
def test_the_bead_plate_is_sized_to_the_shoe(name, size):
    grid = Renderer(load_theme(name), size).layout.grids["bead_plate"]
    cells = grid.rows * grid.cols
    assert SHOE <= cells <= 1.5 * SHOE, f"{grid.rows}x{grid.cols}"


@pytest.mark.parametrize("name", available_themes())
@pytest.mark.parametrize("size", WIDE, ids=IDS)
def test_the_roads_are_as_large_as_landscape_1080ps(name, size):
    """The big and derived roads at least as large as landscape 1080p's; the bead plate,
    which gives the big road the width its 50 columns need at 2560x1080, within 10 %."""
    theme = load_theme(name)
    wide = Renderer(theme, size).layout.grids
    landscape = Renderer(theme, (1920, 1080)).layout.grids
    for road in ("big_road", "big_eye_boy", "small_road", "cockroach_pig"):
        assert wide[road].cell_height >= landscape[road].cell_height, road
    assert wide["bead_plate"].cell_height >= 0.9 * landscape["bead_plate"].cell_height


def ink(renderer: Renderer, text: DrawnText) -> pygame.Rect:
    glyphs = renderer.text.render(text.text, text.size, text.color, bold=text.bold)
    return glyphs.get_bounding_rect().move(text.rect.topleft)


@pytest.mark.parametrize("name", available_themes())
@pytest.mark.parametrize("size", [*WIDE, (1920, 1080)], ids=[*IDS, "1920x1080"])
def test_the_ask_roads_marks_sit_beside_their_labels(name, size):
    """From the end of a side's name to its first mark: at most four marks' widths
    (landscape 1080p: 97 px, 3.1 widths; landscape stretched to 3840x1080: 443 px, 14)."""
    renderer = Renderer(load_theme(name), size)
    table = dealt_table(3, 40)
    painter = renderer.panels
    log: list[DrawnText] = []
    painter.log = log
    renderer.render(table, FeedStatus.LIVE)
    painter.log = None
    drawn = renderer.base
    rows, named = ask_layout(painter)
    assert named
    for row in rows:
        chip = row.x + ask_size(row)  # the side's letter is on the chip, its name after it
        names = [
            ink(renderer, t) for t in log if row.collidepoint(t.rect.center) and t.rect.x > chip
        ]
        assert len(names) == 1, names
        label = names[0]
        beyond = pygame.Rect(label.right + 1, row.y, row.right - label.right - 1, row.height)
        marks = changed_area(renderer.static.subsurface(beyond), drawn.subsurface(beyond))
        assert marks is not None
        assert marks.x <= 4 * ask_size(row), f"{marks.x} px from the label to the marks"


def wide_theme(derived_cell: object) -> str:
    """The classic theme's text with its wide layout's ``derived_cell`` set."""
    text = THEMES.joinpath("classic.yaml").read_text(encoding="utf-8")
    head, wide = text.split("\n  wide:", 1)
    line, rest = wide.split("\n", 1)
    return f"{head}\n  wide:{line}\n    derived_cell: {derived_cell}\n{rest}"


def test_a_themes_wide_layout_is_checked_like_the_others():
    theme = parse_theme(wide_theme(0.6), THEMES / "classic.yaml")
    assert theme.layouts["wide"].derived_cell == 0.6
    with pytest.raises(ThemeError, match=r"layout\.wide\.derived_cell"):
        parse_theme(wide_theme(3), THEMES / "classic.yaml")


def test_a_theme_without_a_wide_layout_stretches_landscape():
    text = THEMES.joinpath("classic.yaml").read_text(encoding="utf-8")
    head, wide = text.split("\n  wide:", 1)
    kept = head + "\n" + wide.split("\n", 1)[1].split("footer", 1)[1].split("\n", 1)[1]
    theme = parse_theme(kept, THEMES / "classic.yaml")
    assert "wide" not in theme.layouts
    assert theme.layout(3840, 1080) is theme.layouts["landscape"]
