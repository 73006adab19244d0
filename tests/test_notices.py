"""Correction notices and the keypad prompt: what they say, when, for how long, where drawn."""

from __future__ import annotations

import itertools
from pathlib import Path

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shipped_themes import shipped_theme
from test_notices_state import WINNERS, Framed, dealt

from scoreboard.game.cards import parse_cards
from scoreboard.game.events import Correct, CoupReceived, NewShoe, Origin, Void
from scoreboard.game.rules import Game, Winner, deal_coup, result_coup
from scoreboard.screen.board._motion import BANNER_GAP_SECONDS
from scoreboard.screen.board._notices import MAX_WAITING, Notices, game_runs
from scoreboard.screen.board._overlay import NUMBER_CAP
from scoreboard.screen.theme.loading import parse_theme
from scoreboard.screen.theme.values import ThemeError
from scoreboard.table.state import TableState, apply_event

SIZE = (1920, 1080)

pytestmark = pytest.mark.usefixtures("pygame_display")


@pytest.fixture(scope="module")
def midnight():
    return shipped_theme("midnight")


def words(framed: Framed, now: float) -> tuple[str, ...] | None:
    shown = framed.notices.notice(now)
    return None if shown is None else shown.words


def plate_pixels(framed: Framed, now: float) -> tuple[pygame.Rect, bytes, bytes]:
    """The correction plate's area and the frame's and the board's pixels there."""
    painted = framed.notices.banner.painted(now)
    assert painted is not None
    area = painted.plate
    frame = pygame.image.tobytes(framed.compositor.frame.subsurface(area), "RGB")
    board = pygame.image.tobytes(framed.renderer.base.subsurface(area), "RGB")
    return area, frame, board


def test_a_void_puts_up_game_n_voided_over_the_board(classic):
    framed, table = Framed(classic, SIZE), dealt("BPBP")
    framed.update(table, 0.0)
    table.void(4)
    framed.update(table, 1.0)
    assert words(framed, 1.0) == ("Game 4 voided",)
    area, frame, board = plate_pixels(framed, 1.0)
    assert frame != board  # drawn over the board, not only planned
    header = framed.renderer.layout.panels["header"].rect
    assert not area.colliderect(header)
    drawn = framed.notices.banner.painted(1.0).drawn
    assert [d.text for d in drawn] == ["Game 4 voided"]
    cap = framed.renderer.text.cap_height(drawn[0].size, bold=True)
    assert cap >= NUMBER_CAP * framed.renderer.layout.unit * 0.95  # read from the seats


def test_a_correction_says_both_winners_in_each_language(midnight):
    framed, table = Framed(midnight, SIZE), dealt("BPBP")
    framed.update(table, 0.0)
    table.correct(Game(2, result_coup(Winner.BANKER)))
    framed.update(table, 1.0)
    assert words(framed, 1.0) == ("Game 2 corrected: Player → Banker", "第2局已更正：閒 → 莊")
    texts = [d.text for d in framed.notices.banner.painted(1.0).drawn]
    assert texts == ["Game 2 corrected: Player → Banker", "第2局已更正：閒 → 莊"]


def test_a_correction_that_keeps_the_winner_says_what_changed(classic):
    framed, table = Framed(classic, SIZE), dealt("BPBP")
    framed.update(table, 0.0)
    table.correct(Game(2, result_coup(Winner.PLAYER, player_pair=True)))
    framed.update(table, 1.0)
    assert words(framed, 1.0) == ("Game 2 corrected: P Pair added",)
    table.correct(Game(3, result_coup(Winner.BANKER, banker_total=7, player_total=5)))
    framed.update(table, 20.0)
    table.correct(Game(3, result_coup(Winner.BANKER, banker_total=8, player_total=5)))
    framed.update(table, 40.0)
    assert words(framed, 40.0) == ("Game 3 corrected: 7 – 5 → 8 – 5",)
    table.correct(Game(4, deal_coup(parse_cards(["AS", "2H", "8H", "5H"]))))
    framed.update(table, 60.0)
    table.correct(Game(4, deal_coup(parse_cards(["2S", "2C", "7S", "5C"]))))  # also 9 – 7
    framed.update(table, 80.0)
    assert words(framed, 80.0) == ("Game 4 corrected: cards changed",)


