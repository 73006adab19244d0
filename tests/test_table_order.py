"""Protocol v2 ordering in the table (table/state.py): what an event with an origin does.

Each case is worked by hand from the rules: the table keeps the highest origin
applied (``position``); an older or equal one is stale (a replay, a duplicate,
an ended controller session), a newer session is adopted; a newer coup or
snapshot follows the stream's order, which decides the two cases v1 could not
(a coup after a void of its own game, a second correction the display missed).
"""

from __future__ import annotations

import pytest

import scoreboard.table.state as table_module
from scoreboard.game.events import (
    Burn,
    ControllerStatus,
    Correct,
    CoupReceived,
    CutCard,
    LimitsReceived,
    NewShoe,
    Origin,
    Shuffle,
    Snapshot,
    Void,
)
from scoreboard.game.limits import Limits
from scoreboard.game.rules import Game, Winner, result_coup
from scoreboard.roads.engine import Roads
from scoreboard.table._records import (
    Dealt,
    Effect,
    GameRecord,
    Restated,
    transition,
)
from scoreboard.table.amendments import AmendKind, Amendment
from scoreboard.table.applied import Applied
from scoreboard.table.state import TableState, apply_event
from scoreboard.table.unfinished import UnfinishedShoe

X, Y, Z = (result_coup(w) for w in (Winner.BANKER, Winner.PLAYER, Winner.TIE))
EUR = Limits("EUR", {"tie": (5, 500)}, {"tie": "9:1"})


class Stream:
    """A controller session's payloads: each call stamps the next sequence number."""

    def __init__(self, session: int = 1, seq: int = 0) -> None:
        self.session, self.seq = session, seq

    def next(self) -> Origin:
        self.seq += 1
        return Origin(self.session, self.seq)

    @property
    def last(self) -> Origin:
        return Origin(self.session, self.seq)


def dealt(*coups, shoe: str = "A", stream: Stream | None = None) -> tuple[TableState, Stream]:
    """A table fed ``new_shoe`` then one coup per argument, all stamped by ``stream``."""
    stream = stream or Stream()
    table = TableState()
    apply_event(table, NewShoe(shoe, origin=stream.next()))
    for number, coup in enumerate(coups, start=1):
        apply_event(table, CoupReceived(shoe, Game(number, coup), origin=stream.next()))
    return table, stream


def games(*coups) -> tuple[Game, ...]:
    return tuple(Game(number, coup) for number, coup in enumerate(coups, start=1))


# -- the two v2 changes of a game number ---------------------------------------------------
VOIDED = GameRecord(X, voided=True, amended=True, retired=frozenset({X}))


@pytest.mark.parametrize(
    ("record", "change", "after", "effect"),
    [
        (None, Dealt(X), GameRecord(X), Effect.CHANGED),
        (GameRecord(X), Dealt(X), GameRecord(X), Effect.NONE),
        (GameRecord(X), Dealt(Y), GameRecord(X), Effect.CONFLICT),  # not retired: not journaled
        (GameRecord(X, amended=True), Dealt(Y), GameRecord(X, amended=True), Effect.CONFLICT),
        (VOIDED, Dealt(X), GameRecord(X), Effect.CHANGED),  # a redeal with the voided result
        (GameRecord(None, voided=True, amended=True), Dealt(X), GameRecord(X), Effect.CHANGED),
        (None, Restated(X), GameRecord(X), Effect.CHANGED),
        (None, Restated(None), GameRecord(None, voided=True), Effect.CHANGED),
        (GameRecord(X, amended=True), Restated(X), GameRecord(X, amended=True), Effect.NONE),
        (GameRecord(Y, amended=True, retired=frozenset({X})), Restated(Z),
         GameRecord(Z, retired=frozenset({X, Y})), Effect.OVERRIDE),  # a missed second correction
        (GameRecord(X), Restated(None), GameRecord(X, voided=True, retired=frozenset({X})),
         Effect.OVERRIDE),  # a missed void
        (VOIDED, Restated(None), VOIDED, Effect.NONE),
        (VOIDED, Restated(X), GameRecord(X), Effect.CHANGED),  # a missed redeal
    ],
)  # fmt: skip
def test_each_v2_change_of_a_game_number(record, change, after, effect) -> None:
    assert transition(record, change) == (after, effect)


