"""What the board knows of the card-reading shoe itself: the hand being dealt and its health.

A ``deal`` event puts a card face down in its seat of the hand being dealt
(:class:`Forming`).  No card's face is kept here, even when the shoe sent it:
a squeezed hand is revealed by its coup, so what the renderer can read holds
nothing to reveal.  The hand is over with its coup, a void of its game, a new
shoe, a snapshot that settles it, or a ``hand_abandoned`` health report
(:func:`settles`).

A ``shoe_health`` event raises, clears or reports once a condition of the shoe
(:class:`ShoeWatch`): the staff mark shows SHOE OFFLINE while the serial device
is gone and SHOE ERROR while an error is raised.

>>> from scoreboard.game.seats import DEAL_ORDER
>>> hand = Forming.started(CardDealt("S1", 7, DEAL_ORDER[0]))
>>> str(hand.dealt(CardDealt("S1", 7, DEAL_ORDER[1])))
'S1 game 7: P1 B1 face down'
>>> watch = ShoeWatch().took(ShoeHealth("device", "raised", "/dev/ttyUSB0 is gone"))
>>> watch.mark, watch.took(ShoeHealth("device", "cleared")).mark
('shoe_offline', None)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from scoreboard.game.events import (
    CardDealt,
    Correct,
    CoupReceived,
    Event,
    NewShoe,
    ShoeHealth,
    Snapshot,
    Void,
)
from scoreboard.game.rules import Game
from scoreboard.game.seats import Seat, Side, seats_of

__all__ = ["MAX_CONDITIONS", "Forming", "ShoeWatch", "deals_of", "settles"]

#: The conditions a board keeps apart (raised, and counted when seen); more are
#: counted together as ``other``, so a controller cannot grow a display's memory.
MAX_CONDITIONS = 32


@dataclass(frozen=True, slots=True)
class Forming:
    """The hand being dealt: its shoe, game, and the seats dealt so far (face down)."""

    shoe: str
    game: int
    seats: tuple[Seat, ...]

    @classmethod
    def started(cls, event: CardDealt) -> Forming:
        return cls(event.shoe, event.game, (event.seat,))

    def dealt(self, event: CardDealt) -> Forming:
        """This hand with ``event``'s seat too, or a new hand when the deal is of a later game."""
        if event.shoe != self.shoe or event.game > self.game:
            return Forming.started(event)
        if event.game < self.game or event.seat in self.seats:
            return self  # a late copy of an earlier deal: nothing new
        return replace(self, seats=(*self.seats, event.seat))

    def __str__(self) -> str:
        return f"{self.shoe} game {self.game}: {' '.join(map(str, self.seats))} face down"


def deals_of(shoe: str, game: Game, *, faces: bool = False) -> tuple[CardDealt, ...]:
    """The ``deal`` events of ``game``'s cards in the order they leave the shoe.

    ``faces``: with each card (as a Bee-Tek reads it); without, withheld (Angel Eye).

    >>> from scoreboard.game.cards import parse_cards
    >>> from scoreboard.game.rules import record_coup
    >>> coup = record_coup(parse_cards(["2S", "3H", "9D"]), parse_cards(["4D", "TC"]))
    >>> [f"{d.seat}:{d.card}" for d in deals_of("S1", Game(1, coup), faces=True)]
    ['P1:2S', 'B1:4D', 'P2:3H', 'B2:TC', 'P3:9D']
    """
    coup = game.coup
    hands = {Side.PLAYER: coup.player, Side.BANKER: coup.banker}
    return tuple(
        CardDealt(shoe, game.number, seat, hands[seat.side][seat.number - 1] if faces else None)
        for seat in seats_of(coup)
    )


def settles(forming: Forming, event: Event, shoe: str | None) -> bool:
    """True when ``event`` (applied, the table now on ``shoe``) ends the hand being dealt.

    >>> hand = Forming("S1", 4, ())
    >>> settles(hand, Void("S1", 4), "S1"), settles(hand, Void("S1", 3), "S1")
    (True, False)
    """
    if shoe != forming.shoe:
        return True  # a new shoe, or the coup of another shoe started one
    match event:
        case CoupReceived(game=game) | Correct(game=game):
            return game.number >= forming.game
        case Void(game=number):
            return number == forming.game
        case Snapshot(games=games, voided=voided):
            return any(g.number >= forming.game for g in games) or forming.game in voided
        case NewShoe():
            return True
        case ShoeHealth(condition="hand_abandoned"):
            return True
    return False


#: The staff mark's label keys (theme labels), most urgent first.
OFFLINE_MARK = "shoe_offline"
ERROR_MARK = "shoe_error"


@dataclass(frozen=True, slots=True)
class ShoeWatch:
    """The shoe's health as reported: conditions raised now and how often each was seen.

    ``raised`` holds the report that raised each lasting condition (its detail
    for staff), in the order raised; ``seen`` counts every report by condition;
    ``last`` is the latest report.
    """

    raised: tuple[ShoeHealth, ...] = ()
    seen: tuple[tuple[str, int], ...] = ()
    last: ShoeHealth | None = None

    def took(self, event: ShoeHealth) -> ShoeWatch:
        """The watch after one report: a condition raised, cleared, or seen once."""
        condition = self._kept(event.condition)
        others = tuple(h for h in self.raised if h.condition != condition)
        counts = dict(self.seen)
        counts[condition] = counts.get(condition, 0) + 1
        if event.state == "raised":
            after = (*others, replace(event, condition=condition, origin=None))
        else:  # cleared: no longer raised; seen once: as it was
            after = others if event.state == "cleared" else self.raised
        return ShoeWatch(
            after,
            tuple(sorted(counts.items())),
            replace(event, origin=None),
        )

    def restated(self, raised: tuple[ShoeHealth, ...]) -> ShoeWatch:
        """The watch with the conditions a controller status says are raised (the rest cleared)."""
        kept = tuple(replace(h, origin=None) for h in raised[:MAX_CONDITIONS])
        return replace(self, raised=kept)

    def _kept(self, condition: str) -> str:
        """``condition``, or ``other`` once the watch keeps as many as it may."""
        known = {h.condition for h in self.raised} | {name for name, _ in self.seen}
        if condition in known or len(known) < MAX_CONDITIONS:
            return condition
        return "other"

    @property
    def offline(self) -> bool:
        """The shoe's serial device is gone (the cable pulled)."""
        return any(h.condition == "device" for h in self.raised)

    @property
    def errors(self) -> tuple[ShoeHealth, ...]:
        """The shoe's errors raised now (``error:<code>``)."""
        return tuple(h for h in self.raised if h.condition.startswith("error:"))

    @property
    def mark(self) -> str | None:
        """The staff mark's label key (``shoe_offline``, ``shoe_error``); None: the shoe is well."""
        if self.offline:
            return OFFLINE_MARK
        if self.errors:
            return ERROR_MARK
        return None
