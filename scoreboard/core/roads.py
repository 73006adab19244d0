"""The road engine: bead plate, big road, the three derived roads and the ask road.

Everything follows ``docs/roads.md`` of the shared docs; the names here are its
names.  The engine is incremental: :meth:`Roads.append` adds one game and updates
every road, counter, streak and prediction in constant time;
:meth:`Roads.build` lays a whole shoe out again (after a void or a correction).

>>> roads = Roads.build(result_games("BBBPPBPPPP"))
>>> roads.column_lengths
(3, 2, 1, 4)
>>> "".join(cell.color.value[0] for cell in roads.big_eye_boy)
'rbbbrr'
>>> roads.predictions[Winner.BANKER][DerivedRoad.BIG_EYE_BOY]
<Color.BLUE: 'blue'>

Two routines carry the roads: :class:`~scoreboard.core.road_layout.RoadLayout`
places the big road and the derived roads (six rows, dragon tail), and
:func:`derived_color` is the comparison of the derived roads for cycle k.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from scoreboard.core.notation import result_games
from scoreboard.core.road_layout import RoadLayout
from scoreboard.core.rules import Coup, Game, Winner
from scoreboard.core.stats import Counts, Streaks, Tally

__all__ = [
    "DERIVED_ROADS",
    "BeadCell",
    "BigRoadCell",
    "Color",
    "Counts",
    "DerivedCell",
    "DerivedRoad",
    "GameOrderError",
    "Roads",
    "Streaks",
    "derived_color",
    "next_logical_cell",
    "result_games",
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
BANKER, TIE = Winner.BANKER, Winner.TIE

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

    >>> roads = Roads(rows=6)
    >>> for game in result_games("TTB"):
    ...     roads.append(game)
    >>> cell = roads.big_road[0]
    >>> (cell.col, cell.row, cell.winner.value, cell.ties)
    (0, 0, 'B', 2)
    """

    __slots__ = (
        "_bead_plate",
        "_big_layout",
        "_big_road",
        "_counts",
        "_derived",
        "_derived_games",
        "_derived_roads",
        "_last_number",
        "_last_winner",
        "_lengths",
        "_longest_banker",
        "_longest_player",
        "_predictions",
        "_tally",
        "rows",
    )

    def __init__(self, rows: int = 6) -> None:
        if rows < 1:
            raise ValueError(f"roads need at least 1 row, got {rows}")
        self.rows = rows
        self._bead_plate: list[BeadCell] = []
        self._big_road: list[BigRoadCell] = []
        self._big_layout = RoadLayout(rows)
        self._lengths: list[int] = []
        self._last_winner: Winner | None = None
        self._longest_banker = 0
        self._longest_player = 0
        self._derived: dict[DerivedRoad, list[DerivedCell]] = {road: [] for road in DerivedRoad}
        # The big-road game that added each derived entry, beside it (cells are shared values).
        self._derived_games: dict[DerivedRoad, list[int]] = {road: [] for road in DerivedRoad}
        # (k, its road, its games, the place method of its layout), for the append loop.
        self._derived_roads = tuple(
            (road.k, cells, self._derived_games[road], RoadLayout(rows).place)
            for road, cells in self._derived.items()
        )
        self._tally = Tally()
        self._last_number: int | None = None
        self._counts: Counts | None = None
        self._predictions: dict[Winner, dict[DerivedRoad, Color | None]] | None = None

    def __repr__(self) -> str:
        return (
            f"Roads(rows={self.rows}, coups={len(self._bead_plate)}, columns={len(self._lengths)})"
        )

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
        """Add the next game of the shoe; raises :class:`GameOrderError` if it is not."""
        number = game.number
        if self._last_number is not None and number <= self._last_number:
            raise GameOrderError(
                f"game {number} arrives after game {self._last_number}; "
                "rebuild the roads from the games in order"
            )
        self._last_number = number
        coup = game.coup
        beads = self._bead_plate
        col, row = divmod(len(beads), self.rows)
        beads.append(BeadCell(col, row, number, coup))
        self._tally.add(coup)
        self._counts = None
        self._predictions = None
        if coup.winner is TIE:
            self._add_tie()
        else:
            self._add_result(coup.winner, coup, number)

    def _add_tie(self) -> None:
        """A tie takes no cell: it is counted on the last cell (or on (0, 0) before any)."""
        big = self._big_road
        if not big:
            big.append(BigRoadCell(0, 0, None, 1, False, False, False, None, 0, 0))
            return
        cell = big[-1]
        big[-1] = BigRoadCell(
            col=cell.col,
            row=cell.row,
            winner=cell.winner,
            ties=cell.ties + 1,
            banker_pair=cell.banker_pair,
            player_pair=cell.player_pair,
            natural=cell.natural,
            game=cell.game,
            logical_col=cell.logical_col,
            logical_row=cell.logical_row,
        )  # not dataclasses.replace, which costs twice as much

    def _add_result(self, winner: Winner, coup: Coup, number: int) -> None:
        """A Banker or Player result: its logical cell, its displayed cell, and the
        entry of each derived road whose needed column exists."""
        lengths = self._lengths
        col, row = next_logical_cell(lengths, self._last_winner, winner)
        if row == 0:
            lengths.append(1)
        else:
            lengths[col] = row + 1
        if winner is BANKER:
            if row >= self._longest_banker:
                self._longest_banker = row + 1
        elif row >= self._longest_player:
            self._longest_player = row + 1
        self._last_winner = winner

        big = self._big_road
        ties = 0
        # Leading ties: this result fills their cell, which is then the only cell.
        if big and big[-1].winner is None:  # pragma: no mutate (big[0] is big[-1] here)
            ties = big.pop().ties
        x, y = self._big_layout.place(winner)
        # Positional in BigRoadCell's field order: this is the hot path.
        big.append(
            BigRoadCell(
                x,
                y,
                winner,
                ties,
                coup.banker_pair,
                coup.player_pair,
                coup.natural,
                number,
                col,
                row,
            )
        )
        for k, road, games, place in self._derived_roads:
            color = derived_color(lengths, col, row, k)
            if color is not None:
                x, y = place(color)
                road.append(derived_cell(x, y, color))
                games.append(number)

    # -- reading -----------------------------------------------------------
    @property
    def bead_plate(self) -> tuple[BeadCell, ...]:
        return tuple(self._bead_plate)

    @property
    def big_road(self) -> tuple[BigRoadCell, ...]:
        """Big-road cells in placement order (a tie changes the last cell's count)."""
        return tuple(self._big_road)

    def derived(self, k: int) -> tuple[DerivedCell, ...]:
        """The derived road of cycle ``k``: 1 big eye boy, 2 small road, 3 cockroach pig."""
        return tuple(self._derived[DerivedRoad.of_cycle(k)])

    def road(self, name: str) -> Sequence[BeadCell] | Sequence[BigRoadCell] | Sequence[DerivedCell]:
        """Any road by its name: ``bead_plate``, ``big_road`` or a :class:`DerivedRoad`.

        >>> len(Roads.build(result_games("BBPB")).road(DerivedRoad.BIG_EYE_BOY))
        1
        """
        if name == "bead_plate":
            return self.bead_plate
        if name == "big_road":
            return self.big_road
        try:
            return tuple(self._derived[DerivedRoad(name)])
        except ValueError:
            raise ValueError(
                f"no road {name!r}; roads are bead_plate, big_road, {', '.join(DerivedRoad)}"
            ) from None

    def length(self, name: str) -> int:
        """How many entries road ``name`` has, without copying it (a renderer asks every frame).

        >>> roads = Roads.build(result_games("BTBPB"))
        >>> [roads.length(name) for name in ("bead_plate", "big_road", "big_eye_boy")]
        [5, 4, 1]
        """
        return len(self._entries(name))

    def entries(
        self, name: str, start: int = 0, stop: int | None = None
    ) -> Sequence[BeadCell] | Sequence[BigRoadCell] | Sequence[DerivedCell]:
        """Entries ``start:stop`` of road ``name``: what changed, without copying the whole road.

        >>> [cell.game for cell in Roads.build(result_games("BBPT")).entries("big_road", 1)]
        [2, 3]
        """
        return self._entries(name)[start:stop]  # a slice is a copy: the road stays the engine's

    def entry_games(self, name: str, start: int = 0, stop: int | None = None) -> tuple[int, ...]:
        """The game of each entry ``start:stop``: its coup's number, for a derived entry the
        number of the big-road result that added it.  The cell of leading ties, before any
        Banker or Player result, counts as the first tie's game.

        >>> Roads.build(result_games("BPBBP")).entry_games("big_eye_boy")
        (3, 4, 5)
        >>> Roads.build(result_games("TT")).entry_games("big_road")
        (1,)
        """
        if name == "bead_plate":
            return tuple(cell.game for cell in self._bead_plate[start:stop])
        if name == "big_road":
            first = self._bead_plate[0].game if self._bead_plate else 0
            return tuple(
                first if cell.game is None else cell.game for cell in self._big_road[start:stop]
            )
        return tuple(self._derived_games[self._derived_road(name)][start:stop])

    def _entries(self, name: str) -> list[BeadCell] | list[BigRoadCell] | list[DerivedCell]:
        if name == "bead_plate":
            return self._bead_plate
        if name == "big_road":
            return self._big_road
        return self._derived[self._derived_road(name)]

    @staticmethod
    def _derived_road(name: str) -> DerivedRoad:
        try:
            return DerivedRoad(name)
        except ValueError:
            raise ValueError(
                f"no road {name!r}; roads are bead_plate, big_road, {', '.join(DerivedRoad)}"
            ) from None

    @property
    def big_eye_boy(self) -> tuple[DerivedCell, ...]:
        return tuple(self._derived[DerivedRoad.BIG_EYE_BOY])

    @property
    def small_road(self) -> tuple[DerivedCell, ...]:
        return tuple(self._derived[DerivedRoad.SMALL_ROAD])

    @property
    def cockroach_pig(self) -> tuple[DerivedCell, ...]:
        return tuple(self._derived[DerivedRoad.COCKROACH_PIG])

    @property
    def column_lengths(self) -> tuple[int, ...]:
        """Lengths of the logical big-road columns (the streaks), left to right."""
        return tuple(self._lengths)

    def predict(self, winner: Winner) -> dict[DerivedRoad, Color | None]:
        """The ask road: what each derived road would add if ``winner`` came next.

        It asks :func:`derived_color` about the cell the result would take, so
        it is the very rule the roads use, and the roads stay untouched.

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
    def predictions(self) -> dict[Winner, dict[DerivedRoad, Color | None]]:
        """``predict`` for the next Banker and the next Player."""
        if self._predictions is None:
            self._predictions = {
                Winner.BANKER: self.predict(Winner.BANKER),
                Winner.PLAYER: self.predict(Winner.PLAYER),
            }
        return {winner: dict(colors) for winner, colors in self._predictions.items()}

    @property
    def counts(self) -> Counts:
        if self._counts is None:
            self._counts = self._tally.counts()
        return self._counts

    @property
    def streaks(self) -> Streaks:
        return Streaks(
            current_side=self._last_winner,
            current_length=self._lengths[-1] if self._lengths else 0,
            longest_banker=self._longest_banker,
            longest_player=self._longest_player,
        )

    def to_json(self) -> dict[str, Any]:
        """The object ``scoreboard roads`` prints: plain data, lists in placement order.

        >>> Roads.build(result_games("TB")).to_json()["big_road"][0]["ties"]
        1
        """
        return {
            "rows": self.rows,
            "bead_plate": [
                {
                    "col": cell.col,
                    "row": cell.row,
                    "result": cell.coup.winner.value,
                    "game": cell.game,
                    "banker_pair": cell.coup.banker_pair,
                    "player_pair": cell.coup.player_pair,
                    "natural": cell.coup.natural,
                }
                for cell in self._bead_plate
            ],
            "big_road": [
                {
                    "col": cell.col,
                    "row": cell.row,
                    "result": cell.winner.value if cell.winner is not None else None,
                    "ties": cell.ties,
                    "game": cell.game,
                    "banker_pair": cell.banker_pair,
                    "player_pair": cell.player_pair,
                    "natural": cell.natural,
                }
                for cell in self._big_road
            ],
            **{
                road.value: [
                    {"col": cell.col, "row": cell.row, "color": cell.color.value} for cell in cells
                ]
                for road, cells in self._derived.items()
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