# -- stale: replays, duplicates, older sessions ---------------------------------------------
def test_a_replayed_coup_of_an_older_session_is_stale() -> None:
    table, _ = dealt(X, stream=Stream(session=5))
    version = table.version
    replay = CoupReceived("OLD", Game(1, Y), origin=Origin(4, 999))  # an earlier shoe's coup
    assert apply_event(table, replay) == Applied(stale=True)
    assert (table.shoe_id, table.games, table.version) == ("A", games(X), version)
    assert table.position == Origin(5, 2)


def test_a_duplicate_sequence_number_is_stale_whatever_it_says() -> None:
    table, stream = dealt(X, Y)
    version = table.version
    assert apply_event(table, CoupReceived("A", Game(2, Y), origin=stream.last)).stale
    assert apply_event(table, CoupReceived("A", Game(2, Z), origin=stream.last)) == Applied(
        stale=True
    )  # not a conflict: the payload is old, whatever it holds
    assert apply_event(table, Void("A", 1, origin=Origin(1, 1))).stale
    assert table.games == games(X, Y) and table.version == version


def test_a_newer_session_is_adopted_and_the_old_one_is_then_stale() -> None:
    table, _ = dealt(X, Y, stream=Stream(session=1, seq=300))
    assert apply_event(table, CoupReceived("A", Game(3, Z), origin=Origin(2, 1))).changed
    assert table.position == Origin(2, 1)
    late = CoupReceived("A", Game(4, X), origin=Origin(1, 304))
    assert apply_event(table, late).stale and table.games == games(X, Y, Z)


def test_a_controller_status_is_the_sessions_birth_and_changes_nothing_else() -> None:
    table, _ = dealt(X, stream=Stream(session=3))
    version = table.version
    birth = apply_event(table, ControllerStatus(True, origin=Origin(4, 0)))
    assert birth == Applied() and table.position == Origin(4, 0) and table.version == version
    assert apply_event(table, ControllerStatus(False, origin=Origin(3, 0))).stale  # an old will
    assert not apply_event(table, ControllerStatus(False, origin=Origin(4, 2**53 - 1))).stale
    assert table.position == Origin(4, 0)  # a will moves nothing: its seq is after every seq
    assert (table.follows(3), table.follows(4)) == (False, True)
    assert apply_event(table, CoupReceived("A", Game(2, Y), origin=Origin(3, 9))).stale


def test_the_retained_birth_after_newer_payloads_of_its_session_is_not_stale() -> None:
    """The broker sends the retained status after the retained snapshot: the session must
    still learn the controller is online."""
    table = TableState()
    apply_event(table, Snapshot("A", games(X), origin=Origin(4, 40)))
    birth = apply_event(table, ControllerStatus(True, origin=Origin(4, 1)))
    assert birth == Applied() and table.position == Origin(4, 40)


def test_a_fresh_table_follows_any_session() -> None:
    assert TableState().follows(1) and TableState().position is None


def test_old_marks_are_stale_and_another_shoes_marks_do_not_mark_this_one() -> None:
    table, stream = dealt(X, Y)
    for old in (CutCard("A", origin=Origin(1, 2)), Shuffle("A", origin=Origin(1, 1))):
        assert apply_event(table, old).stale
    assert not table.cut_card_out and not table.shuffling
    position = table.position
    for other in (CutCard("B", origin=stream.next()), Shuffle("B", origin=stream.next())):
        assert apply_event(table, other) == Applied()
    assert not table.cut_card_out and not table.shuffling
    assert table.position == position  # not applied: the position stays
    assert apply_event(table, CutCard("A", origin=stream.next())).changed and table.cut_card_out
    assert apply_event(table, Shuffle("A", origin=stream.next())).changed and table.shuffling
    assert apply_event(table, Burn((), "A", origin=stream.next())).changed
    assert not table.shuffling


def test_marks_of_another_shoe_without_an_origin_do_not_mark_this_one_either() -> None:
    table, _ = dealt(X)
    assert apply_event(table, CutCard("B")) == Applied() and not table.cut_card_out
    assert apply_event(table, CutCard()).changed  # v1: no shoe named, the current one


def test_the_position_advances_on_an_event_that_changed_nothing() -> None:
    table, stream = dealt(X)
    apply_event(table, LimitsReceived(EUR, origin=stream.next()))
    again = stream.next()
    assert apply_event(table, LimitsReceived(EUR, origin=again)) == Applied()
    assert table.position == again


