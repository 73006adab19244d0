"""The motion timing model: cards in deal order, the winner banner, the drawn-in mark,
and the flash limit (WCAG 2.3.1: never more than 3 flashes a second), without a display."""

from __future__ import annotations

import dataclasses
import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoreboard.game.cards import parse_cards
from scoreboard.game.rules import Coup, Game, Winner, record_coup, result_coup
from scoreboard.screen.board._banner import banner_look
from scoreboard.screen.board._motion import (
    BANNER_GAP_SECONDS,
    BURST_SECONDS,
    Motion,
    MotionSettings,
)
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.loading import load_theme
from scoreboard.table.state import TableState

SIZE = (1280, 720)
SETTINGS = MotionSettings(enabled=True, deal_seconds=0.3, banner_seconds=3.0, draw_in_seconds=0.35)

#: Player 2 3 5 (0), Banker 3 2 2 (7): six cards, Banker wins 7 – 0.
SIX_CARDS = record_coup(parse_cards(["2S", "3H", "5H"]), parse_cards(["3D", "2C", "2D"]))
#: Player 9 K (9, natural), Banker 4 3 (7): four cards, Player wins 9 – 7.
FOUR_CARDS = record_coup(parse_cards(["9S", "KH"]), parse_cards(["4D", "3C"]))
#: Player 4 2 (6), Banker 3 3 (6): a tie 6 – 6.
TIE = record_coup(parse_cards(["4S", "2H"]), parse_cards(["3D", "3C"]))

pytestmark = pytest.mark.usefixtures("pygame_display")


@pytest.fixture(scope="module")
def renderer():
    return Renderer(load_theme("classic"), SIZE)


def motion_of(renderer: Renderer, settings: MotionSettings = SETTINGS) -> Motion:
    return Motion(settings, renderer.panels, renderer.layout)


class Shoe:
    """A table that takes coups one by one and tells a Motion about each."""

    def __init__(self, motion: Motion) -> None:
        self.motion = motion
        self.table = TableState()
        self.table.new_shoe("S1")

    def deal(self, coup: Coup, now: float) -> None:
        self.table.add_game(Game(self.table.last_number + 1, coup))
        self.motion.coup_arrived(self.table, now)


def banner_text(motion: Motion, now: float) -> str | None:
    look = motion.banner_look(now)
    return None if look is None else look.text


def look(motion: Motion, now: float) -> tuple[object, ...]:
    """Everything of the motion's look a viewer can tell apart at ``now``."""
    drawing_in = motion.draw_in(now)
    return (motion.cards_shown(now), motion.banner.version(now), drawing_in is None)


def banner_changes(
    shoe: Shoe, arrivals: list[tuple[float, Coup]], end: float, step: float = 0.001
) -> list[float]:
    """Deal ``arrivals`` (time, coup) as the clock runs to ``end``; when the banner changed.

    The clock only goes forward, as the renderer's does: the banner is looked
    at every ``step`` seconds, and each coup is dealt when its time comes.
    """
    motion, pending = shoe.motion, sorted(arrivals, key=lambda arrival: arrival[0])
    changes: list[float] = []
    last = motion.banner.version(0.0)
    for i in range(round(end / step) + 1):
        now = i * step
        while pending and pending[0][0] <= now:
            shoe.deal(pending.pop(0)[1], now)
        version = motion.banner.version(now)
        if version != last:
            changes.append(now)
            last = version
    return changes


def most_in_one_second(times: list[float]) -> int:
    return max((sum(1 for u in times if t <= u < t + 1.0) for t in times), default=0)


# -- the reveal ----------------------------------------------------------------------------
def test_the_cards_appear_one_every_deal_seconds_in_deal_order(renderer):
    motion = motion_of(renderer)
    Shoe(motion).deal(SIX_CARDS, 10.0)
    shown = [motion.cards_shown(10.0 + t) for t in (0.0, 0.29, 0.3, 0.6, 0.9, 1.2, 1.49)]
    assert shown == [1, 1, 2, 3, 4, 5, 5]
    assert motion.cards_shown(11.5) is None  # the sixth card: the whole hand, final state


def test_the_reveal_of_four_cards_takes_four_deal_steps(renderer):
    motion = motion_of(renderer, MotionSettings(True, 0.5, 3.0, 0.35))
    Shoe(motion).deal(FOUR_CARDS, 0.0)
    assert [motion.cards_shown(t) for t in (0.0, 0.5, 1.0, 1.49)] == [1, 2, 3, 3]
    assert motion.cards_shown(1.5) is None


