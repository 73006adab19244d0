"""Counters and streaks of a shoe, as the board shows them beside the roads.

Percentages are of all coups, ties included (roads.md, "Counters").  Ties do not
break a streak: a streak is a logical big-road column.

>>> from scoreboard.game.rules import result_coup
>>> tally = Tally()
>>> for winner in (Winner.BANKER, Winner.TIE, Winner.BANKER, Winner.PLAYER):
...     tally.add(result_coup(winner))
>>> counts = tally.counts()
>>> counts.banker, counts.tie, counts.games, counts.percent("banker")
(2, 1, 4, 50.0)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any

from scoreboard.game.rules import Coup, Winner
from scoreboard.game.side_bets import TIERS, tiers_won
from scoreboard.roads._values import maker

__all__ = ["COUNTER_NAMES", "Counts", "Streaks", "Tally", "bet_count", "coup_tiers"]

BANKER, PLAYER, TIE = Winner.BANKER, Winner.PLAYER, Winner.TIE


@dataclass(frozen=True, slots=True)
class Counts:
    """What happened in the shoe so far; ``games`` is the number of coups."""

    banker: int = 0
    player: int = 0
    tie: int = 0
    banker_pairs: int = 0
    player_pairs: int = 0
    naturals: int = 0
    player_naturals: int = 0
    banker_naturals: int = 0
    games: int = 0
    banker_six: int = 0
    dragon7: int = 0
    panda8: int = 0
    #: The side-bet tiers of :data:`~scoreboard.game.side_bets.TIERS` won (coups with cards only).
    small_6: int = 0
    big_6: int = 0
    lucky_7_2: int = 0
    lucky_7_3: int = 0
    super_lucky_7_22: int = 0
    super_lucky_7_32: int = 0
    super_lucky_7_23: int = 0
    super_lucky_7_33: int = 0

    def percent(self, name: str) -> float:
        """``name`` (a field, e.g. ``"banker_pairs"``) as a percentage of all coups.

        >>> Counts(banker=1, player=2, games=4).percent("player")
        50.0
        >>> Counts().percent("tie")
        0.0
        """
        if name not in COUNTER_NAMES or name == "games":
            raise KeyError(f"no counter {name!r}; counters are {', '.join(COUNTER_NAMES)}")
        if not self.games:
            return 0.0
        return 100.0 * getattr(self, name) / self.games

    def to_json(self) -> dict[str, Any]:
        """``B``, ``P``, ``T``, ``total`` (all coups), the other counters, and
        ``percent`` of each, rounded to 2 decimals.

        >>> Counts(banker=1, tie=2, games=3).to_json()["percent"]["T"]
        66.67
        """
        named = {BANKER.value: self.banker, PLAYER.value: self.player, TIE.value: self.tie}
        others = {name: getattr(self, name) for name in COUNTER_NAMES[3:] if name != "games"}
        games = self.games
        percent = {
            name: round(100.0 * value / games, 2) if games else 0.0
            for name, value in (named | others).items()
        }
        return {**named, "total": games, **others, "percent": percent}


COUNTER_NAMES: tuple[str, ...] = tuple(field.name for field in fields(Counts))
# Counts declares the side-bet tiers after the twelve counters, in TIERS' order.
if COUNTER_NAMES[12:] != TIERS:  # pragma: no cover - a guard on the declarations above
    raise TypeError("Counts must declare the side-bet tiers last, in TIERS' order")
_make_counts = maker(Counts)


def coup_tiers(coup: Coup) -> tuple[str, ...]:
    """The side-bet tiers a coup won: none for a results-only coup (its card counts are
    not known, and a tier is never guessed).

    >>> from scoreboard.game.rules import result_coup
    >>> coup_tiers(result_coup(Winner.BANKER, banker_total=6, player_total=2))
    ()
    """
    if not coup.has_cards or coup.player_total is None or coup.banker_total is None:
        return ()
    return tiers_won(coup.player_total, coup.banker_total, len(coup.player), len(coup.banker))


def bet_count(counts: Counts, tiers: Iterable[str]) -> int:
    """How many coups won a side bet paying ``tiers`` (a coup wins one tier of a bet at most).

    >>> bet_count(Counts(small_6=3, big_6=1), ("small_6", "big_6"))
    4
    """
    return sum(getattr(counts, tier) for tier in tiers)


#: Where each counter stands in :class:`Counts` (and in :attr:`Tally.totals`).
_AT = {name: index for index, name in enumerate(COUNTER_NAMES)}
_BANKER, _PLAYER, _TIE, _GAMES = _AT["banker"], _AT["player"], _AT["tie"], _AT["games"]
_BANKER_SIX, _DRAGON7, _PANDA8 = _AT["banker_six"], _AT["dragon7"], _AT["panda8"]
_BANKER_PAIRS, _PLAYER_PAIRS = _AT["banker_pairs"], _AT["player_pairs"]
_NATURALS, _PLAYER_NATURALS = _AT["naturals"], _AT["player_naturals"]
_BANKER_NATURALS = _AT["banker_naturals"]


class Tally:
    """The running totals behind :class:`Counts`, in its field order; one :meth:`add` per coup.

    The totals are a list, not fields of their own, so :class:`Counts` is the one
    declaration of what the board counts.
    """

    __slots__ = ("totals",)

    def __init__(self) -> None:
        self.totals = [0] * len(COUNTER_NAMES)

    def add(self, coup: Coup) -> None:
        totals = self.totals
        winner = coup.winner
        if winner is BANKER:
            totals[_BANKER] += 1
            totals[_BANKER_SIX] += coup.banker_six
            totals[_DRAGON7] += coup.dragon7
        elif winner is PLAYER:
            totals[_PLAYER] += 1
            totals[_PANDA8] += coup.panda8
        else:
            totals[_TIE] += 1
        totals[_GAMES] += 1
        totals[_BANKER_PAIRS] += coup.banker_pair
        totals[_PLAYER_PAIRS] += coup.player_pair
        if coup.player:  # a results-only coup wins no tier (coup_tiers), without the call
            for tier in coup_tiers(coup):
                totals[_AT[tier]] += 1
        player_natural, banker_natural = coup.player_natural, coup.banker_natural
        if player_natural or banker_natural:  # Coup.natural, minus a call
            totals[_NATURALS] += 1
            totals[_PLAYER_NATURALS] += player_natural
            totals[_BANKER_NATURALS] += banker_natural

    def counts(self) -> Counts:
        """The totals as a :class:`Counts` (made after every coup the board shows, so made fast).

        >>> from scoreboard.game.rules import result_coup
        >>> tally = Tally()
        >>> tally.add(result_coup(Winner.BANKER))
        >>> tally.add(result_coup(Winner.TIE))
        >>> tally.counts() == Counts(banker=1, tie=1, games=2)
        True
        """
        return _make_counts(self.totals)


@dataclass(frozen=True, slots=True)
class Streaks:
    """The current streak and the longest of each side (ties never break a streak).

    With no Banker or Player result yet, ``current_side`` is None and the length 0.
    """

    current_side: Winner | None = None
    current_length: int = 0
    longest_banker: int = 0
    longest_player: int = 0

    def to_json(self) -> dict[str, Any]:
        """``{"current": {"side", "length"}, "longest": {"B", "P"}}``."""
        side = self.current_side.value if self.current_side is not None else None
        return {
            "current": {"side": side, "length": self.current_length},
            "longest": {BANKER.value: self.longest_banker, PLAYER.value: self.longest_player},
        }
