"""The table's state: the current shoe's games, its roads, the limits.

Feeds turn their input into events; this module applies them.  The roads are
always a function of the shoe's games in game order, never of arrival order:
appending the next game in order is incremental, anything else (a late game
filling a gap, a void, a correction) rebuilds the roads from the games.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field

from scoreboard.core.roads import Roads
from scoreboard.core.rules import Game
from scoreboard.core.variants import VARIANTS, Variant


class FeedStatus(enum.Enum):
    """What the feed mark on screen says."""

    DEMO = "demo"
    LIVE = "live"
    CONNECTING = "connecting"
    OFFLINE = "offline"
    CONTROLLER_OFFLINE = "controller offline"
    MISSING_GAMES = "missing games"


class ConflictError(ValueError):
    """A game number already recorded with different content (only ``correct`` may change it)."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Table limits and pay table as shown on the board.

    ``bets`` maps a bet name (``player``, ``banker``, ``tie``, ``player_pair``,
    ``banker_pair``, ...) to ``(minimum, maximum)``; ``pays`` maps it to odds text.
    """

    currency: str = "USD"
    bets: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    pays: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def default_for(cls, variant: Variant) -> Limits:
        return cls(
            currency="USD",
            bets={
                "player": (25, 10000),
                "banker": (25, 10000),
                "tie": (5, 1000),
                "player_pair": (5, 500),
                "banker_pair": (5, 500),
            },
            pays=variant.pays(),
        )


class TableState:
    """Mutable holder of one table's current shoe; every change bumps ``version``.

    Readers (the renderer, the status publisher) use ``version`` to know when to
    redraw or republish.
    """

    def __init__(
        self,
        *,
        table_id: str = "T1",
        table_name: str = "",
        variant: Variant | None = None,
        limits: Limits | None = None,
        rows: int = 6,
    ) -> None:
        self.table_id = table_id
        self.table_name = table_name
        self.variant = variant or VARIANTS["commission"]
        self.limits = limits or Limits.default_for(self.variant)
        self.rows = rows
        self.shoe_id: str | None = None
        self.shoe_number = 0
        self._games: dict[int, Game] = {}
        self.roads = Roads(rows=rows)
        self.last_game: Game | None = None
        self.shuffling = False
        self.version = 0

    # -- reading -----------------------------------------------------------
    @property
    def games(self) -> tuple[Game, ...]:
        """The shoe's games in game order."""
        return tuple(self._games[number] for number in sorted(self._games))

    @property
    def last_number(self) -> int:
        return max(self._games, default=0)

    @property
    def missing(self) -> tuple[int, ...]:
        """Game numbers below the highest one that have not arrived."""
        return tuple(n for n in range(1, self.last_number) if n not in self._games)

    def game(self, number: int) -> Game | None:
        return self._games.get(number)

    # -- events ------------------------------------------------------------
    def new_shoe(self, shoe_id: str) -> None:
        """Start a new shoe: the roads clear, the shoe number advances."""
        self.shoe_id = shoe_id
        self.shoe_number += 1
        self._games.clear()
        self.roads = Roads(rows=self.rows)
        self.last_game = None
        self.shuffling = False
        self.version += 1

    def add_game(self, game: Game) -> bool:
        """Record a game; returns False for an identical redelivery.

        Raises :class:`ConflictError` when the number is taken by a different coup.
        """
        known = self._games.get(game.number)
        if known is not None:
            if known.coup == game.coup:
                return False
            raise ConflictError(
                f"game {game.number} is already recorded as {known.coup.winner.value}"
                " with different content; only a correct event may change it"
            )
        in_order = game.number > self.last_number
        self._games[game.number] = game
        if in_order:
            self.roads.append(game)
        else:
            self._rebuild()
        if self.last_game is None or game.number >= self.last_game.number:
            self.last_game = game
        self.version += 1
        return True

    def void(self, number: int) -> bool:
        """Remove a game entered by mistake; returns False if it was not recorded."""
        if self._games.pop(number, None) is None:
            return False
        self._rebuild()
        self.last_game = self._games[self.last_number] if self._games else None
        self.version += 1
        return True

    def correct(self, game: Game) -> None:
        """Replace (or supply) a game's coup, then rebuild in game order."""
        self._games[game.number] = game
        self._rebuild()
        self.last_game = self._games[self.last_number]
        self.version += 1

    def set_limits(self, limits: Limits) -> None:
        self.limits = limits
        self.version += 1

    def _rebuild(self) -> None:
        self.roads = Roads.build(self.games, rows=self.rows)
