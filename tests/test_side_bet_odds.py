"""The 2024 side bets' tiers: exact probabilities against independent truth.

Two sources that share no code with ``scoreboard/core``:

- the published combinatorial counts for a Banker win with 6 on two and on
  three cards, 8 decks (Wizard of Odds, "Lucky 6": 186,173,936,904,192 and
  83,058,367,551,488 of 4,998,398,275,503,360 ordered six-card deals, house edge
  16.68 % at 12:1 / 20:1);
- an enumeration written here from rules.md: every ordered sequence of six card
  values, weighed by how many cards of each value are left, played by a tableau
  restated in this file.
"""

from __future__ import annotations

import json
from fractions import Fraction
from functools import cache

import pytest

from scoreboard.game.odds import exact_odds
from scoreboard.game.side_bets import SIDE_BETS, TIERS, tiers_won
from tests.cli import scoreboard

DEALS_8 = 4_998_398_275_503_360  # 416 x 415 x 414 x 413 x 412 x 411


def player_draws(total: int) -> bool:
    return total <= 5


def banker_draws(total: int, third: int | None) -> bool:
    """rules.md's banker table, restated: stand on 7, draw on 0-2, then by Player's third."""
    if third is None:
        return total <= 5
    reach = {2: 4, 3: 4, 4: 5, 5: 5, 6: 6, 7: 6, 8: 2, 9: 3, 0: 3, 1: 3}[third]
    return total <= reach


def play(cards: tuple[int, ...]) -> tuple[int, int, int, int]:
    """(player total, banker total, player cards, banker cards) from six card values."""
    player, banker = (cards[0] + cards[2]) % 10, (cards[1] + cards[3]) % 10
    if player >= 8 or banker >= 8:
        return player, banker, 2, 2
    nxt, third, player_cards = 4, None, 2
    if player_draws(player):
        third = cards[4]
        player, nxt, player_cards = (player + third) % 10, 5, 3
    if banker_draws(banker, third):
        return player, (banker + cards[nxt]) % 10, player_cards, 3
    return player, banker, player_cards, 2


@cache
def tier_weights(decks: int) -> dict[str, int]:
    """Ordered six-card deals of a fresh shoe that win each tier."""
    counts = [16 * decks] + [4 * decks] * 9  # tens and faces are worth 0
    won = dict.fromkeys(TIERS, 0)

    def walk(cards: tuple[int, ...], weight: int) -> None:
        if len(cards) == 6:
            shape = play(cards)
            player, banker, player_cards, banker_cards = shape
            hits = []
            if banker == 6 and player < 6:
                hits.append("small_6" if banker_cards == 2 else "big_6")
            if player == 7 and banker < 7:
                hits.append(f"lucky_7_{player_cards}")
                if banker == 6:
                    hits.append(f"super_lucky_7_{player_cards}{banker_cards}")
            for tier in hits:
                won[tier] += weight
            return
        for value in range(10):
            if counts[value]:
                left = counts[value]
                counts[value] -= 1
                walk((*cards, value), weight * left)
                counts[value] += 1

    walk((), 1)
    return won


def test_banker_six_on_two_and_three_cards_match_the_published_counts() -> None:
    odds = exact_odds(8)
    assert odds["small_6"] == Fraction(186_173_936_904_192, DEALS_8)
    assert odds["big_6"] == Fraction(83_058_367_551_488, DEALS_8)
    assert odds["small_6"] + odds["big_6"] == odds["banker_six"]  # Super 6's event, split
    edge = SIDE_BETS["lucky_6"].house_edge({k: float(v) for k, v in odds.items()})
    assert edge == pytest.approx(0.166836, abs=5e-7)


@pytest.mark.parametrize("decks", [1, 8])
def test_every_tier_matches_an_enumeration_written_from_the_rules(decks: int) -> None:
    odds = exact_odds(decks)
    total = 1
    for step in range(6):
        total *= 52 * decks - step
    for tier, weight in tier_weights(decks).items():
        assert odds[tier] == Fraction(weight, total), tier


