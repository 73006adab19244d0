"""The side bets of the floor whose pays depend on how many cards each hand took.

Macau's 2024 bets (and the earlier Lucky 6) pay by tiers: Small 6 and Big 6 are
Banker winning with 6 on two and on three cards, Lucky 7 is Player winning with 7
(two or three cards), Super Lucky 7 is Player's 7 beating Banker's 6, paid by
how many cards the two hands hold together.  A coup wins a *tier*
(:data:`TIERS`, keyed as ``scoreboard odds --json`` keys its probabilities); a
*bet* (:class:`SideBet`) pays some tiers, each at its own odds.

Pure: what a coup's totals and card counts win, and what a bet is worth given
the tiers' probabilities (:mod:`scoreboard.game.odds` computes those exactly).

>>> tiers_won(7, 6, 3, 2)
('lucky_7_3', 'super_lucky_7_32')
>>> tiers_won(4, 6, 2, 3)
('big_6',)
>>> round(SIDE_BETS["lucky_6"].house_edge({"small_6": 0.02, "big_6": 0.03}), 4)
0.11
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scoreboard.game.rules import outcome_index

__all__ = ["SIDE_BETS", "TIERS", "SideBet", "bets_won", "tier_counts", "tiers_won"]

#: Every tier a coup can win, in the order ``scoreboard odds`` prints them.
TIERS = (
    "small_6",
    "big_6",
    "lucky_7_2",
    "lucky_7_3",
    "super_lucky_7_22",
    "super_lucky_7_32",
    "super_lucky_7_23",
    "super_lucky_7_33",
)


def tiers_won(
    player_total: int, banker_total: int, player_cards: int, banker_cards: int
) -> tuple[str, ...]:
    """The tiers of :data:`TIERS` a coup of these totals and card counts wins."""
    won: list[str] = []
    if banker_total == 6 and player_total < 6:
        won.append("small_6" if banker_cards == 2 else "big_6")
    if player_total == 7 and banker_total < 7:
        won.append(f"lucky_7_{player_cards}")
        if banker_total == 6:
            won.append(f"super_lucky_7_{player_cards}{banker_cards}")
    return tuple(won)


def bets_won(
    offered: Mapping[str, Mapping[str, int]], tiers: Sequence[str]
) -> tuple[tuple[str, int], ...]:
    """``(bet, pay)`` for each bet of ``offered`` (bet -> its pay table) that ``tiers`` win.

    >>> bets_won({"small_6": {"small_6": 22}, "lucky_7": {"lucky_7_2": 6}}, ("small_6",))
    (('small_6', 22),)
    """
    return tuple(
        (bet, pays[tier]) for bet, pays in offered.items() for tier in tiers if tier in pays
    )


def tier_counts(weights: Sequence[int]) -> dict[str, int]:
    """Fold counts (or weights) per :data:`~scoreboard.game.rules.OUTCOMES` index into
    counts per tier, as :func:`~scoreboard.game.rules.event_counts` does for events.

    >>> from scoreboard.game.rules import OUTCOMES
    >>> weights = [0] * len(OUTCOMES)
    >>> weights[outcome_index(7, 6, 2, 2)] = 3
    >>> {tier: n for tier, n in tier_counts(weights).items() if n}
    {'lucky_7_2': 3, 'super_lucky_7_22': 3}
    """
    counts = dict.fromkeys(TIERS, 0)
    for shape in itertools.product(range(10), range(10), (2, 3), (2, 3)):
        weight = weights[outcome_index(*shape)]
        if weight:
            for tier in tiers_won(*shape):
                counts[tier] += weight
    return counts


@dataclass(frozen=True, slots=True)
class SideBet:
    """A side bet: its key (config and limits), its name, and what each tier it pays pays.

    ``pays[tier] = n``: the tier pays n to 1; every other coup loses the stake.
    """

    key: str
    title: str
    pays: Mapping[str, int]

    def house_edge(self, odds: Mapping[str, float]) -> float:
        """Minus the expected net win of one unit staked, from the tiers' probabilities."""
        wins = sum(odds[tier] for tier in self.pays)
        return (1 - wins) - sum(odds[tier] * pay for tier, pay in self.pays.items())

    def with_pays(self, pays: Mapping[str, int]) -> SideBet:
        """This bet with a site's own pay table (tiers it does not pay are refused)."""
        unknown = sorted(set(pays) - set(self.pays))
        if unknown:
            raise ValueError(f"{self.key} pays {', '.join(self.pays)}, not {', '.join(unknown)}")
        bad = [tier for tier, pay in pays.items() if not 1 <= pay <= 1000]
        if bad:
            raise ValueError(f"{self.key}: pays must be 1 to 1000 to 1 ({', '.join(bad)})")
        return SideBet(self.key, self.title, {**self.pays, **pays})


#: The bets and their usual pay tables (a table's config may change the pays).
SIDE_BETS: dict[str, SideBet] = {
    bet.key: bet
    for bet in (
        SideBet("small_6", "Small 6", {"small_6": 22}),
        SideBet("big_6", "Big 6", {"big_6": 50}),
        SideBet("lucky_6", "Lucky 6", {"small_6": 12, "big_6": 20}),
        SideBet("lucky_7", "Lucky 7", {"lucky_7_2": 6, "lucky_7_3": 15}),
        SideBet(
            "super_lucky_7",
            "Super Lucky 7",
            {
                "super_lucky_7_22": 30,
                "super_lucky_7_32": 40,
                "super_lucky_7_23": 40,
                "super_lucky_7_33": 100,
            },
        ),
    )
}
