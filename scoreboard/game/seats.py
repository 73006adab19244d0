"""Where a card goes in a hand: Player or Banker, card 1 to 3.

Both shoes speak of seats: Angel Eye names one in each position byte, and a
Bee-Tek host finds it by the tableau (:func:`next_seat`).

>>> [str(seat) for seat in DEAL_ORDER]
['P1', 'B1', 'P2', 'B2']
>>> from scoreboard.game.cards import parse_cards
>>> next_seat(parse_cards(["2S", "4D", "3H", "TC"]))
Seat(side=<Side.PLAYER: 'P'>, number=3)
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from scoreboard.game.cards import Card, hand_total
from scoreboard.game.rules import Coup, banker_draws, is_natural, player_draws

__all__ = ["DEAL_ORDER", "Seat", "Side", "hands", "next_seat", "seats_of"]


class Side(enum.Enum):
    """The side of the table a card is dealt to."""

    PLAYER = "P"
    BANKER = "B"


@dataclass(frozen=True, slots=True)
class Seat:
    """Card ``number`` (1 to 3) of ``side``."""

    side: Side
    number: int

    def __str__(self) -> str:
        return f"{self.side.value}{self.number}"


#: The first four cards of every hand, in the order they leave the shoe.
DEAL_ORDER = (
    Seat(Side.PLAYER, 1),
    Seat(Side.BANKER, 1),
    Seat(Side.PLAYER, 2),
    Seat(Side.BANKER, 2),
)


def seats_of(coup: Coup) -> tuple[Seat, ...]:
    """The seats of ``coup``'s cards in deal order."""
    thirds = [Seat(Side.PLAYER, 3)] * (len(coup.player) == 3)
    thirds += [Seat(Side.BANKER, 3)] * (len(coup.banker) == 3)
    return (*DEAL_ORDER, *thirds)


def hands(cards: Sequence[Card]) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """Cards in deal order split into (Player, Banker) as :func:`next_seat` seats them."""
    player: list[Card] = []
    banker: list[Card] = []
    for index, card in enumerate(cards):
        seat = next_seat(cards[:index])
        if seat is None:
            raise ValueError(f"{len(cards)} cards: the hand was complete after {index}")
        (player if seat.side is Side.PLAYER else banker).append(card)
    return tuple(player), tuple(banker)


def next_seat(dealt: Sequence[Card]) -> Seat | None:
    """The seat the next card goes to after ``dealt`` (deal order), or None: the hand is over.

    The tableau of :mod:`scoreboard.game.rules`: four cards, then Player's third
    when Player draws, then Banker's third when Banker draws.
    """
    if len(dealt) < len(DEAL_ORDER):
        return DEAL_ORDER[len(dealt)]
    player_total = hand_total([dealt[0], dealt[2]])
    banker_total = hand_total([dealt[1], dealt[3]])
    if is_natural(player_total) or is_natural(banker_total):
        return None
    player_drew = player_draws(player_total)
    if len(dealt) == len(DEAL_ORDER):
        if player_drew:
            return Seat(Side.PLAYER, 3)
        return Seat(Side.BANKER, 3) if banker_draws(banker_total, None) else None
    if player_drew and len(dealt) == len(DEAL_ORDER) + 1:
        third = dealt[4].points
        return Seat(Side.BANKER, 3) if banker_draws(banker_total, third) else None
    return None
