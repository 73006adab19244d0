"""The whole shoe on one screen: each road's grid holds a full 8-deck shoe.

Measured against independent truth: real shoes dealt by the simulated 8-deck
dealer and laid out by the road engine, not a formula for how many columns a
shoe "should" need.  docs/display.md gives the figures for 3,000 shoes (big
road: 37 columns at the median, 48 at the 99th percentile); this samples fewer.
"""

from __future__ import annotations

import os

import pygame
import pytest
from shipped_themes import shipped_theme

from scoreboard.game.events import CoupReceived
from scoreboard.game.shoe import Dealer
from scoreboard.roads.engine import DerivedRoad, Roads
from scoreboard.screen.board.layout import compute_layout
from scoreboard.screen.theme.loading import available_themes, load_theme
from scoreboard.screen.theme.values import DERIVED_PANELS

SHOES = int(os.environ.get("WHOLE_SHOE_SAMPLES", "400"))
SIZES = (
    (1920, 1080),
    (1080, 1920),
    (1280, 720),
    (3840, 2160),
    (720, 1280),
    (2560, 1080),
    (3840, 1080),
)


def columns_needed(roads: Roads) -> dict[str, int]:
    """How many columns each road of a finished shoe occupies."""
    needed = {
        "bead_plate": (len(roads.bead_plate) + roads.rows - 1) // roads.rows,
        "big_road": max(cell.col for cell in roads.big_road) + 1,
    }
    for road in DerivedRoad:
        needed[road.value] = max((cell.col for cell in roads.derived(road.k)), default=-1) + 1
    return needed


@pytest.fixture(scope="module")
def shoes() -> list[dict[str, int]]:
    found = []
    for seed in range(SHOES):
        games = [e.game for e in Dealer(seed=seed).shoe() if isinstance(e, CoupReceived)]
        assert len(games) <= 90  # an 8-deck shoe with the cut card 14-16 from the back
        found.append(columns_needed(Roads.build(games)))
    return found


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", available_themes())
def test_a_whole_shoe_fits_every_road(name: str, size: tuple[int, int], shoes) -> None:
    grids = compute_layout(shipped_theme(name), size).grids
    assert grids["bead_plate"].cols >= 15  # 90 coups, ties included, on 6 rows
    assert all(shoe["bead_plate"] <= grids["bead_plate"].cols for shoe in shoes)
    for road in ("big_road", *DERIVED_PANELS):
        fits = sum(shoe[road] <= grids[road].cols for shoe in shoes) / len(shoes)
        assert fits >= 0.99, f"{road}: {fits:.1%} of shoes fit {grids[road].cols} columns"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", available_themes())
def test_derived_roads_are_drawn_in_half_size_cells(name: str, size: tuple[int, int]) -> None:
    """Half the big road's in landscape; in portrait, where the big road's fifty columns
    narrow its cells, the layout's own ``derived_cell`` (0.66) keeps them readable.  On an
    ultrawide screen the three side by side are bound by their own 48 columns: at most
    half the big road's, and larger than landscape 1080p's."""
    layout = compute_layout(shipped_theme(name), size)
    grids = layout.grids
    big = grids["big_road"].cell_height
    if size[0] >= 2.1 * size[1]:
        landscape = compute_layout(shipped_theme(name), (1920, 1080)).grids["big_eye_boy"]
        for road in DERIVED_PANELS:
            assert landscape.cell_height < grids[road].cell_height <= big * 0.5
        return
    share = 0.5 if size[0] > size[1] else 0.66
    assert layout.derived_cell == share
    for road in DERIVED_PANELS:
        assert grids[road].cell_height == pytest.approx(big * share, abs=0.5)
        assert grids[road].cell_width == pytest.approx(big * share, rel=0.05)


@pytest.mark.parametrize("name", available_themes())
def test_every_grid_lies_inside_its_panel_body(name: str) -> None:
    for size in (*SIZES, (1280, 1024), (1024, 768)):
        layout = compute_layout(shipped_theme(name), size)
        for road, grid in layout.grids.items():
            assert layout.panels[road].body.contains(grid.rect), (road, size)


def test_a_theme_asking_for_more_columns_gets_smaller_cells(tmp_path) -> None:
    source = shipped_theme("classic").source
    assert source is not None
    text = source.read_text(encoding="utf-8").replace(
        "  rows: 6\n", "  rows: 6\n  columns: {big_road: 80, derived: 70}\n", 1
    )
    wide = tmp_path / "wide.yaml"
    wide.write_text(text, encoding="utf-8")
    before = compute_layout(shipped_theme("classic"), (1920, 1080)).grids
    after = compute_layout(load_theme(wide), (1920, 1080)).grids
    assert after["big_road"].cols >= 80 > before["big_road"].cols
    assert after["big_road"].cell_height < before["big_road"].cell_height
    assert after["big_eye_boy"].cols >= 70


def test_the_grid_is_the_panel_s_drawn_paper() -> None:
    """The rectangle the renderer rules is the grid: cells tile it with no gap."""
    grid = compute_layout(shipped_theme("midnight"), (1920, 1080)).grids["big_road"]
    last = grid.cell(grid.cols - 1, grid.rows - 1)
    assert last.right == grid.rect.right and last.bottom == grid.rect.bottom
    assert isinstance(last, pygame.Rect)


def test_check_theme_says_whether_a_whole_shoe_fits(tmp_path, capsys) -> None:
    from scoreboard.cli import main

    source = shipped_theme("classic").source
    assert source is not None
    narrow = tmp_path / "narrow.yaml"
    narrow.write_text(
        source.read_text(encoding="utf-8")
        .replace("  rows: 6\n", "  rows: 6\n  columns: {big_road: 20}\n", 1)
        .replace("rect: [0.005,  0.088,  0.725,", "rect: [0.005,  0.088,  0.4,", 1),
        encoding="utf-8",
    )
    assert main(["check-theme", "classic", str(narrow)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "landscape 1920x1080: bead plate 15 columns, big road 50" in out[1]
    assert all(line.endswith("a whole shoe fits") for line in out[1:4])  # and wide's
    assert out[4].endswith("narrow.yaml: OK")
    assert out[5].startswith("  landscape 1920x1080:")
    assert "big road" in out[5] and "a whole shoe scrolls on" in out[5]


def test_check_theme_counts_the_bead_plate_s_cells_not_only_its_columns(tmp_path, capsys) -> None:
    """Three rows of 15 columns hold 45 coups: half a shoe, whatever the column count says."""
    from scoreboard.cli import main

    source = shipped_theme("classic").source
    assert source is not None
    three = tmp_path / "three.yaml"
    three.write_text(
        source.read_text(encoding="utf-8").replace("  rows: 6\n", "  rows: 3\n", 1),
        encoding="utf-8",
    )
    assert main(["check-theme", str(three)]) == 0
    report = capsys.readouterr().out.splitlines()[1]
    assert "a whole shoe scrolls on bead plate" in report
