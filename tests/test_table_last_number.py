"""``TableState.last_number`` kept as the games change equals a scan of the shoe.

The highest recorded game number is kept on every change instead of scanned
for (a late coup of a 1,000-coup shoe would scan 1,000 records a frame);
these properties hold it against the scan over random event sequences: coups
in and out of order, voids (before and after their coup), corrections,
snapshots (older and newer, v1 and v2 with the games they drop) and new shoes.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from test_table_order_properties import controllers

from scoreboard.game.events import Correct, CoupReceived, NewShoe, Snapshot, Void
from scoreboard.game.rules import Game, Winner, result_coup
from scoreboard.table.state import TableState, apply_event

COUPS = tuple(result_coup(w) for w in Winner)
numbers = st.integers(1, 30)
games = st.builds(Game, numbers, st.sampled_from(COUPS))
shoes = st.sampled_from(("S1", "S2"))
events = st.one_of(
    st.builds(CoupReceived, shoes, games),
    st.builds(CoupReceived, shoes, games),
    st.builds(CoupReceived, shoes, games),
    st.builds(Void, shoes, numbers),
    st.builds(Correct, shoes, games),
    st.builds(
        Snapshot,
        shoes,
        st.lists(games, max_size=12, unique_by=lambda g: g.number).map(tuple),
        st.lists(numbers, max_size=4, unique=True).map(tuple),
    ),
    st.builds(NewShoe, shoes),
)


def scanned(table: TableState) -> int:
    """The highest number of a game on the board, found the slow way."""
    return max((game.number for game in table.games), default=0)


@settings(max_examples=300, deadline=None)
@given(st.lists(events, max_size=60))
def test_last_number_is_the_highest_recorded_game_after_every_event(stream) -> None:
    table = TableState()
    for event in stream:
        apply_event(table, event)
        assert table.last_number == scanned(table), event
        last = table.last_game
        assert (last is None) == (table.last_number == 0)
        assert last is None or last == table.games[-1]


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_last_number_follows_a_v2_stream_delivered_in_any_order(data) -> None:
    """v2 snapshots drop the games their truth no longer has: a dropped top rescans."""
    stream = data.draw(controllers()).stream
    order = data.draw(st.permutations(range(len(stream))))
    table = TableState()
    for index in order:
        apply_event(table, stream[index])
        assert table.last_number == scanned(table)


def test_voiding_the_highest_game_falls_back_to_the_next_one() -> None:
    table = TableState()
    apply_event(table, NewShoe("S1"))
    for number in (1, 2, 5):
        apply_event(table, CoupReceived("S1", Game(number, COUPS[0])))
    assert table.last_number == 5
    apply_event(table, Void("S1", 5))
    assert table.last_number == 2
    apply_event(table, Void("S1", 1))
    assert table.last_number == 2
    apply_event(table, NewShoe("S2"))
    assert table.last_number == 0
