"""Angel Eye's messages -> what the table must hear (docs/shoes.md section 1).

- ``S`` then ``D C0 <card>`` and the burned cards: a new shoe and its burn.  A
  power-on with no burn goes on with the same shoe.
- Each ``G`` is one coup with the cards its ``I`` burst revealed, in deal order;
  an extra card kept (``R``) is that hand's Player card 1.  The shoe is the
  authority on the result: if its cards disagree with it, or are not what the
  tableau deals, the coup goes out as the result alone, with :class:`CardsDisagree`.
- A hand open at a power-on (or left without its result) is abandoned, never a coup.

>>> from scoreboard.shoes.angel_eye import AngelEyeReader
>>> hands = AngelEyeHands(ShoeBook(iter(["S1"]).__next__))
>>> wire = bytes.fromhex("05 30 53 03 36 30 05 31 44 C0 A3 03 31 35")
>>> hands.hear_all(AngelEyeReader().feed(wire))
[PoweredOn(mid_hand=False), NewShoe(shoe='S1', previous=None, previous_games=None, \
origin=None, decks=None)]
"""

from __future__ import annotations

from collections.abc import Iterable

from scoreboard.game.cards import Card
from scoreboard.game.events import CardDealt
from scoreboard.game.rules import Coup, ImpossibleHandError, Winner, record_coup
from scoreboard.game.seats import Seat, Side
from scoreboard.shoes.angel_eye import (
    Drawn,
    ErrorCleared,
    ErrorRaised,
    ExtraDiscarded,
    ExtraDrawn,
    ExtraUsed,
    Identity,
    Message,
    PowerOn,
    Result,
    SeqGap,
    Unknown,
)
from scoreboard.shoes.discards import BadBytes
from scoreboard.shoes.news import (
    CardsDisagree,
    ExtraCard,
    ExtraFate,
    HandAbandoned,
    LineFaults,
    MessagesLost,
    News,
    PoweredOn,
    ShoeAlarm,
    ShoeBook,
    UnknownMessage,
    shoe_result,
)

__all__ = ["LONGEST_BURN", "AngelEyeHands"]

#: The face-up card and ten burned (a ten or a face): a burn never holds more.
LONGEST_BURN = 11


