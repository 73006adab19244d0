"""What the renderer reads off a road without copying it: lengths, slices and each entry's game."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoreboard.game.notation import result_games
from scoreboard.game.rules import Game, Winner, result_coup
from scoreboard.roads.engine import DerivedRoad, Roads

ROADS = ("bead_plate", "big_road", *DerivedRoad)

games_lists = st.lists(st.sampled_from("BBPPT"), max_size=120).map(
    lambda results: [
        Game(number, result_coup(Winner(result))) for number, result in enumerate(results, 1)
    ]
)


@settings(max_examples=60, deadline=None)
@given(games_lists, st.integers(0, 130), st.integers(0, 130))
def test_lengths_and_slices_are_those_of_the_whole_road(games, start, stop):
    roads = Roads.build(games)
    for name in ROADS:
        whole = roads.road(name)
        assert roads.length(name) == len(whole)
        assert tuple(roads.entries(name, start, stop)) == tuple(whole)[start:stop]
        assert tuple(roads.entries(name, start)) == tuple(whole)[start:]


@settings(max_examples=60, deadline=None)
@given(games_lists)
def test_each_derived_entry_carries_the_game_that_added_it(games):
    roads = Roads()
    expected: dict[str, list[int]] = {road: [] for road in DerivedRoad}
    for game in games:
        before = {road: roads.length(road) for road in DerivedRoad}
        roads.append(game)
        for road in DerivedRoad:
            expected[road] += [game.number] * (roads.length(road) - before[road])
    for road in DerivedRoad:
        assert list(roads.entry_games(road)) == expected[road]
        assert roads.entry_games(road, 2, 5) == tuple(expected[road][2:5])


@settings(max_examples=60, deadline=None)
@given(games_lists)
def test_bead_and_big_road_entries_carry_their_own_game(games):
    roads = Roads.build(games)
    assert roads.entry_games("bead_plate") == tuple(cell.game for cell in roads.bead_plate)
    first = games[0].number if games else 0
    assert roads.entry_games("big_road") == tuple(
        first if cell.game is None else cell.game for cell in roads.big_road
    )


def test_a_derived_entry_is_the_game_of_its_big_road_result_not_its_position():
    roads = Roads.build(result_games("BPTBBP"))
    assert roads.entry_games("big_eye_boy") == (4, 5, 6)
    assert roads.entry_games("small_road") == (5, 6)
    assert [cell.col for cell in roads.big_eye_boy] == [0, 1, 1]


def test_leading_ties_count_as_the_first_games_until_a_result_fills_their_cell():
    roads = Roads.build(result_games("TT"))
    assert roads.entry_games("big_road") == (1,)
    roads.append(Game(3, result_coup(Winner.BANKER)))
    assert roads.entry_games("big_road") == (3,)


def test_an_unknown_road_is_named_with_the_roads_there_are():
    with pytest.raises(ValueError, match="bead_plate, big_road, big_eye_boy"):
        Roads().length("beads")
    with pytest.raises(ValueError, match="no road 'x'"):
        Roads().entry_games("x")
