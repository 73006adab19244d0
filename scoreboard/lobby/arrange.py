"""Which tiles a page shows, in what order: sort, filter by pit, pages that rotate.

Pure functions of the tile views, so the order a player sees is testable by
itself.  Names sort the way people count (``T2`` before ``T10``).

>>> from scoreboard.lobby.tables import Listing, LobbyTable
>>> views = [LobbyTable(Listing(t, pit=p)).view(0, 60) for t, p in
...          [("T10", "B"), ("T2", "A"), ("T1", "B")]]
>>> [v.table_id for v in arrange(views, SortKey.PIT)]
['T2', 'T1', 'T10']
>>> [v.table_id for v in arrange(views, SortKey.NAME, pits=("B",))]
['T1', 'T10']
>>> paged(list(range(5)), 2), page_at(25.0, 10.0, 3)
([[0, 1], [2, 3], [4]], 2)
"""

from __future__ import annotations

import enum
import math
import re
from collections.abc import Iterable, Sequence
from typing import TypeVar

from scoreboard.lobby.tables import TileView

__all__ = ["SortKey", "arrange", "natural", "page_at", "paged"]

_T = TypeVar("_T")


class SortKey(enum.StrEnum):
    """How the lobby orders its tiles (config ``lobby.sort``)."""

    PIT = "pit"  # by pit, then by name
    NAME = "name"
    MIN_BET = "min_bet"  # lowest minimum first; unknown limits last
    GOOD_ROAD = "good_road"  # tables showing a good road first, the longest first


def natural(text: str) -> tuple[tuple[int, int | str], ...]:
    """A sort key that orders the numbers inside names by value.

    >>> sorted(["T10", "T9", "t1", "B2"], key=natural)
    ['B2', 't1', 'T9', 'T10']
    """
    parts = re.split(r"(\d+)", text.casefold())
    return tuple((1, int(p)) if p.isdigit() else (0, p) for p in parts if p)


def _name(view: TileView) -> tuple[object, ...]:
    return (natural(view.title), natural(view.table_id))


def _key(sort: SortKey, view: TileView) -> tuple[object, ...]:
    if sort is SortKey.PIT:
        return (view.pit == "", natural(view.pit), *_name(view))
    if sort is SortKey.MIN_BET:
        minimum = math.inf if view.bets is None else view.bets[0]
        return (minimum, *_name(view))
    if sort is SortKey.GOOD_ROAD:
        longest = max((good.length for good in view.good), default=0)
        return (not view.good, -len(view.good), -longest, *_name(view))
    return _name(view)


def arrange(
    views: Iterable[TileView], sort: SortKey = SortKey.PIT, pits: Sequence[str] = ()
) -> list[TileView]:
    """The views of the pits in ``pits`` (all when empty), in ``sort`` order."""
    chosen = [view for view in views if not pits or view.pit in pits]
    return sorted(chosen, key=lambda view: _key(sort, view))


def paged(items: Sequence[_T], per_page: int) -> list[list[_T]]:
    """``items`` cut into pages of ``per_page``; one empty page when there is nothing."""
    if per_page < 1:
        raise ValueError(f"per_page must be 1 or more, got {per_page}")
    pages = [list(items[i : i + per_page]) for i in range(0, len(items), per_page)]
    return pages or [[]]


def page_at(elapsed: float, page_seconds: float, pages: int) -> int:
    """The page shown ``elapsed`` seconds after the lobby started: each ``page_seconds`` long."""
    if pages <= 1 or page_seconds <= 0:
        return 0
    return int(elapsed // page_seconds) % pages