def test_the_banner_follows_the_last_card_and_stays_banner_seconds(renderer):
    motion = motion_of(renderer)
    Shoe(motion).deal(SIX_CARDS, 0.0)
    assert banner_text(motion, 1.79) is None  # six cards: 1.8 s of dealing
    assert banner_text(motion, 1.8) == "BANKER WINS 7 – 0"
    assert banner_text(motion, 4.79) == "BANKER WINS 7 – 0"
    assert banner_text(motion, 4.8) is None


def test_a_player_win_and_a_tie_read_with_the_winners_total_first(renderer):
    motion = motion_of(renderer)
    shoe = Shoe(motion)
    shoe.deal(FOUR_CARDS, 0.0)
    assert banner_text(motion, 1.3) == "PLAYER WINS 9 – 7"
    shoe.deal(TIE, 10.0)
    assert banner_text(motion, 11.3) == "TIE 6 – 6"


def test_a_results_only_coup_shows_its_banner_at_once_with_totals_only_if_known(renderer):
    motion = motion_of(renderer)
    shoe = Shoe(motion)
    shoe.deal(result_coup(Winner.BANKER), 0.0)
    assert motion.cards_shown(0.0) is None
    assert banner_text(motion, 0.0) == "BANKER WINS"
    shoe.deal(result_coup(Winner.PLAYER, player_total=8, banker_total=3), 10.0)
    assert banner_text(motion, 10.0) == "PLAYER WINS 8 – 3"


def test_the_banner_speaks_every_language_of_the_theme():
    midnight = load_theme("midnight")
    zh = midnight.languages.index("zh-Hant")  # the theme's zh, as the shipped code names it
    banker_wins = midnight.label("banker")[zh] + midnight.label("wins")[zh]
    look = banner_look(midnight, record_coup(parse_cards(["2S", "3H", "5H"]),
                                             parse_cards(["3D", "2C", "2D"])))  # fmt: skip
    assert look.text == f"BANKER WINS 7 – 0  {banker_wins}"
    tie = banner_look(midnight, TIE)
    assert tie.text == f"TIE 6 – 6  {midnight.label('tie_result')[zh]}"


def test_the_newest_mark_is_drawn_in_from_the_result_with_an_ease_out(renderer):
    motion = motion_of(renderer)
    Shoe(motion).deal(FOUR_CARDS, 0.0)
    assert motion.draw_in(0.5) == 0.0  # hidden while the cards are dealt
    grown = [motion.draw_in(1.2 + t) for t in (0.0, 0.05, 0.1, 0.2, 0.3)]
    assert grown[0] == 0.0
    assert all(a < b for a, b in itertools.pairwise(grown))
    assert grown[1] - grown[0] > grown[4] - grown[3]  # fast, then slow
    assert motion.draw_in(1.2 + 0.35) is None


def test_next_deadline_is_when_the_look_changes_next(renderer):
    motion = motion_of(renderer)
    Shoe(motion).deal(SIX_CARDS, 0.0)
    now, seen = 0.0, 0
    while (due := motion.next_deadline(now)) is not None and seen < 200:
        assert due > now
        before = look(motion, now)
        assert look(motion, (now + due) / 2) == before  # nothing changes before the deadline
        now, seen = due, seen + 1
    assert now == pytest.approx(4.8)  # the banner's end is the last change
    assert look(motion, now + 10) == (None, None, True)


# -- motion off ----------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["classic", "midnight", "contrast"])
def test_motion_switched_off_draws_the_final_state_at_once(name):
    theme = load_theme(name)
    off = MotionSettings.from_theme(theme, enabled=False)
    assert not off.enabled
    assert MotionSettings.from_theme(theme).enabled  # the shipped themes allow motion
    renderer = Renderer(theme, SIZE)
    motion = Motion(off, renderer.panels, renderer.layout)
    Shoe(motion).deal(SIX_CARDS, 0.0)
    for now in (0.0, 0.5, 1.8, 2.0, 4.0):
        assert motion.cards_shown(now) is None
        assert motion.draw_in(now) is None
        assert motion.banner_look(now) is None
        assert motion.banner.area(now) is None
    assert motion.next_deadline(0.0) is None


def test_the_theme_can_switch_motion_off():
    theme = load_theme("classic")
    quiet = dataclasses.replace(theme, motion=dataclasses.replace(theme.motion, enabled=False))
    assert not MotionSettings.from_theme(quiet).enabled
    assert not MotionSettings.from_theme(quiet, enabled=True).enabled


def test_settings_come_from_the_themes_motion_section():
    theme = load_theme("midnight")
    settings = MotionSettings.from_theme(theme)
    assert settings.deal_seconds == theme.motion.deal_seconds
    assert settings.banner_seconds == theme.motion.banner_seconds
    assert settings.draw_in_seconds == theme.motion.draw_in_seconds


