"""Invariants of the road engine over random shoes (hypothesis).

The reference functions below restate roads.md in the most literal way (whole
sequences, sets of logical cells, a grid), independently of the engine's
incremental code, and the engine must agree with them on every shoe.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scoreboard.game.rules import Game, Winner, result_coup
from scoreboard.roads.engine import DERIVED_ROADS, Color, Roads

B, P, T = Winner.BANKER, Winner.PLAYER, Winner.TIE

coups = st.builds(
    lambda winner, banker_pair, player_pair, natural: result_coup(
        winner, banker_pair=banker_pair, player_pair=player_pair, natural=natural
    ),
    st.sampled_from([B, B, P, P, T]),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)

# Runs of one coup repeated make long streaks (and long ties) likely.
runs = st.lists(st.tuples(coups, st.integers(1, 14)), max_size=18)


@st.composite
def shoes(draw: st.DrawFn) -> list[Game]:
    sequence = [coup for coup, times in draw(runs) for _ in range(times)]
    sequence += draw(st.lists(coups, max_size=12))
    first = draw(st.integers(1, 5))
    return [Game(number, coup) for number, coup in enumerate(sequence, start=first)]


row_counts = st.sampled_from([6, 6, 6, 1, 2, 3, 4, 5, 8])


# -- the reference, literally from roads.md ----------------------------------
def logical_cells(games: list[Game]) -> list[tuple[Winner, int, int]]:
    """(winner, logical col, logical row) of each B/P coup, ties skipped."""
    cells: list[tuple[Winner, int, int]] = []
    for game in games:
        winner = game.coup.winner
        if winner is T:
            continue
        if not cells:
            cells.append((winner, 0, 0))
        elif winner is cells[-1][0]:
            cells.append((winner, cells[-1][1], cells[-1][2] + 1))
        else:
            cells.append((winner, cells[-1][1] + 1, 0))
    return cells


def reference_color(filled: set[tuple[int, int]], col: int, row: int, k: int) -> Color | None:
    """roads.md's derived rule, read off the set of filled logical cells."""

    def length(x: int) -> int:
        return sum(1 for c, _ in filled if c == x)

    if row == 0:
        if col - 1 - k < 0:
            return None
        return Color.RED if length(col - 1) == length(col - 1 - k) else Color.BLUE
    if col - k < 0:
        return None
    if (col - k, row) in filled:
        return Color.RED  # the cell to the left exists
    if (col - k, row - 1) in filled:
        return Color.BLUE  # empty, but the one above it is filled
    return Color.RED  # both empty


def reference_layout(values: list[object], rows: int) -> list[tuple[int, int]]:
    """Positions of runs of equal values on a grid, rule by rule."""
    grid: set[tuple[int, int]] = set()
    positions: list[tuple[int, int]] = []
    run_lengths: list[int] = []
    for index, value in enumerate(values):
        if index and value == values[index - 1]:
            run_lengths[-1] += 1
        else:
            run_lengths.append(1)
    head = -1
    for length in run_lengths:
        col = head + 1
        while (col, 0) in grid:  # rule 1
            col += 1
        head, row, turned = col, 0, False
        grid.add((col, row))
        positions.append((col, row))
        for _ in range(length - 1):
            if not turned and row + 1 < rows and (col, row + 1) not in grid:  # rule 2
                row += 1
            else:
                turned = True  # rule 3: stay on this row
                col += 1
            grid.add((col, row))
            positions.append((col, row))
    return positions


def reference_derived(games: list[Game], k: int) -> list[Color]:
    cells = logical_cells(games)
    filled = {(col, row) for _, col, row in cells}
    colors = [reference_color(filled, col, row, k) for _, col, row in cells]
    return [color for color in colors if color is not None]


# -- the properties ----------------------------------------------------------
@settings(max_examples=150, deadline=None)
@given(shoes(), row_counts)
def test_incremental_equals_rebuilt_after_every_game(games: list[Game], rows: int) -> None:
    roads = Roads(rows)
    for count, game in enumerate(games, start=1):
        roads.append(game)
        rebuilt = Roads.build(games[:count], rows=rows)
        assert roads.to_json() == rebuilt.to_json()
        assert roads.big_road == rebuilt.big_road
        assert roads.bead_plate == rebuilt.bead_plate
        assert roads.counts == rebuilt.counts and roads.streaks == rebuilt.streaks


