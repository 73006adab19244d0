"""Exact odds by enumeration against the published values of rules.md and of the 6-deck game."""

from __future__ import annotations

import pytest

from scoreboard.game.odds import exact_odds, point_counts
from scoreboard.game.variants import VARIANTS

# Published values (rules.md for 8 decks; the standard 6-deck figures).
PUBLISHED = {
    8: {
        "B": 0.458597,
        "P": 0.446247,
        "T": 0.095156,
        "natural": 0.343049,
        "player_pair": 0.074699,
        "banker_pair": 0.074699,
        "banker_six": 0.053864,
        "dragon7": 0.022534,
        "panda8": 0.034543,
    },
    6: {"B": 0.458653, "P": 0.446279, "T": 0.095069},
}


@pytest.mark.parametrize("decks", sorted(PUBLISHED))
def test_enumeration_reproduces_the_published_values(decks: int) -> None:
    odds = exact_odds(decks)
    for key, value in PUBLISHED[decks].items():
        assert float(odds[key]) == pytest.approx(value, abs=5e-7), key


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_banker_player_and_tie_add_up_to_exactly_one(decks: int) -> None:
    odds = exact_odds(decks)
    assert odds["B"] + odds["P"] + odds["T"] == 1


def test_a_shoe_has_sixteen_zero_point_cards_per_deck() -> None:
    assert point_counts(1) == [16, 4, 4, 4, 4, 4, 4, 4, 4, 4]
    assert sum(point_counts(8)) == 416


def test_the_commission_game_house_edges_of_rules_md() -> None:
    edges = VARIANTS["commission"].house_edges({k: float(v) for k, v in exact_odds(8).items()})
    assert round(edges["banker"] * 100, 2) == 1.06
    assert round(edges["player"] * 100, 2) == 1.24
    assert round(edges["tie"] * 100, 2) == 14.36
    six = VARIANTS["commission"].house_edges({k: float(v) for k, v in exact_odds(6).items()})
    assert round(six["tie"] * 100, 2) == 14.44


def test_variant_edges_follow_their_pay_tables() -> None:
    odds = {k: float(v) for k, v in exact_odds(8).items()}
    super6 = VARIANTS["super6"].house_edges(odds)
    assert round(super6["banker"] * 100, 2) == 1.46  # Banker 6 paying 1:2
    ez = VARIANTS["ez"].house_edges(odds)
    assert round(ez["banker"] * 100, 2) == 1.02  # Dragon 7 pushes
    assert round(ez["dragon7"] * 100, 2) == 7.61
    assert round(ez["panda8"] * 100, 2) == 10.19
    nine = VARIANTS["commission"].with_options(tie_pays=9).house_edges(odds)
    assert round(nine["tie"] * 100, 2) == 4.84


def test_a_shoe_without_cards_is_refused() -> None:
    with pytest.raises(ValueError, match="decks"):
        exact_odds(0)


def test_the_default_shoe_has_eight_decks() -> None:
    assert exact_odds() == exact_odds(8)
