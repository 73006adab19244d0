"""Integrity alerts: cards that say the shoe itself is wrong.

With cards in the feed the board knows what came out of the shoe: every coup
that carries its hands (a results-only coup carries none and is skipped) and
every burn.  Three rules raise an :class:`IntegrityAlert`, each once:

- ``OVERCOUNT``: a card seen more often than the shoe's decks hold it (a ninth
  A♠ in 8 decks), once per card and shoe.  Cards without a suit are counted by
  rank against four per deck.
- ``TOO_MANY_CARDS``: more cards seen than the decks hold (52 a deck), once a shoe.
- ``UNSHUFFLED``: :data:`RUN` consecutive dealt cards in an unshuffled order,
  once a shoe.  Dealt cards follow the deal (player 1, banker 1, player 2,
  banker 2, player 3, banker 3; coup after coup in game order, a missing game
  breaking the sequence); the order is one suit with ranks rising by one
  (A 2 3 ... K) or falling by one, which is how a new deck (and a deck sorted
  for a game) comes out of its box.  The false-alarm figure: in a properly
  shuffled shoe every window of ``RUN`` consecutive cards is as likely to form
  such a run as the first ``RUN`` cards, so the expected number of runs, an
  upper bound on the chance of any, is exact: :func:`false_alarm_bound`, at
  most 1.4 in a million shoes of 8 decks (2.7 for 16 decks, 0.2 for one deck).

The counts follow the cards the board holds: each game's coup (voided games
too: a misdeal's cards left the shoe), and a corrected coup's cards replace
the ones it corrects.  Without a known deck count only the order is checked.
Everything is incremental: a coup costs a few dictionary updates and a look
at the two games either side of it, whatever the shoe's length.

>>> from scoreboard.game.cards import parse_cards
>>> shoe = ShoeIntegrity("S1", decks=1)
>>> shoe.burned(parse_cards(["AS"]))
()
>>> [alert.detail for alert in shoe.burned(parse_cards(["2H", "AS"]))]
['A♠ seen 2 times in 1 deck']
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from scoreboard.game.cards import RANKS, Card
from scoreboard.game.rules import Coup, deal_order

__all__ = [
    "MAX_DECKS",
    "RUN",
    "AlertKind",
    "IntegrityAlert",
    "ShoeIntegrity",
    "card_text",
    "false_alarm_bound",
    "valid_decks",
]

#: The most decks a shoe may hold (the protocol's ``decks`` is 1 to this).
MAX_DECKS = 16
#: Cards in an unshuffled order that raise ``UNSHUFFLED`` (see :func:`false_alarm_bound`).
RUN = 6
#: Game number of an alert raised by the burn (before the first coup).
BURN_GAME = 0
CARDS_PER_DECK = 52
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
#: Games each side of a coup that hold RUN - 1 cards (a coup has at least 4); more
#: only makes the window longer than any run that can hold the coup's cards.
_GAMES_AROUND = -(-(RUN - 1) // 4)  # pragma: no mutate (any count >= 2 finds the same runs)
_RANK_ORDER = {rank: index for index, rank in enumerate(RANKS)}
#: What an ``UNSHUFFLED`` alert marks raised (a card marks an overcount, a kind the rest).
_RUN_RAISED = "run"  # pragma: no mutate (any value no card or kind equals)


class AlertKind(enum.Enum):
    """Which rule an integrity alert broke."""

    OVERCOUNT = "overcount"  # a card seen more often than the decks hold
    TOO_MANY_CARDS = "too_many_cards"  # more cards dealt than the shoe holds
    UNSHUFFLED = "unshuffled"  # a run of cards in an unshuffled order


@dataclass(frozen=True, slots=True)
class IntegrityAlert:
    """One alert: its shoe, the game whose cards raised it (0: the burn), a line for staff."""

    shoe: str
    game: int
    kind: AlertKind
    detail: str


def valid_decks(decks: object) -> int | None:
    """``decks`` if it is a deck count a shoe can hold (1 to :data:`MAX_DECKS`), else None.

    >>> valid_decks(8), valid_decks(0), valid_decks(True), valid_decks("8"), valid_decks(1e9)
    (8, None, None, None, None)
    >>> valid_decks(1), valid_decks(16), valid_decks(17)
    (1, 16, None)
    """
    if isinstance(decks, bool) or not isinstance(decks, int):
        return None
    return decks if 1 <= decks <= MAX_DECKS else None


def card_text(card: Card) -> str:
    """A card as staff read it: ``A♠``, ``10♥``, ``K`` (no suit known).

    >>> card_text(Card("T", "H")), card_text(Card("A", "S")), card_text(Card("K"))
    ('10♥', 'A♠', 'K')
    >>> card_text(Card("2", "D")), card_text(Card("Q", "C"))
    ('2♦', 'Q♣')
    """
    rank = "10" if card.rank == "T" else card.rank
    return rank + (SUIT_SYMBOLS[card.suit] if card.suit else "")


def false_alarm_bound(decks: int, run: int = RUN) -> float:
    """An upper bound on the chance that a properly shuffled shoe raises ``UNSHUFFLED``.

    The expected number of runs (rising or falling) among the shoe's windows of
    ``run`` consecutive cards, computed exactly: a window is a run when its first
    card's rank leaves room for the run, (14 - run) / 13, and each next card is the
    one card that continues it, ``decks`` copies left among the unseen cards.

    >>> f"{false_alarm_bound(8):.2e}", f"{false_alarm_bound(8, run=5):.2e}"
    ('1.38e-06', '7.99e-05')
    """
    total = CARDS_PER_DECK * decks
    chance = Fraction(14 - run, 13)
    for seen in range(1, run):
        chance *= Fraction(decks, total - seen)
    return float(2 * (total - run + 1) * chance)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


class ShoeIntegrity:
    """One shoe's card counts and the alerts they raised, kept as the cards come and go."""

    def __init__(self, shoe: str, decks: int | None) -> None:
        self.shoe = shoe
        self.decks = decks
        self._cards: Counter[Card] = Counter()
        self._ranks: Counter[str] = Counter()
        self._total = 0
        self._burns: set[tuple[Card, ...]] = set()
        self._raised: set[object] = set()  # what raised an alert already: a card, a kind
        self._alerts: tuple[IntegrityAlert, ...] = ()

    @property
    def alerts(self) -> tuple[IntegrityAlert, ...]:
        """Every alert this shoe raised, oldest first."""
        return self._alerts

    def burned(self, cards: Sequence[Card]) -> tuple[IntegrityAlert, ...]:
        """The burn's cards leave the shoe; the same burn again (a redelivery) counts once."""
        if not cards or tuple(cards) in self._burns:
            return ()
        self._burns.add(tuple(cards))
        return self._count(cards, BURN_GAME)

    def counts_burn(self, cards: Sequence[Card]) -> bool:
        """True when a burn of ``cards`` would be news (not counted already)."""
        return bool(cards) and tuple(cards) not in self._burns

    def replaced(
        self, game: int, old: Coup | None, new: Coup | None, coup_of: Callable[[int], Coup | None]
    ) -> tuple[IntegrityAlert, ...]:
        """Game ``game``'s coup went from ``old`` to ``new``; ``coup_of`` reads the others."""
        for card in _cards(old):
            self._cards[card] -= 1
            self._ranks[card.rank] -= 1
            self._total -= 1
        added = _cards(new)
        alerts = self._count(added, game)
        if added and _RUN_RAISED not in self._raised:
            alerts += self._runs(game, coup_of)
        return alerts

    def _count(self, cards: Iterable[Card], game: int) -> tuple[IntegrityAlert, ...]:
        alerts: list[IntegrityAlert] = []
        for card in cards:
            self._cards[card] += 1
            self._ranks[card.rank] += 1
            self._total += 1
            alert = self._overcount(card, game)
            if alert is not None:
                alerts.append(alert)
        decks = self.decks
        held = None if decks is None else CARDS_PER_DECK * decks
        if held is not None and self._total > held and self._raise(AlertKind.TOO_MANY_CARDS):
            shoe = "1 deck holds" if decks == 1 else f"{decks} decks hold"
            detail = f"{self._total} cards seen; {shoe} {held}"
            alerts.append(self._alert(game, AlertKind.TOO_MANY_CARDS, detail))
        return tuple(alerts)

    def _overcount(self, card: Card, game: int) -> IntegrityAlert | None:
        decks = self.decks
        if decks is None:
            return None
        if card.suit is None:  # counted by rank: four a deck
            seen, held = self._ranks[card.rank], 4 * decks
        else:
            seen, held = self._cards[card], decks
        if seen <= held or not self._raise(card):
            return None
        return self._alert(
            game,
            AlertKind.OVERCOUNT,
            f"{card_text(card)} seen {seen} times in {_plural(decks, 'deck')}",
        )

    def _runs(self, game: int, coup_of: Callable[[int], Coup | None]) -> tuple[IntegrityAlert, ...]:
        """A run of :data:`RUN` cards in order among the cards dealt around ``game``."""
        dealt = _dealt_around(game, coup_of)
        numbers = [number for number, _ in dealt]
        # A window wider than the game's cards +- RUN - 1 finds only runs of games that
        # were checked already when they came (every game is checked for its runs).
        first = numbers.index(game)
        last = len(numbers) - 1 - numbers[::-1].index(game)  # pragma: no mutate (wider)
        low = max(0, first - RUN + 1)  # pragma: no mutate (wider)
        high = min(len(dealt), last + RUN)
        for step in (1, -1):
            length = 1
            for index in range(low + 1, high):
                length = length + 1 if _follows(dealt[index - 1][1], dealt[index][1], step) else 1
                # The run dealt[index - length + 1 : index + 1] holds a card of ``game``.
                began = index - length < last  # pragma: no mutate (wider)
                if length >= RUN and index >= first and began:
                    return self._unshuffled(dealt[index - RUN + 1 : index + 1])
        return ()

    def _unshuffled(self, run: list[tuple[int, Card]]) -> tuple[IntegrityAlert, ...]:
        self._raised.add(_RUN_RAISED)  # once a shoe: replaced() looks for no run after it
        first, last = run[0][0], run[-1][0]
        games = f"game {first}" if first == last else f"games {first}-{last}"
        cards = " ".join(card_text(card) for _, card in run)
        detail = f"{RUN} cards in a row in order: {cards} ({games})"
        return (self._alert(last, AlertKind.UNSHUFFLED, detail),)

    def _raise(self, what: object) -> bool:
        """True the first time ``what`` raises an alert in this shoe."""
        if what in self._raised:
            return False
        self._raised.add(what)
        return True

    def _alert(self, game: int, kind: AlertKind, detail: str) -> IntegrityAlert:
        alert = IntegrityAlert(self.shoe, game, kind, detail)
        self._alerts += (alert,)
        return alert


def _cards(coup: Coup | None) -> tuple[Card, ...]:
    if coup is None or not coup.has_cards:
        return ()
    return deal_order(coup.player, coup.banker)


def _dealt_around(game: int, coup_of: Callable[[int], Coup | None]) -> list[tuple[int, Card]]:
    """The dealt cards of ``game`` and of the games next to it with cards, in deal order."""
    hands = {game: _cards(coup_of(game))}
    for step in (-1, 1):
        number = game + step
        while abs(number - game) <= _GAMES_AROUND:
            cards = _cards(coup_of(number))
            if not cards:
                break
            hands[number] = cards
            number += step
    return [(number, card) for number in sorted(hands) for card in hands[number]]


def _follows(before: Card, after: Card, step: int) -> bool:
    """``after`` continues a same-suit run from ``before`` (ranks rising for 1, falling for -1)."""
    if before.suit is None or before.suit != after.suit:
        return False
    return _RANK_ORDER[after.rank] - _RANK_ORDER[before.rank] == step