def test_what_a_coup_wins_by_its_totals_and_card_counts() -> None:
    assert tiers_won(7, 6, 2, 2) == ("lucky_7_2", "super_lucky_7_22")
    assert tiers_won(7, 6, 3, 3) == ("lucky_7_3", "super_lucky_7_33")
    assert tiers_won(7, 5, 3, 2) == ("lucky_7_3",)
    assert tiers_won(5, 6, 3, 2) == ("small_6",)
    assert tiers_won(6, 6, 2, 2) == ()  # a tie at 6 is no Banker win
    assert tiers_won(7, 7, 2, 2) == ()  # nor a tie at 7 a Player win
    assert tiers_won(8, 6, 2, 2) == ()


def test_the_default_pay_tables_and_a_site_s_own() -> None:
    odds = {k: float(v) for k, v in exact_odds(8).items()}
    edges = {key: bet.house_edge(odds) for key, bet in SIDE_BETS.items()}
    assert all(0.05 < edge < 0.25 for edge in edges.values()), edges
    generous = SIDE_BETS["lucky_6"].with_pays({"big_6": 23})
    assert generous.house_edge(odds) == pytest.approx(0.116985, abs=5e-7)  # the Vegas table
    with pytest.raises(ValueError, match="lucky_7_2"):
        SIDE_BETS["small_6"].with_pays({"lucky_7_2": 5})
    with pytest.raises(ValueError, match="1 to 1000"):
        SIDE_BETS["big_6"].with_pays({"big_6": 0})


def test_the_usual_pay_tables_as_the_readme_and_scoreboard_odds_give_them() -> None:
    assert {key: (bet.key, bet.title, dict(bet.pays)) for key, bet in SIDE_BETS.items()} == {
        "small_6": ("small_6", "Small 6", {"small_6": 22}),
        "big_6": ("big_6", "Big 6", {"big_6": 50}),
        "lucky_6": ("lucky_6", "Lucky 6", {"small_6": 12, "big_6": 20}),
        "lucky_7": ("lucky_7", "Lucky 7", {"lucky_7_2": 6, "lucky_7_3": 15}),
        "super_lucky_7": (
            "super_lucky_7",
            "Super Lucky 7",
            {
                "super_lucky_7_22": 30,
                "super_lucky_7_32": 40,
                "super_lucky_7_23": 40,
                "super_lucky_7_33": 100,
            },
        ),
    }


def test_a_site_s_pays_may_be_1_to_1000_to_1_and_keep_the_tiers_not_named() -> None:
    lucky = SIDE_BETS["lucky_7"]
    assert lucky.with_pays({"lucky_7_2": 1}).pays == {"lucky_7_2": 1, "lucky_7_3": 15}
    assert lucky.with_pays({"lucky_7_3": 1000}).pays == {"lucky_7_2": 6, "lucky_7_3": 1000}
    for pay in (0, 1001):
        with pytest.raises(ValueError, match=r"lucky_7: pays must be 1 to 1000 to 1 \(lucky_7_3\)"):
            lucky.with_pays({"lucky_7_3": pay})
    assert (lucky.key, lucky.title) == ("lucky_7", "Lucky 7")


def test_odds_json_carries_every_tier_and_each_side_bet_s_edge() -> None:
    six = json.loads(scoreboard("odds", "--json", "--decks", "6").stdout)
    eight = json.loads(scoreboard("odds", "--json").stdout)
    for tier in TIERS:
        assert eight[tier] == pytest.approx(float(exact_odds(8)[tier]), abs=1e-12)
        assert six[tier] != eight[tier]  # --decks changes them
    assert set(eight["side_bets"]) == set(SIDE_BETS)
    lucky_6 = eight["side_bets"]["lucky_6"]
    assert lucky_6["pays"] == {"small_6": 12, "big_6": 20}
    assert lucky_6["house_edge"] == pytest.approx(0.166836, abs=5e-7)
    text = scoreboard("odds").stdout
    assert "Super Lucky 7" in text and "Player's 7 over Banker's 6, 3 + 3 cards" in text
