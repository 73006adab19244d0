"""Voids and corrections leave a trace: TableState.amendments, corrected(), Applied.amendments."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

from dealt import journaled_table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoreboard.game.events import (
    Correct,
    CoupReceived,
    Event,
    NewShoe,
    Origin,
    Snapshot,
    Void,
)
from scoreboard.game.rules import Game, Winner, result_coup
from scoreboard.journal import Journal
from scoreboard.protocol import display_status
from scoreboard.table.amendments import AmendKind, Amendment, describe
from scoreboard.table.state import TableState, apply_event

B, P, T = (result_coup(winner) for winner in Winner)


def table_with(*coups, shoe: str = "S1") -> TableState:
    table = TableState()
    apply_event(table, NewShoe(shoe))
    for number, coup in enumerate(coups, start=1):
        apply_event(table, CoupReceived(shoe, Game(number, coup)))
    return table


def test_a_void_of_game_17_after_banker_is_one_amendment_with_what_it_removed() -> None:
    table = table_with(*[P] * 16, B)
    applied = apply_event(table, Void("S1", 17, "misdeal"))
    expected = Amendment("S1", 17, AmendKind.VOID, before=B, after=None, reason="misdeal")
    assert applied.amendments == (expected,)
    assert table.amendments == (expected,)
    assert not table.corrected(17) and table.game(17) is None


def test_a_correction_from_banker_to_player_says_both_and_marks_the_game() -> None:
    table = table_with(B, B)
    applied = apply_event(table, Correct("S1", Game(2, P), "misread"))
    expected = Amendment("S1", 2, AmendKind.CORRECT, before=B, after=P, reason="misread")
    assert applied.amendments == table.amendments == (expected,)
    assert table.corrected(2) and not table.corrected(1)
    assert describe(expected) == "game 2 corrected: B -> P (misread)"


def test_a_correction_of_a_game_not_yet_arrived_replaced_nothing() -> None:
    table = table_with(B)
    applied = apply_event(table, Correct("S1", Game(3, T), "entered by hand"))
    expected = Amendment("S1", 3, AmendKind.CORRECT, None, T, "entered by hand")
    assert applied.amendments == (expected,)
    assert table.corrected(3)


def test_a_repeated_identical_correction_adds_nothing() -> None:
    table = table_with(B)
    apply_event(table, Correct("S1", Game(1, P), "misread"))
    again = apply_event(table, Correct("S1", Game(1, P), "misread"))
    assert again.amendments == () and len(table.amendments) == 1


def test_a_correction_that_confirms_the_board_and_a_repeated_void_add_nothing() -> None:
    table = table_with(B, P)
    assert apply_event(table, Correct("S1", Game(1, B))).amendments == ()
    apply_event(table, Void("S1", 2))
    assert apply_event(table, Void("S1", 2)).amendments == ()
    assert [a.kind for a in table.amendments] == [AmendKind.VOID]


def test_a_void_of_a_game_not_yet_arrived_is_kept_out_and_said() -> None:
    table = table_with(B)
    applied = apply_event(table, Void("S1", 2, "no coup"))
    assert applied.amendments == (Amendment("S1", 2, AmendKind.VOID, None, None, "no coup"),)


def test_a_void_then_a_correction_restores_the_game_and_the_mark_follows_the_last() -> None:
    table = table_with(B)
    apply_event(table, Correct("S1", Game(1, P)))
    apply_event(table, Void("S1", 1))
    assert not table.corrected(1)
    apply_event(table, Correct("S1", Game(1, T)))
    assert table.corrected(1)
    assert [(a.kind, a.before, a.after) for a in table.amendments] == [
        (AmendKind.CORRECT, B, P),
        (AmendKind.VOID, P, None),
        (AmendKind.CORRECT, None, T),
    ]


def test_a_newer_snapshot_overriding_a_game_is_an_amendment_by_snapshot() -> None:
    table = table_with(B, B, B)
    applied = apply_event(table, Snapshot("S1", (Game(1, B), Game(2, P)), voided=(3,)))
    assert applied.amendments == (
        Amendment("S1", 2, AmendKind.CORRECT, B, P, by_snapshot=True),
        Amendment("S1", 3, AmendKind.VOID, B, None, by_snapshot=True),
    )
    assert table.corrected(2) and not table.corrected(3)


def test_a_void_event_of_a_game_a_snapshot_voided_already_is_no_second_amendment() -> None:
    table = table_with(B, B, B)
    apply_event(table, Snapshot("S1", (Game(1, B), Game(2, B)), voided=(3,)))
    applied = apply_event(table, Void("S1", 3, "misdeal"))  # the event the display missed
    assert applied.changed is True and applied.amendments == ()
    assert [a.kind for a in table.amendments] == [AmendKind.VOID]


def test_the_kinds_are_the_event_types_that_make_them() -> None:
    """The journal keeps an amendment's kind as the name of the event type that makes it."""
    schema = json.loads(resources.files("scoreboard.schemas").joinpath("event.json").read_text())
    types = schema["properties"]["type"]["enum"]
    assert [kind.value for kind in AmendKind] == ["void", "correct"]
    assert {kind.value for kind in AmendKind} <= set(types)


