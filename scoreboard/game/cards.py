"""Playing cards in the notation of the shoe feed and the command line.

A card is a rank and an optional suit.  Suits never change an outcome, but the
display draws them and a card-reading shoe reports them, so they are kept.

>>> parse_card("10d")
Card(rank='T', suit='D')
>>> parse_card("K").points
0
"""

from __future__ import annotations

from dataclasses import dataclass

RANKS = "A23456789TJQK"
SUITS = "SHDC"
_POINTS = {rank: min(index + 1, 10) % 10 for index, rank in enumerate(RANKS)}


class UnknownCardError(ValueError):
    """A token that is not a card in the notation of rules.md."""

    def __init__(self, token: object) -> None:
        super().__init__(
            f"unknown card {token!r}: expected a rank A 2-9 T/10 J Q K "
            "with an optional suit S H D C (e.g. 9S, KH, T, 10D)"
        )
        self.token = token


@dataclass(frozen=True, slots=True)
class Card:
    """One card: rank in ``RANKS`` and suit in ``SUITS`` or ``None`` when unknown."""

    rank: str
    suit: str | None = None

    def __post_init__(self) -> None:
        if self.rank not in _POINTS or (self.suit is not None and self.suit not in SUITS):
            raise UnknownCardError(f"{self.rank}{self.suit or ''}")

    @property
    def points(self) -> int:
        """Baccarat value: ace 1, two to nine face value, tens and faces 0."""
        return _POINTS[self.rank]

    def __str__(self) -> str:
        return self.rank + (self.suit or "")


def parse_card(token: str) -> Card:
    """Parse ``9S``, ``kh``, ``T``, ``10D``, ``a``; raise :class:`UnknownCardError`."""
    if not isinstance(token, str):
        raise UnknownCardError(token)
    text = token.strip().upper()
    if text.startswith("10"):
        text = "T" + text[2:]
    if len(text) == 1 and text in _POINTS:
        return Card(text)
    if len(text) == 2 and text[0] in _POINTS and text[1] in SUITS:
        return Card(text[0], text[1])
    raise UnknownCardError(token)


def parse_cards(tokens: list[str] | tuple[str, ...]) -> tuple[Card, ...]:
    """Parse several tokens; the first bad one raises, naming itself."""
    return tuple(parse_card(token) for token in tokens)


def hand_total(cards: tuple[Card, ...] | list[Card]) -> int:
    """Last digit of the sum of the cards' points.

    >>> hand_total(parse_cards(["9S", "8H"]))
    7
    """
    return sum(card.points for card in cards) % 10