@pytest.mark.parametrize("motion", [True, False], ids=["motion", "motion off"])
def test_notices_show_with_motion_on_or_off(classic, motion):
    from scoreboard.screen.board.renderer import Renderer

    renderer = Renderer(classic, SIZE, motion=motion)
    notices = Notices(classic, renderer.panels, renderer.layout)
    table = dealt("BP")
    notices.observe(table, 0.0)
    table.void(2)
    notices.observe(table, 1.0)
    assert notices.notice(1.0) is not None


def test_no_notice_for_the_first_frame_a_replay_or_a_new_shoe(classic):
    table = dealt("BPBP")
    table.void(4)  # replayed from the journal before the first frame
    framed = Framed(classic, SIZE)
    framed.update(table, 0.0)
    assert framed.notices.notice(0.0) is None and framed.notices.next_deadline(0.0) is None
    table.new_shoe("S2")
    table.add_game(Game(1, result_coup(Winner.BANKER)))
    table.void(1)  # the new shoe's first frame shows its state, not a change
    framed.update(table, 1.0)
    assert framed.notices.notice(1.0) is None


def test_a_new_shoe_takes_the_last_shoes_notices_down(classic):
    framed, table = Framed(classic, SIZE), dealt("BPBP")
    framed.update(table, 0.0)
    table.void(4)
    table.void(3)
    framed.update(table, 1.0)
    table.new_shoe("S2")
    framed.update(table, 2.0)
    assert framed.notices.notice(2.0) is None
    assert framed.notices.notice(7.0) is None  # and the waiting one never comes
    table.add_game(Game(1, result_coup(Winner.BANKER)))
    framed.update(table, 2.5)
    table.void(1)
    framed.update(table, 3.0)
    assert words(framed, 3.0) == ("Game 1 voided",)  # the new shoe's first, at once


def test_a_notice_stays_its_seconds_then_the_board_is_back_exactly(classic):
    framed, table = Framed(classic, SIZE), dealt("BPBP")
    framed.update(table, 0.0)
    table.void(4)
    framed.update(table, 10.0)
    seconds = classic.motion.notice_seconds
    assert framed.notices.next_deadline(10.0) == pytest.approx(10.0 + seconds)
    area = framed.notices.banner.painted(10.0).plate
    assert words(framed, 10.0 + seconds - 0.01) == ("Game 4 voided",)
    framed.at(10.0 + seconds)
    assert words(framed, 10.0 + seconds) is None
    frame = pygame.image.tobytes(framed.compositor.frame.subsurface(area), "RGB")
    assert frame == pygame.image.tobytes(framed.renderer.base.subsurface(area), "RGB")
    assert framed.notices.next_deadline(10.0 + seconds) is None


def test_two_at_once_are_both_shown_one_after_the_other(classic):
    framed, table = Framed(classic, SIZE), dealt("BPBPB")
    framed.update(table, 0.0)
    table.void(5)
    table.correct(Game(4, result_coup(Winner.BANKER)))
    framed.update(table, 1.0)
    seconds = classic.motion.notice_seconds
    assert words(framed, 1.0) == ("Game 5 voided",)
    assert words(framed, 1.0 + seconds) == ("Game 4 corrected: Player → Banker",)
    assert words(framed, 1.0 + 2 * seconds) is None


def test_many_at_once_merge_by_kind_and_none_is_lost(classic):
    framed, table = Framed(classic, SIZE), dealt("BPBPBPBPBP")
    framed.update(table, 0.0)
    for number in (10, 9, 8, 6):
        table.void(number)
    table.correct(Game(1, result_coup(Winner.PLAYER)))
    table.correct(Game(2, result_coup(Winner.BANKER)))
    framed.update(table, 1.0)
    seconds = classic.motion.notice_seconds
    shown = [words(framed, 1.0 + k * seconds) for k in range(4)]
    assert shown == [("Games 6, 8–10 voided",), ("Games 1–2 corrected",), None, None]


