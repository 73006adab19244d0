"""The Punto Banco tableau: who draws, who wins, and what a coup carries.

Nobody decides anything during a coup, so a coup is a pure function of the
cards in deal order.  :func:`deal_coup` resolves cards as a dealer would;
:func:`record_coup` checks hands reported by a shoe against that same tableau.

>>> from scoreboard.game.cards import parse_cards
>>> coup = deal_coup(parse_cards(["2S", "4D", "3H", "TC", "6S", "AH"]))
>>> coup.winner, coup.player_total, coup.banker_total
(<Winner.BANKER: 'B'>, 1, 5)
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from scoreboard.game.cards import Card, hand_total

__all__ = [
    "OUTCOMES",
    "SIDE_BETS",
    "Coup",
    "Game",
    "ImpossibleHandError",
    "Outcome",
    "ShortShoeError",
    "Winner",
    "banker_draws",
    "deal_coup",
    "event_counts",
    "outcome_index",
    "player_draws",
    "record_coup",
    "result_coup",
    "settle",
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
    """8 or 9 on the first two cards ends the coup at once.

    >>> is_natural(8), is_natural(7)
    (True, False)
    """
    return total_on_two_cards >= 8


def player_draws(player_total: int) -> bool:
    """Player draws on 0-5 and stands on 6-7 (naturals are decided before)."""
    return player_total <= 5


# Banker total -> point values of Player's third card on which Banker draws; on 7
# Banker stands whatever the card (a point value is 0-9, so range(10) is every one).
_BANKER_DRAWS_AGAINST: dict[int, frozenset[int]] = {
    0: frozenset(range(10)),  # pragma: no mutate (range(11) adds the point 10 no card has)
    1: frozenset(range(10)),  # pragma: no mutate (range(11) adds the point 10 no card has)
    2: frozenset(range(10)),  # pragma: no mutate (range(11) adds the point 10 no card has)
    3: frozenset(range(10)) - {8},  # pragma: no mutate (the point 10 again)
    4: frozenset(range(2, 8)),
    5: frozenset(range(4, 8)),
    6: frozenset({6, 7}),
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

    Build one with :func:`deal_coup`, :func:`record_coup` or :func:`result_coup`:
    they settle it, so the winner, naturals and side-bet flags agree with the
    totals and hands.  For a result-only coup the totals may be unknown
    (``None``); a flag is then set only when every total the report allows
    sets it, and the natural and pair flags are whatever the feed said.
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
    banker_six: bool = False
    """Banker wins with 6: pays 1:2 on a no-commission (Super 6) table."""
    dragon7: bool = False
    """Banker wins with a three-card 7 (EZ Baccarat)."""
    panda8: bool = False
    """Player wins with a three-card 8 (EZ Baccarat)."""

    @property
    def has_cards(self) -> bool:
        return bool(self.player)

    @property
    def natural(self) -> bool:
        """Either hand had 8 or 9 on its first two cards."""
        return self.player_natural or self.banker_natural

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


# The side bets an Outcome settles besides the winner, named as ``scoreboard odds``
# and the counters name them ("natural" is either hand's).
SIDE_BETS = ("natural", "banker_six", "dragon7", "panda8")


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the totals and the number of cards of each hand settle.

    Pairs are not here: they depend on the ranks of the first two cards, not
    on the totals.
    """

    winner: Winner
    player_natural: bool = False
    banker_natural: bool = False
    banker_six: bool = False
    dragon7: bool = False
    panda8: bool = False

    @property
    def natural(self) -> bool:
        return self.player_natural or self.banker_natural

    @property
    def events(self) -> tuple[str, ...]:
        """The winner's letter and each of ``SIDE_BETS`` this outcome wins.

        >>> settle(6, 7, 2, 3).events
        ('B', 'dragon7')
        """
        return (self.winner.value, *(name for name in SIDE_BETS if getattr(self, name)))


@functools.cache
def settle(
    player_total: int, banker_total: int, player_cards: int = 2, banker_cards: int = 2
) -> Outcome:
    """The one statement of who wins and which side bets win, for hands of 2 or 3 cards.

    A two-card hand of 8 or 9 is a natural; Banker winning with 6 is the Super 6;
    Banker winning with three cards totalling 7 is a Dragon 7; Player winning
    with three cards totalling 8 is a Panda 8.  Whether the hands follow the
    tableau is :func:`record_coup`'s business, not this one's.

    >>> settle(8, 3)
    Outcome(winner=<Winner.PLAYER: 'P'>, player_natural=True, banker_natural=False, \
banker_six=False, dragon7=False, panda8=False)
    >>> settle(5, 6, 3, 2).banker_six, settle(8, 7, 3, 3).panda8
    (True, True)
    """
    winner = winner_of(player_total, banker_total)
    return Outcome(
        winner=winner,
        player_natural=player_cards == 2 and is_natural(player_total),
        banker_natural=banker_cards == 2 and is_natural(banker_total),
        banker_six=winner is Winner.BANKER and banker_total == 6,
        dragon7=winner is Winner.BANKER and banker_total == 7 and banker_cards == 3,
        panda8=winner is Winner.PLAYER and player_total == 8 and player_cards == 3,
    )


