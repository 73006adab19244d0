"""Bee-Tek's lines -> what the table must hear (docs/shoes.md section 2).

The shoe names cards and nothing else, so the host deals: each game card goes to
the seat the tableau gives it (:func:`~scoreboard.game.seats.next_seat`) and the
coup is out when the tableau says the hand is complete.  Burn lines open a new
shoe and make its burn (the face-up card, then as many as it says).

A card that was not read spoils its hand: it is abandoned, never a coup.  While the
tableau still knows where that hand ends whatever the unread card was, the reader
follows it to its end and stays in step; when it cannot know, it says so.

>>> from scoreboard.game.cards import parse_cards
>>> from scoreboard.shoes.bee_tek import CardRead
>>> hands = BeeTekHands(ShoeBook(iter(["S1"]).__next__))
>>> news = hands.hear_all(CardRead(card) for card in parse_cards(["9S", "2H", "KD", "3C"]))
>>> news[-1].game.coup.winner, len(news)
(<Winner.PLAYER: 'P'>, 6)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from scoreboard.game.cards import Card
from scoreboard.game.events import CardDealt
from scoreboard.game.rules import record_coup
from scoreboard.game.seats import DEAL_ORDER, Seat, hands, next_seat
from scoreboard.game.shoe import burn_count
from scoreboard.shoes.bee_tek import Alarm, BurnRead, CardNotRead, CardRead, Line, WarningCode
from scoreboard.shoes.discards import BadBytes
from scoreboard.shoes.news import HandAbandoned, LineFaults, News, ShoeAlarm, ShoeBook

__all__ = ["BeeTekHands", "possible_next"]

#: A card of each point value 0 to 9: what an unread card may have been.
_ANY_POINTS = tuple(Card(rank) for rank in "TA23456789")


class BeeTekHands:
    """One Bee-Tek shoe's lines in, the table's news out (see :class:`AngelEyeHands`)."""

    def __init__(self, book: ShoeBook | None = None) -> None:
        self.book = book or ShoeBook()
        self.cards: list[Card | None] = []  # this hand so far, in deal order (None: unread)
        self.burn: list[Card] | None = None  # while burning: the cards not yet announced
        self.burn_wanted = 1  # pragma: no mutate (set by each burn's first card before use)
        self.tally = LineFaults()

    def hear_all(self, lines: Iterable[Line | BadBytes]) -> list[News]:
        return [news for line in lines for news in self.hear(line)]

    def hear(self, line: Line | BadBytes) -> list[News]:
        """What ``line`` means to the table, counted in :attr:`tally`."""
        news = self._meaning(line)
        self.tally = self.tally.counted(news)
        return news

    def _meaning(self, line: Line | BadBytes) -> list[News]:
        if isinstance(line, CardRead | CardNotRead):
            card = line.card if isinstance(line, CardRead) else None
            return [*self._end_burn(), *self._deal(card)]
        if isinstance(line, BurnRead):
            return self._burned(line.card)
        if isinstance(line, Alarm):
            code, _, words = line.text.partition(" ")
            if code[:1].upper() == "E" and code[1:].isdigit():
                return [ShoeAlarm(code, words)]
            return [ShoeAlarm("", line.text)]
        if isinstance(line, WarningCode):
            return [ShoeAlarm(line.code, "warning (meaning unknown)")]
        return [line]

    def _burned(self, card: Card) -> list[News]:
        news: list[News] = []
        if self.burn is None:
            news += self._abandon("burn cards came in the middle of a hand")
            news.append(self.book.start())
            self.burn, self.burn_wanted = [], 1 + burn_count(card)
        self.burn.append(card)
        if len(self.burn) >= self.burn_wanted:
            news += self.book.burn(self.burn)
            self.burn = []
            self.burn_wanted = 1  # pragma: no mutate (more burn lines: each its own burn; 0 too)
        return news

    def _end_burn(self) -> list[News]:
        burn, self.burn = self.burn, None
        return self.book.burn(burn) if burn else []

    def _deal(self, card: Card | None) -> list[News]:
        news = self.book.ensure()
        seats = possible_next(self.cards)
        seat = seats.pop() if len(seats) == 1 else None
        if seat is None:  # the hand's end was unknowable: take it as over
            news += self._abandon("a card was not read: where that hand ended is unknown")
            seat = DEAL_ORDER[0]
        self.cards.append(card)
        news.append(CardDealt(self.book.current(), self.book.game, seat, card))
        if possible_next(self.cards) == {None}:
            news += self._complete()
        return news

    def _complete(self) -> list[News]:
        if None in self.cards:
            return self._abandon("a card was not read")
        player, banker = hands([card for card in self.cards if card is not None])
        self.cards = []
        return [self.book.coup(record_coup(player, banker))]

    def _abandon(self, reason: str) -> list[News]:
        if not self.cards:
            return []
        cards, self.cards = tuple(self.cards), []
        return [HandAbandoned(self.book.current(), self.book.game, cards, reason)]


def possible_next(dealt: Sequence[Card | None]) -> set[Seat | None]:
    """Every seat the next card may go to, whatever the unread cards (None) were.

    >>> from scoreboard.game.cards import parse_cards
    >>> sorted(map(str, possible_next([None, *parse_cards(["3D", "4H", "2C"])])))
    ['B3', 'None', 'P3']
    """
    unread = [index for index, card in enumerate(dealt) if card is None]
    found: set[Seat | None] = set()
    for guesses in itertools.product(_ANY_POINTS, repeat=len(unread)):
        cards = list(dealt)
        for index, guess in zip(unread, guesses, strict=True):  # pragma: no mutate
            cards[index] = guess
        found.add(next_seat([card for card in cards if card is not None]))
    return found
