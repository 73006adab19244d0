"""An emulated shoe: a simulated 8-deck shoe dealt as a real shoe's bytes.

The inverse of the readers.  The cards come from :mod:`scoreboard.game.shoe`
(the same shuffle, burn and cut card as the demo); what goes on the wire is what
docs/shoes.md says the shoe sends: for Angel Eye a power-on (with its stray
bytes), the burn, each card drawn with its identity withheld, the reveal burst,
each frame three times with its SEQ and BCC, a standby now and then and, by a
seeded chance, an over-draw whose extra card is kept for the next hand or
discarded; for Bee-Tek one line per card, spelled in the ways the shoe may spell it.

Each :class:`Chunk` carries the bytes, when they go (a fraction of a hand's pace)
and the table events they complete (the truth a reader must get back).

>>> from scoreboard.game.shoe import Dealer
>>> chunks = angel_eye(Dealer(decks=1, seed=3), seed=3)
>>> next(chunks).data.hex(" ").upper()
'FF FF C5 FC 05 30 53 03 36 30 05 30 53 03 36 30 05 30 53 03 36 30'
"""

from __future__ import annotations

import enum
import itertools
import random
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass

from scoreboard.game.cards import Card
from scoreboard.game.events import Burn, CoupReceived, NewShoe
from scoreboard.game.rules import Coup, Game, deal_order
from scoreboard.game.seats import DEAL_ORDER, Seat, Side, seats_of
from scoreboard.game.shoe import Dealer, Shoe
from scoreboard.shoes._angel_eye_writer import Transmitter
from scoreboard.shoes.angel_eye import (
    Drawn,
    ErrorCleared,
    ErrorRaised,
    ExtraDiscarded,
    ExtraDrawn,
    ExtraUsed,
    Identity,
    Message,
    Position,
    PowerOn,
    Result,
    Standby,
    SuitOrder,
)
from scoreboard.shoes.bee_tek import card_line

__all__ = ["Chunk", "Emulated", "Habits", "angel_eye", "bee_tek", "shoe_coups"]

#: What a shoe powering on puts on the line before its first frame.
POWER_ON_NOISE = bytes.fromhex("FF FF C5 FC")
#: Pace fractions: a hand's draws, reveal and pauses add up to about one pace.
DRAW, REVEAL, PAUSE = 0.08, 0.3, 0.1
#: The shuffle between two shoes, in paces (as ``scoreboard shoe``'s default).
SHUFFLE = 3.0

TruthEvent = NewShoe | Burn | CoupReceived


class Emulated(enum.Enum):
    """The shoes this emulator speaks as."""

    ANGEL_EYE = "angel-eye"
    BEE_TEK = "bee-tek"


@dataclass(frozen=True, slots=True)
class Habits:
    """How an emulated shoe behaves besides dealing: seeded chances per hand."""

    standby: float = 0.25
    overdraw_kept: float = 0.02
    overdraw_discarded: float = 0.02
    noise: bytes = POWER_ON_NOISE
    warning: float = 0.01  # Bee-Tek: a <W0x01> line
    power_cut: float = 0.0  # Angel Eye: powered off and on in the middle of a hand
    shuffle: float = SHUFFLE  # paces between two shoes


#: The habits of shoes.md's examples: no noise, no over-draw, a standby after each hand.
SPEC = Habits(standby=1.0, overdraw_kept=0.0, overdraw_discarded=0.0, noise=b"", warning=0.0)


@dataclass(frozen=True, slots=True)
class Chunk:
    """``data`` to write ``after`` paces from the last chunk; ``truth``: what it completes."""

    after: float
    data: bytes
    truth: tuple[TruthEvent, ...] = ()


def shoe_coups(shoe: Shoe) -> Iterator[tuple[Coup, bool]]:
    """The shoe's coups as :meth:`~scoreboard.game.shoe.Dealer.shoe` deals them, each with
    whether it is the last; a consumer may draw from ``shoe`` between two (a discard)."""
    number, last_game = 0, None
    while last_game is None or number < last_game:
        number += 1
        coup = shoe.deal_coup()
        if last_game is None and shoe.cut_card_out:
            last_game = number + 1
        yield coup, number == last_game