def test_merged_plates_name_where_each_game_ended(classic):
    """The lab's burst: game 7 voided before it arrived, then dealt (a v2 redeal); game 6
    corrected, then voided.  The merged plates come later than those changes, so they say
    where each game ended: 7 is on the board (not "voided"), 6 is voided (not "corrected")."""
    framed, table = Framed(classic, SIZE), TableState()
    seq = itertools.count(1)

    def apply(event_type, *args):
        apply_event(table, event_type("S1", *args, origin=Origin(1, next(seq))))

    apply(NewShoe)
    for number, winner in enumerate("BPBPBP", start=1):
        apply(CoupReceived, Game(number, result_coup(WINNERS[winner])))
    framed.update(table, 0.0)
    apply(Void, 7)  # before it arrived
    apply(CoupReceived, Game(7, result_coup(Winner.BANKER)))  # dealt after all: a redeal
    for number in (1, 3, 4, 5, 6):
        apply(Correct, Game(number, result_coup(Winner.TIE)))
    apply(Void, 6)
    apply(Void, 2)
    assert table.game(7) is not None and table.voided == (2, 6)
    framed.update(table, 1.0)
    seconds = classic.motion.notice_seconds
    shown = [words(framed, 1.0 + k * seconds) for k in range(3)]
    assert shown == [("Games 2, 6 voided",), ("Games 1, 3–5 corrected",), None]


def test_game_numbers_are_listed_as_runs_and_cut_when_many():
    assert game_runs([18, 17]) == "17–18"
    assert game_runs(range(1, 40, 2)).endswith(", …")


def queue_log(theme, batches):
    """Each batch (time, voids) applied at its time; what the plate says at every 0.05 s."""
    framed, table = Framed(theme, (1280, 720)), dealt("B" * 60)
    framed.update(table, 0.0)
    voided: set[int] = set()
    log = []
    last = 0.0
    for when, games in batches:
        while last + 0.05 < when:
            last += 0.05
            log.append((last, framed.notices.notice(last)))
        for game in games:
            if game not in voided:
                table.void(game)
                voided.add(game)
        framed.update(table, when)
        log.append((when, framed.notices.notice(when)))
        last = when
    end = last + 4 * theme.motion.notice_seconds
    while last < end:
        last += 0.05
        log.append((last, framed.notices.notice(last)))
    return voided, log


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.floats(min_value=0.01, max_value=3.0),
            st.lists(st.integers(min_value=1, max_value=60), min_size=1, max_size=4),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_every_voided_game_is_named_soon_and_the_plate_never_flashes(batches):
    theme = shipped_theme("classic")
    times, clock = [], 0.0
    for gap, games in batches:
        clock += gap
        times.append((clock, games))
    voided, log = queue_log(theme, times)
    named = {g for _, shown in log if shown is not None for g in shown.games}
    assert named == voided  # none is lost
    seconds = theme.motion.notice_seconds
    last_up = max(when for when, shown in log if shown is not None)
    assert last_up <= times[-1][0] + (MAX_WAITING + 1) * seconds + 0.1  # never minutes
    changes = [when for (when, a), (_, b) in itertools.pairwise(log) if a != b]
    assert all(b - a >= BANNER_GAP_SECONDS - 0.051 for a, b in itertools.pairwise(changes))


def test_the_prompt_stays_while_set_and_goes_when_cleared(classic):
    framed, table = Framed(classic, SIZE), dealt("BP")
    framed.update(table, 0.0)
    framed.notices.set_prompt("Void game 2? Press - again")
    framed.update(table, 1.0)
    painted = framed.notices.prompt.painted(1.0)
    # The question and its instruction are drawn as two parts (a narrow plate breaks there).
    assert painted is not None and [d.text for d in painted.drawn] == [
        "Void game 2?",
        "Press - again",
    ]
    assert framed.notices.prompt.painted(600.0) is not None  # no timeout of its own
    area = painted.plate
    frame = pygame.image.tobytes(framed.compositor.frame.subsurface(area), "RGB")
    assert frame != pygame.image.tobytes(framed.renderer.base.subsurface(area), "RGB")
    framed.notices.set_prompt(None)
    framed.update(table, 601.0)
    assert framed.notices.prompt.painted(601.0) is None
    frame = pygame.image.tobytes(framed.compositor.frame.subsurface(area), "RGB")
    assert frame == pygame.image.tobytes(framed.renderer.base.subsurface(area), "RGB")