class AngelEyeHands:
    """One Angel Eye shoe's messages in, the table's news out, in order.

    ``book`` names new shoes and counts games; given a shoe and its games it
    continues that shoe after a restart (:class:`~scoreboard.shoes.news.ShoeBook`).
    """

    def __init__(self, book: ShoeBook | None = None) -> None:
        self.book = book or ShoeBook()
        self.dealt: list[Seat] = []  # this hand's cards out of the shoe, in deal order
        self.shown: dict[Seat, Card] = {}  # this hand's identities, as revealed
        self.burn: list[Card] | None = None  # the burn being dealt
        self.extra_held = False
        self.tally = LineFaults()

    @property
    def hand_open(self) -> bool:
        return bool(self.dealt or self.shown)

    def hear_all(self, messages: Iterable[Message | BadBytes]) -> list[News]:
        return [news for message in messages for news in self.hear(message)]

    def hear(self, message: Message | BadBytes) -> list[News]:
        """What ``message`` means to the table (often nothing yet), counted in :attr:`tally`."""
        news = self._meaning(message)
        self.tally = self.tally.counted(news)
        return news

    def _meaning(self, message: Message | BadBytes) -> list[News]:
        if isinstance(message, Drawn):
            return self._drawn(message)
        if isinstance(message, Identity):
            self.shown[message.position.seat] = message.card
            return []
        if isinstance(message, Result):
            return self._result(message)
        if isinstance(message, PowerOn):
            mid_hand = self.hand_open
            news = [*self._finish_burn(), *self._abandon("the shoe powered on")]
            self.extra_held = False
            return [PoweredOn(mid_hand), *news]
        return self._health(message)

    def _health(self, message: Message | BadBytes) -> list[News]:
        if isinstance(message, ErrorRaised | ErrorCleared):
            raised = isinstance(message, ErrorRaised)
            once = raised and message.bit6  # never cleared: "E C7" beside an over-draw's "E 82"
            return [ShoeAlarm(str(message.code), message.meaning, raised, once)]
        if isinstance(message, ExtraDrawn):
            self.extra_held = True
            return [ExtraCard(ExtraFate.HELD)]
        if isinstance(message, ExtraUsed):
            self.extra_held = False
            return [ExtraCard(ExtraFate.USED), *self._deal(message.position.seat, None)]
        if isinstance(message, ExtraDiscarded):
            self.extra_held = False
            return [ExtraCard(ExtraFate.DISCARDED, message.card)]
        if isinstance(message, Unknown):
            return [UnknownMessage(message.letter, message.data)]
        if isinstance(message, SeqGap):
            return [MessagesLost(message.expected, message.got)]
        if isinstance(message, BadBytes):
            return [message]
        return []  # Standby: its trigger is unknown, so it means nothing to the table

    def _drawn(self, message: Drawn) -> list[News]:
        position, card = message.position, message.card
        if position.burn:
            return self._burned(position.seat, card)
        if position.extra:
            self.extra_held = True
            return [ExtraCard(ExtraFate.HELD)]
        return [*self._finish_burn(), *self._deal(position.seat, card)]

    def _burned(self, seat: Seat, card: Card | None) -> list[News]:
        """The face-up first card (Player 0) opens a shoe; burned cards count down to 0."""
        news: list[News] = []
        if seat.side is Side.PLAYER or self.burn is None:
            news += [*self._finish_burn(), *self._abandon("a new shoe started")]
            news.append(self.book.start())
            self.burn = []
        if card is not None:
            self.burn.append(card)
        if (seat.side is Side.BANKER and seat.number == 0) or len(self.burn) >= LONGEST_BURN:
            news += self._finish_burn()
        return news

    def _finish_burn(self) -> list[News]:
        burn, self.burn = self.burn, None
        return self.book.burn(burn) if burn is not None else []

    def _deal(self, seat: Seat, card: Card | None) -> list[News]:
        news: list[News] = []
        if self.shown or seat in self.dealt:
            news += self._abandon("the hand ended without a result")
        news += self.book.ensure()
        self.dealt.append(seat)
        news.append(CardDealt(self.book.current(), self.book.game, seat, card))
        return news

    def _abandon(self, reason: str) -> list[News]:
        if not self.hand_open or self.book.shoe is None:
            self.dealt, self.shown = [], {}
            return []
        cards = tuple(self.shown.get(seat) for seat in self.dealt) or tuple(self.shown.values())
        abandoned = HandAbandoned(self.book.current(), self.book.game, cards, reason)
        self.dealt, self.shown = [], {}
        return [abandoned]

    def _result(self, result: Result) -> list[News]:
        news: list[News] = [*self._finish_burn(), *self.book.ensure()]
        player, banker = _hand(self.shown, Side.PLAYER), _hand(self.shown, Side.BANKER)
        coup, problem = _judge(self.dealt, self.shown, result)
        if coup is None:
            shoe, game = self.book.current(), self.book.game
            news.append(CardsDisagree(shoe, game, player, banker, result.winner, problem))
            coup = shoe_result(
                result.winner,
                player_pair=result.player_pair,
                banker_pair=result.banker_pair,
                six=result.banker_six,
            )
        news.append(self.book.coup(coup))
        self.dealt, self.shown = [], {}
        return news


def _hand(shown: dict[Seat, Card], side: Side) -> tuple[Card, ...]:
    seats = sorted((seat for seat in shown if seat.side is side), key=lambda seat: seat.number)
    return tuple(shown[seat] for seat in seats)


def _judge(dealt: list[Seat], shown: dict[Seat, Card], result: Result) -> tuple[Coup | None, str]:
    """The hand the identities make if it is the one the shoe's result speaks of, or why not."""
    if not shown:
        return None, "no cards were revealed"
    unshown = [str(seat) for seat in dealt if seat not in shown]
    if unshown:
        return None, f"no identity for {' '.join(unshown)}"
    for side in Side:
        numbers = sorted(seat.number for seat in shown if seat.side is side)
        if numbers != list(range(1, len(numbers) + 1)):
            return None, f"{side.name.title()} cards numbered {numbers}"
    try:
        coup = record_coup(_hand(shown, Side.PLAYER), _hand(shown, Side.BANKER))
    except ImpossibleHandError as error:
        return None, str(error)
    said = _said(result.winner, result.player_pair, result.banker_pair, result.banker_six)
    seen = _said(coup.winner, coup.player_pair, coup.banker_pair, coup.banker_six)
    if said != seen:
        return None, f"the shoe says {said}; its cards say {seen}"
    return coup, ""


def _said(winner: Winner, player_pair: bool, banker_pair: bool, six: bool) -> str:
    """A result in a few words: ``B with 6 P pair``."""
    flags = [name for name, on in (("P pair", player_pair), ("B pair", banker_pair)) if on]
    return " ".join([f"{winner.value}{' with 6' if six else ''}", *flags])
