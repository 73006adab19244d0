"""The roads scroll together by whole columns, only when one overflows (render/scroll.py)."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from scoreboard.core.events import CoupReceived
from scoreboard.core.roads import DerivedRoad, Roads, result_games
from scoreboard.core.rules import Game
from scoreboard.core.shoe import Dealer
from scoreboard.render.scroll import ShoeIndex, own_start, shown_columns, starts

ROADS = ("bead_plate", "big_road", *DerivedRoad)


def dealt_games(seed: int, coups: int) -> list[Game]:
    """The first ``coups`` games of simulated shoes, numbered on as one long shoe."""
    games: list[Game] = []
    while len(games) < coups:
        for event in Dealer(seed=seed).shoe():
            if isinstance(event, CoupReceived):
                games.append(Game(len(games) + 1, event.game.coup))
        seed += 1
    return games[:coups]


shoes = st.one_of(
    st.builds(dealt_games, st.integers(0, 10_000), st.integers(0, 200)),
    st.text("BBPPT", max_size=200).map(lambda text: list(result_games(text))),
    st.lists(st.sampled_from(["B" * 9, "P" * 7, "BP", "T", "PPPB"]), max_size=30).map(
        lambda runs: list(result_games("".join(runs)))
    ),
)
grids = st.fixed_dictionaries({name: st.integers(1, 60) for name in ROADS})


def windows(games: list[Game], cols: dict[str, int], reserved: int, empty: int):
    index = ShoeIndex(ROADS)
    roads = Roads.build(games)
    index.sync(roads)
    spans = {name: index.columns[name].span(cols[name], reserved) for name in ROADS}
    return roads, spans, starts(spans, empty)


def entries_by_column(roads: Roads, name: str) -> list[list[int]]:
    """Each column's games, straight from the road (the test's own reading)."""
    columns: list[list[int]] = []
    for cell, game in zip(roads.road(name), roads.entry_games(name), strict=True):
        while len(columns) <= cell.col:
            columns.append([])
        columns[cell.col].append(game)
    return columns


@settings(max_examples=150, deadline=None)
@given(shoes, grids, st.integers(0, 3), st.integers(0, 4))
def test_the_newest_column_always_shows_and_starts_are_whole_columns(games, cols, reserved, empty):
    roads, spans, first = windows(games, cols, reserved, empty)
    for name in ROADS:
        count = spans[name].columns
        offset, shown = shown_columns(first[name], cols[name], reserved)
        assert isinstance(first[name], int)
        assert 0 <= first[name] <= max(0, count - 1)
        if count:
            newest = max(cell.col for cell in roads.road(name))
            assert first[name] <= newest < first[name] + shown
            assert offset + (newest - first[name]) < cols[name]


@settings(max_examples=150, deadline=None)
@given(shoes, grids, st.integers(0, 3), st.integers(0, 4))
def test_nothing_scrolls_while_every_road_fits_and_all_scroll_once_one_overflows(
    games, cols, reserved, empty
):
    _, spans, first = windows(games, cols, reserved, empty)
    fits = all(spans[name].columns <= cols[name] for name in ROADS)
    assert all(start == 0 for start in first.values()) == fits


@settings(max_examples=150, deadline=None)
@given(shoes, grids, st.integers(0, 3), st.integers(0, 4))
@example(  # a scrolled grid shows cols - reserved columns: the newest rule holds big eye boy
    games=list(result_games("BBBBBBBBBPPPBBP")),
    cols={"bead_plate": 1, "big_road": 1, DerivedRoad.BIG_EYE_BOY: 4,
          DerivedRoad.SMALL_ROAD: 2, DerivedRoad.COCKROACH_PIG: 1},
    reserved=2,
    empty=0,
)  # fmt: skip
def test_all_roads_start_at_the_same_game(games, cols, reserved, empty):
    """Restated from the rule with the roads' own entries: the earliest game each
    overflowing road can show, the latest of those, and each road's first column
    holding that game or later (or its own minimum, to keep its newest column)."""
    roads, _, first = windows(games, cols, reserved, empty)
    columns = {name: entries_by_column(roads, name) for name in ROADS}
    own = {name: own_start(len(columns[name]), cols[name], reserved, empty) for name in ROADS}
    earliest = [
        min(game for column in columns[name][own[name] :] for game in column)
        for name in ROADS
        if own[name] > 0
    ]
    if not earliest:
        assert set(first.values()) == {0}
        return
    common = max(earliest)
    for name in ROADS:
        holding = [c for c, column in enumerate(columns[name]) if max(column) >= common]
        expected = max(own[name], holding[0] if holding else 0)
        if expected:
            shown = shown_columns(expected, cols[name], reserved)[1]
            expected = max(expected, len(columns[name]) - shown)
        assert first[name] == expected
        visible = shown_columns(first[name], cols[name], reserved)[1]
        if first[name] > own[name] and first[name] > len(columns[name]) - visible:
            # scrolled for the others' sake (not held back to keep its newest column in
            # the columns a scrolled grid shows): nothing of the common stretch is hidden
            hidden = [g for column in columns[name][: first[name]] for g in column]
            assert max(hidden) < common


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 40), st.integers(0, 2), st.integers(0, 4))
def test_a_road_moves_in_steps_leaving_the_empty_columns(cols, reserved, empty):
    previous = 0
    assert own_start(cols, cols, reserved, empty) == 0
    _, shown = shown_columns(1, cols, reserved)
    keep = min(empty, shown - 1)
    for n in range(1, 3 * cols + 5):
        start = own_start(n, cols, reserved, empty)
        if start != previous:
            # it moved: exactly ``keep`` empty columns after the newest (column n - 1)
            assert start + shown - n == keep
            assert start - previous >= 1
        previous = start


def test_a_90_coup_shoe_fills_15_bead_columns_and_does_not_scroll():
    games = dealt_games(seed=7, coups=90)
    _, _, first = windows(games, dict.fromkeys(ROADS, 60) | {"bead_plate": 15}, 1, 2)
    assert first == dict.fromkeys(ROADS, 0)


def test_the_91st_coup_scrolls_every_road_to_the_same_stretch():
    games = dealt_games(seed=7, coups=91)
    cols = {"bead_plate": 15, "big_road": 60, **dict.fromkeys(DerivedRoad, 60)}
    roads, spans, first = windows(games, cols, 1, 2)
    assert first["bead_plate"] == 4  # 16 columns: 4-17 shown beside the marker, 2 empty
    common = spans["bead_plate"].first_games[4]
    assert common == 25
    for name in ("big_road", *DerivedRoad):
        columns = entries_by_column(roads, name)
        assert first[name] > 0
        assert max(columns[first[name]]) >= common
        assert max(columns[first[name] - 1]) < common


def test_the_index_follows_the_roads_one_coup_at_a_time():
    games = dealt_games(seed=3, coups=120)
    index = ShoeIndex(ROADS)
    roads = Roads()
    assert index.sync(roads) is None  # a new roads object: everything changed
    for game in games:
        before = {name: roads.length(name) for name in ROADS}
        ties = roads.big_road[-1].ties if roads.big_road else 0
        roads.append(game)
        changed = index.sync(roads)
        assert changed is not None
        for name in ROADS:
            new = list(range(before[name], roads.length(name)))
            if name == "big_road" and roads.big_road[-1].ties != ties and not new:
                new = [before[name] - 1]
            assert changed[name] == new
    whole = ShoeIndex(ROADS)
    whole.sync(Roads.build(games))
    for name in ROADS:
        assert index.columns[name].by_column == whole.columns[name].by_column
        assert index.columns[name].reach == whole.columns[name].reach
    assert index.sync(Roads.build(games)) is None  # a rebuild starts it again
