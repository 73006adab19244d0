"""``scoreboard screenshot`` writes exactly the kiosk's frame for a state as a PNG.

Each PNG is checked for content: it equals the renderer's frame for the same
state byte for byte, and independently the first beads carry their winners'
colours and the header's game number is drawn.
"""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from scoreboard.cli import main
from scoreboard.cli.commands.screenshot import dealt_table
from scoreboard.game.limits import Limits
from scoreboard.game.notation import parse_results
from scoreboard.game.rules import Game, Winner
from scoreboard.game.variants import VARIANTS
from scoreboard.kiosk.theme_watch import use_theme_rows
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.loading import available_themes, load_theme
from scoreboard.screen.theme.values import Theme
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState

ROOT = Path(__file__).resolve().parents[1]
#: What a screenshot shows without --limits: the demo's limits (USD 25-10,000).
DEMO_LIMITS = Limits.default_for(VARIANTS["commission"])


def demo_table() -> TableState:
    return TableState(table_id="T1", limits=DEMO_LIMITS)


def shoot(out: Path, *options: str) -> pygame.Surface:
    """Run ``scoreboard screenshot`` and load the PNG it wrote."""
    assert main(["screenshot", "-o", str(out), "--clock", "12:00", *options]) == 0
    return pygame.image.load(str(out))


def rendered(theme: Theme, size: tuple[int, int], table: TableState) -> tuple[bytes, Renderer]:
    """The renderer's own frame for ``table`` (as RGB bytes) and the renderer that drew it."""
    pygame.display.init()
    pygame.font.init()
    try:
        use_theme_rows(table, theme)
        renderer = Renderer(theme, size)
        frame = renderer.render(table, FeedStatus.DEMO, clock="12:00")
        return pygame.image.tobytes(frame, "RGB"), renderer
    finally:
        pygame.display.quit()


def results_table(results: str) -> TableState:
    table = demo_table()
    table.new_shoe("screenshot")
    for number, coup in enumerate(parse_results(results), start=1):
        table.add_game(Game(number, coup))
    return table


def colour(image: pygame.Surface, point: tuple[float, float]) -> tuple[int, int, int]:
    return tuple(image.get_at((round(point[0]), round(point[1]))))[:3]


def near(a, b, tolerance: int = 40) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def beside_letter(cell: pygame.Rect) -> tuple[float, float]:
    """A point of a bead's disc left of its letter."""
    return (cell.centerx - 0.34 * min(cell.size), cell.centery)


def winner_colour(theme: Theme, winner: Winner) -> tuple[int, int, int]:
    colors = theme.colors
    return {Winner.BANKER: colors.banker, Winner.PLAYER: colors.player, Winner.TIE: colors.tie}[
        winner
    ]


@pytest.mark.parametrize("name", available_themes())
@pytest.mark.parametrize("size", ["1280x720", "720x1280"])
def test_every_theme_and_orientation_gives_the_kiosk_frame(tmp_path, name, size):
    image = shoot(
        tmp_path / "shot.png", "--theme", name, "--size", size, "--seed", "1", "--coups", "30"
    )
    width, height = (int(v) for v in size.split("x"))
    assert image.get_size() == (width, height)
    theme, table = load_theme(name), dealt_table(seed=1, coups=30, table=demo_table())
    frame, renderer = rendered(theme, (width, height), table)
    assert pygame.image.tobytes(image, "RGB") == frame
    assert table.last_number == 30  # thirty coups of one shoe, the header says so
    assert renderer.panel_views["header"].value("game").text == "30"
    beads = renderer.layout.grids["bead_plate"]
    first = renderer.views["bead_plate"].first_col  # a small portrait plate has scrolled
    for index, game in enumerate(table.games[-3:], start=len(table.games) - 3):
        col, row = divmod(index, beads.rows)
        point = beside_letter(beads.cell(col - first, row))
        assert near(colour(image, point), winner_colour(theme, game.coup.winner)), index


def test_portrait_flag_turns_the_size(tmp_path):
    image = shoot(tmp_path / "p.png", "--size", "1280x720", "--portrait")
    assert image.get_size() == (720, 1280)
    frame, _ = rendered(load_theme("classic"), (720, 1280), results_table(""))
    assert pygame.image.tobytes(image, "RGB") == frame


