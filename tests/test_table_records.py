"""The one transition of a game number (table/_records.py), branch by branch, and the table's pins.

Each case is worked by hand from protocol.md's rules: a recorded game changes
only by a correct event or a newer snapshot; a void or correct event is never
undone by a snapshot; a coup known not to be a game's truth (retired) never
comes back.
"""

from __future__ import annotations

import pytest

from scoreboard.game.events import Correct, CoupReceived, NewShoe, Shuffle, Snapshot, Void
from scoreboard.game.limits import Limits
from scoreboard.game.rules import Game, Winner, result_coup
from scoreboard.table._records import (
    Arrived,
    Corrected,
    Effect,
    GameRecord,
    Reported,
    Voided,
    transition,
)
from scoreboard.table.amendments import AmendKind, Amendment
from scoreboard.table.applied import Applied, FeedStatus
from scoreboard.table.state import TableState, apply_event

X, Y, Z = (result_coup(w) for w in (Winner.BANKER, Winner.PLAYER, Winner.TIE))
RECORDED = GameRecord(X)
CORRECTED = GameRecord(Y, amended=True, retired=frozenset({X}))
VOIDED = GameRecord(X, voided=True, amended=True, retired=frozenset({X}))
VOIDED_EARLY = GameRecord(None, voided=True, amended=True)  # the void came first
SNAPSHOT_VOIDED = GameRecord(X, voided=True)  # a newer snapshot voided it


@pytest.mark.parametrize(
    ("record", "change", "after", "effect"),
    [
        # a coup message
        (None, Arrived(X), RECORDED, Effect.CHANGED),
        (RECORDED, Arrived(X), RECORDED, Effect.NONE),
        (RECORDED, Arrived(Y), GameRecord(X, retired=frozenset({Y})), Effect.CONFLICT),
        (CORRECTED, Arrived(X), CORRECTED, Effect.NONE),  # the replaced original, late
        (CORRECTED, Arrived(Z), GameRecord(Y, amended=True, retired=frozenset({X, Z})),
         Effect.NONE),
        (VOIDED, Arrived(X), VOIDED, Effect.NONE),  # the voided coup, redelivered
        (VOIDED, Arrived(Y), GameRecord(Y, retired=frozenset({X})), Effect.CHANGED),  # redeal
        (VOIDED_EARLY, Arrived(X), GameRecord(None, voided=True, amended=True,
                                              retired=frozenset({X})), Effect.NONE),
        # a void event
        (None, Voided(), VOIDED_EARLY, Effect.CHANGED),
        (RECORDED, Voided(), VOIDED, Effect.CHANGED),
        (VOIDED, Voided(), VOIDED, Effect.NONE),
        (SNAPSHOT_VOIDED, Voided(), GameRecord(X, voided=True, amended=True), Effect.CHANGED),
        # a correct event
        (None, Corrected(Y), GameRecord(Y, amended=True), Effect.CHANGED),
        (RECORDED, Corrected(Y), CORRECTED, Effect.CHANGED),
        (CORRECTED, Corrected(Y), CORRECTED, Effect.NONE),
        (CORRECTED, Corrected(X), GameRecord(X, amended=True, retired=frozenset({Y})),
         Effect.CHANGED),  # corrected back: X is the truth again, Y is not
        (VOIDED, Corrected(Y), GameRecord(Y, amended=True, retired=frozenset({X})),
         Effect.CHANGED),
        # a snapshot's entry
        (None, Reported(X, newer=False), RECORDED, Effect.CHANGED),
        (None, Reported(None, newer=False), GameRecord(None, voided=True), Effect.CHANGED),
        (RECORDED, Reported(X, newer=True), RECORDED, Effect.NONE),
        (RECORDED, Reported(Y, newer=True), GameRecord(Y, retired=frozenset({X})),
         Effect.OVERRIDE),  # a correction the display missed
        (RECORDED, Reported(None, newer=True), GameRecord(X, voided=True, retired=frozenset({X})),
         Effect.OVERRIDE),  # a void the display missed
        (RECORDED, Reported(Y, newer=False), GameRecord(X, retired=frozenset({Y})),
         Effect.CONFLICT),  # an older snapshot never overrides
        (CORRECTED, Reported(X, newer=True), CORRECTED, Effect.CONFLICT),
        (GameRecord(Y, retired=frozenset({X})), Reported(X, newer=True),
         GameRecord(Y, retired=frozenset({X})), Effect.CONFLICT),  # a retired coup never returns
        (VOIDED, Reported(None, newer=True), VOIDED, Effect.NONE),
        (VOIDED, Reported(X, newer=True), VOIDED, Effect.NONE),
        (VOIDED, Reported(Y, newer=False), GameRecord(Y, retired=frozenset({X})),
         Effect.CHANGED),  # a redeal the display missed
        (VOIDED_EARLY, Reported(X, newer=True), GameRecord(None, voided=True, amended=True,
                                                           retired=frozenset({X})), Effect.NONE),
    ],
)  # fmt: skip
def test_each_change_of_a_game_number(record, change, after, effect) -> None:
    assert transition(record, change) == (after, effect)


