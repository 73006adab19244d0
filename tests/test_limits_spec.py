"""A limits spec, and the rules of game/limits.py a board relies on: the order the bets
are listed in, the stakes accepted, side bets' derived limits, when new limits apply.

Pure and fast: game/limits.py's first file for its mutation run (docs/mutation.md)."""

from __future__ import annotations

import math
import re

import pytest

from scoreboard.game.limits import (
    MAX_STAKE,
    Limits,
    LimitsSpecError,
    ScheduledLimits,
    check_span,
    derived_bets,
    limits_after,
    limits_from_spec,
)
from scoreboard.game.variants import VARIANTS


def test_an_ez_table_s_min_max_spec_limits_dragon_7_and_panda_8_too() -> None:
    limits = limits_from_spec("25-10000", VARIANTS["ez"])
    assert set(limits.pays) <= set(limits.bets)
    assert limits.bets["dragon7"] == limits.bets["panda8"] == limits.bets["player_pair"]


def test_a_commission_table_has_no_ez_side_bets() -> None:
    limits = limits_from_spec("25-10000", VARIANTS["commission"])
    assert "dragon7" not in limits.bets and set(limits.bets) == set(limits.pays)


def test_the_board_lists_the_bets_in_a_fixed_order_whatever_order_they_came_in() -> None:
    named = ["zebra", "lucky_7", "panda8", "dragon7", "banker_pair", "player_pair", "tie"]
    limits = Limits(bets=dict.fromkeys([*named, "banker", "player"], (1, 2)))
    assert limits.order == (
        "player", "banker", "tie", "player_pair", "banker_pair", "dragon7", "panda8",
        "lucky_7", "zebra",
    )  # fmt: skip


def test_unknown_limits_name_no_currency_unless_told() -> None:
    assert Limits.unknown(VARIANTS["ez"]).currency == ""
    assert Limits.unknown(VARIANTS["ez"], currency="EUR").currency == "EUR"


def test_a_stake_may_be_zero_or_equal_bounds_up_to_max_stake_and_no_more() -> None:
    assert MAX_STAKE == 1_000_000_000_000
    assert check_span(0, 0, "tie") == (0, 0)
    assert check_span(MAX_STAKE, MAX_STAKE, "tie") == (MAX_STAKE, MAX_STAKE)
    for low, high in [(-1, 5), (6, 5), (0, MAX_STAKE + 1)]:
        with pytest.raises(LimitsSpecError, match=f"tie: expected .* got {low}-{high}"):
            check_span(low, high, "tie")


def test_derived_side_bet_limits_never_fall_below_one() -> None:
    assert derived_bets(1, 5)["tie"] == (1, 1)
    assert derived_bets(1, 19)["player_pair"] == derived_bets(1, 19)["banker_pair"] == (1, 1)
    assert derived_bets(50, 20000)["tie"] == (10, 2000)
    assert derived_bets(50, 20000)["player_pair"] == (10, 1000)


def test_limits_after_a_message_now_later_past_or_unreadable() -> None:
    now, new = Limits("USD"), Limits("EUR")
    planned = ScheduledLimits(500.0, Limits("GBP"))
    assert limits_after(now, planned, new) == (new, planned)  # a schedule stays by default
    assert limits_after(now, planned, new, cancel_scheduled=True) == (new, None)
    assert limits_after(now, planned, new, effective_at=math.nan, wall=1.0) == (now, planned)
    assert limits_after(now, planned, new, effective_at=100.0, wall=100.0) == (new, None)
    later = limits_after(now, planned, new, effective_at=100.0, wall=99.0)
    assert later == (now, ScheduledLimits(100.0, new))
    assert limits_after(now, None, new, effective_at=100.0) == later  # no wall clock yet


def test_a_spec_is_refused_naming_what_is_wrong() -> None:
    commission = VARIANTS["commission"]
    cases = [
        ("25-100", {"currency": "eur"}, "currency code of three capital letters, got 'eur'"),
        ("lots", {}, "Player/Banker: expected MIN-MAX such as 25-10000, got 'lots'"),
        ("=10-20", {}, "expected BET=MIN-MAX, got '=10-20'"),
        ("player=1-2,tie", {}, "expected BET=MIN-MAX, got 'tie'"),
        ("player=1-2,player=3-4", {}, "player is given twice"),
        ("dragon7=1-2", {}, "no bet 'dragon7' at a commission table"),
    ]
    for spec, options, words in cases:
        with pytest.raises(LimitsSpecError, match=re.escape(words)):
            limits_from_spec(spec, commission, **options)


def test_limits_hash_by_value_so_a_screen_can_key_on_them() -> None:
    """Every field counts: equal limits are one key, a change anywhere is another."""

    def made(**change: object) -> Limits:
        values: dict[str, object] = {
            "currency": "MOP",
            "bets": {"player": (100, 5000), "small_6": (10, 300)},
            "pays": {"player": "1:1", "small_6": "22:1"},
            "side_bets": {"small_6": {"two_cards": 22}},
        }
        values.update(change)
        return Limits(**values)  # type: ignore[arg-type]

    same = {made(), made()}
    assert len(same) == 1 and hash(made()) == hash(made())
    others = [
        made(currency="HKD"),
        made(bets={"player": (100, 5001), "small_6": (10, 300)}),
        made(pays={"player": "1:1", "small_6": "20:1"}),
        made(side_bets={"small_6": {"two_cards": 20}}),
        made(side_bets={"lucky_6": {"two_cards": 22}}),
    ]
    assert len({made(), *others}) == 6
    assert {made(): "drawn"}[made()] == "drawn"
