"""The road engine returns today what it returned when its results were frozen.

``tests/data/roads_frozen.jsonl.gz`` holds, for the worked examples of roads.md
and 300 random shoes, every road's cells as the public API returned them before
the engine was rewritten for speed (``tools/freeze_roads.py`` wrote it; never
regenerate it to make this test pass).  Whatever order the engine is built and
read in, it must return the same cells.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_roads_properties import row_counts, shoes

from scoreboard.game.rules import Game
from scoreboard.roads._values import maker
from scoreboard.roads.engine import DerivedRoad, Roads
from tools.freeze_roads import ask_road, frozen_records, games_of, record_of, roads_record

RECORDS = frozen_records()
WHOLE_SHOE = ("bead_plate", "big_road", *DerivedRoad, "column_lengths", "counts", "streaks")


def whole_shoe(record: dict[str, Any]) -> dict[str, Any]:
    return {name: record[name] for name in WHOLE_SHOE}


def test_the_frozen_file_holds_the_worked_examples_and_300_random_shoes() -> None:
    assert len(RECORDS) == 309
    assert RECORDS[0]["shoe"] == "B B B P P B P P P P"
    assert RECORDS[0]["big_eye_boy"] == "0.0.r.5 1.0.b.6 1.1.b.7 1.2.b.8 2.0.r.9 2.1.r.10"
    assert {record["rows"] for record in RECORDS} == {1, 2, 3, 4, 5, 6, 8}
    assert any("/" in record["shoe"] for record in RECORDS)  # dealt coups, side bets counted


@pytest.mark.parametrize("index", range(len(RECORDS)), ids=lambda index: f"shoe{index}")
def test_appended_game_by_game_every_road_and_ask_road_is_as_frozen(index: int) -> None:
    record = RECORDS[index]
    assert record_of(record["rows"], record["first"], games_of(record)) == record


@pytest.mark.parametrize("index", range(len(RECORDS)), ids=lambda index: f"shoe{index}")
def test_rebuilt_in_one_go_every_road_is_as_frozen(index: int) -> None:
    record = RECORDS[index]
    roads = Roads.build(games_of(record), rows=record["rows"])
    assert roads_record(roads) == whole_shoe(record)
    assert ask_road(roads) == (record["ask_road"].split() or [""])[-1]


# Where the shoe is cut: the part before is rebuilt, the rest appended game by game.
cuts = st.floats(0.0, 1.0)
# Which roads are read after which games: reading must never change what is read next.
ROAD_NAMES = ("bead_plate", "big_road", *DerivedRoad)
reads = st.lists(st.tuples(st.integers(0, 90), st.sampled_from(ROAD_NAMES), st.integers(0, 3)))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(range(len(RECORDS))), cuts, reads)
def test_rebuilt_then_appended_and_read_at_any_time_the_roads_are_as_frozen(
    index: int, cut: float, reads: list[tuple[int, str, int]]
) -> None:
    record = RECORDS[index]
    games = games_of(record)
    split = round(cut * len(games))
    roads = Roads.build(games[:split], rows=record["rows"])
    asked = record["ask_road"].split()
    for count, game in enumerate(games[split:], start=split + 1):
        roads.append(game)
        assert ask_road(roads) == asked[count - 1]
        for _, name, back in (read for read in reads if read[0] == count):
            length = roads.length(name)
            roads.entries(name, max(length - back, 0))
            roads.entry_games(name, max(length - back, 0))
    assert roads_record(roads) == whole_shoe(record)


@settings(max_examples=150, deadline=None)
@given(shoes(), row_counts, st.lists(st.sampled_from(ROAD_NAMES)))
def test_appended_and_read_as_the_board_reads_equals_rebuilt_after_every_game(
    games: list[Game], rows: int, names: list[str]
) -> None:
    """The board reads the newest entries after each coup (a tie changes the last big-road
    cell); every read equals what a rebuild of the shoe so far returns."""
    roads = Roads(rows)
    for count, game in enumerate(games, start=1):
        roads.append(game)
        rebuilt = Roads.build(games[:count], rows=rows)
        for name in names[count % 3 :: 3] or ROAD_NAMES[:2]:
            start = max(roads.length(name) - 2, 0)
            assert roads.entries(name, start) == rebuilt.entries(name, start)
            assert roads.entry_games(name, start) == rebuilt.entry_games(name, start)
        assert roads_record(roads) == roads_record(rebuilt)
        assert roads.predictions == rebuilt.predictions


def test_a_fast_maker_refuses_what_it_cannot_make_as_the_class_would() -> None:
    """Without slots or with a ``__post_init__``, filling slots would skip what the class does."""

    @dataclass(frozen=True)
    class Loose:
        x: int

    @dataclass(frozen=True, slots=True)
    class Checked:
        x: int

        def __post_init__(self) -> None:
            if self.x < 0:
                raise ValueError("negative")

    @dataclass(frozen=True, slots=True)
    class Plain:
        x: int

    for cls in (Loose, Checked):
        with pytest.raises(TypeError, match="is not a slotted dataclass without __post_init__"):
            maker(cls)
    assert maker(Plain)((3,)) == Plain(3)
