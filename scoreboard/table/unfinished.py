"""The previous shoe, when it ended while the display lacked some of its games.

A protocol v2 ``new_shoe`` says how many games the shoe it ends had.  When the
table never got some of them, the board still moves on to the new shoe (players
need it), and the table keeps an :class:`UnfinishedShoe`: what it has of the
old one, so the session can ask for the rest and the status can say the archive
is incomplete, until a snapshot of that shoe accounting for every game
completes it.

>>> from scoreboard.game.events import CoupReceived, NewShoe, Origin, Snapshot
>>> from scoreboard.game.rules import Game, Winner, result_coup
>>> from scoreboard.table.state import TableState, apply_event
>>> banker = result_coup(Winner.BANKER)
>>> table = TableState()
>>> _ = apply_event(table, CoupReceived("S1", Game(1, banker), origin=Origin(1, 1)))
>>> _ = apply_event(table, NewShoe("S2", "S1", 2, origin=Origin(1, 3)))
>>> table.unfinished.missing
(2,)
>>> whole = Snapshot("S1", (Game(1, banker), Game(2, banker)), origin=Origin(1, 2))
>>> apply_event(table, whole).completed, table.unfinished
('S1', None)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from scoreboard.game.events import NewShoe, Snapshot
from scoreboard.game.rules import Game

__all__ = ["EndingShoe", "UnfinishedShoe", "completes", "left_unfinished"]


@dataclass(frozen=True, slots=True)
class UnfinishedShoe:
    """A shoe that ended while the display lacked some of its games (a v2 ``new_shoe`` said so).

    The board moves on to the new shoe (players need it); this remembers what
    the display has of the old one, so the session can ask for it and the
    status can say the archive is incomplete until a snapshot completes it.
    ``final`` is the game count the controller announced.
    """

    shoe: str
    games: tuple[Game, ...]
    voided: tuple[int, ...]
    missing: tuple[int, ...]
    final: int


class EndingShoe(Protocol):
    """The table as :func:`left_unfinished` reads it (the shoe a new one ends)."""

    @property
    def shoe_id(self) -> str | None:
        """The shoe that is ending."""
        ...

    @property
    def games(self) -> tuple[Game, ...]:
        """Its recorded games, in game order."""
        ...

    @property
    def voided(self) -> tuple[int, ...]:
        """Its voided game numbers."""
        ...

    def record(self, number: int) -> object:
        """What the table knows of game ``number`` (None: nothing)."""
        ...


def left_unfinished(table: EndingShoe, event: NewShoe) -> UnfinishedShoe | None:
    """The current shoe, if ``event`` says it ended with games ``table`` never got."""
    final = event.previous_games
    if event.previous != table.shoe_id or table.shoe_id is None or final is None:
        return None
    missing = tuple(n for n in range(1, final + 1) if table.record(n) is None)
    if not missing:
        return None
    return UnfinishedShoe(table.shoe_id, table.games, table.voided, missing, final)


def completes(unfinished: UnfinishedShoe | None, snapshot: Snapshot) -> bool:
    """A snapshot of the unfinished previous shoe accounting for every one of its games.

    It is older than the new shoe's events by nature, so its origin is not
    asked; completeness is: a partial (or replayed early) one completes nothing.
    """
    if unfinished is None or snapshot.shoe != unfinished.shoe:
        return False
    known = {game.number for game in snapshot.games} | set(snapshot.voided)
    return known >= set(range(1, unfinished.final + 1))
