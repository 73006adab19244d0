"""Which columns each road shows: all roads scroll together, by whole columns.

A road does not scroll while it fits its grid.  Once any road overflows, every
road shows the same stretch of the shoe: each overflowing road finds the
earliest game it can still show with its newest column visible, the latest of
those games is the common start, and every road starts at its first column
holding an entry of that game or later (never so far left that its own newest
column drops off).  A scrolled road gives its first ``reserved`` grid columns
to the "earlier results" marker, and scrolls in steps of ``empty_columns + 1``
columns, so it leaves that many empty columns after the newest when it moves
and does not shift on every coup.

Pure: no pygame.  :class:`ColumnIndex` keeps what the rule reads about one road
(and which entries sit in which column) and grows with each new entry, so the
renderer never walks the whole shoe.

>>> index = ColumnIndex()
>>> for index_of, (col, game) in enumerate([(0, 1), (0, 2), (1, 3), (2, 4), (3, 5)]):
...     index.add(index_of, col, game)
>>> starts({"big_road": index.span(cols=3, reserved=1)}, empty_columns=1)
{'big_road': 3}
>>> list(index.entries(3, 5)), list(index.entries(0, 2))
([4], [0, 1, 2])
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from scoreboard.core.roads import BeadCell, BigRoadCell, DerivedCell, Roads

__all__ = ["ColumnIndex", "RoadSpan", "ShoeIndex", "own_start", "shown_columns", "starts"]


@dataclass(frozen=True, slots=True)
class RoadSpan:
    """What the scroll rule reads of one road.

    ``first_games[c]``: the game of column c's first entry (it never changes:
    later entries have later games); ``reach[c]``: the latest game in columns
    0..c.  Both grow with the column and are the index's own lists, not copies.
    ``cols``: the grid's columns; ``reserved``: the columns the marker takes
    while the road is scrolled.
    """

    cols: int
    reserved: int
    first_games: Sequence[int]
    reach: Sequence[int]

    @property
    def columns(self) -> int:
        return len(self.first_games)


def shown_columns(start: int, cols: int, reserved: int) -> tuple[int, int]:
    """(the grid column where road column ``start`` is drawn, how many road columns show).

    >>> shown_columns(0, 10, 2), shown_columns(7, 10, 2)
    ((0, 10), (2, 8))
    """
    if start == 0:
        return 0, cols
    offset = max(0, min(reserved, cols - 1))
    return offset, cols - offset


def own_start(columns: int, cols: int, reserved: int, empty_columns: int) -> int:
    """The first column a road alone would show: 0 while it fits, then stepped.

    A scroll leaves ``empty_columns`` empty columns after the newest (at most
    all but one visible column), and the start moves only when the newest
    column would leave the grid again.

    >>> [own_start(n, 10, 1, 2) for n in (10, 11, 12, 13, 14, 15)]
    [0, 4, 4, 4, 7, 7]
    """
    if columns <= cols:
        return 0
    visible = shown_columns(1, cols, reserved)[1]
    keep = min(max(0, empty_columns), visible - 1)
    first = cols + 1 - visible + keep  # the start of the first scroll
    late = columns - cols - 1 - keep  # columns the newest has moved past it
    return first + max(0, -(-late // (keep + 1))) * (keep + 1)


def starts(spans: Mapping[str, RoadSpan], empty_columns: int) -> dict[str, int]:
    """The first column each road shows, so that all show the same stretch of the shoe.

    >>> fits = RoadSpan(cols=5, reserved=1, first_games=[1, 7, 13], reach=[6, 12, 18])
    >>> long = RoadSpan(cols=3, reserved=1, first_games=[1, 3, 9, 14], reach=[2, 8, 13, 18])
    >>> starts({"bead_plate": fits, "big_road": long}, empty_columns=0)
    {'bead_plate': 1, 'big_road': 2}
    >>> starts({"bead_plate": fits}, empty_columns=0)
    {'bead_plate': 0}
    """
    own = {
        name: own_start(span.columns, span.cols, span.reserved, empty_columns)
        for name, span in spans.items()
    }
    earliest = [span.first_games[own[name]] for name, span in spans.items() if own[name] > 0]
    if not earliest:
        return dict.fromkeys(spans, 0)
    common = max(earliest)
    result: dict[str, int] = {}
    for name, span in spans.items():
        at = bisect_left(span.reach, common)
        start = max(own[name], at if at < span.columns else 0)
        if start > 0:  # scrolled: the marker takes its columns, the newest still shows
            start = max(start, span.columns - shown_columns(start, span.cols, span.reserved)[1])
        result[name] = start
    return result


class ColumnIndex:
    """One road's entries by column, grown one entry at a time (O(1) amortised).

    Entries arrive in game order, so each new entry has the road's latest game:
    ``reach`` is raised from its column to the right end, which is only the
    columns an earlier dragon tail already took.
    """

    __slots__ = ("by_column", "count", "first_games", "reach")

    def __init__(self) -> None:
        self.count = 0
        #: The entry indices (positions in the road) in each column.
        self.by_column: list[list[int]] = []
        self.first_games: list[int] = []
        self.reach: list[int] = []

    def __len__(self) -> int:
        return self.count

    def add(self, index: int, col: int, game: int) -> None:
        """Entry ``index`` of the road sits in column ``col`` and belongs to ``game``."""
        by_column, first, reach = self.by_column, self.first_games, self.reach
        while len(by_column) <= col:
            by_column.append([])
            first.append(game)
            reach.append(reach[-1] if reach else game)
        by_column[col].append(index)
        self.count += 1
        at = len(reach) - 1
        while at >= col and reach[at] < game:
            reach[at] = game
            at -= 1

    def regame(self, col: int, game: int) -> None:
        """An entry of column ``col`` now belongs to a later ``game`` (leading ties filled)."""
        reach = self.reach
        at = len(reach) - 1
        while at >= col and reach[at] < game:
            reach[at] = game
            at -= 1

    def span(self, cols: int, reserved: int) -> RoadSpan:
        return RoadSpan(cols, reserved, self.first_games, self.reach)

    def entries(self, start: int, stop: int) -> Iterator[int]:
        """The indices of the entries in columns ``start`` to ``stop - 1``, in column order."""
        for column in self.by_column[max(0, start) : max(0, stop)]:
            yield from column


class ShoeIndex:
    """A :class:`ColumnIndex` per road of one :class:`Roads`, kept in step with it.

    :meth:`sync` reads only what is new since the last call; a different
    ``Roads`` object (a rebuild, a new shoe) starts the index again.
    """

    def __init__(self, names: Sequence[str]) -> None:
        self.names = tuple(names)
        self.roads: Roads | None = None
        self.columns: dict[str, ColumnIndex] = {}
        self._last: dict[str, object] = {}

    def sync(self, roads: Roads) -> dict[str, list[int]] | None:
        """Index the new entries; the indices of the entries that changed, by road.

        None when the roads were replaced (everything changed).  A changed entry
        is a new one, or the big road's last cell whose tie count changed.
        """
        fresh = roads is not self.roads
        if fresh:
            self.roads = roads
            self.columns = {name: ColumnIndex() for name in self.names}
            self._last = {}
        changed: dict[str, list[int]] = {}
        for name in self.names:
            index = self.columns[name]
            known, length = len(index), roads.length(name)
            touched = list(range(known, length))
            last: BeadCell | BigRoadCell | DerivedCell | None = (
                roads.entries(name, known - 1, known)[0] if known else None
            )
            if last is not None and self._last.get(name) is not last:
                touched.insert(0, known - 1)  # the last cell was replaced (a tie on it)
                index.regame(last.col, roads.entry_games(name, known - 1, known)[0])
            if length > known:
                cols = [cell.col for cell in roads.entries(name, known)]
                games = roads.entry_games(name, known)
                for offset, (col, game) in enumerate(zip(cols, games, strict=True)):
                    index.add(known + offset, col, game)
            if length:
                self._last[name] = roads.entries(name, length - 1)[0]
            changed[name] = touched
        return None if fresh else changed
