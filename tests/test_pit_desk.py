"""The pit desk: which pit commands a table's shoe allows, and the events they make.

Pure: a command, the controller's shoe (a snapshot) and a time in, an answer and
events out.  The property tests run any sequence of commands against a shoe and
check what every controller relies on: an applied command's events change the
board as the answer says, a refused one changes nothing, no id is applied twice.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scoreboard.controller._pit_desk import PitDesk, Ruling, after, refused
from scoreboard.game.events import Correct, LimitsReceived, NewShoe, Snapshot, Void
from scoreboard.game.limits import Limits
from scoreboard.game.rules import Game, Winner, result_coup
from scoreboard.table.pit import ChangeLimits, CorrectGame, PitCommand, StartShoe, VoidGame
from scoreboard.table.state import TableState, apply_event

NOW = 1_796_162_400.0
BANKER = result_coup(Winner.BANKER)
PLAYER = result_coup(Winner.PLAYER)


def shoe(games: int = 5, voided: tuple[int, ...] = ()) -> Snapshot:
    kept = tuple(Game(n, BANKER) for n in range(1, games + 1) if n not in voided)
    return Snapshot("S1", kept, voided)


def command(action, command_id: str = "c1", at: float = NOW) -> PitCommand:
    return PitCommand(command_id, action, "anna", at)


def test_a_void_of_a_recorded_game_is_applied_as_a_void_event():
    ruling = PitDesk().rule(command(VoidGame(3, "misdeal")), shoe(), NOW)
    assert ruling.answer.applied and ruling.answer.detail == "game 3 of shoe S1 voided"
    assert ruling.events == (Void("S1", 3, "misdeal (pit: anna)"),)


def test_a_game_that_does_not_exist_is_refused_naming_the_games_there_are():
    ruling = PitDesk().rule(command(VoidGame(40, "misdeal")), shoe(), NOW)
    assert not ruling.answer.applied and ruling.events == ()
    assert ruling.answer.detail == "game 40 does not exist in shoe S1 (games 1-5)"


def test_a_voided_game_cannot_be_voided_or_corrected_again():
    voided = shoe(voided=(2,))
    desk = PitDesk()
    again = desk.rule(command(VoidGame(2, "x"), "a"), voided, NOW)
    fix = desk.rule(command(CorrectGame(Game(2, PLAYER), "x"), "b"), voided, NOW)
    assert [r.answer.detail for r in (again, fix)] == ["game 2 of shoe S1 is already voided"] * 2


def test_another_shoe_than_the_current_is_refused():
    ruling = PitDesk().rule(command(VoidGame(1, "x", shoe="S0")), shoe(), NOW)
    assert "shoe S0 is not the current shoe (S1)" in ruling.answer.detail


def test_no_shoe_yet_refuses_a_void_and_takes_a_new_shoe():
    desk = PitDesk()
    assert desk.rule(command(VoidGame(1, "x"), "a"), None, NOW).answer.detail == (
        "this table has no shoe yet"
    )
    started = desk.rule(command(StartShoe("S2"), "b"), None, NOW)
    assert started.events == (NewShoe("S2"),)


def test_a_correction_says_what_changed_and_one_that_changes_nothing_is_refused():
    desk = PitDesk()
    fixed = desk.rule(command(CorrectGame(Game(4, PLAYER), "misread"), "a"), shoe(), NOW)
    assert fixed.events == (Correct("S1", Game(4, PLAYER), "misread (pit: anna)"),)
    assert fixed.answer.detail == "game 4 of shoe S1 corrected: Banker -> Player"
    same = desk.rule(command(CorrectGame(Game(4, BANKER), "misread"), "b"), shoe(), NOW)
    assert same.answer.detail == "game 4 already shows that coup: nothing to correct"


def test_a_new_shoe_names_the_shoe_it_ends_and_its_last_game_voids_included():
    ruling = PitDesk().rule(command(StartShoe("S2", "cards damaged")), shoe(6, (6,)), NOW)
    assert ruling.events == (NewShoe("S2", "S1", 6),)
    same = PitDesk().rule(command(StartShoe("S1")), shoe(), NOW)
    assert same.answer.detail == "shoe S1 is already the current shoe"


def test_a_new_shoe_may_not_reuse_the_id_of_a_shoe_dealt_before():
    """A board ignores a shoe it finished: the new shoe would never show."""
    desk = PitDesk()
    desk.rule(command(StartShoe("S2"), "a"), shoe(), NOW)
    back = desk.rule(command(StartShoe("S1"), "b"), Snapshot("S2", ()), NOW)
    assert back.answer.detail == "shoe S1 was dealt at this table before: name a new shoe"


def test_limits_now_or_from_a_time_to_come():
    limits = Limits(currency="EUR", bets={"banker": (50, 20000)}, pays={"banker": "0.95:1"})
    desk = PitDesk()
    now = desk.rule(command(ChangeLimits(limits), "a"), shoe(), NOW)
    later = desk.rule(command(ChangeLimits(limits, NOW + 3600), "b"), shoe(), NOW)
    past = desk.rule(command(ChangeLimits(limits, NOW - 10), "c"), shoe(), NOW)
    assert now.events == past.events == (LimitsReceived(limits),)
    assert later.events == (LimitsReceived(limits, effective_at=NOW + 3600),)


def test_a_replayed_id_is_refused_even_when_the_first_was_refused():
    desk = PitDesk()
    desk.rule(command(VoidGame(40, "x"), "same"), shoe(), NOW)
    again = desk.rule(command(VoidGame(1, "x"), "same"), shoe(), NOW)
    assert again == refused("same", "command same was already received: not applied again")


def test_a_stale_or_future_command_is_refused_and_its_id_not_spent():
    desk = PitDesk(window=300)
    old = desk.rule(command(VoidGame(1, "x"), "c", at=NOW - 301), shoe(), NOW)
    ahead = desk.rule(command(VoidGame(1, "x"), "d", at=NOW + 400), shoe(), NOW)
    assert old.answer.detail.startswith("stale: issued 301 s ago")
    assert ahead.answer.detail.startswith("stale: issued 400 s ahead of the controller's clock")
    assert not desk.seen("c") and not desk.seen("d")
    assert desk.rule(command(VoidGame(1, "x"), "c", at=NOW - 299), shoe(), NOW).answer.applied


def test_the_desk_forgets_the_oldest_ids_beyond_its_memory():
    desk = PitDesk(remembered=2)
    for n in (1, 2, 3):
        desk.note(f"id{n}")
    assert [desk.seen(f"id{n}") for n in (1, 2, 3)] == [False, True, True]


actions = st.one_of(
    st.builds(VoidGame, st.integers(1, 12), st.just("misdeal")),
    st.builds(
        CorrectGame,
        st.builds(Game, st.integers(1, 12), st.sampled_from([BANKER, PLAYER])),
        st.just("misread"),
    ),
    st.builds(StartShoe, st.sampled_from(["S1", "S2", "S3"])),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(actions, st.sampled_from(["a", "b", "c", "d", "e", "f"])), max_size=12))
def test_any_commands_change_the_board_exactly_as_the_answers_say(steps):
    """The controller's shoe and a board fed the events agree; a refusal changes nothing."""
    desk = PitDesk()
    current: Snapshot | None = shoe(8)
    board = TableState()
    apply_event(board, current)
    applied_ids: list[str] = []
    for action, command_id in steps:
        ruling: Ruling = desk.rule(command(action, command_id), current, NOW)
        if not ruling.answer.applied:
            assert ruling.events == ()
            continue
        assert command_id not in applied_ids  # an id is applied at most once
        applied_ids.append(command_id)
        current = after(current, ruling.events)
        for event in ruling.events:
            assert apply_event(board, event).changed
        assert current is not None
        assert (board.shoe_id, board.games, board.voided) == (
            current.shoe,
            current.games,
            current.voided,
        )


def test_a_long_reason_is_cut_to_the_protocols_200_characters_keeping_who_asked():
    ruling = PitDesk().rule(command(VoidGame(1, "x" * 200)), shoe(), NOW)
    (void,) = ruling.events
    assert len(void.reason) == 200 and void.reason.endswith(" (pit: anna)")