class AngelEyeEmulator:
    """One Angel Eye shoe's messages, hand by hand (the caller deals the cards)."""

    def __init__(self, habits: Habits, rng: random.Random, suits: SuitOrder | None) -> None:
        self.habits, self.rng = habits, rng
        self.wire = Transmitter(suits)
        self.carried = False  # an extra card kept for the next hand's Player 1

    def new_shoe(self, burned: Sequence[Card], truth: tuple[TruthEvent, ...]) -> list[Chunk]:
        """Power-on, the face-up card (Player 0), then the burned cards counting down."""
        chunks = [Chunk(PAUSE, self.habits.noise + self.wire.send(PowerOn()))]
        first = Position(Seat(Side.PLAYER, 0), burn=True)
        chunks.append(Chunk(PAUSE, self.wire.send(Drawn(first, burned[0]))))
        for left, card in zip(range(len(burned) - 2, -1, -1), burned[1:], strict=True):
            position = Position(Seat(Side.BANKER, left), burn=True)
            chunks.append(Chunk(DRAW, self.wire.send(Drawn(position, card))))
        self.carried = False
        chunks[-1] = Chunk(chunks[-1].after, chunks[-1].data, truth)
        return chunks

    def hand(
        self, coup: Coup, truth: CoupReceived, *, last: bool, draw: Callable[[], Card]
    ) -> list[Chunk]:
        """``coup`` dealt and revealed; ``draw`` takes the card an over-draw discards."""
        seats = seats_of(coup)
        chunks = self._draws(seats)
        chunks += self._overdraw(last, draw)
        reveal = [
            Identity(Position(seat), card)
            for seat, card in zip(seats, deal_order(coup.player, coup.banker), strict=True)
        ]
        result = Result(coup.winner, coup.banker_pair, coup.player_pair, coup.banker_six)
        chunks.append(Chunk(REVEAL, self.wire.send(*reveal, result), (truth,)))
        if self.rng.random() < self.habits.standby:
            chunks.append(Chunk(PAUSE, self.wire.send(Standby())))
        return chunks

    def _draws(self, seats: Sequence[Seat]) -> list[Chunk]:
        """Each card leaving the shoe, identity withheld (a kept extra card is Player 1)."""
        chunks = []
        for seat in seats:
            message: Message = Drawn(Position(seat), None)
            if seat == DEAL_ORDER[0] and self.carried:
                message, self.carried = ExtraUsed(Position(seat)), False
            chunks.append(Chunk(DRAW, self.wire.send(message)))
        return chunks

    def power_cut(self, coup: Coup) -> list[Chunk] | None:
        """By chance, some of ``coup``'s cards drawn, then a power-on: that hand is lost."""
        if not self.habits.power_cut or self.rng.random() >= self.habits.power_cut:
            return None
        seats = seats_of(coup)
        chunks = self._draws(seats[: self.rng.randint(1, len(seats))])
        chunks.append(Chunk(PAUSE, self.habits.noise + self.wire.send(PowerOn())))
        return chunks

    def _overdraw(self, last: bool, draw: Callable[[], Card]) -> list[Chunk]:
        """By chance (never on the shoe's last hand), one card too many pulled."""
        chance = self.rng.random()
        if last or chance >= self.habits.overdraw_kept + self.habits.overdraw_discarded:
            return []
        extra = ExtraDrawn(Position(Seat(Side.PLAYER, 0), extra=True))
        if chance < self.habits.overdraw_kept:
            self.carried = True
            return [Chunk(DRAW, self.wire.send(ErrorRaised(2), extra, ErrorCleared(2)))]
        messages: list[Message] = [ErrorRaised(2)]
        if self.rng.random() < 0.5:
            messages.append(ErrorRaised(7, bit6=True))
        discarded = ExtraDiscarded(Position(DEAL_ORDER[0]), draw())
        messages += [extra, discarded, ErrorCleared(2)]
        return [Chunk(DRAW, self.wire.send(*messages))]


