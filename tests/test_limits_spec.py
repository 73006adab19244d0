"""A limits spec for a variant with side bets gives every bet of its pay table a limit."""

from __future__ import annotations

from scoreboard.core.limits import limits_from_spec
from scoreboard.core.variants import VARIANTS


def test_an_ez_table_s_min_max_spec_limits_dragon_7_and_panda_8_too() -> None:
    limits = limits_from_spec("25-10000", VARIANTS["ez"])
    assert set(limits.pays) <= set(limits.bets)
    assert limits.bets["dragon7"] == limits.bets["panda8"] == limits.bets["player_pair"]


def test_a_commission_table_has_no_ez_side_bets() -> None:
    limits = limits_from_spec("25-10000", VARIANTS["commission"])
    assert "dragon7" not in limits.bets and set(limits.bets) == set(limits.pays)