def test_results_tokens_use_the_roads_syntax(tmp_path):
    image = shoot(tmp_path / "r.png", "--results", "Bbn P Tp", "--size", "1280x720")
    theme = load_theme("classic")
    frame, renderer = rendered(theme, (1280, 720), results_table("Bbn P Tp"))
    assert pygame.image.tobytes(image, "RGB") == frame
    beads = renderer.layout.grids["bead_plate"]
    for row, color in enumerate((theme.colors.banker, theme.colors.player, theme.colors.tie)):
        assert near(colour(image, beside_letter(beads.cell(0, row))), color), row
    game = renderer.panel_views["header"].value("game")
    assert game.text == "3"
    static = renderer.static.subsurface(game.rect)
    shown = image.subsurface(game.rect)
    assert pygame.image.tobytes(shown, "RGB") != pygame.image.tobytes(static, "RGB")  # drawn


def test_a_four_row_theme_puts_the_fifth_banker_on_the_dragon_tail(tmp_path):
    four = tmp_path / "four.yaml"
    text = (ROOT / "themes" / "classic.yaml").read_text(encoding="utf-8")
    four.write_text(text.replace("  rows: 6\n", "  rows: 4\n"), encoding="utf-8")
    image = shoot(
        tmp_path / "4.png", "--theme", str(four), "--results", "BBBBB", "--size", "1280x720"
    )
    theme = load_theme(four)
    frame, renderer = rendered(theme, (1280, 720), results_table("BBBBB"))
    assert pygame.image.tobytes(image, "RGB") == frame
    big = renderer.layout.grids["big_road"]
    assert big.rows == 4
    tail = big.cell(1, 3)
    on_ring = (tail.centerx - 0.365 * min(tail.size), tail.centery)
    assert near(colour(image, on_ring), theme.colors.banker)


def test_bad_results_exit_2(tmp_path, capsys):
    assert main(["screenshot", "-o", str(tmp_path / "x.png"), "--results", "BXP"]) == 2
    assert "--results" in capsys.readouterr().err


def test_coups_without_a_seed_deal_a_random_shoe_and_print_its_seed(tmp_path, capsys):
    first, again = tmp_path / "first.png", tmp_path / "again.png"
    assert main(["screenshot", "-o", str(first), "--clock", "12:00", "--coups", "12"]) == 0
    said = capsys.readouterr().out
    seed = said.split()[1]
    assert said.startswith("seed ") and seed.isdigit()
    shoot(again, "--seed", seed, "--coups", "12")
    assert first.read_bytes() == again.read_bytes()  # the printed seed draws it again


def test_a_whole_shoe_is_the_first_shoe_dealt_to_its_cut_card(tmp_path, capsys):
    from scoreboard.game.events import CoupReceived, NewShoe
    from scoreboard.game.shoe import Dealer

    coups = 0
    for event in Dealer(seed=7):
        if isinstance(event, NewShoe) and coups:
            break
        coups += isinstance(event, CoupReceived)
    shot = shoot(tmp_path / "whole.png", "--seed", "7", "--whole-shoe")
    table = dealt_table(seed=7, coups=coups, table=demo_table())
    assert table.shoe_number == 1 and table.last_number == coups > 60
    assert capsys.readouterr().out == ""  # no note: the shoe shown is the first
    expected = Renderer(load_theme("classic"), (1920, 1080)).render(
        table, FeedStatus.DEMO, clock="12:00"
    )
    assert pygame.image.tobytes(shot, "RGB") == pygame.image.tobytes(expected, "RGB")


def test_coups_past_the_shoe_say_which_shoe_is_shown(tmp_path, capsys):
    shoot(tmp_path / "x.png", "--seed", "7", "--coups", "80")
    said = capsys.readouterr().out
    assert "--coups 80: shoe 2 is shown, at game 1" in said and "--whole-shoe" in said


def test_dealing_options_are_refused_with_results(tmp_path, capsys):
    out = str(tmp_path / "x.png")
    assert main(["screenshot", "-o", out, "--results", "BP", "--whole-shoe"]) == 2
    assert "not with --results" in capsys.readouterr().err


def test_many_coups_cross_into_the_next_shoe_and_show_it():
    table = dealt_table(seed=1, coups=100, table=demo_table())
    assert table.shoe_number == 2
    assert 0 < table.last_number < 100
