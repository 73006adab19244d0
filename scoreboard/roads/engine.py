"""The road engine: bead plate, big road, the three derived roads and the ask road.

Everything follows ``docs/roads.md`` of the shared docs; the names here are its
names.  The engine is incremental: :meth:`Roads.append` adds one game and updates
every road, counter, streak and prediction in constant time;
:meth:`Roads.build` lays a whole shoe out again (after a void or a correction).

>>> from scoreboard.game.notation import result_games
>>> roads = Roads.build(result_games("BBBPPBPPPP"))
>>> roads.column_lengths
(3, 2, 1, 4)
>>> "".join(cell.color.value[0] for cell in roads.big_eye_boy)
'rbbbrr'
>>> roads.predictions[Winner.BANKER][DerivedRoad.BIG_EYE_BOY]
<Color.BLUE: 'blue'>

Two routines carry the roads: :class:`~scoreboard.roads._layout.RoadLayout`
places the big road and the derived roads (six rows, dragon tail), and
:func:`derived_color` is the comparison of the derived roads for cycle k.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from scoreboard.game.rules import Coup, Game, Winner
from scoreboard.roads._layout import RoadLayout
from scoreboard.roads._values import maker
from scoreboard.roads.stats import Counts, Streaks, Tally

__all__ = [
    "DERIVED_ROADS",
    "BeadCell",
    "BigRoadCell",
    "Color",
    "DerivedCell",
    "DerivedRoad",
    "GameOrderError",
    "Predictions",
    "Roads",
    "derived_color",
    "next_logical_cell",
]


class Color(enum.Enum):
    """A derived-road entry: red for a regular big road, blue for a broken pattern."""

    RED = "red"
    BLUE = "blue"


class DerivedRoad(enum.StrEnum):
    """The three derived roads, valued by the names the theme, JSON and panels use.

    Members are strings, so ``"small_road"`` still finds a road anywhere a
    member is a key.

    >>> DerivedRoad.SMALL_ROAD.k, DerivedRoad.of_cycle(3)
    (2, <DerivedRoad.COCKROACH_PIG: 'cockroach_pig'>)
    >>> DerivedRoad.SMALL_ROAD == "small_road"
    True
    """

    BIG_EYE_BOY = "big_eye_boy"
    SMALL_ROAD = "small_road"
    COCKROACH_PIG = "cockroach_pig"

    @property
    def k(self) -> int:
        """The cycle: how many columns back the road compares (roads.md, "Derived roads")."""
        return _CYCLES[self]

    @classmethod
    def of_cycle(cls, k: int) -> DerivedRoad:
        """The road of cycle ``k``; a ``ValueError`` names the cycles for any other k."""
        for road, cycle in _CYCLES.items():
            if cycle == k:
                return road
        raise ValueError(f"no derived road with cycle {k}; k is 1, 2 or 3")


_CYCLES = {DerivedRoad.BIG_EYE_BOY: 1, DerivedRoad.SMALL_ROAD: 2, DerivedRoad.COCKROACH_PIG: 3}

RED, BLUE = Color.RED, Color.BLUE
BANKER, PLAYER, TIE = Winner.BANKER, Winner.PLAYER, Winner.TIE

# Road -> cycle k, for code that still reads the roads by name.
DERIVED_ROADS: dict[DerivedRoad, int] = {road: road.k for road in DerivedRoad}


class GameOrderError(ValueError):
    """A game appended out of order; the table must rebuild the roads instead."""


@dataclass(frozen=True, slots=True)
class BeadCell:
    """One coup on the bead plate, ties included: coup i at (i // rows, i % rows)."""

    col: int
    row: int
    game: int
    coup: Coup


@dataclass(frozen=True, slots=True)
class BigRoadCell:
    """A big-road cell at its displayed ``(col, row)``.

    ``winner`` is None only for the cell of leading ties before the first Banker
    or Player result; ``ties`` counts the ties drawn on the cell.  Pairs and the
    natural are those of the cell's own coup (``game``); ``logical_col`` and
    ``logical_row`` place it in its streak, which is what the derived roads read.
    """

    col: int
    row: int
    winner: Winner | None
    ties: int
    banker_pair: bool
    player_pair: bool
    natural: bool
    game: int | None
    logical_col: int
    logical_row: int


@dataclass(frozen=True, slots=True)
class DerivedCell:
    """An entry of a derived road at its displayed ``(col, row)``."""

    col: int
    row: int
    color: Color


# Derived cells are plain values that recur in every shoe and every rebuild, so
# they are shared (like interned strings): (col, row, is red) -> cell.
_DERIVED_CELLS: dict[tuple[int, int, bool], DerivedCell] = {}


def derived_cell(col: int, row: int, color: Color) -> DerivedCell:
    """The shared :class:`DerivedCell` for a position and colour.

    >>> derived_cell(0, 1, Color.RED) is derived_cell(0, 1, Color.RED)
    True
    """
    key = (col, row, color is RED)  # pragma: no mutate (is not RED: as unique a key)
    cell = _DERIVED_CELLS.get(key)
    if cell is None:
        cell = _DERIVED_CELLS[key] = DerivedCell(col, row, color)
    return cell


def derived_color(lengths: Sequence[int], col: int, row: int, k: int) -> Color | None:
    """The colour a derived road with cycle ``k`` adds for big-road cell (col, row).

    ``col`` and ``row`` are logical; ``lengths[x]`` is the length of logical
    column x, and only columns before ``col`` are read.  None when the column the
    rule needs does not exist yet.

    A new column (row 0) is red when the two columns before it have equal length:
    >>> derived_color([3, 3], 2, 0, k=1), derived_color([3, 2], 2, 0, k=1)
    (<Color.RED: 'red'>, <Color.BLUE: 'blue'>)

    A streak going on (row >= 1) is blue only where the column k to the left ends
    just above it (p == row), red beside a filled cell or below two empty ones:
    >>> [derived_color([2, 9], 1, row, k=1).value for row in (1, 2, 3)]
    ['red', 'blue', 'red']
    >>> derived_color([2], 0, 1, k=1) is None
    True
    """
    if row == 0:
        if col <= k:
            return None
        return RED if lengths[col - 1] == lengths[col - 1 - k] else BLUE
    if col < k:
        return None
    return BLUE if row == lengths[col - k] else RED


def next_logical_cell(
    lengths: Sequence[int], last: Winner | None, winner: Winner
) -> tuple[int, int]:
    """The logical (col, row) a Banker or Player result would take in the big road.

    >>> next_logical_cell([3, 2], Winner.PLAYER, Winner.PLAYER)
    (1, 2)
    >>> next_logical_cell([3, 2], Winner.PLAYER, Winner.BANKER)
    (2, 0)
    """
    if last is None:
        return 0, 0
    if winner is last:
        return len(lengths) - 1, lengths[-1]
    return len(lengths), 0


class Roads:
    """All roads of one shoe, grown one game at a time.

    The engine keeps plain tuples and ints; a road's cells are made when they are
    read (the board reads only what changed and what is visible) and kept, so
    each cell is made at most once, and again only when a tie changes it.

    >>> roads = Roads(rows=6)
    >>> from scoreboard.game.notation import result_games
    >>> for game in result_games("TTB"):
    ...     roads.append(game)
    >>> cell = roads.big_road[0]
    >>> (cell.col, cell.row, cell.winner.value, cell.ties)
    (0, 0, 'B', 2)
    """

    __slots__ = (
        "_bead_cells",
        "_big",
        "_big_cells",
        "_big_place",
        "_counts",
        "_derived",
        "_derived_roads",
        "_games",
        "_last_number",
        "_last_winner",
        "_lengths",
        "_longest",
        "_predictions",
        "_streaks",
        "_tally",
        "rows",
    )

    def __init__(self, rows: int = 6) -> None:
        if rows < 1:
            raise ValueError(f"roads need at least 1 row, got {rows}")
        self.rows = rows
        self._games: list[Game] = []
        # The big road as tuples in BigRoadCell's field order: a cell is made when read.
        self._big: list[_BigEntry] = []
        # Cells made so far, by entry index (a tie drops the cell it changes).
        self._bead_cells: dict[int, BeadCell] = {}
        self._big_cells: dict[int, BigRoadCell] = {}
        self._big_place = RoadLayout(rows).place
        self._lengths: list[int] = []
        self._last_winner: Winner | None = None
        self._longest = [0, 0]  # the longest Player and Banker streaks
        # By road; members are strings, so a road's name finds it without making a member.
        self._derived: dict[str, _Derived] = {
            road: (road.k, RoadLayout(rows).place, [], [], [], []) for road in DerivedRoad
        }
        self._derived_roads = tuple(self._derived.values())  # for the append loop
        self._tally = Tally()
        self._last_number: int | None = None
        self._counts: Counts | None = None
        self._streaks: Streaks | None = None
        self._predictions: Predictions | None = None

    def __repr__(self) -> str:
        return f"Roads(rows={self.rows}, coups={len(self._games)}, columns={len(self._lengths)})"

    @classmethod
    def build(cls, games: Iterable[Game], rows: int = 6) -> Roads:
        """Lay out a whole shoe from its games in game order."""
        roads = cls(rows)
        append = roads.append
        for game in games:
            append(game)
        return roads

    # -- growing -----------------------------------------------------------
    def append(self, game: Game) -> None:
        """Add the next game of the shoe; raises :class:`GameOrderError` if it is not.

        Every game goes on the bead plate and the counters; a tie is counted on the
        last big-road cell; a Banker or Player result takes its logical cell, its
        displayed cell, and the entry of each derived road whose needed column exists.
        """
        number = game.number
        last = self._last_number
        if last is not None and number <= last:
            raise GameOrderError(
                f"game {number} arrives after game {last}; "
                "rebuild the roads from the games in order"
            )
        self._last_number = number
        self._games.append(game)
        coup = game.coup
        self._tally.add(coup)
        self._counts = self._predictions = None
        winner = coup.winner
        if winner is TIE:
            self._add_tie()
            return
        lengths = self._lengths
        col, row = next_logical_cell(lengths, self._last_winner, winner)
        if row == 0:
            lengths.append(1)
        else:
            lengths[col] = row + 1
        longest = self._longest  # [player, banker]: indexed by "is Banker"
        if row >= longest[winner is BANKER]:
            longest[winner is BANKER] = row + 1
        self._last_winner = winner
        self._streaks = None
        big = self._big
        ties = 0
        # Leading ties: this result fills their cell, which is then the only cell.
        if big and big[-1][2] is None:  # pragma: no mutate (big[0] is big[-1] here)
            ties = big.pop()[3]
            self._big_cells.pop(0, None)
        x, y = self._big_place(winner)
        natural = coup.player_natural or coup.banker_natural  # Coup.natural, minus a call
        big.append(
            (x, y, winner, ties, coup.banker_pair, coup.player_pair, natural, number, col, row)
        )
        for k, place, positions, colors, numbers, _ in self._derived_roads:
            color = derived_color(lengths, col, row, k)
            if color is not None:
                positions.append(place(color))
                colors.append(color)
                numbers.append(number)

    def _add_tie(self) -> None:
        """A tie takes no cell: it is counted on the last cell (or on (0, 0) before any)."""
        big = self._big
        if not big:
            big.append((0, 0, None, 1, False, False, False, None, 0, 0))
            return
        x, y, winner, ties, banker_pair, player_pair, natural, game, col, row = big[-1]
        big[-1] = (x, y, winner, ties + 1, banker_pair, player_pair, natural, game, col, row)
        self._big_cells.pop(len(big) - 1, None)

    # -- reading -----------------------------------------------------------
    @property
    def bead_plate(self) -> tuple[BeadCell, ...]:
        return tuple(self._beads(0, None))

    @property
    def big_road(self) -> tuple[BigRoadCell, ...]:
        """Big-road cells in placement order (a tie changes the last cell's count)."""
        return tuple(self._big_road(0, None))

    def derived(self, k: int) -> tuple[DerivedCell, ...]:
        """The derived road of cycle ``k``: 1 big eye boy, 2 small road, 3 cockroach pig."""
        return tuple(self._derived_cells(DerivedRoad.of_cycle(k)))

    def road(self, name: str) -> Sequence[BeadCell] | Sequence[BigRoadCell] | Sequence[DerivedCell]:
        """Any road by its name: ``bead_plate``, ``big_road`` or a :class:`DerivedRoad`.

        >>> from scoreboard.game.notation import result_games
        >>> len(Roads.build(result_games("BBPB")).road(DerivedRoad.BIG_EYE_BOY))
        1
        """
        if name == "bead_plate":
            return self.bead_plate
        if name == "big_road":
            return self.big_road
        return tuple(self._derived_cells(name))

    def length(self, name: str) -> int:
        """How many entries road ``name`` has, without copying it (a renderer asks every frame).

        >>> from scoreboard.game.notation import result_games
        >>> roads = Roads.build(result_games("BTBPB"))
        >>> [roads.length(name) for name in ("bead_plate", "big_road", "big_eye_boy")]
        [5, 4, 1]
        """
        if name == "bead_plate":
            return len(self._games)
        if name == "big_road":
            return len(self._big)
        return len(self._derived_road(name)[4])

    def entries(
        self, name: str, start: int = 0, stop: int | None = None
    ) -> Sequence[BeadCell] | Sequence[BigRoadCell] | Sequence[DerivedCell]:
        """Entries ``start:stop`` of road ``name``: what changed, without copying the whole road.

        >>> from scoreboard.game.notation import result_games
        >>> [cell.game for cell in Roads.build(result_games("BBPT")).entries("big_road", 1)]
        [2, 3]
        """
        return self._cells(name, start, stop)  # a new list: the road stays the engine's

    def entry_games(self, name: str, start: int = 0, stop: int | None = None) -> tuple[int, ...]:
        """The game of each entry ``start:stop``: its coup's number, for a derived entry the
        number of the big-road result that added it.  The cell of leading ties, before any
        Banker or Player result, counts as the first tie's game.

        >>> from scoreboard.game.notation import result_games
        >>> Roads.build(result_games("BPBBP")).entry_games("big_eye_boy")
        (3, 4, 5)
        >>> Roads.build(result_games("TT")).entry_games("big_road")
        (1,)
        """
        if name == "bead_plate":
            return tuple(game.number for game in self._games[start:stop])
        if name == "big_road":
            first = self._games[0].number if self._games else 0  # pragma: no mutate (no entries)
            return tuple(first if entry[7] is None else entry[7] for entry in self._big[start:stop])
        return tuple(self._derived_road(name)[4][start:stop])

    def _cells(
        self, name: str, start: int, stop: int | None
    ) -> list[BeadCell] | list[BigRoadCell] | list[DerivedCell]:
        if name == "bead_plate":
            return self._beads(start, stop)
        if name == "big_road":
            return self._big_road(start, stop)
        return self._derived_cells(name)[start:stop]

    def _beads(self, start: int, stop: int | None) -> list[BeadCell]:
        """Bead cells ``start:stop``, made now for the coups never read."""
        beads, games, rows = self._bead_cells, self._games, self.rows
        found = []
        for index in range(len(games))[start:stop]:
            bead = beads.get(index)
            if bead is None:
                game = games[index]
                bead = beads[index] = BeadCell(index // rows, index % rows, game.number, game.coup)
            found.append(bead)
        return found

    def _big_road(self, start: int, stop: int | None) -> list[BigRoadCell]:
        """Big-road cells ``start:stop``, made now for the entries never read (or since a tie)."""
        cells, big = self._big_cells, self._big
        found = []
        for index in range(len(big))[start:stop]:
            cell = cells.get(index)
            if cell is None:
                cell = cells[index] = _make_big_road_cell(big[index])
            found.append(cell)
        return found

    def _derived_cells(self, name: str) -> list[DerivedCell]:
        """Every cell of a derived road (an entry never changes: its cell is made once)."""
        _, _, positions, colors, _, made = self._derived_road(name)
        for index in range(len(made), len(positions)):
            made.append(derived_cell(*positions[index], colors[index]))
        return made

    def _derived_road(self, name: str) -> _Derived:
        found = self._derived.get(name)
        if found is None:
            raise ValueError(
                f"no road {name!r}; roads are bead_plate, big_road, {', '.join(DerivedRoad)}"
            )
        return found

    @property
    def big_eye_boy(self) -> tuple[DerivedCell, ...]:
        return tuple(self._derived_cells(DerivedRoad.BIG_EYE_BOY))

    @property
    def small_road(self) -> tuple[DerivedCell, ...]:
        return tuple(self._derived_cells(DerivedRoad.SMALL_ROAD))

    @property
    def cockroach_pig(self) -> tuple[DerivedCell, ...]:
        return tuple(self._derived_cells(DerivedRoad.COCKROACH_PIG))

    @property
    def column_lengths(self) -> tuple[int, ...]:
        """Lengths of the logical big-road columns (the streaks), left to right."""
        return tuple(self._lengths)

    def predict(self, winner: Winner) -> dict[DerivedRoad, Color | None]:
        """The ask road: what each derived road would add if ``winner`` came next.

        It asks :func:`derived_color` about the cell the result would take, so
        it is the very rule the roads use, and the roads stay untouched.

        >>> from scoreboard.game.notation import result_games
        >>> prediction = Roads.build(result_games("BBP")).predict(Winner.PLAYER)
        >>> {road.value: color for road, color in prediction.items()}
        {'big_eye_boy': <Color.RED: 'red'>, 'small_road': None, 'cockroach_pig': None}
        """
        if winner is Winner.TIE:
            raise ValueError("a tie adds nothing to the derived roads; ask for B or P")
        lengths = self._lengths
        col, row = next_logical_cell(lengths, self._last_winner, winner)
        return {road: derived_color(lengths, col, row, k) for road, k in _CYCLES.items()}

    @property
    def predictions(self) -> Predictions:
        """``predict`` for the next Banker and the next Player, read-only.

        The ask road reads only the last column and the three before it (roads.md), so
        one answer serves every shoe whose last columns and last side are the same.
        """
        found = self._predictions
        if found is None:
            banker = self._last_winner is BANKER  # pragma: no mutate (is not: as unique a key)
            key = (banker, *self._lengths[-_ASK_READS:])
            found = _ASKED.get(key)
            if found is None:
                if len(_ASKED) >= _KEPT:
                    _ASKED.clear()
                found = _ASKED[key] = MappingProxyType(
                    {side: MappingProxyType(self.predict(side)) for side in (BANKER, PLAYER)}
                )
            self._predictions = found
        return found

    @property
    def counts(self) -> Counts:
        if self._counts is None:
            self._counts = self._tally.counts()
        return self._counts

    @property
    def streaks(self) -> Streaks:
        if self._streaks is None:
            side = self._last_winner
            longest_player, longest_banker = self._longest
            current = self._lengths[-1] if self._lengths else 0
            banker = side is BANKER  # pragma: no mutate (is not: as unique a key)
            key = (banker, current, longest_banker, longest_player)
            found = _STREAKS.get(key)
            if found is None:
                if len(_STREAKS) >= _KEPT:
                    _STREAKS.clear()
                found = _STREAKS[key] = Streaks(side, current, longest_banker, longest_player)
            self._streaks = found
        return self._streaks

    def to_json(self) -> dict[str, Any]:
        """The object ``scoreboard roads`` prints: plain data, lists in placement order.

        >>> from scoreboard.game.notation import result_games
        >>> Roads.build(result_games("TB")).to_json()["big_road"][0]["ties"]
        1
        """
        rows = self.rows
        return {
            "rows": rows,
            "bead_plate": [
                {
                    "col": index // rows,
                    "row": index % rows,
                    "result": game.coup.winner.value,
                    "game": game.number,
                    "banker_pair": game.coup.banker_pair,
                    "player_pair": game.coup.player_pair,
                    "natural": game.coup.natural,
                }
                for index, game in enumerate(self._games)
            ],
            "big_road": [
                {
                    "col": col,
                    "row": row,
                    "result": winner.value if winner is not None else None,
                    "ties": ties,
                    "game": game,
                    "banker_pair": pair_b,
                    "player_pair": pair_p,
                    "natural": natural,
                }
                for col, row, winner, ties, pair_b, pair_p, natural, game, *_ in self._big
            ],
            **{
                str(road): [
                    {"col": col, "row": row, "color": color.value}
                    for (col, row), color in zip(positions, colors, strict=True)
                ]
                for road, (_, _, positions, colors, _, _) in self._derived.items()
            },
            "predictions": {
                winner.value: {
                    road.value: color.value if color is not None else None
                    for road, color in colors.items()
                }
                for winner, colors in self.predictions.items()
            },
            "counts": self.counts.to_json(),
            "streaks": self.streaks.to_json(),
        }


_make_big_road_cell = maker(BigRoadCell)
# A big-road entry in BigRoadCell's field order (col, row, winner, ties, banker pair,
# player pair, natural, game, logical col, logical row), before its cell is made.
_BigEntry = tuple[int, int, Winner | None, int, bool, bool, bool, int | None, int, int]
Predictions = Mapping[Winner, Mapping[DerivedRoad, Color | None]]
# A derived road: its k, the place method of its layout, each entry's displayed position,
# colour and the big-road game that added it, and the cells made so far.
_Derived = tuple[
    int,
    Callable[[Hashable], tuple[int, int]],
    list[tuple[int, int]],
    list[Color],
    list[int],
    list[DerivedCell],
]

# The ask road's answers, by (last side is Banker, the last column's length and up to
# three before it): made by ``Roads.predict`` once, shared read-only.
_ASK_READS = max(_CYCLES.values()) + 1
_ASKED: dict[tuple[int, ...], Predictions] = {}
# Streaks recur too, by (current side is Banker, current length, longest of each side).
_STREAKS: dict[tuple[bool, int, int, int], Streaks] = {}
_KEPT = 65_536  # pragma: no mutate (any bound: answers kept in each of these two, at most)
