"""The one placement routine: where a road's entries go on a grid of ``rows`` rows.

The big road and the three derived roads are all laid out by :class:`RoadLayout`
(roads.md, "Displayed positions (the dragon tail)").  Entries that equal the
previous entry continue its logical column; a different entry starts a new one.

1. The head of a logical column goes to row 0 of the display column right after
   the previous head's display column, or further right to the first free row-0
   cell when an earlier tail took that one.
2. Each further entry goes one row down if that row exists and is free; otherwise
   the streak turns right (the dragon tail).
3. Once turned, a streak stays on its row to its end: an L, never a staircase.

>>> layout = RoadLayout(rows=3)
>>> [layout.place(value) for value in "BBBBPP"]
[(0, 0), (0, 1), (0, 2), (1, 2), (1, 0), (1, 1)]

The entries can be anything comparable with ``==`` (winners for the big road,
colours for the derived roads).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

__all__ = ["RoadLayout", "layout_positions"]


class RoadLayout:
    """Incremental placement of one road: each :meth:`place` is O(1) amortised.

    The layout only ever grows; a road that changes its past is laid out again
    from a fresh :class:`RoadLayout`.
    """

    __slots__ = ("_col", "_head_col", "_last", "_row", "_taken", "_turned", "rows")

    def __init__(self, rows: int = 6) -> None:
        if rows < 1:
            raise ValueError(f"a road needs at least 1 row, got {rows}")
        self.rows = rows
        # Occupied cells as ``col * rows + row``: unique for a fixed row count.
        self._taken: set[int] = set()
        self._head_col = -1
        # The first place() starts a column and sets these three before reading them.
        self._col = -1  # pragma: no mutate (overwritten by the first place)
        self._row = -1  # pragma: no mutate (overwritten by the first place)
        self._turned = False  # pragma: no mutate (overwritten by the first place)
        self._last: Hashable | None = None

    def place(self, value: Hashable) -> tuple[int, int]:
        """Place the next entry; return its displayed ``(col, row)``."""
        rows = self.rows
        taken = self._taken
        last = self._last
        if last is None or value != last:
            col = self._head_col + 1
            while col * rows in taken:
                col += 1
            taken.add(col * rows)  # pragma: no mutate (heads: no look-up reads row 0 back)
            self._head_col = self._col = col
            self._row = 0
            self._turned = False
            self._last = value
            return col, 0
        col, row = self._col, self._row
        if self._turned or row + 1 == rows or col * rows + row + 1 in taken:
            col += 1
            self._col = col
            self._turned = True
        else:
            row += 1
            self._row = row
        taken.add(col * rows + row)
        return col, row


def layout_positions(values: Iterable[Hashable], rows: int = 6) -> list[tuple[int, int]]:
    """Displayed positions of a whole road, e.g. for a test or a preview.

    >>> layout_positions("BBPPP", rows=2)
    [(0, 0), (0, 1), (1, 0), (1, 1), (2, 1)]
    """
    layout = RoadLayout(rows)
    return [layout.place(value) for value in values]
