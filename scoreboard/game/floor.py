"""A simulated floor's plan: its tables, each with a seed, a pace, a start offset and a tier.

Pure: everything follows from the table's number and the floor's seed, so a
floor is repeatable.  Each table's pace is within a quarter of the asked one
(tables drift apart as real ones do), its start offset spreads the first deals
(a hundred tables do not all deal in the same instant), and its tier is one of a
few typical limits (a lobby sorts and filters by minimum bet), which the
command publishes only when asked to (``--limit-tiers``): a floor invents no
limits.  :mod:`scoreboard.controller.floor` deals it.

>>> [(t.table_id, t.limits) for t in floor_tables(3, stem="T", seed=7, pace=2.0)]
[('T1', '10-5000'), ('T2', '25-10000'), ('T3', '50-20000')]
>>> all(1.5 <= t.pace <= 2.5 and 0 <= t.offset < 2.0 for t in floor_tables(50, "T", 1, 2.0))
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass

__all__ = ["LIMIT_TIERS", "MAX_TABLES", "PACE_SPREAD", "FloorTable", "floor_tables"]

#: Player/Banker limits of a floor's tiers, low to high; table i gets tier i mod 5.
LIMIT_TIERS = ("10-5000", "25-10000", "50-20000", "100-50000", "500-100000")
MAX_TABLES = 500
PACE_SPREAD = 0.25


@dataclass(frozen=True, slots=True)
class FloorTable:
    """One simulated table: its id, shuffle seed, seconds per coup, first wait and limits."""

    table_id: str
    seed: int
    pace: float
    offset: float
    limits: str


def floor_tables(count: int, stem: str, seed: int, pace: float) -> list[FloorTable]:
    """The ``count`` tables ``<stem>1`` ... ``<stem><count>`` of a floor with ``seed``."""
    if not 1 <= count <= MAX_TABLES:
        raise ValueError(f"--tables must be 1 to {MAX_TABLES}, got {count}")
    tables = []
    for number in range(1, count + 1):
        rng = random.Random(seed * 1_000_003 + number)
        tables.append(
            FloorTable(
                table_id=f"{stem}{number}",
                seed=rng.randrange(2**31),
                pace=pace * rng.uniform(1 - PACE_SPREAD, 1 + PACE_SPREAD),
                offset=rng.uniform(0, pace) if pace > 0 else 0.0,
                limits=LIMIT_TIERS[(number - 1) % len(LIMIT_TIERS)],
            )
        )
    return tables
