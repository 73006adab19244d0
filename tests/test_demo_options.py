"""``scoreboard demo --variant/--currency/--limits/--start-at`` and the quit keys, from outside.

The demo runs as a real subprocess (SDL's dummy driver) journaling into a state
dir; the journal, replayed, says what the board showed: its limits, its variant's
pays, and how many coups were on it before the first one dealt at the pace.
"""

from __future__ import annotations

import random
import threading
import time

import pygame
import pytest
from cli import scoreboard

from scoreboard.game.limits import Limits, limits_from_spec
from scoreboard.game.variants import VARIANTS
from scoreboard.journal import Journal
from scoreboard.table.state import TableState

#: A pace no coup comes at within the run: what the board shows is the pre-dealt shoe.
STILL = ["--windowed", "--size", "640x360", "--pace", "60", "--duration", "1.5"]


def shown(state, *options: str) -> TableState:
    """Run the demo into ``state`` and replay what its journal kept."""
    done = scoreboard("demo", *STILL, "--state-dir", str(state), *options)
    assert done.returncode == 0, done.stderr
    table = TableState()
    with Journal(state) as journal:
        journal.replay(table)
    return table


def test_the_demo_shows_the_limits_currency_and_variant_it_is_given(tmp_path):
    spec = "player=10-500,banker=10-500,tie=1-50,dragon7=1-25"
    table = shown(
        tmp_path / "s", "--variant", "ez", "--currency", "EUR", "--limits", spec, "--seed", "2"
    )
    assert table.limits == Limits(
        "EUR",
        {"player": (10, 500), "banker": (10, 500), "tie": (1, 50), "dragon7": (1, 25)},
        VARIANTS["ez"].pays(),
    )


def test_one_span_sets_player_and_banker_and_derives_the_side_bets(tmp_path):
    table = shown(tmp_path / "s", "--limits", "100-5000", "--seed", "2")
    assert table.limits.bets == {
        "player": (100, 5000),
        "banker": (100, 5000),
        "tie": (20, 500),
        "player_pair": (20, 250),
        "banker_pair": (20, 250),
    }
    assert table.limits.currency == "USD" and table.limits.known


def test_by_default_the_demo_shows_its_sample_limits(tmp_path):
    table = shown(tmp_path / "s", "--seed", "2")
    assert table.limits == limits_from_spec("25-10000", VARIANTS["commission"], currency="USD")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--limits", "25-x"], "--limits: Player/Banker: expected MIN-MAX such as 25-10000"),
        (["--limits", "tie=50-5"], "--limits: tie: expected 0 <= minimum <= maximum"),
        (["--limits", "dragon7=1-25"], "--limits: no bet 'dragon7' at a commission table"),
        (["--limits", "player=1-2,player=3-4"], "--limits: player is given twice"),
        (["--currency", "euro"], "--currency: expected a currency code of three capital"),
        (["--variant", "baccarat"], "invalid choice: 'baccarat'"),
        (["--start-at", "-1"], "argument --start-at: expected a whole number, 0 to 1000, got '-1'"),
    ],
)
def test_a_bad_table_option_is_one_line_and_exit_2(options, message):
    done = scoreboard("demo", *STILL, *options)
    assert done.returncode == 2
    assert message in done.stderr and done.stderr.count("\n") == 1, done.stderr


def test_the_demo_starts_mid_shoe_with_the_coups_asked_for(tmp_path):
    table = shown(tmp_path / "s", "--start-at", "12", "--seed", "4")
    assert table.last_number == 12 and len(table.games) == 12


def test_start_at_zero_is_an_empty_board(tmp_path):
    table = shown(tmp_path / "s", "--start-at", "0", "--seed", "4")
    assert table.shoe_id is not None and table.games == ()


def test_by_default_30_to_60_coups_are_dealt_drawn_from_the_seed(tmp_path):
    table = shown(tmp_path / "s", "--seed", "9")
    assert table.last_number == random.Random(9).randint(30, 60)


def test_a_start_beyond_the_cut_card_stops_before_it(tmp_path):
    table = shown(tmp_path / "s", "--start-at", "500", "--decks", "1", "--seed", "4")
    assert 0 < table.last_number < 500 and not table.cut_card_out
    assert table.shoe_number == 1