def test_limits_are_ordered_among_limits_so_a_retained_one_after_the_snapshot_applies() -> None:
    """On (re)connect the broker sends the retained snapshot and limits in any order."""
    table = TableState()
    apply_event(table, Snapshot("A", games(X), origin=Origin(1, 40)))
    assert apply_event(table, LimitsReceived(EUR, origin=Origin(1, 3))).changed
    assert table.limits == EUR and table.position == Origin(1, 40)
    older = Limits("USD", {}, {})
    assert apply_event(table, LimitsReceived(older, origin=Origin(1, 2))).stale
    assert apply_event(table, LimitsReceived(older, origin=Origin(1, 3))).stale
    assert apply_event(table, LimitsReceived(older, origin=Origin(0, 50))).stale
    assert table.limits == EUR


def test_the_retained_limits_of_an_ended_session_still_apply_on_a_fresh_display() -> None:
    """The controller restarted (session 2); the retained limits it set in session 1 stay."""
    table = TableState()
    apply_event(table, ControllerStatus(True, origin=Origin(2, 1)))
    apply_event(table, Snapshot("A", games(X), origin=Origin(2, 1)))
    assert apply_event(table, LimitsReceived(EUR, origin=Origin(1, 7))).changed
    assert table.limits == EUR and table.position == Origin(2, 1)


def test_a_conflicting_coup_is_reported_and_does_not_advance_the_position() -> None:
    table, stream = dealt(X, Y)
    position = table.position
    applied = apply_event(table, CoupReceived("A", Game(2, Z), origin=stream.next()))
    assert applied == Applied(conflicts=(2,)) and not applied.worth_keeping
    assert table.position == position and table.games == games(X, Y)


def test_an_event_of_another_shoe_is_not_applied_and_does_not_advance_the_position() -> None:
    table, stream = dealt(X)
    apply_event(table, NewShoe("B", origin=stream.next()))
    position = table.position
    for other in (
        Void("A", 1, origin=stream.next()),
        Correct("A", Game(1, Y), origin=stream.next()),
        CoupReceived("A", Game(2, Y), origin=stream.next()),  # a finished shoe
        NewShoe("A", origin=stream.next()),
    ):
        assert apply_event(table, other) == Applied()
    assert table.position == position and table.shoe_id == "B" and table.games == ()


def test_a_stale_event_is_never_journaled_and_is_not_a_truth_value() -> None:
    assert not Applied(stale=True).worth_keeping
    with pytest.raises(TypeError):
        bool(Applied(stale=True))


def test_events_without_an_origin_leave_the_position_alone() -> None:
    table, _ = dealt(X)
    position = table.position
    assert apply_event(table, CoupReceived("A", Game(2, Y))).changed
    assert table.position == position


# -- the two cases v1 could not decide --------------------------------------------------------
def test_a_coup_after_a_void_of_its_own_game_is_a_redeal_when_newer_and_stale_when_older() -> None:
    table, stream = dealt(X, Y)
    original = CoupReceived("A", Game(2, Y), origin=stream.last)
    apply_event(table, Void("A", 2, origin=stream.next()))
    assert apply_event(table, original).stale  # the voided coup, late
    redeal = CoupReceived("A", Game(2, Y), origin=stream.next())  # dealt again: Player again
    assert apply_event(table, redeal).changed
    assert table.games == games(X, Y) and table.voided == ()


def test_v1_cannot_tell_a_redeal_with_the_voided_result_from_a_late_copy() -> None:
    table = TableState()
    for event in (NewShoe("A"), CoupReceived("A", Game(1, X)), Void("A", 1)):
        apply_event(table, event)
    assert apply_event(table, CoupReceived("A", Game(1, X))).changed is False


def test_a_missed_second_correction_is_caught_up_by_the_next_snapshot() -> None:
    table, stream = dealt(X, Y)
    apply_event(table, Correct("A", Game(2, Z), origin=stream.next()))
    stream.next()  # the second correction, 2 -> X: lost
    applied = apply_event(table, Snapshot("A", games(X, X), origin=stream.last))
    assert applied.changed and applied.overrides == (2,)
    assert table.games == games(X, X)


