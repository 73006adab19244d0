"""``scoreboard screenshot`` writes the kiosk frame as a PNG of exactly the size asked."""

from __future__ import annotations

import pygame
import pytest

from scoreboard.cli import main
from scoreboard.commands.screenshot import dealt_table
from scoreboard.theme import available_themes, load_theme


@pytest.mark.parametrize("theme", available_themes())
@pytest.mark.parametrize("size", ["1280x720", "720x1280"])
def test_every_theme_and_orientation_gives_a_png_of_the_requested_size(tmp_path, theme, size):
    out = tmp_path / f"{theme}-{size}.png"
    assert (
        main(
            [
                "screenshot",
                "-o",
                str(out),
                "--theme",
                theme,
                "--size",
                size,
                "--seed",
                "1",
                "--coups",
                "30",
            ]
        )
        == 0
    )
    width, height = (int(v) for v in size.split("x"))
    assert pygame.image.load(str(out)).get_size() == (width, height)


def test_portrait_flag_turns_the_size(tmp_path):
    out = tmp_path / "p.png"
    assert main(["screenshot", "-o", str(out), "--size", "1280x720", "--portrait"]) == 0
    assert pygame.image.load(str(out)).get_size() == (720, 1280)


def test_results_tokens_use_the_roads_syntax(tmp_path):
    out = tmp_path / "r.png"
    assert (
        main(
            [
                "screenshot",
                "-o",
                str(out),
                "--results",
                "Bbn P Tp",
                "--size",
                "1280x720",
                "--clock",
                "12:00",
            ]
        )
        == 0
    )
    image = pygame.image.load(str(out))
    theme = load_theme("classic")
    from scoreboard.render.layout import compute_layout

    cell = compute_layout(theme, (1280, 720)).grids["bead_plate"].cell(0, 0)
    point = (round(cell.centerx - 0.34 * min(cell.size)), cell.centery)
    assert all(
        abs(a - b) < 40 for a, b in zip(image.get_at(point)[:3], theme.colors.banker, strict=True)
    )


def test_bad_results_exit_2(tmp_path, capsys):
    assert main(["screenshot", "-o", str(tmp_path / "x.png"), "--results", "BXP"]) == 2
    assert "--results" in capsys.readouterr().err


def test_coups_need_a_seed(tmp_path):
    assert main(["screenshot", "-o", str(tmp_path / "x.png"), "--coups", "3"]) == 2


def test_many_coups_cross_into_the_next_shoe_and_show_it():
    table = dealt_table(seed=1, coups=100)
    assert table.shoe_number == 2
    assert 0 < table.last_number < 100
