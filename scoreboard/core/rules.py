"""The Punto Banco tableau: who draws, who wins, and what a coup carries.

Nobody decides anything during a coup, so a coup is a pure function of the
cards in deal order.  :func:`deal_coup` resolves cards as a dealer would;
:func:`record_coup` checks hands reported by a shoe against that same tableau.

>>> coup = deal_coup(parse_cards(["2S", "4D", "3H", "TC", "6S", "AH"]))
>>> coup.winner, coup.player_total, coup.banker_total
(<Winner.BANKER: 'B'>, 1, 5)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from scoreboard.core.cards import Card, hand_total, parse_cards

__all__ = [
    "Coup",
    "Game",
    "ImpossibleHandError",
    "ShortShoeError",
    "Winner",
    "banker_draws",
    "deal_coup",
    "parse_cards",
    "player_draws",
    "record_coup",
    "result_coup",
    "winner_of",
]


class Winner(enum.Enum):
    """The outcome of a coup, valued by its letter on the wire."""

    BANKER = "B"
    PLAYER = "P"
    TIE = "T"

    @classmethod
    def parse(cls, letter: str) -> Winner:
        """``"b"`` -> ``Winner.BANKER``; anything else raises ``ValueError``."""
        try:
            return cls(str(letter).upper())
        except ValueError:
            raise ValueError(f"unknown result {letter!r}: expected B, P or T") from None


class ImpossibleHandError(ValueError):
    """Reported hands that the tableau would not have dealt."""


class ShortShoeError(ValueError):
    """The card source ran out in the middle of a coup."""


def is_natural(total_on_two_cards: int) -> bool:
    return total_on_two_cards >= 8


def player_draws(player_total: int) -> bool:
    """Player draws on 0-5 and stands on 6-7 (naturals are decided before)."""
    return player_total <= 5


# Banker total -> point values of Player's third card on which Banker draws.
_BANKER_DRAWS_AGAINST: dict[int, frozenset[int]] = {
    0: frozenset(range(10)),
    1: frozenset(range(10)),
    2: frozenset(range(10)),
    3: frozenset(range(10)) - {8},
    4: frozenset(range(2, 8)),
    5: frozenset(range(4, 8)),
    6: frozenset({6, 7}),
    7: frozenset(),
}


def banker_draws(banker_total: int, player_third: int | None) -> bool:
    """Banker's rule; ``player_third`` is the point value of Player's third card or None.

    >>> banker_draws(3, 8), banker_draws(6, 7), banker_draws(5, None)
    (False, True, True)
    """
    if player_third is None:
        return banker_total <= 5
    return player_third in _BANKER_DRAWS_AGAINST.get(banker_total, frozenset())


@dataclass(frozen=True, slots=True)
class Coup:
    """A finished coup.  Cards are empty when the feed reported only a result.

    For a result-only coup the totals may be unknown (``None``) and the natural
    and pair flags are whatever the feed said.
    """

    winner: Winner
    player: tuple[Card, ...] = ()
    banker: tuple[Card, ...] = ()
    player_total: int | None = None
    banker_total: int | None = None
    player_natural: bool = False
    banker_natural: bool = False
    player_pair: bool = False
    banker_pair: bool = False

    @property
    def has_cards(self) -> bool:
        return bool(self.player)

    @property
    def natural(self) -> bool:
        """Either hand had 8 or 9 on its first two cards."""
        return self.player_natural or self.banker_natural

    @property
    def banker_six(self) -> bool:
        """Banker wins with 6: pays 1:2 on a no-commission (Super 6) table."""
        return self.winner is Winner.BANKER and self.banker_total == 6

    @property
    def dragon7(self) -> bool:
        """Banker wins with a three-card 7 (EZ Baccarat)."""
        return self.winner is Winner.BANKER and self.banker_total == 7 and len(self.banker) == 3

    @property
    def panda8(self) -> bool:
        """Player wins with a three-card 8 (EZ Baccarat)."""
        return self.winner is Winner.PLAYER and self.player_total == 8 and len(self.player) == 3

    def as_dict(self) -> dict[str, object]:
        """The JSON shape of ``scoreboard coup``."""
        return {
            "player": [str(card) for card in self.player],
            "banker": [str(card) for card in self.banker],
            "player_total": self.player_total,
            "banker_total": self.banker_total,
            "winner": self.winner.value,
            "player_natural": self.player_natural,
            "banker_natural": self.banker_natural,
            "natural": self.natural,
            "player_pair": self.player_pair,
            "banker_pair": self.banker_pair,
            "banker_six": self.banker_six,
            "dragon7": self.dragon7,
            "panda8": self.panda8,
        }


@dataclass(frozen=True, slots=True)
class Game:
    """A coup with its number within the shoe: what the roads are built from."""

    number: int
    coup: Coup


def winner_of(player_total: int, banker_total: int) -> Winner:
    """Higher total wins; equal totals tie.

    >>> winner_of(1, 5)
    <Winner.BANKER: 'B'>
    """
    if player_total > banker_total:
        return Winner.PLAYER
    if banker_total > player_total:
        return Winner.BANKER
    return Winner.TIE


def _finish(player: tuple[Card, ...], banker: tuple[Card, ...]) -> Coup:
    player_total, banker_total = hand_total(player), hand_total(banker)
    return Coup(
        winner=winner_of(player_total, banker_total),
        player=player,
        banker=banker,
        player_total=player_total,
        banker_total=banker_total,
        player_natural=is_natural(hand_total(player[:2])),
        banker_natural=is_natural(hand_total(banker[:2])),
        player_pair=player[0].rank == player[1].rank,
        banker_pair=banker[0].rank == banker[1].rank,
    )


def deal_coup(cards: Iterable[Card]) -> Coup:
    """Deal one coup from ``cards`` in deal order, drawing only what the tableau asks.

    Cards beyond those the coup needs are left unread, so a shoe iterator can be
    passed directly.  Raises :class:`ShortShoeError` if the cards run out.
    """
    source: Iterator[Card] = iter(cards)

    def take() -> Card:
        try:
            return next(source)
        except StopIteration:
            raise ShortShoeError("the cards ran out in the middle of a coup") from None

    p1, b1, p2, b2 = take(), take(), take(), take()
    player, banker = (p1, p2), (b1, b2)
    player_total, banker_total = hand_total(player), hand_total(banker)
    if is_natural(player_total) or is_natural(banker_total):
        return _finish(player, banker)
    player_third: int | None = None
    if player_draws(player_total):
        third = take()
        player += (third,)
        player_third = third.points
    if banker_draws(banker_total, player_third):
        banker += (take(),)
    return _finish(player, banker)


def deal_order(player: tuple[Card, ...], banker: tuple[Card, ...]) -> tuple[Card, ...]:
    """Interleave two hands back into the order the dealer drew them."""
    order = [player[0], banker[0], player[1], banker[1]]
    order += player[2:]
    order += banker[2:]
    return tuple(order)


def record_coup(player: Iterable[Card], banker: Iterable[Card]) -> Coup:
    """Accept hands reported by a shoe only if they are exactly what the tableau deals.

    >>> record_coup(parse_cards(["9S", "KH"]), parse_cards(["4D", "3C"])).winner
    <Winner.PLAYER: 'P'>
    >>> record_coup(parse_cards(["2S", "3H"]), parse_cards(["4D", "3C"]))
    Traceback (most recent call last):
    ...
    scoreboard.core.rules.ImpossibleHandError: Player must draw on 5 but has no third card
    """
    player, banker = tuple(player), tuple(banker)
    for side, hand in (("Player", player), ("Banker", banker)):
        if not 2 <= len(hand) <= 3:
            raise ImpossibleHandError(f"{side} has {len(hand)} cards; a hand has 2 or 3")
    player_two, banker_two = hand_total(player[:2]), hand_total(banker[:2])
    if is_natural(player_two) or is_natural(banker_two):
        side, total = ("Player", player_two) if is_natural(player_two) else ("Banker", banker_two)
        for name, hand in (("Player", player), ("Banker", banker)):
            if len(hand) == 3:
                raise ImpossibleHandError(
                    f"{name} drew a third card but a natural ({side} {total}) "
                    "ends the coup on two cards"
                )
        return _finish(player, banker)
    should_draw = player_draws(player_two)
    if should_draw and len(player) == 2:
        raise ImpossibleHandError(f"Player must draw on {player_two} but has no third card")
    if not should_draw and len(player) == 3:
        raise ImpossibleHandError(f"Player must stand on {player_two} but has a third card")
    player_third = player[2].points if len(player) == 3 else None
    should_draw = banker_draws(banker_two, player_third)
    against = "Player stood" if player_third is None else f"Player's third card is {player_third}"
    if should_draw and len(banker) == 2:
        raise ImpossibleHandError(
            f"Banker must draw on {banker_two} when {against} but has no third card"
        )
    if not should_draw and len(banker) == 3:
        raise ImpossibleHandError(
            f"Banker must stand on {banker_two} when {against} but has a third card"
        )
    return _finish(player, banker)


def result_coup(
    winner: Winner,
    *,
    player_pair: bool = False,
    banker_pair: bool = False,
    natural: bool = False,
    player_total: int | None = None,
    banker_total: int | None = None,
) -> Coup:
    """A coup from a result-only shoe: no cards, flags as reported.

    Totals, when given, must be 0-9 and agree with the winner.
    """
    for name, total in (("player_total", player_total), ("banker_total", banker_total)):
        if total is not None and not (isinstance(total, int) and 0 <= total <= 9):
            raise ImpossibleHandError(f"{name} must be 0-9, got {total!r}")
    if (
        player_total is not None
        and banker_total is not None
        and winner_of(player_total, banker_total) is not winner
    ):
        raise ImpossibleHandError(
            f"result {winner.value} disagrees with totals Player {player_total} "
            f"Banker {banker_total}"
        )
    player_natural = natural and (player_total is None or is_natural(player_total))
    banker_natural = natural and (banker_total is None or is_natural(banker_total))
    if natural and not (player_natural or banker_natural):
        raise ImpossibleHandError(
            f"natural flagged but neither total is 8 or 9 (Player {player_total}, "
            f"Banker {banker_total})"
        )
    if natural and player_total is None and banker_total is None:
        # Side unknown: attribute the natural to the winner (a tie: both).
        player_natural = winner is not Winner.BANKER
        banker_natural = winner is not Winner.PLAYER
    return Coup(
        winner=winner,
        player_total=player_total,
        banker_total=banker_total,
        player_natural=player_natural,
        banker_natural=banker_natural,
        player_pair=player_pair,
        banker_pair=banker_pair,
    )
