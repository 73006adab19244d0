"""check-theme's OK is a promise: the theme is drawn once for real, and the kiosk keeps the promise.

A theme whose every value is in range can still draw badly: a limits panel too
small for "10,000", text scaled up over the road grids.  Those are refused by
``check-theme`` and by the kiosk, with the same lines.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from scoreboard.cli import main
from scoreboard.kiosk.loop import run_kiosk
from scoreboard.kiosk.theme_watch import ThemeWatcher
from scoreboard.screen.board.probe import draw_problems
from scoreboard.screen.theme.loading import available_themes, load_theme
from scoreboard.screen.theme.values import ThemeError
from scoreboard.table.state import TableState

CLASSIC = load_theme("classic").source.read_text(encoding="utf-8")  # type: ignore[union-attr]


def edited(tmp_path: Path, old: str, new: str, name: str = "edited.yaml") -> Path:
    assert old in CLASSIC
    path = tmp_path / name
    path.write_text(CLASSIC.replace(old, new, 1), encoding="utf-8")
    return path


def tiny_limits(tmp_path: Path) -> Path:
    return edited(
        tmp_path,
        "{name: limits,        rect: [0.735,  0.526,  0.26,   0.431]}",
        "{name: limits,        rect: [0.735,  0.526,  0.05,   0.05]}",
        "tiny.yaml",
    )


@pytest.mark.parametrize("name", available_themes())
def test_every_shipped_theme_draws_cleanly(name: str) -> None:
    assert draw_problems(load_theme(name)) == []


def test_a_limits_panel_too_small_for_its_numbers_is_refused(tmp_path: Path, capsys) -> None:
    path = tiny_limits(tmp_path)
    load_theme(path)  # every value is in range: validation alone passes it
    assert main(["check-theme", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}: layout.landscape at 1920x1080: '25–10,000' leaves its panel limits" in out
    assert ": OK" not in out


def test_text_scaled_over_its_neighbours_is_refused(tmp_path: Path, capsys) -> None:
    path = edited(tmp_path, "  title_height: 0.036\n", "  title_height: 0.08\n  text_scale: 2\n")
    assert main(["check-theme", str(path)]) == 1
    out = capsys.readouterr().out
    assert "drawn over each other" in out or "leaves its panel" in out


def test_the_kiosk_refuses_at_start_what_check_theme_refuses(tmp_path: Path) -> None:
    with pytest.raises(ThemeError) as refused:
        run_kiosk(object(), TableState(), tiny_limits(tmp_path), windowed=True, run_for=0)  # type: ignore[arg-type]
    assert any("leaves its panel limits" in line for line in refused.value.errors)


def test_a_reload_to_a_theme_that_draws_badly_keeps_the_last_good_one(
    tmp_path: Path, caplog
) -> None:
    path = edited(tmp_path, "name: classic", "name: mine", "mine.yaml")
    watcher = ThemeWatcher(load_theme(path))
    path.write_text(tiny_limits(tmp_path).read_text(encoding="utf-8"), encoding="utf-8")
    with caplog.at_level(logging.ERROR):
        assert watcher.check(force=True) is None
    assert watcher.theme.name == "mine"
    assert "leaves its panel limits" in caplog.text
