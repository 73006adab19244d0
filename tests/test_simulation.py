"""The fast simulation counts exactly what the dealer deals, and matches the exact odds."""

from __future__ import annotations

import math

import pytest

from scoreboard.game.events import CoupReceived
from scoreboard.game.odds import EVENTS, exact_odds
from scoreboard.game.rules import Winner
from scoreboard.game.shoe import Dealer
from scoreboard.game.side_bets import TIERS, tiers_won
from scoreboard.game.simulation import simulate


@pytest.mark.parametrize(("decks", "seed"), [(8, 1), (6, 2), (1, 3)])
def test_the_fast_tally_equals_a_coup_by_coup_count_of_the_same_shoes(
    decks: int, seed: int
) -> None:
    shoes = 25
    counts = dict.fromkeys(EVENTS, 0)
    coups = 0
    dealer = Dealer(decks=decks, seed=seed)
    for _ in range(shoes):
        for event in dealer.shoe():
            if not isinstance(event, CoupReceived):
                continue
            coup = event.game.coup
            coups += 1
            counts["B"] += coup.winner is Winner.BANKER
            counts["P"] += coup.winner is Winner.PLAYER
            counts["T"] += coup.winner is Winner.TIE
            shape = (coup.player_total, coup.banker_total, len(coup.player), len(coup.banker))
            won = tiers_won(*shape)
            for key in EVENTS[3:]:
                counts[key] += key in won if key in TIERS else getattr(coup, key)
    tally = simulate(decks=decks, shoes=shoes, seed=seed)
    assert (tally.shoes, tally.coups) == (shoes, coups)
    assert tally.counts == counts


def test_frequencies_over_hundreds_of_shoes_lie_within_5_sigma_of_exact() -> None:
    tally = simulate(decks=8, shoes=400, seed=20261129)
    exact = exact_odds(8)
    for key in EVENTS:
        p = float(exact[key])
        sigma = math.sqrt(p * (1 - p) / tally.coups)
        assert abs(tally.frequencies()[key] - p) < 5 * sigma, key


def test_progress_is_reported_per_shoe() -> None:
    seen: list[int] = []
    simulate(shoes=3, seed=1, progress=seen.append)
    assert seen == [1, 2, 3]


def test_a_hundred_shoes_by_default() -> None:
    assert simulate(seed=1).shoes == 100
