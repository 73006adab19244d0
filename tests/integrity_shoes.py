"""Shoes made by hand for the integrity tests: stacked, with a card too many, properly shuffled.

Every shoe here is dealt by the core's own :class:`~scoreboard.game.shoe.Shoe`, so
its coups follow the tableau whatever order the cards are in.
"""

from __future__ import annotations

import random

from scoreboard.game.events import Burn, CoupReceived, Event, NewShoe
from scoreboard.game.rules import Game, deal_order
from scoreboard.game.shoe import DECK, Shoe, fresh_codes

ACE_OF_SPADES = DECK.index(next(card for card in DECK if str(card) == "AS"))


def shoe_events(
    codes: list[int], shoe: str = "S1", *, decks: int | None = 8, cut: int = 15
) -> list[Event]:
    """Dealing ``codes`` as one shoe: new shoe, burn, coups to the cut card and one more."""
    dealt = Shoe(list(codes), cut)
    events: list[Event] = [NewShoe(shoe, decks=decks), Burn(dealt.burn(), shoe=shoe)]
    number = 0
    last: int | None = None
    while last is None or number < last:
        number += 1
        events.append(CoupReceived(shoe, Game(number, dealt.deal_coup())))
        if last is None and dealt.cut_card_out:
            last = number + 1
    return events


def cards_through(events: list[Event]) -> list[tuple[int, int]]:
    """``(game, code)`` of every card the events deal, in deal order (game 0: the burn)."""
    dealt: list[tuple[int, int]] = []
    for event in events:
        if isinstance(event, Burn):
            dealt += [(0, DECK.index(card)) for card in event.cards]
        elif isinstance(event, CoupReceived):
            cards = deal_order(event.game.coup.player, event.game.coup.banker)
            dealt += [(event.game.number, DECK.index(card)) for card in cards]
    return dealt


def shuffled(seed: int, decks: int = 8) -> list[int]:
    codes = fresh_codes(decks)
    random.Random(seed).shuffle(codes)
    return codes


def with_a_ninth_ace_of_spades(seed: int, decks: int = 8) -> list[int]:
    """A shuffled shoe with one card near the top turned into one more A♠, every A♠ dealt.

    The card replaced is not an ace, and the A♠ in the last 40 cards (behind or
    near the cut card) swap places with cards near the top, so all of them come out.
    """
    codes = shuffled(seed, decks)
    spot = next(i for i in range(20, 40) if DECK[codes[i]].rank != "A")
    codes[spot] = ACE_OF_SPADES
    early = (i for i in range(40, 200) if codes[i] != ACE_OF_SPADES)
    for late in range(len(codes) - 40, len(codes)):
        if codes[late] == ACE_OF_SPADES:
            swap = next(early)
            codes[late], codes[swap] = codes[swap], codes[late]
    return codes
