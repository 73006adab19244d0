"""The one placement routine (scoreboard.roads._layout), on its own."""

from __future__ import annotations

import pytest

from scoreboard.roads._layout import RoadLayout, layout_positions


def test_six_rows_by_default() -> None:
    assert RoadLayout().rows == 6
    assert layout_positions("B" * 7) == [(0, row) for row in range(6)] + [(1, 5)]
    layout = RoadLayout()
    assert [layout.place("B") for _ in range(7)][-1] == (1, 5)


def test_one_row_is_enough_and_zero_is_refused() -> None:
    assert layout_positions("BBP", rows=1) == [(0, 0), (1, 0), (2, 0)]
    with pytest.raises(ValueError, match="a road needs at least 1 row, got 0"):
        RoadLayout(0)


def test_the_first_entry_takes_the_top_left_cell_whatever_it_is() -> None:
    assert RoadLayout(3).place("P") == (0, 0)
