"""Each road scrolls on its own by whole columns, only when it overflows (screen/board/_scroll)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoreboard.game.events import CoupReceived
from scoreboard.game.notation import result_games
from scoreboard.game.rules import Game
from scoreboard.game.shoe import Dealer
from scoreboard.roads.engine import DerivedRoad, Roads
from scoreboard.screen.board._scroll import ShoeIndex, own_start, shown_columns
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.loading import available_themes, load_theme
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState

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
    """The roads, each road's column count (from the index) and the column each starts at."""
    index = ShoeIndex(ROADS)
    roads = Roads.build(games)
    index.sync(roads)
    counts = {name: index.columns[name].columns for name in ROADS}
    first = {name: own_start(counts[name], cols[name], reserved, empty) for name in ROADS}
    return roads, counts, first


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
    roads, counts, first = windows(games, cols, reserved, empty)
    for name in ROADS:
        assert counts[name] == len(entries_by_column(roads, name))  # the index's own count
        offset, shown = shown_columns(first[name], cols[name], reserved)
        assert isinstance(first[name], int)
        assert 0 <= first[name] <= max(0, counts[name] - 1)
        if counts[name]:
            newest = max(cell.col for cell in roads.road(name))
            assert first[name] <= newest < first[name] + shown
            assert offset + (newest - first[name]) < cols[name]


@settings(max_examples=150, deadline=None)
@given(shoes, grids, st.integers(0, 3), st.integers(0, 4))
def test_a_road_scrolls_only_when_its_own_columns_overflow(games, cols, reserved, empty):
    """Whatever the other roads do: a bead plate with room for the shoe shows game 1."""
    _, counts, first = windows(games, cols, reserved, empty)
    for name in ROADS:
        assert (first[name] == 0) == (counts[name] <= cols[name])


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


def test_the_91st_coup_scrolls_the_bead_plate_alone():
    games = dealt_games(seed=7, coups=91)
    cols = {"bead_plate": 15, "big_road": 60, **dict.fromkeys(DerivedRoad, 60)}
    _, counts, first = windows(games, cols, 1, 2)
    assert counts["bead_plate"] == 16
    assert first["bead_plate"] == 4  # 16 columns: 4-17 shown beside the marker, 2 empty
    assert all(first[name] == 0 for name in ("big_road", *DerivedRoad))  # they fit


def test_a_choppy_84_coup_shoe_keeps_game_1_on_a_14_column_bead_plate():
    """B P B P ...: one big-road column per coup, so the big road scrolls; the bead plate
    (84 cells) shows the whole shoe beside it."""
    games = list(result_games("BP" * 42))
    cols = {"bead_plate": 14, "big_road": 40, **dict.fromkeys(DerivedRoad, 40)}
    _, counts, first = windows(games, cols, 1, 2)
    assert counts["big_road"] == 84 and first["big_road"] > 0
    assert counts["bead_plate"] == 14 and first["bead_plate"] == 0


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
    assert index.sync(Roads.build(games)) is None  # a rebuild starts it again


@pytest.mark.usefixtures("pygame_display")
@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720), (1080, 1920), (3840, 2160)])
@pytest.mark.parametrize("theme_name", available_themes())
def test_a_drawn_choppy_shoe_keeps_game_1_on_the_bead_plate(theme_name, size):
    """Drawn for real: the big road scrolls, the bead plate's first cell is game 1's."""
    table = TableState(table_id="T1")
    table.new_shoe("S1")
    for game in result_games("Bb" + "PB" * 41 + "P"):  # 84 coups, a banker pair on game 1
        table.add_game(game)
    renderer = Renderer(load_theme(theme_name), size)
    frame = renderer.render(table, FeedStatus.LIVE, clock="12:00")
    windows = renderer.windows
    assert windows["big_road"].start > 0
    assert windows["bead_plate"].start == 0
    grid = renderer.layout.grids["bead_plate"]
    first = grid.cell(0, 0)
    banker = renderer.theme.colors.banker
    inked = [
        (x, y)
        for x in range(first.left, first.right)
        for y in range(first.top, first.bottom)
        if max(abs(a - b) for a, b in zip(frame.get_at((x, y))[:3], banker, strict=True)) < 40
    ]
    assert len(inked) > first.width * first.height // 6  # game 1's banker bead is drawn there
