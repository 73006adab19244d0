"""A theme whose ``roads.columns`` leaves road cells too small to read is refused (issue 10).

``roads.columns`` is a floor on the columns a road shows; asking for more than
its panel holds used to shrink the cells to 2-7 px and pass ``check-theme``.
The probe now refuses cells below the floor (1.5 % of the shorter screen side
for the bead plate and big road, half that for a derived road), naming the
road, the size and the key, in ``scoreboard check-theme`` and in the kiosk at
start and on a reload, like its other drawing checks.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from cli import scoreboard

from scoreboard.kiosk.loop import run_kiosk
from scoreboard.kiosk.theme_watch import ThemeWatcher
from scoreboard.screen.board.layout import compute_layout
from scoreboard.screen.board.probe import ROAD_CELL_FLOOR, road_cell_problems
from scoreboard.screen.theme.loading import available_themes, load_theme
from scoreboard.screen.theme.values import ThemeError
from scoreboard.table.state import TableState

CLASSIC = load_theme("classic").source.read_text(encoding="utf-8")  # type: ignore[union-attr]
ROADS = "  empty_columns: 2\n"


def with_columns(tmp_path: Path, columns: str, name: str = "wide.yaml") -> Path:
    assert ROADS in CLASSIC
    path = tmp_path / name
    path.write_text(CLASSIC.replace(ROADS, f"{ROADS}  columns: {columns}\n", 1), encoding="utf-8")
    return path


def test_check_theme_refuses_big_road_cells_too_small_naming_the_road_and_the_size(tmp_path):
    path = with_columns(tmp_path, "{big_road: 200}")
    load_theme(path)  # every value is in range: validation alone passes it
    done = scoreboard("check-theme", str(path))
    assert done.returncode == 1, done.stdout
    assert (
        f"{path}: layout.landscape at 1920x1080: road big_road has 7 px cells, below the 16 px "
        "floor: roads.columns.big_road 200 asks for more columns than its 1380 px wide panel "
        "holds at 16 px (85)"
    ) in done.stdout
    assert (
        "road big_eye_boy has 3 px cells, below the 8 px floor: its cells are 0.5 of the "
        "big road's" in done.stdout
    )
    assert "Traceback" not in done.stdout + done.stderr and ": OK" not in done.stdout


def test_check_theme_names_the_derived_columns_when_they_shrink_the_derived_roads(tmp_path):
    done = scoreboard("check-theme", str(with_columns(tmp_path, "{derived: 200}")))
    assert done.returncode == 1
    assert "road small_road has 3 px cells" in done.stdout
    assert "roads.columns.derived 200 asks for more columns" in done.stdout
    assert "road big_road" not in done.stdout


def test_a_theme_within_the_floor_passes(tmp_path):
    done = scoreboard("check-theme", str(with_columns(tmp_path, "{big_road: 60, derived: 60}")))
    assert done.returncode == 0, done.stdout
    assert f"{tmp_path / 'wide.yaml'}: OK" in done.stdout


@pytest.mark.parametrize("name", available_themes())
@pytest.mark.parametrize("size", [(1920, 1080), (1080, 1920), (3840, 2160), (1280, 720)])
def test_shipped_themes_have_road_cells_above_the_floor(name, size):
    theme = load_theme(name)
    layout = compute_layout(theme, size)
    assert road_cell_problems(theme, layout) == []
    big = layout.grids["big_road"]
    assert min(big.cell_width, big.cell_height) >= ROAD_CELL_FLOOR * layout.unit


def test_the_kiosk_refuses_such_a_theme_at_start(tmp_path):
    with pytest.raises(ThemeError) as refused:
        run_kiosk(  # type: ignore[arg-type]
            object(),
            TableState(),
            with_columns(tmp_path, "{big_road: 200}"),
            windowed=True,
            run_for=0,
        )
    assert any("road big_road has 7 px cells" in line for line in refused.value.errors)


def test_a_reload_to_such_a_theme_keeps_the_last_good_one(tmp_path, caplog):
    path = with_columns(tmp_path, "{big_road: 50}", "mine.yaml")
    watcher = ThemeWatcher(load_theme(path))
    path.write_text(
        with_columns(tmp_path, "{big_road: 200}").read_text(encoding="utf-8"), encoding="utf-8"
    )
    with caplog.at_level(logging.ERROR):
        assert watcher.check(force=True) is None
    assert watcher.theme.roads.columns["big_road"] == 50
    assert "road big_road has 7 px cells" in caplog.text