def test_v1_keeps_the_first_correction_against_any_snapshot() -> None:
    table = TableState()
    for event in (NewShoe("A"), CoupReceived("A", Game(1, X)), Correct("A", Game(1, Z))):
        apply_event(table, event)
    assert apply_event(table, Snapshot("A", games(Y))).conflicts == (1,)
    assert table.games == games(Z)


# -- snapshots -------------------------------------------------------------------------------
def test_a_snapshot_as_of_the_position_replaces_the_shoe_and_an_older_one_is_stale() -> None:
    table, stream = dealt(X, Y, Z)
    applied = apply_event(table, Snapshot("A", (Game(1, X), Game(3, Y)), (2,), origin=stream.last))
    # Both overrides are visible amendments: a void and a correction the display missed.
    missed = (
        Amendment("A", 2, AmendKind.VOID, Y, None, by_snapshot=True),
        Amendment("A", 3, AmendKind.CORRECT, Z, Y, by_snapshot=True),
    )
    assert applied == Applied(changed=True, overrides=(2, 3), retired=2, amendments=missed)
    assert table.games == (Game(1, X), Game(3, Y)) and table.voided == (2,)
    older = Snapshot("A", games(X, Y, Z), origin=Origin(1, 3))
    assert apply_event(table, older).stale and table.voided == (2,)


def test_a_newer_snapshot_forgets_a_game_it_does_not_list() -> None:
    table, stream = dealt(X, Y, Z)
    applied = apply_event(table, Snapshot("A", games(X, Y), origin=stream.next()))
    assert applied.overrides == (3,) and table.games == games(X, Y)
    assert table.roads.to_json() == Roads.build(games(X, Y)).to_json()


def test_a_snapshot_that_changes_the_games_ends_a_shuffle_and_starts_none() -> None:
    table, stream = dealt(X, Y, Z)
    assert apply_event(table, Snapshot("A", games(X, Y), origin=stream.next())).changed
    assert table.shuffling is False
    apply_event(table, Shuffle(origin=stream.next()))
    assert table.shuffling is True
    assert apply_event(table, Snapshot("A", games(X), origin=stream.next())).changed
    assert table.shuffling is False


def test_a_payload_of_an_older_session_is_stale_and_of_a_newer_one_is_not() -> None:
    table, _ = dealt(X, Y, stream=Stream(session=5))
    assert apply_event(table, CoupReceived("A", Game(3, Z), origin=Origin(4, 99))).stale
    assert not apply_event(table, CoupReceived("A", Game(3, Z), origin=Origin(6, 1))).stale


def test_a_snapshot_older_than_a_cut_card_but_as_new_as_the_games_still_heals_a_gap() -> None:
    """The resync answer is stamped with the last game event; marks since change no game."""
    table, stream = dealt(X)
    lost = stream.next()  # coup 2: lost
    apply_event(table, CutCard("A", origin=stream.next()))
    assert apply_event(table, Snapshot("A", games(X, Y), origin=lost)).changed
    assert table.games == games(X, Y) and table.missing == () and table.cut_card_out


def test_a_forged_snapshot_is_healed_by_the_controllers_next_snapshot() -> None:
    """Without a key a forgery can copy the retained snapshot's origin; it lasts one step."""
    table, stream = dealt(X, Y, Z)
    forged = Snapshot("A", games(Z, Z, Z), origin=stream.last)
    assert apply_event(table, forged).overrides == (1, 2)
    apply_event(table, CoupReceived("A", Game(4, X), origin=stream.next()))
    truth = games(X, Y, Z, X)
    applied = apply_event(table, Snapshot("A", truth, origin=stream.last))
    assert applied.conflicts == () and table.games == truth
    assert table.roads.to_json() == Roads.build(truth).to_json()


def test_a_snapshot_of_a_new_shoe_starts_it_and_one_of_a_finished_shoe_is_ignored() -> None:
    table, stream = dealt(X)
    number = table.shoe_number
    assert apply_event(table, Snapshot("B", games(Y), origin=stream.next())).changed
    assert (table.shoe_id, table.shoe_number, table.games) == ("B", number + 1, games(Y))
    assert apply_event(table, Snapshot("A", games(X, X), origin=stream.next())) == Applied()
    assert table.shoe_id == "B"


class Calls:
    """Counts calls of a public function the table uses, to see which work was done."""

    def __init__(self, function) -> None:
        self.function, self.count = function, 0

    def __call__(self, *args, **kwargs):
        self.count += 1
        return self.function(*args, **kwargs)


