"""A simulated floor's plan (game/floor.py): repeatable, bounded, spread, limits by tier."""

from __future__ import annotations

import pytest

from scoreboard.game.floor import LIMIT_TIERS, MAX_TABLES, PACE_SPREAD, floor_tables


def test_the_bounds_of_a_floor_are_one_to_max_tables() -> None:
    assert len(floor_tables(1, "T", 1, 2.0)) == 1
    assert len(floor_tables(MAX_TABLES, "T", 1, 2.0)) == MAX_TABLES == 500
    for count in (0, MAX_TABLES + 1, -1):
        with pytest.raises(ValueError, match=r"--tables must be 1 to 500, got "):
            floor_tables(count, "T", 1, 2.0)


def test_tables_are_named_from_one_and_take_the_tiers_in_turn() -> None:
    tables = floor_tables(12, "BAC-", 3, 2.0)
    assert [t.table_id for t in tables] == [f"BAC-{n}" for n in range(1, 13)]
    assert [t.limits for t in tables] == [LIMIT_TIERS[n % 5] for n in range(12)]
    assert LIMIT_TIERS[0] == "10-5000" and len(LIMIT_TIERS) == 5


def test_a_floor_is_repeatable_and_its_seed_changes_it() -> None:
    assert floor_tables(20, "T", 9, 2.0) == floor_tables(20, "T", 9, 2.0)
    one, other = floor_tables(20, "T", 9, 2.0), floor_tables(20, "T", 10, 2.0)
    assert [t.seed for t in one] != [t.seed for t in other]
    seeds = [t.seed for t in one]
    assert len(set(seeds)) == 20 and all(0 <= s < 2**31 for s in seeds)


def test_paces_spread_within_a_quarter_and_first_deals_spread_over_one_pace() -> None:
    tables = floor_tables(400, "T", 4, 2.0)
    paces = [t.pace for t in tables]
    assert PACE_SPREAD == 0.25
    assert all(1.5 <= p <= 2.5 for p in paces)
    assert min(paces) < 1.55 and max(paces) > 2.45  # the whole band is used, both sides
    offsets = [t.offset for t in tables]
    assert all(0 <= o < 2.0 for o in offsets) and max(offsets) > 1.9 and min(offsets) < 0.1


def test_a_floor_with_no_pace_deals_at_once() -> None:
    tables = floor_tables(10, "T", 4, 0.0)
    assert all(t.pace == 0 and t.offset == 0.0 for t in tables)
