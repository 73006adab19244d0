"""Table variants as data (scoreboard.game.variants): pay tables, counters, options."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoreboard.game.variants import VARIANTS, Variant


def test_the_three_variants_and_their_titles() -> None:
    assert {name: variant.title for name, variant in VARIANTS.items()} == {
        "commission": "Punto Banco",
        "super6": "No Commission (Super 6)",
        "ez": "EZ Baccarat",
    }
    assert all(variant.name == name for name, variant in VARIANTS.items())


def test_commission_is_five_percent_only_on_the_commission_table() -> None:
    assert VARIANTS["commission"].banker_commission == Fraction(1, 20)
    assert VARIANTS["super6"].banker_commission == 0
    assert VARIANTS["ez"].banker_commission == 0
    assert (VARIANTS["super6"].super6, VARIANTS["super6"].ez) == (True, False)
    assert (VARIANTS["ez"].super6, VARIANTS["ez"].ez) == (False, True)
    assert (VARIANTS["commission"].super6, VARIANTS["commission"].ez) == (False, False)


def test_each_pay_table_as_the_board_shows_it() -> None:
    assert VARIANTS["commission"].pays() == {
        "player": "1:1",
        "banker": "0.95:1",
        "tie": "8:1",
        "player_pair": "11:1",
        "banker_pair": "11:1",
    }
    assert VARIANTS["super6"].pays() == {
        "player": "1:1",
        "banker": "1:1 (6 pays 1:2)",
        "tie": "8:1",
        "player_pair": "11:1",
        "banker_pair": "11:1",
    }
    assert VARIANTS["ez"].pays() == {
        "player": "1:1",
        "banker": "1:1 (Dragon 7 push)",
        "tie": "8:1",
        "player_pair": "11:1",
        "banker_pair": "11:1",
        "dragon7": "40:1",
        "panda8": "25:1",
    }


def test_a_table_without_commission_or_side_rules_pays_banker_even() -> None:
    assert Variant("even", "Even money", banker_commission=Fraction(0)).banker_pays == "1:1"
    assert Variant("ten", "Ten percent", banker_commission=Fraction(1, 10)).banker_pays == "0.9:1"


def test_variant_counters() -> None:
    assert VARIANTS["commission"].counters == ()
    assert VARIANTS["super6"].counters == ("banker_six",)
    assert VARIANTS["ez"].counters == ("dragon7", "panda8")


def test_options_change_only_what_they_name() -> None:
    base = VARIANTS["ez"]
    nine = base.with_options(tie_pays=9)
    assert (nine.tie_pays, nine.pair_pays, nine.dragon7_pays) == (9, 11, 40)
    ten = base.with_options(pair_pays=10)
    assert (ten.tie_pays, ten.pair_pays) == (8, 10)
    assert base.with_options() == base
    assert ten.pays()["banker_pair"] == "10:1" and ten.pays()["player_pair"] == "10:1"


PROBABILITIES = {
    "B": 0.5,
    "P": 0.4,
    "T": 0.1,
    "player_pair": 0.05,
    "banker_pair": 0.04,
    "banker_six": 0.06,
    "dragon7": 0.02,
    "panda8": 0.03,
}


def test_house_edges_of_every_bet_from_given_probabilities() -> None:
    """Made-up probabilities worked by hand: edge = P(lose) - pays * P(win)."""
    edges = VARIANTS["ez"].house_edges(PROBABILITIES)
    assert edges == pytest.approx(
        {
            "player": 0.5 - 0.4,
            "banker": 0.4 - (0.5 - 0.02),
            "tie": 0.9 - 8 * 0.1,
            "player_pair": 0.95 - 11 * 0.05,
            "banker_pair": 0.96 - 11 * 0.04,
            "dragon7": 0.98 - 40 * 0.02,
            "panda8": 0.97 - 25 * 0.03,
        }
    )
    super6 = VARIANTS["super6"].house_edges(PROBABILITIES)
    assert set(super6) == {"player", "banker", "tie", "player_pair", "banker_pair"}
    assert super6["banker"] == pytest.approx(0.4 - (0.5 - 0.06 + 0.06 / 2))
    commission = VARIANTS["commission"].house_edges(PROBABILITIES)
    assert commission["banker"] == pytest.approx(0.4 - 0.5 * 0.95)