def test_a_prompt_toggled_fast_changes_at_most_every_gap(classic):
    framed, table = Framed(classic, SIZE), dealt("BP")
    framed.update(table, 0.0)
    looks = []
    for step in range(40):  # a key pressed and released every 0.05 s
        now = 1.0 + step * 0.05
        framed.notices.set_prompt("Confirm?" if step % 2 == 0 else None)
        framed.update(table, now)
        looks.append((now, framed.notices.prompt.version(now)))
    changes = [when for (when, a), (_, b) in itertools.pairwise(looks) if a != b]
    assert len(changes) >= 2
    assert all(b - a >= BANNER_GAP_SECONDS - 1e-6 for a, b in itertools.pairwise(changes))


@pytest.mark.parametrize("size", [(1920, 1080), (1080, 1920), (3840, 2160)], ids=str)
@pytest.mark.parametrize("name", ["classic", "midnight", "contrast"])
def test_the_notice_and_the_prompt_never_overlap_nor_leave_the_screen(name, size):
    theme = shipped_theme(name)
    framed, table = Framed(theme, size), dealt("BPBP")
    framed.update(table, 0.0)
    table.correct(Game(2, result_coup(Winner.BANKER, banker_pair=True)))
    framed.notices.set_prompt("New shoe? Press + again")
    framed.update(table, 1.0)
    notice = framed.notices.banner.painted(1.0)
    prompt = framed.notices.prompt.painted(1.0)
    assert notice is not None and prompt is not None
    assert not notice.plate.colliderect(prompt.plate)
    screen = pygame.Rect((0, 0), size)
    for painted in (notice, prompt):
        assert screen.contains(painted.rect)
        for text in painted.drawn:
            assert painted.plate.contains(text.rect)


def test_a_theme_label_with_a_foreign_placeholder_is_refused_by_name(tmp_path):
    source = Path(shipped_theme("classic").source).read_text(encoding="utf-8")
    hostile = source.replace("  en:\n", '  en:\n    game_voided: "{0.__class__} {game}"\n', 1)
    path = tmp_path / "hostile.yaml"
    with pytest.raises(ThemeError) as raised:
        parse_theme(hostile, path)
    assert f"{path}: labels.en.game_voided: unknown placeholder '{{0.__class__}}'" in str(
        raised.value
    )
    missing = source.replace("  en:\n", "  en:\n    new_limits: New limits soon\n", 1)
    with pytest.raises(ThemeError, match=r"labels.en.new_limits: expected \{time\}"):
        parse_theme(missing, path)


def test_a_label_is_filled_by_replacement_never_formatted(classic):
    assert classic.filled("game_voided", game="{0.__class__}") == ("Game {0.__class__} voided",)


def test_an_amendment_before_the_table_has_any_shows_nothing(classic):
    framed = Framed(classic, SIZE)
    framed.update(TableState(), 0.0)
    assert framed.notices.notice(0.0) is None


@pytest.mark.parametrize("size", [(1920, 1080), (1080, 1920)], ids=str)
def test_a_themes_longest_label_is_cut_to_its_plate_never_spilling(tmp_path, size):
    source = Path(shipped_theme("classic").source).read_text(encoding="utf-8")
    long = "Game {game} voided " + "x" * 170
    theme = parse_theme(source.replace("  en:\n", f'  en:\n    game_voided: "{long}"\n', 1),
                        tmp_path / "long.yaml")  # fmt: skip
    framed, table = Framed(theme, size), dealt("BPBP")
    framed.update(table, 0.0)
    table.void(4)
    framed.update(table, 1.0)
    painted = framed.notices.banner.painted(1.0)
    assert painted is not None
    (text,) = painted.drawn
    assert text.text.startswith("Game 4 voided x") and text.text.endswith("…")
    assert painted.plate.contains(text.rect)
    assert pygame.Rect((0, 0), size).contains(painted.rect)