def angel_eye(
    dealer: Dealer,
    *,
    seed: int = 0,
    habits: Habits | None = None,
    suits: SuitOrder | None = None,
    shoes: int | None = None,
) -> Iterator[Chunk]:
    """Shoe after shoe from ``dealer`` as an Angel Eye sends it (``shoes`` of them, or forever)."""
    chances = habits or Habits()
    emulator = AngelEyeEmulator(chances, random.Random(seed), suits)
    for index in _count(shoes):
        shoe_id, shoe = yield from _next_shoe(dealer, index, chances.shuffle)
        burned = shoe.burn()
        yield from emulator.new_shoe(burned, _opening(shoe_id, burned, dealer.decks))
        number = 0
        for coup, last in shoe_coups(shoe):
            lost = None if last else emulator.power_cut(coup)
            if lost is not None:
                yield from lost
                continue
            number += 1
            truth = CoupReceived(shoe_id, Game(number, coup))
            yield from emulator.hand(coup, truth, last=last, draw=shoe.draw)


def bee_tek(
    dealer: Dealer, *, seed: int = 0, habits: Habits | None = None, shoes: int | None = None
) -> Iterator[Chunk]:
    """Shoe after shoe from ``dealer`` as Bee-Tek lines (``shoes`` of them, or forever)."""
    rng, chances = random.Random(seed), habits or Habits()
    for index in _count(shoes):
        shoe_id, shoe = yield from _next_shoe(dealer, index, chances.shuffle)
        burned = shoe.burn()
        lines = [_spelled(card, rng, burn=True) for card in burned]
        yield from _lines(lines, _opening(shoe_id, burned, dealer.decks))
        for number, (coup, _last) in enumerate(shoe_coups(shoe), start=1):
            lines = [_spelled(card, rng) for card in deal_order(coup.player, coup.banker)]
            yield from _lines(lines, (CoupReceived(shoe_id, Game(number, coup)),))
            if rng.random() < chances.warning:
                yield Chunk(PAUSE, b"<W0x01>\r\n")
            yield Chunk(REVEAL, b"")


def _count(shoes: int | None) -> Iterator[int]:
    return itertools.count() if shoes is None else iter(range(shoes))


def _next_shoe(
    dealer: Dealer, index: int, shuffle: float
) -> Generator[Chunk, None, tuple[str, Shoe]]:
    """The dealer's next shoe, shuffled while ``shuffle`` paces go by (none before the first)."""
    if index:
        yield Chunk(shuffle, b"")
    shoe_id = dealer.next_shoe_id()
    dealer.shoes_dealt += 1
    return shoe_id, dealer.new_shoe()


def _opening(shoe_id: str, burned: tuple[Card, ...], decks: int) -> tuple[TruthEvent, ...]:
    return NewShoe(shoe_id, decks=decks), Burn(burned, shoe_id)


def _lines(lines: list[bytes], truth: tuple[TruthEvent, ...]) -> Iterator[Chunk]:
    """One chunk a line, ``truth`` on the last."""
    for index, line in enumerate(lines, start=1 - len(lines)):
        yield Chunk(DRAW, line, truth if index == 0 else ())


def _spelled(card: Card, rng: random.Random, *, burn: bool = False) -> bytes:
    """A card line in one of the spellings the shoe may use (10 or T, any case, spaces)."""
    line = card_line(card, burn=burn)
    if card.rank == "T" and rng.random() < 0.5:
        line = line.replace(b":T", b":10")
    if rng.random() < 0.3:
        line = line[:-4] + line[-4:-3].lower() + line[-3:]
    if rng.random() < 0.2:
        line = line.replace(b"<", b"< ").replace(b":", b" : ")
    return line