def test_a_v2_snapshot_dropping_a_game_is_a_void_by_snapshot() -> None:
    table = TableState()
    for seq, event in enumerate(
        [NewShoe("S1"), CoupReceived("S1", Game(1, B)), CoupReceived("S1", Game(2, P))], start=1
    ):
        apply_event(table, _with_origin(event, seq))
    applied = apply_event(table, Snapshot("S1", (Game(1, B),), origin=Origin(1, 3)))
    assert applied.amendments == (Amendment("S1", 2, AmendKind.VOID, P, None, by_snapshot=True),)


def test_a_coup_a_redeal_and_an_identical_snapshot_are_not_amendments() -> None:
    table = table_with(B, P)
    apply_event(table, Void("S1", 2))
    apply_event(table, CoupReceived("S1", Game(2, T)))  # a redeal of the voided game
    apply_event(table, Snapshot("S1", (Game(1, B), Game(2, T))))
    assert [a.kind for a in table.amendments] == [AmendKind.VOID]


def test_a_new_shoe_starts_with_no_amendments() -> None:
    table = table_with(B)
    apply_event(table, Void("S1", 1))
    apply_event(table, NewShoe("S2"))
    assert table.amendments == () and not table.corrected(1)


def test_the_status_counts_the_shoes_corrections() -> None:
    table = table_with(B, B)
    apply_event(table, Correct("S1", Game(1, P)))
    apply_event(table, Void("S1", 2))
    status = display_status("d1", table, rejected=0, feed="connected")
    assert status["corrections"] == 2 == len(table.amendments)


def test_a_correction_storm_keeps_every_amendment_and_the_status_agrees() -> None:
    table = table_with(B)
    for index in range(20_000):
        apply_event(table, Correct("S1", Game(1, (P, B)[index % 2]), f"storm {index}"))
    assert len(table.amendments) == 20_000
    assert table.amendments[-1].reason == "storm 19999" and table.corrected(1)
    status = display_status("d1", table, rejected=0, feed="connected")
    assert status["corrections"] == 20_000


def _with_origin(event: Event, seq: int) -> Event:
    from dataclasses import replace

    return replace(event, origin=Origin(1, seq))  # type: ignore[type-var]


def _replayed(state: Path) -> TableState:
    table = TableState()
    with Journal(state) as journal:
        journal.replay(table)
    return table


SHOWN = {3: P, 5: T, 18: T, 19: T, 20: T}


def test_a_journal_replay_rebuilds_the_same_amendments(tmp_path: Path) -> None:
    events: list[Event] = [
        NewShoe("S1"),
        *(CoupReceived("S1", Game(n, B)) for n in range(1, 18)),
        Void("S1", 17, "misdeal"),
        Correct("S1", Game(3, P), "misread"),
        Correct("S1", Game(3, P), "misread"),  # a repeat: nothing
        Correct("S1", Game(20, T)),  # not yet arrived
        # a newer snapshot (it has every game the display knows) corrects game 5
        Snapshot("S1", tuple(Game(n, SHOWN.get(n, B)) for n in range(1, 21) if n != 17), (17,)),
    ]
    live = journaled_table(tmp_path, events)
    again = _replayed(tmp_path)
    assert len(live.amendments) == 4
    assert again.amendments == live.amendments
    assert [n for n in range(1, 21) if again.corrected(n)] == [3, 5, 20]


EVENTS = st.lists(
    st.tuples(
        st.sampled_from(["coup", "void", "correct", "snapshot"]),
        st.integers(1, 6),
        st.sampled_from([B, P, T]),
    ),
    max_size=25,
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=EVENTS)
def test_any_run_of_voids_and_corrections_replays_to_the_same_amendments(
    tmp_path_factory, steps
) -> None:
    """Whatever the journal keeps or leaves out, the replay has the live table's amendments."""
    state = tmp_path_factory.mktemp("journal")
    events: list[Event] = [NewShoe("S1")]
    for kind, number, coup in steps:
        game = Game(number, coup)
        if kind == "coup":
            events.append(CoupReceived("S1", game))
        elif kind == "void":
            events.append(Void("S1", number, "misdeal"))
        elif kind == "correct":
            events.append(Correct("S1", game, "misread"))
        else:
            events.append(Snapshot("S1", tuple(Game(n, coup) for n in range(1, number + 1))))
    live = journaled_table(state, events)
    again = _replayed(state)
    assert again.amendments == live.amendments
    assert [n for n in range(1, 7) if again.corrected(n)] == [
        n for n in range(1, 7) if live.corrected(n)
    ]