def test_a_journal_that_brought_back_a_shoe_wins_over_start_at(tmp_path):
    state = tmp_path / "s"
    first = shown(state, "--start-at", "5", "--seed", "4")
    done = scoreboard("demo", *STILL, "--state-dir", str(state), "--start-at", "20", "--seed", "4")
    assert done.returncode == 0, done.stderr
    assert f"the journal brought back shoe {first.shoe_id}; not starting mid-shoe" in done.stderr
    assert "started mid-shoe" not in done.stderr


def test_the_pre_dealt_coups_come_at_once_then_the_deal_goes_on_at_the_pace(tmp_path):
    done = scoreboard(
        "demo", "--windowed", "--size", "640x360", "--pace", "0.5", "--duration", "1.8",
        "--start-at", "10", "--seed", "4", "--state-dir", str(tmp_path / "s"),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "started mid-shoe, 10 coups dealt" in done.stderr
    table = TableState()
    with Journal(tmp_path / "s") as journal:
        journal.replay(table)
    assert 11 <= table.last_number <= 14  # 10 at once, then one every 0.5 s


def post_key_later(key: int, delay: float = 0.5) -> threading.Thread:
    """Press ``key`` on the kiosk's window once it is up (from another thread)."""

    def press() -> None:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            time.sleep(delay)
            try:
                if pygame.display.get_surface() is not None:
                    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0))
                    return
            except pygame.error:
                pass  # the display is not up yet

    thread = threading.Thread(target=press, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize("key", [pygame.K_ESCAPE, pygame.K_q], ids=["esc", "q"])
@pytest.mark.parametrize("windowed", [[], ["--windowed"]], ids=["full-screen", "windowed"])
def test_the_demo_quits_on_esc_or_q_also_full_screen(key, windowed):
    from scoreboard.cli import main

    post_key_later(key)
    started = time.monotonic()
    assert main(["demo", *windowed, "--size", "640x360", "--pace", "5", "--duration", "60"]) == 0
    assert time.monotonic() - started < 30


def screenshot_of(tmp_path, name: str, *options: str) -> bytes:
    out = tmp_path / f"{name}.png"
    done = scoreboard("screenshot", "-o", str(out), "--seed", "1", "--coups", "20",
                      "--clock", "12:00", "--size", "960x540", *options)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return pygame.image.tobytes(pygame.image.load(str(out)), "RGB")


def test_a_screenshot_shows_the_table_options_or_unknown_limits(tmp_path):
    from scoreboard.cli.commands.screenshot import dealt_table
    from scoreboard.screen.board.renderer import Renderer
    from scoreboard.screen.theme.loading import load_theme
    from scoreboard.table.applied import FeedStatus

    def expected(limits: Limits | None, variant: str) -> bytes:
        pygame.display.init()
        try:
            table = TableState(variant=VARIANTS[variant], limits=limits)
            dealt_table(1, 20, table=table)
            frame = Renderer(load_theme("classic"), (960, 540)).render(
                table, FeedStatus.DEMO, clock="12:00"
            )
            return pygame.image.tobytes(frame, "RGB")
        finally:
            pygame.display.quit()

    default = screenshot_of(tmp_path, "default")
    assert default == expected(Limits.default_for(VARIANTS["commission"]), "commission")
    unknown = screenshot_of(tmp_path, "unknown", "--no-limits", "--variant", "ez")
    assert unknown == expected(None, "ez") and unknown != default
    euro = screenshot_of(tmp_path, "euro", "--currency", "EUR", "--limits", "10-500")
    assert euro == expected(limits_from_spec("10-500", VARIANTS["commission"], currency="EUR"),
                            "commission")  # fmt: skip


def test_portrait_and_rotate_are_one_or_the_other(tmp_path):
    shot = str(tmp_path / "board.png")
    done = scoreboard("screenshot", "-o", shot, "--portrait", "--rotate", "90")
    assert done.returncode == 2 and "--portrait and --rotate: give one" in done.stderr
