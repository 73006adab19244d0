"""Whole-shoe simulation at speed, for checking the shoe against exact odds.

Dealing hundreds of thousands of coups as :class:`~scoreboard.core.rules.Coup`
values is needlessly slow when only frequencies are wanted, so this module
deals the same shuffled shoes (from :meth:`Dealer.new_shoe`) on card codes,
with drawing tables generated from the tableau functions of ``rules``.  A test
checks that it counts exactly what the Coup-by-Coup dealer deals for a seed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from scoreboard.core.odds import EVENTS
from scoreboard.core.rules import banker_draws, player_draws
from scoreboard.core.shoe import DECK, POINTS, RANK_INDEX, Dealer, burn_count

# Drawing tables generated from the rules, indexed by two-card totals.
_PLAYER_DRAWS = tuple(player_draws(total) for total in range(10))
# Index banker_total * 11 + player's third card points, or + 10 when Player stood.
_BANKER_DRAWS = tuple(
    banker_draws(total, third if third < 10 else None) for total in range(10) for third in range(11)
)


@dataclass(slots=True)
class Tally:
    """Counts of each event of ``EVENTS`` over whole shoes."""

    shoes: int = 0
    coups: int = 0
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(EVENTS, 0))

    def frequencies(self) -> dict[str, float]:
        return {
            key: count / self.coups if self.coups else 0.0 for key, count in self.counts.items()
        }


def tally_shoe(codes: list[int], cut_index: int, tally: Tally) -> None:
    """Deal one shuffled shoe of card codes to its end and add what happened to ``tally``.

    Burn, end-of-shoe rule and tableau are those of :class:`Dealer`: burn the
    first card's value, deal until a coup reaches the card at ``cut_index``,
    deal one more coup, stop.
    """
    pts = [POINTS[code] for code in codes]
    ranks = [RANK_INDEX[code] for code in codes]
    position = 1 + burn_count(DECK[codes[0]])
    player_draws_on = _PLAYER_DRAWS
    banker_draws_on = _BANKER_DRAWS
    b_wins = p_wins = ties = p_pairs = b_pairs = naturals = b_six = dragon = panda = 0
    coups = 0
    last: int | None = None
    while last is None or coups < last:
        coups += 1
        p = (pts[position] + pts[position + 2]) % 10
        b = (pts[position + 1] + pts[position + 3]) % 10
        if ranks[position] == ranks[position + 2]:
            p_pairs += 1
        if ranks[position + 1] == ranks[position + 3]:
            b_pairs += 1
        position += 4
        player_cards = banker_cards = 2
        if p >= 8 or b >= 8:
            naturals += 1
        else:
            third = 10
            if player_draws_on[p]:
                third = pts[position]
                p = (p + third) % 10
                position += 1
                player_cards = 3
            if banker_draws_on[b * 11 + third]:
                b = (b + pts[position]) % 10
                position += 1
                banker_cards = 3
        if b > p:
            b_wins += 1
            if b == 6:
                b_six += 1
            elif b == 7 and banker_cards == 3:
                dragon += 1
        elif p > b:
            p_wins += 1
            if p == 8 and player_cards == 3:
                panda += 1
        else:
            ties += 1
        if last is None and position > cut_index:
            last = coups + 1
    counts = tally.counts
    for key, value in zip(
        EVENTS,
        (b_wins, p_wins, ties, p_pairs, b_pairs, naturals, b_six, dragon, panda),
        strict=True,
    ):
        counts[key] += value
    tally.coups += coups
    tally.shoes += 1


def simulate(
    *,
    decks: int = 8,
    shoes: int = 100,
    seed: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Tally:
    """Deal ``shoes`` whole shoes from a seeded dealer and count the events.

    >>> simulate(decks=8, shoes=2, seed=1).shoes
    2
    """
    dealer = Dealer(decks=decks, seed=seed)
    tally = Tally()
    for index in range(shoes):
        shoe = dealer.new_shoe()
        tally_shoe(shoe.codes, shoe.cut_index, tally)
        if progress is not None:
            progress(index + 1)
    return tally