def outcome_index(
    player_total: int, banker_total: int, player_cards: int, banker_cards: int
) -> int:
    """Where :func:`settle` of these arguments sits in :data:`OUTCOMES`.

    The simulator and the enumeration count coups by this index in their hot
    loops and read the outcomes once at the end.

    >>> OUTCOMES[outcome_index(6, 7, 2, 3)] == settle(6, 7, 2, 3)
    True
    """
    return (player_total * 10 + banker_total) * 4 + (player_cards - 2) * 2 + banker_cards - 2


OUTCOMES: tuple[Outcome, ...] = tuple(
    settle(player_total, banker_total, player_cards, banker_cards)
    for player_total in range(10)
    for banker_total in range(10)
    for player_cards in (2, 3)
    for banker_cards in (2, 3)
)


def event_counts(weights: Sequence[int]) -> dict[str, int]:
    """Fold counts (or weights) per :data:`OUTCOMES` index into counts per event.

    >>> weights = [0] * len(OUTCOMES)
    >>> weights[outcome_index(8, 3, 2, 2)] = 2
    >>> event_counts(weights)
    {'B': 0, 'P': 2, 'T': 0, 'natural': 2, 'banker_six': 0, 'dragon7': 0, 'panda8': 0}
    """
    counts = dict.fromkeys((*(winner.value for winner in Winner), *SIDE_BETS), 0)
    for outcome, weight in zip(OUTCOMES, weights, strict=True):
        if weight:
            for event in outcome.events:
                counts[event] += weight
    return counts


def _finish(player: tuple[Card, ...], banker: tuple[Card, ...]) -> Coup:
    player_total, banker_total = hand_total(player), hand_total(banker)
    outcome = settle(player_total, banker_total, len(player), len(banker))
    return Coup(
        winner=outcome.winner,
        player=player,
        banker=banker,
        player_total=player_total,
        banker_total=banker_total,
        player_natural=outcome.player_natural,
        banker_natural=outcome.banker_natural,
        player_pair=player[0].rank == player[1].rank,
        banker_pair=banker[0].rank == banker[1].rank,
        banker_six=outcome.banker_six,
        dragon7=outcome.dragon7,
        panda8=outcome.panda8,
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
    player: tuple[Card, ...] = (p1, p2)
    banker: tuple[Card, ...] = (b1, b2)
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

    >>> from scoreboard.game.cards import parse_cards
    >>> record_coup(parse_cards(["9S", "KH"]), parse_cards(["4D", "3C"])).winner
    <Winner.PLAYER: 'P'>
    >>> record_coup(parse_cards(["2S", "3H"]), parse_cards(["4D", "3C"]))
    Traceback (most recent call last):
    ...
    scoreboard.game.rules.ImpossibleHandError: Player must draw on 5 but has no third card
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

    Totals, when given, must be whole numbers 0-9, and some totals the report
    allows must agree with the winner (and with the natural, when flagged);
    otherwise :class:`ImpossibleHandError` says why.  A natural lands on the
    side or sides every allowed total gives it, so with no totals it is the
    winner's (both hands' on a tie).

    >>> coup = result_coup(Winner.BANKER, natural=True)
    >>> coup.banker_natural, coup.player_natural
    (True, False)
    >>> result_coup(Winner.BANKER, player_total=9)
    Traceback (most recent call last):
    ...
    scoreboard.game.rules.ImpossibleHandError: result B disagrees with totals Player 9 Banker ?
    """
    for name, total in (("player_total", player_total), ("banker_total", banker_total)):
        if total is not None and not (type(total) is int and 0 <= total <= 9):
            raise ImpossibleHandError(f"{name} must be a whole number 0-9, got {total!r}")
    outcome = _reported_outcome(winner, player_total, banker_total, natural)
    return Coup(
        winner=winner,
        player_total=player_total,
        banker_total=banker_total,
        player_natural=outcome.player_natural,
        banker_natural=outcome.banker_natural,
        player_pair=player_pair,
        banker_pair=banker_pair,
        banker_six=outcome.banker_six,
    )


@functools.cache
def _reported_outcome(
    winner: Winner, player_total: int | None, banker_total: int | None, natural: bool
) -> Outcome:
    """The flags every two-card settlement the report allows agrees on (a natural is
    on two cards; without one the cards are unknown, and no flag needs them)."""
    shown = {
        side: "?" if total is None else total
        for side, total in (("Player", player_total), ("Banker", banker_total))
    }
    totals = f"Player {shown['Player']} Banker {shown['Banker']}"
    allowed = [
        outcome
        for player in (range(10) if player_total is None else (player_total,))
        for banker in (range(10) if banker_total is None else (banker_total,))
        if (outcome := settle(player, banker)).winner is winner
    ]
    if not allowed:
        raise ImpossibleHandError(f"result {winner.value} disagrees with totals {totals}")
    if natural:
        allowed = [outcome for outcome in allowed if outcome.natural]
        if not allowed:
            raise ImpossibleHandError(
                f"natural flagged but no hand can have 8 or 9 with result {winner.value} "
                f"and totals {totals}"
            )
    return Outcome(
        winner=winner,
        player_natural=natural and all(outcome.player_natural for outcome in allowed),
        banker_natural=natural and all(outcome.banker_natural for outcome in allowed),
        banker_six=all(outcome.banker_six for outcome in allowed),
    )
