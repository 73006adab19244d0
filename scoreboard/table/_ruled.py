"""The table as its rules see it, named without the state module.

The rule modules (:mod:`._event_rules`, :mod:`._order`) are the table's own
logic, kept apart from :mod:`.state` for size.  The state module imports them,
so they cannot import it back; they name these protocols instead, which
:class:`~scoreboard.table.state.TableState` satisfies structurally (mypy checks
it where the table hands itself to a rule).  They hold only what the rules use:
a rule reads which shoe the table is on and changes it through its public
methods, never its insides.  Each method is declared as the rules call it
(the table's own defaults are its business).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from scoreboard.game.cards import Card
from scoreboard.game.events import (
    CardDealt,
    ControllerStatus,
    NewShoe,
    Origin,
    ShoeHealth,
    Snapshot,
)
from scoreboard.game.limits import Limits
from scoreboard.game.rules import Game
from scoreboard.table.applied import Applied

__all__ = ["Positioned", "RuledTable"]


class Positioned(Protocol):
    """How far the table has read an ordered (protocol v2) stream: what ordering reads and moves."""

    position: Origin | None
    games_origin: Origin | None
    limits_origin: Origin | None


class RuledTable(Protocol):
    """The shoe the table is on, and each change an event can make to it."""

    @property
    def shoe_id(self) -> str | None:
        """The current shoe (None before the first)."""
        ...

    def is_archived(self, shoe_id: str) -> bool:
        """True for a recent shoe that a newer one replaced."""
        ...

    def new_shoe(self, shoe_id: str, decks: int | None = None) -> Applied:
        """Start shoe ``shoe_id``."""
        ...

    def start_shoe(self, event: NewShoe) -> Applied:
        """A new shoe event: the shoe starts, the one it ends is kept if games of it are missing."""
        ...

    def add_game(self, game: Game) -> Applied:
        """A coup as it arrives (protocol v1)."""
        ...

    def add_dealt(self, game: Game) -> Applied:
        """A coup newer than everything applied (protocol v2)."""
        ...

    def void(self, number: int, reason: str) -> Applied:
        """Void game ``number``."""
        ...

    def correct(self, game: Game, reason: str) -> Applied:
        """Set game ``game.number`` to ``game.coup``."""
        ...

    def apply_snapshot(self, shoe_id: str, games: Iterable[Game], voided: Iterable[int]) -> Applied:
        """Merge a snapshot whose age is unknown (protocol v1)."""
        ...

    def restate(self, snapshot: Snapshot) -> Applied:
        """Take a snapshot newer than everything applied as the shoe's whole truth (protocol v2)."""
        ...

    def set_limits(
        self, limits: Limits, *, effective_at: float | None, cancel_scheduled: bool
    ) -> Applied:
        """Show ``limits``, now or from ``effective_at``."""
        ...

    def burn(self, cards: tuple[Card, ...]) -> Applied:
        """The burn."""
        ...

    def set_shuffling(self, shuffling: bool) -> Applied:
        """The dealer is shuffling."""
        ...

    def mark_cut_card(self) -> Applied:
        """The cut card is out."""
        ...

    def deal(self, event: CardDealt) -> Applied:
        """A card of the hand being dealt, face down."""
        ...

    def take_health(self, event: ShoeHealth) -> Applied:
        """The card-reading shoe's health report."""
        ...

    def take_birth(self, event: ControllerStatus) -> Applied:
        """A controller's birth: its name and the shoe's raised conditions."""
        ...
