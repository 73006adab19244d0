"""Whole-shoe simulation at speed, for checking the shoe against exact odds.

Dealing hundreds of thousands of coups as :class:`~scoreboard.game.rules.Coup`
values is needlessly slow when only frequencies are wanted, so this module
deals the same shuffled shoes (from :meth:`Dealer.new_shoe`) on card codes,
with drawing tables generated from the tableau functions of ``rules``.  A test
checks that it counts exactly what the Coup-by-Coup dealer deals for a seed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from scoreboard.game.odds import EVENTS
from scoreboard.game.rules import OUTCOMES, banker_draws, event_counts, is_natural, player_draws
from scoreboard.game.shoe import DECK, POINTS, RANK_INDEX, Dealer, burn_count
from scoreboard.game.side_bets import tier_counts

# Drawing tables generated from the rules, indexed by two-card totals.  (A mutant
# that adds an entry past the last total is equivalent: nothing reads it.)
_PLAYER_DRAWS = tuple(
    player_draws(total)
    for total in range(10)  # pragma: no mutate (an 11th total is never read)
)
# Index banker_total * 11 + player's third card points, or + 10 when Player stood.
_BANKER_DRAWS = tuple(
    banker_draws(total, third if third < 10 else None)
    for total in range(10)  # pragma: no mutate (an 11th total is never read)
    for third in range(11)
)
# Index player_total * 10 + banker_total, on two cards each: a natural ends the coup.
_NATURAL = tuple(
    is_natural(player) or is_natural(banker)
    for player in range(10)  # pragma: no mutate (an 11th total is never read)
    for banker in range(10)
)


@dataclass(slots=True)
class Totals:
    """Counts of each event of ``EVENTS`` over whole shoes.

    Coups are counted per outcome of :data:`~scoreboard.game.rules.OUTCOMES`
    (``outcomes[i]`` coups settled as ``OUTCOMES[i]``) and read as events only
    when asked, so the dealing loop does one addition per coup.
    """

    shoes: int = 0
    coups: int = 0
    player_pairs: int = 0
    banker_pairs: int = 0
    outcomes: list[int] = field(default_factory=lambda: [0] * len(OUTCOMES))

    @property
    def counts(self) -> dict[str, int]:
        """Coups of each event of ``EVENTS``."""
        counts = event_counts(self.outcomes) | tier_counts(self.outcomes)
        counts |= {"player_pair": self.player_pairs, "banker_pair": self.banker_pairs}
        return {key: counts[key] for key in EVENTS}

    def frequencies(self) -> dict[str, float]:
        return {
            key: count / self.coups if self.coups else 0.0 for key, count in self.counts.items()
        }


def tally_shoe(codes: list[int], cut_index: int, tally: Totals) -> None:
    """Deal one shuffled shoe of card codes to its end and add what happened to ``tally``.

    Burn, end-of-shoe rule and tableau are those of :class:`Dealer`: burn the
    first card's value, deal until a coup reaches the card at ``cut_index``,
    deal one more coup, stop.  Each coup adds one to its outcome's count, at
    :func:`~scoreboard.game.rules.outcome_index` of its totals and card counts.
    """
    pts = [POINTS[code] for code in codes]
    ranks = [RANK_INDEX[code] for code in codes]
    position = 1 + burn_count(DECK[codes[0]])
    player_draws_on, banker_draws_on, natural = _PLAYER_DRAWS, _BANKER_DRAWS, _NATURAL
    outcomes = tally.outcomes
    p_pairs = b_pairs = coups = 0
    last: int | None = None
    while coups != last:
        coups += 1
        p = (pts[position] + pts[position + 2]) % 10
        b = (pts[position + 1] + pts[position + 3]) % 10
        p_pairs += ranks[position] == ranks[position + 2]
        b_pairs += ranks[position + 1] == ranks[position + 3]
        position += 4
        index = 0  # outcome_index's card-count part: + 2 Player drew, + 1 Banker drew
        if not natural[p * 10 + b]:
            third = 10
            if player_draws_on[p]:
                third = pts[position]
                p = (p + third) % 10
                position += 1
                index = 2
            if banker_draws_on[b * 11 + third]:
                b = (b + pts[position]) % 10
                position += 1
                index += 1
        outcomes[(p * 10 + b) * 4 + index] += 1
        if last is None and position > cut_index:
            last = coups + 1
    tally.player_pairs += p_pairs
    tally.banker_pairs += b_pairs
    tally.coups += coups
    tally.shoes += 1


def simulate(
    *,
    decks: int = 8,
    shoes: int = 100,
    seed: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Totals:
    """Deal ``shoes`` whole shoes from a seeded dealer and count the events.

    >>> simulate(decks=8, shoes=2, seed=1).shoes
    2
    """
    dealer = Dealer(decks=decks, seed=seed)
    tally = Totals()
    for index in range(shoes):
        shoe = dealer.new_shoe()
        tally_shoe(shoe.codes, shoe.cut_index, tally)
        if progress is not None:
            progress(index + 1)
    return tally
