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

from scoreboard.core.cards import RANKS, SUITS, Card
from scoreboard.core.rules import banker_draws, is_natural, player_draws

EVENTS = ("B", "P", "T", "player_pair", "banker_pair", "natural", "banker_six", "dragon7", "panda8")


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
    counts = point_counts(decks)
    total = 52 * decks
    # Every path is scaled to the same denominator, total falling 6: a path that
    # stops after k cards is multiplied by the number of ways to draw the rest.
    after4 = _falling(total - 4, 2)
    acc = dict.fromkeys(("B", "P", "T", "natural", "banker_six", "dragon7", "panda8"), 0)

    def settle(player: int, banker: int, player_three: bool, banker_three: bool, w: int) -> None:
        if banker > player:
            acc["B"] += w
            if banker == 6:
                acc["banker_six"] += w
            elif banker == 7 and banker_three:
                acc["dragon7"] += w
        elif player > banker:
            acc["P"] += w
            if player == 8 and player_three:
                acc["panda8"] += w
        else:
            acc["T"] += w

    def banker_turn(player: int, banker: int, third: int | None, w: int, dealt: int) -> None:
        """Banker acts after Player, ``dealt`` cards being out (4, or 5 if Player drew)."""
        player_three = third is not None
        scale = _falling(total - dealt, 6 - dealt)
        if not banker_draws(banker, third):
            settle(player, banker, player_three, False, w * scale)
            return
        scale //= total - dealt
        for card in range(10):
            if counts[card]:
                settle(player, (banker + card) % 10, player_three, True, w * counts[card] * scale)

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
                if not w3:
                    continue
                counts[p2] -= 1
                for b2 in range(10):
                    w4 = w3 * counts[b2]
                    if not w4:
                        continue
                    counts[b2] -= 1
                    player, banker = (p1 + p2) % 10, (b1 + b2) % 10
                    if is_natural(player) or is_natural(banker):
                        acc["natural"] += w4 * after4
                        settle(player, banker, False, False, w4 * after4)
                    elif player_draws(player):
                        for p3 in range(10):
                            w5 = w4 * counts[p3]
                            if not w5:
                                continue
                            counts[p3] -= 1
                            banker_turn((player + p3) % 10, banker, p3, w5, 5)
                            counts[p3] += 1
                    else:
                        banker_turn(player, banker, None, w4, 4)
                    counts[b2] += 1
                counts[p2] += 1
            counts[b1] += 1
        counts[p1] += 1

    denominator = _falling(total, 6)
    odds = {key: Fraction(value, denominator) for key, value in acc.items()}
    rank_count = 4 * decks
    pair = Fraction(len(RANKS) * rank_count * (rank_count - 1), total * (total - 1))
    odds["player_pair"] = odds["banker_pair"] = pair
    return {key: odds[key] for key in EVENTS}


def _falling(n: int, k: int) -> int:
    """n (n-1) ... (n-k+1): the ordered ways to draw k cards from n."""
    product = 1
    for step in range(k):
        product *= n - step
    return product