def test_the_transition_refuses_what_is_not_a_change() -> None:
    with pytest.raises(TypeError, match="not a change"):
        transition(None, "void")  # type: ignore[arg-type]


def shoe(*coups) -> TableState:
    table = TableState()
    apply_event(table, NewShoe("A"))
    for number, coup in enumerate(coups, start=1):
        apply_event(table, CoupReceived("A", Game(number, coup)))
    return table


def test_a_new_shoe_forgets_the_last_shoes_retired_coups() -> None:
    table = shoe(X)
    apply_event(table, Correct("A", Game(1, Y)))  # X is not game 1's truth in shoe A...
    apply_event(table, NewShoe("B"))
    applied = apply_event(table, CoupReceived("B", Game(1, X)))  # ... but it is in shoe B
    assert applied.changed and table.games == (Game(1, X),)


def test_a_void_bumps_the_version_so_the_board_redraws() -> None:
    table = shoe(X, Y)
    version = table.version
    assert apply_event(table, Void("A", 2)).changed
    assert table.version > version and len(table.roads.bead_plate) == 1


@pytest.mark.parametrize("shuffling", [False, True])
def test_a_snapshot_never_switches_the_shuffle_mark_on(shuffling: bool) -> None:
    table = shoe(X)
    apply_event(table, Shuffle()) if shuffling else None
    apply_event(table, Snapshot("A", (Game(1, X), Game(2, Y))))
    assert table.shuffling is False  # a snapshot with games: the shoe is being dealt


def test_an_empty_snapshot_leaves_the_shuffle_mark_as_it_was() -> None:
    table = shoe()
    apply_event(table, Shuffle())
    apply_event(table, Snapshot("A", ()))
    assert table.shuffling is True


def test_an_empty_snapshot_of_a_new_shoe_starts_it() -> None:
    table = shoe(X)
    applied = apply_event(table, Snapshot("B", ()))
    assert applied == Applied(changed=True) and table.shoe_id == "B" and table.games == ()


@pytest.mark.parametrize(
    ("before", "snapshot", "expected"),
    [
        # conflict: the snapshot's coup is retired (it is not game 1's truth)
        (lambda t: apply_event(t, Correct("A", Game(1, Y))), (Game(1, Z),),
         Applied(conflicts=(1,), retired=1)),
        # override: the display's own coup is retired
        (lambda _t: None, (Game(1, Y),), Applied(changed=True, overrides=(1,), retired=1,
         amendments=(Amendment("A", 1, AmendKind.CORRECT, X, Y, by_snapshot=True),))),
        # the void came first, the snapshot brings the voided coup: retired, nothing changes
        (lambda t: apply_event(t, Void("A", 2)), (Game(1, X), Game(2, Y)), Applied(retired=1)),
    ],
)  # fmt: skip
def test_what_a_snapshot_retires_is_counted_so_the_journal_keeps_it(before, snapshot, expected):
    table = shoe(X)
    before(table)
    assert apply_event(table, Snapshot("A", snapshot)) == expected


def test_a_conflicting_coup_is_refused_and_counted_once() -> None:
    table = shoe(X)
    assert apply_event(table, CoupReceived("A", Game(1, Y))) == Applied(conflicts=(1,), retired=1)
    # the same conflicting coup again: still a conflict, nothing new learned
    assert apply_event(table, CoupReceived("A", Game(1, Y))) == Applied(conflicts=(1,))
    assert table.games == (Game(1, X),)


