"""Exact probabilities of a finite shoe by full enumeration, card removal included.

Every ordered way the first four to six cards can fall is weighed by how many
cards of each point value remain, with exact integer arithmetic, so the
figures are computed, never copied from a table.  Pairs depend on ranks, not
points, and are enumerated over the thirteen ranks.

>>> odds = exact_odds(8)
>>> round(float(odds["B"]), 6), round(float(odds["P"]), 6), round(float(odds["T"]), 6)
(0.458597, 0.446247, 0.095156)
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from scoreboard.game.cards import RANKS, SUITS, Card
from scoreboard.game.rules import (
    OUTCOMES,
    Winner,
    banker_draws,
    event_counts,
    is_natural,
    outcome_index,
    player_draws,
)
from scoreboard.game.side_bets import TIERS, tier_counts

EVENTS = (
    *(winner.value for winner in Winner),
    "player_pair",
    "banker_pair",
    "natural",
    "banker_six",
    "dragon7",
    "panda8",
    *TIERS,
)


def point_counts(decks: int) -> list[int]:
    """Cards of each point value 0-9 in a full shoe: tens and faces are worth 0."""
    per_deck = [0] * 10
    for rank in RANKS:
        per_deck[Card(rank).points] += len(SUITS)
    return [count * decks for count in per_deck]


@cache
def exact_odds(decks: int = 8) -> dict[str, Fraction]:
    """Probability of each event of ``EVENTS`` for a fresh shoe of ``decks`` decks."""
    if decks < 1:
        raise ValueError(f"decks must be at least 1, got {decks}")
    total = 52 * decks
    weights = _Enumeration(point_counts(decks)).outcome_weights()
    denominator = _falling(total, 6)
    counted = event_counts(weights) | tier_counts(weights)
    odds = {key: Fraction(value, denominator) for key, value in counted.items()}
    rank_count = 4 * decks
    pair = Fraction(len(RANKS) * rank_count * (rank_count - 1), total * (total - 1))
    odds["player_pair"] = odds["banker_pair"] = pair
    return {key: odds[key] for key in EVENTS}


class _Enumeration:
    """Every ordered deal of a shoe, weighed per outcome of :data:`OUTCOMES`.

    Every path is scaled to the same denominator, total falling 6: a path that
    stops after k cards is multiplied by the number of ways to draw the rest.
    ``counts`` holds the cards of each point value left while a path is walked.
    """

    def __init__(self, counts: list[int]) -> None:
        self.counts = counts
        self.total = sum(counts)
        self.weights = [0] * len(OUTCOMES)

    def outcome_weights(self) -> list[int]:
        counts = self.counts
        for p1 in range(10):
            w1 = counts[p1]
            if not w1:
                continue
            counts[p1] -= 1
            for b1 in range(10):
                w2 = w1 * counts[b1]
                if not w2:
                    continue
                counts[b1] -= 1
                for p2 in range(10):
                    w3 = w2 * counts[p2]
                    if w3:
                        counts[p2] -= 1
                        self.fourth_card((p1 + p2) % 10, b1, w3)
                        counts[p2] += 1
                counts[b1] += 1
            counts[p1] += 1
        return self.weights

    def fourth_card(self, player: int, b1: int, w3: int) -> None:
        """Banker's second card, then the natural or Player's turn."""
        counts = self.counts
        for b2 in range(10):
            w4 = w3 * counts[b2]
            if not w4:
                continue
            counts[b2] -= 1
            banker = (b1 + b2) % 10
            if is_natural(player) or is_natural(banker):
                self.settle(player, banker, 2, 2, w4 * _falling(self.total - 4, 2))
            elif player_draws(player):
                self.player_third(player, banker, w4)
            else:
                self.banker_turn(player, banker, None, w4, 4)
            counts[b2] += 1

    def player_third(self, player: int, banker: int, w4: int) -> None:
        counts = self.counts
        for p3 in range(10):
            w5 = w4 * counts[p3]
            if w5:
                counts[p3] -= 1
                self.banker_turn((player + p3) % 10, banker, p3, w5, 5)
                counts[p3] += 1

    def banker_turn(self, player: int, banker: int, third: int | None, w: int, dealt: int) -> None:
        """Banker acts after Player, ``dealt`` cards being out (4, or 5 if Player drew)."""
        player_cards = dealt - 2
        scale = _falling(self.total - dealt, 6 - dealt)
        if not banker_draws(banker, third):
            self.settle(player, banker, player_cards, 2, w * scale)
            return
        scale //= self.total - dealt
        counts, weights = self.counts, self.weights
        for card in range(10):
            if counts[card]:
                index = outcome_index(player, (banker + card) % 10, player_cards, 3)
                weights[index] += w * counts[card] * scale

    def settle(
        self, player: int, banker: int, player_cards: int, banker_cards: int, w: int
    ) -> None:
        self.weights[outcome_index(player, banker, player_cards, banker_cards)] += w


def _falling(n: int, k: int) -> int:
    """n (n-1) ... (n-k+1): the ordered ways to draw k cards from n."""
    product = 1
    for step in range(k):
        product *= n - step
    return product