# -- within limits -------------------------------------------------------------------------
def test_a_backlog_of_twenty_coups_in_a_fifth_of_a_second_starts_no_banner(renderer):
    motion = motion_of(renderer)
    shoe = Shoe(motion)
    backlog = [(1.0 + i * 0.01, (FOUR_CARDS, SIX_CARDS)[i % 2]) for i in range(20)]
    assert banner_changes(shoe, backlog, 12.0) == []  # not even the first coup's banner
    assert shoe.table.last_number == 20
    assert motion.cards_shown(12.0) is None  # the final state at once
    assert motion.draw_in(12.0) is None


def test_a_demo_at_a_tenth_of_a_second_never_flashes(renderer):
    motion = motion_of(renderer)
    shoe = Shoe(motion)
    demo = [(i * 0.1, (SIX_CARDS, FOUR_CARDS, TIE)[i % 3]) for i in range(100)]
    assert banner_changes(shoe, demo, 10.0) == []
    assert [look(motion, t) for t in (5.0, 9.95)] == [(None, None, True)] * 2


def test_a_burst_during_a_banner_updates_its_text_at_most_three_times_a_second(renderer):
    shoe = Shoe(motion_of(renderer))
    first = [(0.0, result_coup(Winner.TIE))]  # results only: its banner is up from 0 to 3 s
    burst = [  # then a coup every 50 ms, the winner changing every time
        (0.5 + i * 0.05, result_coup(Winner.PLAYER, player_total=8, banker_total=i % 8))
        if i % 2
        else (0.5 + i * 0.05, result_coup(Winner.BANKER, player_total=0, banker_total=9))
        for i in range(30)
    ]
    changes = banner_changes(shoe, first + burst, 8.0)
    assert len(changes) >= 5  # up, then the text followed the burst, then down
    assert most_in_one_second(changes) <= 3
    assert min(b - a for a, b in itertools.pairwise(changes)) >= BANNER_GAP_SECONDS - 0.002
    assert changes[-1] == pytest.approx(3.0)  # the banner kept its end time
    assert banner_text(shoe.motion, 2.9) == "PLAYER WINS 8 – 5"  # the newest coup's result


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0.0, 3.0, allow_nan=False), min_size=1, max_size=40))
def test_any_rhythm_of_coups_changes_the_banner_at_most_three_times_a_second(renderer, gaps):
    shoe = Shoe(motion_of(renderer, MotionSettings(True, 0.3, 1.0, 0.35)))
    coups = (FOUR_CARDS, SIX_CARDS, TIE, result_coup(Winner.PLAYER))
    times = [sum(gaps[: i + 1]) for i in range(len(gaps))]
    arrivals = [(t, coups[i % 4]) for i, t in enumerate(times)]
    changes = banner_changes(shoe, arrivals, times[-1] + 3.0, step=0.005)
    assert most_in_one_second(changes) <= 3


def test_a_coup_a_burst_apart_is_animated_again(renderer):
    motion = motion_of(renderer)
    shoe = Shoe(motion)
    shoe.deal(FOUR_CARDS, 0.0)
    shoe.deal(SIX_CARDS, BURST_SECONDS)  # exactly the limit: not a burst
    assert motion.cards_shown(BURST_SECONDS) == 1
    assert banner_text(motion, BURST_SECONDS + 1.8) == "BANKER WINS 7 – 0"


def test_a_new_coup_takes_the_previous_banner_down(renderer):
    motion = motion_of(renderer)
    shoe = Shoe(motion)
    shoe.deal(FOUR_CARDS, 0.0)
    assert motion.banner_look(2.0) is not None
    shoe.deal(SIX_CARDS, 2.0)
    assert motion.banner_look(2.0) is None
    assert motion.cards_shown(2.0) == 1


def test_stop_ends_every_motion(renderer):
    motion = motion_of(renderer)
    Shoe(motion).deal(FOUR_CARDS, 0.0)
    motion.stop(1.5)  # 0.3 s after the banner went up: it goes down 0.4 s after it went up
    assert motion.banner_look(1.2 + BANNER_GAP_SECONDS) is None
    assert motion.cards_shown(1.5) is None and motion.draw_in(1.5) is None


def test_draw_in_frames_are_paced_while_the_mark_grows(renderer):
    motion = motion_of(renderer)
    Shoe(motion).deal(FOUR_CARDS, 0.0)
    due = motion.next_deadline(1.25)
    assert due is not None and 1.25 < due <= 1.25 + 0.04
    assert math.isclose(motion.next_deadline(1.54) or 0, 1.55)