def test_an_applied_value_is_not_a_truth_value() -> None:
    with pytest.raises(TypeError, match="changed"):
        bool(apply_event(shoe(), Shuffle()))


def test_an_empty_shoe_has_no_last_game() -> None:
    table = shoe()
    assert (table.last_number, table.last_game, table.missing) == (0, None, ())


def test_the_theme_rows_lay_the_roads_out_again() -> None:
    table = shoe(X, X, X, X, X)  # a five-long Banker streak
    version = table.version
    assert table.set_rows(4) is True and table.version > version
    assert max(cell.row for cell in table.roads.big_road) == 3  # the dragon tail turns on row 4
    assert table.set_rows(4) is False


def test_the_feed_words_are_the_ones_the_display_status_promises() -> None:
    """protocol.md: the status ``feed`` is connected, controller offline or missing games."""
    assert [status.value for status in FeedStatus] == [
        "demo", "live", "connecting", "offline", "controller offline", "missing games",
    ]  # fmt: skip


def test_a_new_table_is_empty_with_its_defaults() -> None:
    table = TableState()
    assert (table.table_id, table.table_name, table.shoe_id, table.shoe_number) == (
        "T1",
        "",
        None,
        0,
    )
    assert (table.version, table.shuffling, table.cut_card_out) == (0, False, False)
    assert (table.games, table.archived, table.rows) == ((), (), 6)
    # Limits are unknown until someone says them: no made-up default, the variant's pays.
    assert table.limits == Limits.unknown(table.variant) and not table.limits.known
    assert table.limits.pays == table.variant.pays()
    mine = Limits("EUR", {"tie": (1, 2)}, {"tie": "8:1"})
    assert TableState(limits=mine).limits is mine


def test_every_change_bumps_the_version_and_a_repeat_does_not() -> None:
    table = shoe()
    for change in (
        lambda: table.set_shuffling(True),
        lambda: table.mark_cut_card(),
        lambda: table.set_limits(Limits("EUR", {}, {})),
        lambda: table.new_shoe("B"),
    ):
        version = table.version
        assert change().changed and table.version == version + 1
    for repeat in (
        lambda: table.set_shuffling(False),
        lambda: table.set_limits(Limits("EUR", {}, {})),
        lambda: apply_event(table, NewShoe("B")),
    ):
        version = table.version
        assert repeat() == Applied() and table.version == version


def test_a_coup_ends_the_shuffle_mark() -> None:
    table = shoe(X)
    apply_event(table, Shuffle())
    apply_event(table, CoupReceived("A", Game(2, Y)))
    assert table.shuffling is False


def test_a_restarted_shoe_id_is_not_archived_as_its_own_predecessor() -> None:
    table = TableState()
    table.new_shoe("A")
    table.new_shoe("A")  # the same shoe again (a restarted controller): nothing finished
    assert table.archived == () and table.shoe_number == 2


def test_the_table_remembers_the_last_64_finished_shoes() -> None:
    table = TableState()
    for number in range(66):
        apply_event(table, NewShoe(f"S{number}"))
    assert table.archived[0] == "S1" and len(table.archived) == 64  # S0 is forgotten
    assert apply_event(table, CoupReceived("S1", Game(1, X))).changed is False
    assert apply_event(table, CoupReceived("S0", Game(1, X))).changed is True  # too old to know


def test_restoring_history_keeps_each_finished_shoe_once() -> None:
    table = TableState()
    table.restore_history(7, ["S6", "S7", "S6"])
    assert table.archived == ("S6", "S7") and table.shoe_number == 7


def test_a_record_tells_everything_the_table_knows_of_a_game() -> None:
    table = shoe(X)
    apply_event(table, Correct("A", Game(1, Y)))
    assert table.record(1) == CORRECTED and table.record(2) is None


def test_what_is_worth_journaling() -> None:
    assert Applied(changed=True).worth_keeping
    assert Applied(retired=1).worth_keeping  # refused, but the table learned something
    assert not Applied(conflicts=(3,)).worth_keeping
    assert not Applied().worth_keeping
