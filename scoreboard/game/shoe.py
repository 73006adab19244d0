"""The simulated shoe: shuffle, burn, cut card, deal by the tableau, shoe after shoe.

Demo mode and the simulated controller deal from here, so a trade-show board
shows exactly what a real table would.  Everything is driven by one seedable
generator: the same seed deals the same shoes.

The dealer yields the events of :mod:`scoreboard.game.events`, the same a
shoe controller publishes, so the demo, the simulated controller and a live
table all reach the board through one ``apply_event``:

>>> dealer = Dealer(decks=1, seed=7)
>>> events = list(dealer.shoe())
>>> [type(event).__name__ for event in events[:3]], type(events[-1]).__name__
(['NewShoe', 'Burn', 'CoupReceived'], 'Shuffle')
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

from scoreboard.game.cards import RANKS, SUITS, Card
from scoreboard.game.events import Burn, CoupReceived, CutCard, NewShoe, Shuffle
from scoreboard.game.rules import Coup, Game, deal_coup

MAX_DECKS = 8


#: What the dealer yields: the table's own event vocabulary, nothing of its own.
ShoeEvent = NewShoe | Burn | CoupReceived | CutCard | Shuffle


# One deck in a fixed order; a shoe holds indices into it ("codes"), so shuffling
# and fast simulation move plain ints and a Card is looked up only when dealt.
DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)
POINTS: tuple[int, ...] = tuple(card.points for card in DECK)
RANK_INDEX: tuple[int, ...] = tuple(RANKS.index(card.rank) for card in DECK)


def fresh_codes(decks: int) -> list[int]:
    """``decks`` full decks as card codes (indices into ``DECK``), ready to be shuffled."""
    return list(range(len(DECK))) * decks


def burn_count(first: Card) -> int:
    """Cards burned face down after the face-up one: its point value, a 0 counting as 10."""
    return first.points or 10


class Shoe:
    """One shuffled shoe with its cut card; deals coups until the end-of-shoe rule says stop.

    The cut card sits ``cut_from_back`` cards from the back.  It comes out when
    the dealer reaches the first card behind it; that coup is finished, one more
    coup is dealt, and the shoe ends.
    """

    def __init__(self, codes: list[int], cut_from_back: int) -> None:
        if not 0 < cut_from_back < len(codes):
            raise ValueError(f"cut card {cut_from_back} from the back of {len(codes)} cards")
        self.codes = codes
        self.position = 0
        self.cut_index = len(codes) - cut_from_back

    @property
    def cards(self) -> list[Card]:
        """The whole shoe, top first."""
        return [DECK[code] for code in self.codes]

    def burn(self) -> tuple[Card, ...]:
        """Turn the first card up and burn as many more as its value; returns them all."""
        count = 1 + burn_count(DECK[self.codes[self.position]])
        burned = tuple(DECK[code] for code in self.codes[self.position : self.position + count])
        self.position += count
        return burned

    def draw(self) -> Card:
        card = DECK[self.codes[self.position]]
        self.position += 1
        return card

    @property
    def cut_card_out(self) -> bool:
        """True once a card at or behind the cut card has been dealt."""
        return self.position > self.cut_index

    def deal_coup(self) -> Coup:
        """Deal one coup from the top of the shoe."""
        return deal_coup(iter(self.draw, None))


def run_tag(seconds: int, salt: int) -> str:
    """A short tag telling one run of a dealer from another: its start time and a salt.

    Shoe ids must never repeat at a table: a display ignores a payload naming a
    shoe it has finished (a late redelivery), so a dealer restarted with the same
    seed and ids ``T1-3-001``... would leave the board on its old shoe.

    >>> run_tag(1_800_000_000, 0), run_tag(1_800_000_000, 35), run_tag(1_800_000_001, 0)
    ('tro8w000', 'tro8w00z', 'tro8w100')
    """
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"

    def base36(n: int) -> str:
        out = ""
        while True:
            n, digit = divmod(n, 36)
            out = digits[digit] + out
            if n == 0:
                return out

    return base36(seconds) + base36(salt % 1296).rjust(2, "0")


class Dealer:
    """Deals shoe after shoe from one seeded generator, yielding shoe events.

    ``cut_card`` is the range (inclusive) of cards from the back where the cut
    card goes; each shoe draws its own position in it.  ``run`` (a
    :func:`run_tag`), when given, goes into every shoe id, so a dealer started
    again with the same seed never names a shoe of its earlier run; without one
    the ids follow from the seed alone (screenshots, benchmarks, tests).
    """

    def __init__(
        self,
        decks: int = MAX_DECKS,
        seed: int | None = None,
        table_id: str = "T1",
        cut_card: tuple[int, int] = (14, 16),
        run: str = "",
    ) -> None:
        if not 1 <= decks <= MAX_DECKS:
            raise ValueError(f"decks must be 1 to {MAX_DECKS}, got {decks}")
        low, high = cut_card
        if not 12 <= low <= high <= decks * 52 // 2:
            raise ValueError(
                f"cut card must be placed 12 to {decks * 52 // 2} cards from the back "
                f"(enough for the last two coups), got {low}-{high}"
            )
        self.decks = decks
        self.seed = random.SystemRandom().randrange(2**32) if seed is None else seed
        self.table_id = table_id
        self.cut_card = cut_card
        self.random = random.Random(self.seed)
        self.shoes_dealt = 0
        self.run = run

    def next_shoe_id(self) -> str:
        """``TABLE-SEED-NNN`` or ``TABLE-SEED-RUN-NNN``, the table part cut to fit 64 characters."""
        tail = (
            f"-{self.seed:x}"
            + (f"-{self.run}" if self.run else "")
            + f"-{self.shoes_dealt + 1:03d}"
        )
        return self.table_id[: max(1, 64 - len(tail))] + tail

    def new_shoe(self) -> Shoe:
        """Shuffle a fresh shoe and place its cut card (no events)."""
        codes = fresh_codes(self.decks)
        self.random.shuffle(codes)
        return Shoe(codes, self.random.randint(*self.cut_card))

    def shoe(self) -> Iterator[ShoeEvent]:
        """Deal exactly one shoe: new shoe, burn, coups, cut card, one more coup, shuffle.

        The cut card comes right after the coup during which it came out; the
        closing ``Shuffle`` is the dealer shuffling the next shoe, shown over the
        finished one until the next ``NewShoe``.
        """
        shoe_id = self.next_shoe_id()
        self.shoes_dealt += 1
        shoe = self.new_shoe()
        yield NewShoe(shoe_id, decks=self.decks)
        yield Burn(shoe.burn())
        number = 0
        last_game: int | None = None
        while last_game is None or number < last_game:
            number += 1
            yield CoupReceived(shoe_id, Game(number, shoe.deal_coup()))
            if last_game is None and shoe.cut_card_out:
                last_game = number + 1
                yield CutCard()
        yield Shuffle()

    def __iter__(self) -> Iterator[ShoeEvent]:
        while True:
            yield from self.shoe()

    def timed(self, pace: float, shuffle_seconds: float) -> Iterator[tuple[float, ShoeEvent]]:
        """Shoe after shoe, forever, each event with its wait (see :func:`timed`).

        >>> from itertools import islice
        >>> events = Dealer(decks=1, seed=7).timed(pace=4.0, shuffle_seconds=12.0)
        >>> [(wait, type(event).__name__) for wait, event in islice(events, 3)]
        [(0.0, 'NewShoe'), (0.0, 'Burn'), (4.0, 'CoupReceived')]
        """
        return timed(self, pace, shuffle_seconds)


def opening(events: Iterable[ShoeEvent], coups: int) -> Iterator[NewShoe | CoupReceived]:
    """The new shoe and its first ``coups`` coups from ``events`` (burns, shuffles and the
    cut card left out): a board as it looks with that hand just dealt.

    >>> [type(e).__name__ for e in opening(Dealer(decks=1, seed=3), 2)]
    ['NewShoe', 'CoupReceived', 'CoupReceived']
    """
    dealt = 0
    for event in events:
        if dealt >= coups:
            return
        if isinstance(event, NewShoe | CoupReceived):
            yield event
        if isinstance(event, CoupReceived):
            dealt += 1


def timed(
    events: Iterable[ShoeEvent], pace: float, shuffle_seconds: float
) -> Iterator[tuple[float, ShoeEvent]]:
    """``(seconds to wait before it, event)`` for each event: a table's rhythm.

    A coup takes ``pace``; the last coup of a shoe stays ``pace`` before the
    shuffle; the shuffle shows for ``shuffle_seconds`` before the next shoe
    (the first shoe starts at once); the burn and the cut card come with what
    precedes them.  The demo and the simulated controller both deal by it, so
    a board shows the end of a shoe the same way whichever feeds it.
    """
    first = True  # until a shoe has finished
    for event in events:
        yield pause_before(event, pace, shuffle_seconds, first=first), event
        if isinstance(event, Shuffle):
            first = False


def pause_before(event: ShoeEvent, pace: float, shuffle_seconds: float, *, first: bool) -> float:
    """Seconds a table waits before ``event`` (see :meth:`Dealer.timed`)."""
    if isinstance(event, CoupReceived | Shuffle):
        return pace
    if isinstance(event, NewShoe):
        return 0.0 if first else shuffle_seconds
    return 0.0