def test_an_identical_snapshot_is_recognised_without_a_transition_or_a_rebuild(
    monkeypatch,
) -> None:
    table, stream = dealt(X, Y, Z, X, Y)
    apply_event(table, Void("A", 2, origin=stream.next()))
    version, roads = table.version, table.roads
    transitions, builds = Calls(table_module.transition), Calls(Roads.build)
    monkeypatch.setattr(table_module, "transition", transitions)
    monkeypatch.setattr(Roads, "build", builds)
    same = Snapshot("A", (Game(1, X), Game(3, Z), Game(4, X), Game(5, Y)), (2,))
    for _ in range(3):
        origin = stream.next()
        assert apply_event(table, Snapshot(same.shoe, same.games, same.voided, origin=origin)) == (
            Applied()
        )
        assert table.position == origin
    assert (transitions.count, builds.count) == (0, 0)
    assert table.version == version and table.roads is roads


@pytest.mark.parametrize(
    ("listed", "voided"),
    [
        ((Game(1, X), Game(2, Y), Game(3, Y)), ()),  # a coup differs
        ((Game(1, X), Game(2, Y)), (3,)),  # voided there
        ((Game(1, X), Game(2, Y), Game(4, Z)), ()),  # as many games, other numbers
        ((Game(1, X), Game(2, Y)), (4,)),  # voided a number the table never had
    ],
)
def test_a_snapshot_that_differs_is_not_taken_for_identical(listed, voided) -> None:
    table, stream = dealt(X, Y, Z)
    assert apply_event(table, Snapshot("A", listed, voided, origin=stream.next())).changed
    assert table.games == listed and table.voided == voided


# -- the end-of-shoe gap ------------------------------------------------------------------
def shoe_with_a_gap() -> tuple[TableState, Stream]:
    """Shoe A: games 1, 2 and 4 (3 lost), game 5 voided; the controller says it had 6."""
    table, stream = dealt(X, Y)
    apply_event(table, CoupReceived("A", Game(4, Z), origin=stream.next()))
    apply_event(table, Void("A", 5, origin=stream.next()))
    apply_event(table, NewShoe("B", previous="A", previous_games=6, origin=stream.next()))
    return table, stream


def test_a_new_shoe_announcing_more_games_than_the_display_has_remembers_the_gap() -> None:
    table, _ = shoe_with_a_gap()
    assert table.shoe_id == "B" and table.games == ()
    assert table.unfinished == UnfinishedShoe(
        "A", (Game(1, X), Game(2, Y), Game(4, Z)), (5,), (3, 6), 6
    )


def test_a_complete_snapshot_of_the_previous_shoe_completes_it() -> None:
    table, stream = shoe_with_a_gap()
    apply_event(table, CoupReceived("B", Game(1, X), origin=stream.next()))
    version, position = table.version, table.position
    partial = Snapshot("A", games(X, Y, Y, Z), (5,), origin=Origin(1, 5))  # lacks game 6
    assert apply_event(table, partial).completed is None and table.unfinished is not None
    whole = Snapshot("A", (*games(X, Y, Y, Z), Game(6, X)), (5,), origin=Origin(1, 7))
    applied = apply_event(table, whole)
    assert applied == Applied(completed="A") and applied.worth_keeping
    assert table.unfinished is None
    assert (table.shoe_id, table.games, table.version, table.position) == (
        "B",
        games(X),
        version,
        position,
    )  # the current shoe is untouched
    assert apply_event(table, whole).completed is None  # done once


def test_a_late_coup_of_the_previous_shoe_does_not_fill_it() -> None:
    table, stream = shoe_with_a_gap()
    assert apply_event(table, CoupReceived("A", Game(3, X), origin=stream.next())) == Applied()
    assert table.unfinished is not None and table.unfinished.missing == (3, 6)


@pytest.mark.parametrize(
    "new_shoe",
    [
        NewShoe("B", previous="A", previous_games=2),  # the display has every game
        NewShoe("B", previous="A", previous_games=1),
        NewShoe("B", previous="OTHER", previous_games=9),  # not the shoe the display shows
        NewShoe("B"),  # v1
    ],
)
def test_no_gap_no_unfinished_shoe(new_shoe) -> None:
    table, _ = dealt(X, Y)
    apply_event(table, new_shoe)
    assert table.shoe_id == "B" and table.unfinished is None