@settings(max_examples=300, deadline=None)
@given(shoes(), row_counts)
def test_engine_agrees_with_the_literal_reference(games: list[Game], rows: int) -> None:
    roads = Roads.build(games, rows=rows)
    cells = logical_cells(games)
    assert [(c.winner, c.logical_col, c.logical_row) for c in roads.big_road if c.winner] == cells
    winners = [winner for winner, _, _ in cells]
    if cells:
        assert [(c.col, c.row) for c in roads.big_road] == reference_layout(winners, rows)
    for k in DERIVED_ROADS.values():
        colors = reference_derived(games, k)
        derived = roads.derived(k)
        assert [cell.color for cell in derived] == colors
        assert [(cell.col, cell.row) for cell in derived] == reference_layout(colors, rows)


@settings(max_examples=300, deadline=None)
@given(shoes(), row_counts)
def test_road_invariants(games: list[Game], rows: int) -> None:
    roads = Roads.build(games, rows=rows)
    # The bead plate holds every coup, in order, column by column.
    assert [(c.col, c.row, c.game, c.coup) for c in roads.bead_plate] == [
        (i // rows, i % rows, game.number, game.coup) for i, game in enumerate(games)
    ]
    # No two cells of a road share a position; every cell is within the rows.
    for road in (roads.bead_plate, roads.big_road, *(roads.derived(k) for k in (1, 2, 3))):
        positions = [(cell.col, cell.row) for cell in road]
        assert len(set(positions)) == len(positions)
        assert all(0 <= row < rows and col >= 0 for col, row in positions)
    # Every B/P coup has exactly one big-road cell; every tie is counted on one.
    decided = [g.number for g in games if g.coup.winner is not T]
    assert [cell.game for cell in roads.big_road if cell.winner] == decided
    assert sum(cell.ties for cell in roads.big_road) == sum(1 for g in games if g.coup.winner is T)
    assert len(roads.big_road) == max(len(decided), 1 if games else 0)
    # Each derived road has one entry per B/P cell from its start cell on.
    lengths = roads.column_lengths
    order = [(c.logical_col, c.logical_row) for c in roads.big_road if c.winner]
    for k in (1, 2, 3):
        start = (k, 1) if len(lengths) > k and lengths[k] >= 2 else (k + 1, 0)
        expected = len(order) - order.index(start) if start in order else 0
        assert len(roads.derived(k)) == expected
    # Banker and Player predictions are opposite colours or both absent.
    predictions = roads.predictions
    for name in DERIVED_ROADS:
        banker, player = predictions[B][name], predictions[P][name]
        assert (banker is None and player is None) or {banker, player} == {
            Color.RED,
            Color.BLUE,
        }


@settings(max_examples=200, deadline=None)
@given(shoes(), row_counts, st.sampled_from([B, P]))
def test_predictions_are_what_the_next_result_adds(
    games: list[Game], rows: int, winner: Winner
) -> None:
    """The ask road, checked by actually appending the result to a copy."""
    roads = Roads.build(games, rows=rows)
    predicted = roads.predict(winner)
    number = games[-1].number + 1 if games else 1
    after = Roads.build([*games, Game(number, result_coup(winner))], rows=rows)
    for name, k in DERIVED_ROADS.items():
        added = after.derived(k)[len(roads.derived(k)) :]
        assert [cell.color for cell in added] == ([predicted[name]] if predicted[name] else [])
    assert roads.to_json() == Roads.build(games, rows=rows).to_json()


@settings(max_examples=200, deadline=None)
@given(shoes())
def test_counts_and_streaks(games: list[Game]) -> None:
    roads = Roads.build(games)
    counts = roads.counts
    winners = [g.coup.winner for g in games]
    assert (counts.banker, counts.player, counts.tie) == tuple(map(winners.count, (B, P, T)))
    assert counts.games == len(games)
    assert counts.banker_pairs == sum(g.coup.banker_pair for g in games)
    assert counts.player_pairs == sum(g.coup.player_pair for g in games)
    assert counts.naturals == sum(g.coup.natural for g in games)
    if games:
        total = sum(counts.percent(name) for name in ("banker", "player", "tie"))
        assert abs(total - 100.0) < 1e-9
    decided = [w for w in winners if w is not T]
    streaks = roads.streaks
    current = 0
    for winner in reversed(decided):
        if winner is not decided[-1]:
            break
        current += 1
    assert streaks.current_length == current
    assert streaks.current_side is (decided[-1] if decided else None)
    for side, longest in ((B, streaks.longest_banker), (P, streaks.longest_player)):
        best = run = 0
        for winner in decided:
            run = run + 1 if winner is side else 0
            best = max(best, run)
        assert longest == best
