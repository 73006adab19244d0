"""Which columns each road shows: each road scrolls on its own, by whole columns.

A road does not scroll while it fits its grid, whatever the others do: the bead
plate holds a whole shoe where it has the cells (84 games in 14 columns), while
the big road and the derived roads, whose columns a choppy shoe spends one per
coup, show their newest columns.  A scrolled road gives its first ``reserved``
grid columns to the "earlier results" marker, and scrolls in steps of
``empty_columns + 1`` columns, so it leaves that many empty columns after the
newest when it moves and does not shift on every coup.

(Until issue 25 every road showed the same stretch of the shoe: in a choppy
shoe that hid the bead plate's first games beside its own empty columns.)

Pure: no pygame.  :class:`ColumnIndex` keeps which entries sit in which column
of one road and grows with each new entry, so the renderer never walks the
whole shoe.

>>> index = ColumnIndex()
>>> for entry, col in enumerate([0, 0, 1, 2, 3]):
...     index.add(entry, col)
>>> index.columns, own_start(index.columns, cols=3, reserved=1, empty_columns=1)
(4, 3)
>>> list(index.entries(3, 5)), list(index.entries(0, 2))
([4], [0, 1, 2])
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from scoreboard.roads.engine import BeadCell, BigRoadCell, DerivedCell, Roads

__all__ = ["ColumnIndex", "ShoeIndex", "own_start", "shown_columns"]


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


class ColumnIndex:
    """One road's entries by column, grown one entry at a time (O(1) amortised)."""

    __slots__ = ("by_column", "count")

    def __init__(self) -> None:
        self.count = 0
        #: The entry indices (positions in the road) in each column.
        self.by_column: list[list[int]] = []

    def __len__(self) -> int:
        return self.count

    @property
    def columns(self) -> int:
        """How many columns the road has taken."""
        return len(self.by_column)

    def add(self, index: int, col: int) -> None:
        """Entry ``index`` of the road sits in column ``col``."""
        by_column = self.by_column
        while len(by_column) <= col:
            by_column.append([])
        by_column[col].append(index)
        self.count += 1

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
            if length > known:
                new: Sequence[BeadCell | BigRoadCell | DerivedCell] = roads.entries(name, known)
                for offset, cell in enumerate(new):
                    index.add(known + offset, cell.col)
            if length:
                self._last[name] = roads.entries(name, length - 1)[0]
            changed[name] = touched
        return None if fresh else changed
