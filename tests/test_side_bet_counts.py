"""Side bets counted per shoe: on dealt shoes, the board's counts agree with a count
made here from each coup's cards; a results-only coup counts nothing."""

from __future__ import annotations

from collections import Counter

import pytest

from scoreboard.game.rules import Coup, Game, Winner, result_coup
from scoreboard.game.side_bets import SIDE_BETS, TIERS
from scoreboard.roads.engine import Roads
from scoreboard.roads.stats import bet_count
from tests.dealt import dealt_shoe


def points(cards) -> int:
    return sum(card.points for card in cards) % 10


def read_tiers(coup: Coup) -> list[str]:
    """This test's own reading of a coup, from the rules as the floor states them."""
    player, banker = points(coup.player), points(coup.banker)
    p_cards, b_cards = len(coup.player), len(coup.banker)
    won = []
    if coup.winner is Winner.BANKER and banker == 6:
        won.append({2: "small_6", 3: "big_6"}[b_cards])
    if coup.winner is Winner.PLAYER and player == 7:
        won.append(f"lucky_7_{p_cards}")
        if banker == 6:
            won.append(f"super_lucky_7_{p_cards}{b_cards}")
    return won


@pytest.mark.parametrize("seed", range(12))
def test_each_tier_is_counted_as_the_cards_say(seed):
    games = dealt_shoe(seed).games
    expected = Counter(tier for game in games for tier in read_tiers(game.coup))
    counts = Roads.build(games).counts
    assert {tier: getattr(counts, tier) for tier in TIERS} == {
        tier: expected[tier] for tier in TIERS
    }


def test_the_shoes_dealt_here_win_every_small_tier():
    """So the comparison above is not of zeros only."""
    seen = Counter(
        tier for seed in range(12) for g in dealt_shoe(seed).games for tier in read_tiers(g.coup)
    )
    assert all(seen[tier] for tier in ("small_6", "big_6", "lucky_7_2", "lucky_7_3"))
    assert sum(seen[tier] for tier in TIERS if tier.startswith("super")) > 0


@pytest.mark.parametrize("key", list(SIDE_BETS))
def test_a_bet_is_counted_once_per_coup_that_wins_it(key):
    coups = [g.coup for seed in range(6) for g in dealt_shoe(seed).games]
    games = [Game(n, coup) for n, coup in enumerate(coups, start=1)]  # one long shoe
    wins = sum(bool(set(read_tiers(g.coup)) & set(SIDE_BETS[key].pays)) for g in games)
    counts = Roads.build(games).counts
    assert bet_count(counts, SIDE_BETS[key].pays) == wins


def test_a_results_only_coup_counts_nothing_even_with_a_banker_six():
    coups = [
        result_coup(Winner.BANKER, banker_total=6, player_total=3),
        result_coup(Winner.PLAYER, player_total=7, banker_total=6),
    ]
    counts = Roads.build(Game(n, c) for n, c in enumerate(coups, start=1)).counts
    assert [getattr(counts, tier) for tier in TIERS] == [0] * len(TIERS)
