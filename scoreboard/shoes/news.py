"""What a shoe tells the table: core events where they fit, and the shoe's own news.

A new shoe, its burn and each finished coup are the table's own events
(:mod:`scoreboard.game.events`).  What has no event yet is here, as frozen
values: a card dealt face down, the shoe's health (errors raised and cleared, the
extra card of an over-draw, a power-on, a hand abandoned, an unknown message) and
the integrity alert when the shoe's result and its cards disagree.  Discarded bytes
come through as the readers' :class:`~scoreboard.shoes.discards.BadBytes`.

:class:`ShoeBook` keeps the shoe's name and game count for both shoes' hands.

>>> book = ShoeBook(iter(["S1", "S2"]).__next__)
>>> book.start()
NewShoe(shoe='S1', previous=None, previous_games=None, origin=None, decks=None)
>>> book.coup(result_coup(Winner.TIE)).game.number
1
>>> book.start().previous_games
1
"""

from __future__ import annotations

import dataclasses
import enum
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from scoreboard.game.cards import Card
from scoreboard.game.events import Burn, CardDealt, CoupReceived, NewShoe
from scoreboard.game.rules import Coup, Game, Winner, result_coup
from scoreboard.shoes.discards import BadBytes

__all__ = [
    "CardsDisagree",
    "ExtraCard",
    "ExtraFate",
    "HandAbandoned",
    "LineFaults",
    "MessagesLost",
    "News",
    "PoweredOn",
    "ShoeAlarm",
    "ShoeBook",
    "UnknownMessage",
]


@dataclass(frozen=True, slots=True)
class ShoeAlarm:
    """The shoe raised (or cleared) an error, an alarm or a warning: staff's, never a result.

    ``once``: the shoe never clears it (an Angel Eye error with bit 6 set, seen beside
    an over-draw's), so it is something seen, not a condition that lasts.
    """

    code: str
    meaning: str
    raised: bool = True
    once: bool = False


class ExtraFate(enum.Enum):
    """What became of an over-drawn card."""

    HELD = "held"
    USED = "used"
    DISCARDED = "discarded"


@dataclass(frozen=True, slots=True)
class ExtraCard:
    """The extra card of an over-draw: held, used as the next hand's Player 1, or discarded."""

    fate: ExtraFate
    card: Card | None = None


@dataclass(frozen=True, slots=True)
class PoweredOn:
    """The shoe powered on; ``mid_hand``: a hand was open, and is abandoned."""

    mid_hand: bool = False


@dataclass(frozen=True, slots=True)
class HandAbandoned:
    """Game ``game``'s hand will never complete: never a coup; staff see why.

    ``cards``: those dealt, in deal order, None where unread or withheld.
    """

    shoe: str
    game: int
    cards: tuple[Card | None, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class UnknownMessage:
    """A message the shoe sent that no one knows (Angel Eye's ``L``, ``M``...)."""

    letter: str
    data: bytes


@dataclass(frozen=True, slots=True)
class MessagesLost:
    """Angel Eye's SEQ jumped from ``expected`` to ``got``: messages were lost on the line."""

    expected: int
    got: int


@dataclass(frozen=True, slots=True)
class CardsDisagree:
    """An integrity alert: the shoe's result and its cards disagree (or the cards are
    not what the tableau deals), so game ``game`` went out as the shoe's result alone."""

    shoe: str
    game: int
    player: tuple[Card, ...]
    banker: tuple[Card, ...]
    winner: Winner
    detail: str


News = (
    NewShoe
    | Burn
    | CoupReceived
    | CardDealt
    | ShoeAlarm
    | ExtraCard
    | PoweredOn
    | HandAbandoned
    | UnknownMessage
    | MessagesLost
    | CardsDisagree
    | BadBytes
)


@dataclass(frozen=True, slots=True)
class LineFaults:
    """What went wrong on a shoe's line so far, for the status and the staff mark.

    >>> LineFaults().counted([BadBytes(b"\\xff", "outside a frame", 1), UnknownMessage("L", b"")])
    LineFaults(bad_runs=1, bad_bytes=1, unknown=1, lost=0, abandoned=0, disagreements=0)
    """

    bad_runs: int = 0
    bad_bytes: int = 0
    unknown: int = 0
    lost: int = 0
    abandoned: int = 0
    disagreements: int = 0

    def counted(self, news: Sequence[News]) -> LineFaults:
        """This tally with ``news`` counted in (itself when there is nothing to count)."""
        if not any(isinstance(item, _COUNTED) for item in news):
            return self
        counts = dataclasses.asdict(self)
        for item in news:
            if isinstance(item, BadBytes):
                counts["bad_runs"] += 1
                counts["bad_bytes"] += item.length
            else:
                name = _TALLIED.get(type(item))
                if name is not None:
                    counts[name] += 1
        return LineFaults(**counts)


_TALLIED: dict[type, str] = {
    UnknownMessage: "unknown",
    MessagesLost: "lost",
    HandAbandoned: "abandoned",
    CardsDisagree: "disagreements",
}
_COUNTED = (BadBytes, *_TALLIED)


def numbered_shoes(stem: str = "shoe") -> Callable[[], str]:
    """Shoe names ``stem-1``, ``stem-2``...: the default; a bridge passes names of its own."""
    counter = itertools.count(1)
    return lambda: f"{stem}-{next(counter)}"


class ShoeBook:
    """The current shoe's name and its games so far, across both kinds of shoe.

    ``shoe`` and ``games`` let a restarted reader go on with the shoe it had;
    ``next_shoe`` names each new one; ``decks`` goes into every ``NewShoe``.
    """

    def __init__(
        self,
        next_shoe: Callable[[], str] | None = None,
        *,
        shoe: str | None = None,
        games: int = 0,
        decks: int | None = None,
    ) -> None:
        self.next_shoe = next_shoe or numbered_shoes()
        self.shoe = shoe
        self.games = games
        self.decks = decks

    @property
    def game(self) -> int:
        """The number the hand being dealt will have."""
        return self.games + 1

    def start(self) -> NewShoe:
        """A new shoe: it follows the current one (if any) with its final game count."""
        previous, games = self.shoe, self.games
        self.shoe, self.games = self.next_shoe(), 0
        return NewShoe(
            self.shoe,
            previous=previous,
            previous_games=games if previous is not None else None,
            decks=self.decks,
        )

    def ensure(self) -> list[News]:
        """A reader that knew no shoe meets a hand: that hand opens one."""
        return [] if self.shoe is not None else [self.start()]

    def current(self) -> str:
        if self.shoe is None:
            raise RuntimeError("no shoe yet: call ensure() first")
        return self.shoe

    def coup(self, coup: Coup) -> CoupReceived:
        """The next game of the shoe is ``coup``."""
        self.games += 1
        return CoupReceived(self.current(), Game(self.games, coup))

    def burn(self, cards: list[Card]) -> list[News]:
        return [Burn(tuple(cards), self.current())] if cards else []


def shoe_result(winner: Winner, *, player_pair: bool, banker_pair: bool, six: bool) -> Coup:
    """A result-only coup with what the shoe said (a Banker six as a Banker total of 6)."""
    return result_coup(
        winner, player_pair=player_pair, banker_pair=banker_pair, banker_total=6 if six else None
    )
