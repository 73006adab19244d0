"""The table's state: the current shoe's games, its roads, the limits.

Feeds turn their input into events; this module applies them.  The roads are
always a function of the shoe's games in game order, never of arrival order:
appending the next game in order is incremental, anything else (a late game
filling a gap, a void, a correction) rebuilds the roads from the games.
"""

from __future__ import annotations

import enum
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from scoreboard.core.roads import GameOrderError, Roads
from scoreboard.core.rules import Coup, Game
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
        self.shuffling = False
        self.cut_card_out = False
        self.version = 0
        # Voided game numbers -> the coup that was voided (None if it never arrived),
        # so a QoS 1 redelivery of a voided coup does not bring it back.
        self._voided: dict[int, Coup | None] = {}
        # Every coup a game number held before a void or a correction replaced it: a
        # late copy of one (a QoS 1 redelivery, a stale retained snapshot) is old news,
        # never a redeal.
        self._retired: dict[int, set[Coup]] = {}
        # Game numbers whose state came from a void or correct event: a snapshot,
        # possibly older than that event, never undoes it.
        self._amended: set[int] = set()
        # Recent shoes, so a late redelivery from a finished shoe cannot restart it.
        self._archived: deque[str] = deque(maxlen=64)
        #: Game numbers where the last snapshot disagreed with a recorded game and the
        #: display kept its own (a conflict: the feed logs and counts it).
        self.snapshot_conflicts: tuple[int, ...] = ()
        #: Game numbers the last snapshot changed or voided (a correction or void the
        #: display had missed: the feed logs it).
        self.snapshot_overrides: tuple[int, ...] = ()

    # -- reading -----------------------------------------------------------
    @property
    def games(self) -> tuple[Game, ...]:
        """The shoe's games in game order."""
        return tuple(self._games[number] for number in sorted(self._games))

    @property
    def last_game(self) -> Game | None:
        """The game with the highest number: the last coup on the board."""
        return self._games.get(self.last_number)

    @property
    def last_number(self) -> int:
        return max(self._games, default=0)

    @property
    def missing(self) -> tuple[int, ...]:
        """Game numbers below the highest one that have neither arrived nor been voided."""
        return tuple(
            n for n in range(1, self.last_number) if n not in self._games and n not in self._voided
        )

    @property
    def voided(self) -> tuple[int, ...]:
        """Game numbers voided in this shoe."""
        return tuple(sorted(self._voided))

    @property
    def archived(self) -> tuple[str, ...]:
        """Recent finished shoes, oldest first."""
        return tuple(self._archived)

    def restore_history(self, shoe_number: int, archived: Iterable[str]) -> None:
        """Set the shoe count and the finished shoes (the journal, on replay after a restart).

        >>> table = TableState()
        >>> table.restore_history(4, ["S3", "S4"])
        >>> table.new_shoe("S5")
        >>> table.shoe_number, table.is_archived("S4")
        (5, True)
        """
        self.shoe_number = shoe_number
        for shoe_id in archived:
            if shoe_id not in self._archived:
                self._archived.append(shoe_id)

    def is_archived(self, shoe_id: str) -> bool:
        """True for a recent shoe that has been replaced by a newer one."""
        return shoe_id != self.shoe_id and shoe_id in self._archived

    def game(self, number: int) -> Game | None:
        return self._games.get(number)

    # -- events ------------------------------------------------------------
    def new_shoe(self, shoe_id: str) -> None:
        """Start a new shoe: the roads clear, the shoe number advances."""
        if self.shoe_id is not None and self.shoe_id != shoe_id:
            self._archived.append(self.shoe_id)
        self.shoe_id = shoe_id
        self.shoe_number += 1
        self._games.clear()
        self._voided.clear()
        self._amended.clear()
        self._retired.clear()
        self.roads = Roads(rows=self.rows)
        self.shuffling = False
        self.cut_card_out = False
        self.version += 1

    def add_game(self, game: Game) -> bool:
        """Record a game; returns False for an identical redelivery.

        Raises :class:`ConflictError` when the number is taken by a different coup.
        A game number that was voided accepts only a coup it never held (a
        redeal); the voided coup, or one a correction replaced, arriving again is
        a late copy and is ignored, as is the original coup of a game a correct
        event set before the original arrived.
        """
        known = self._games.get(game.number)
        if known is not None:
            if known.coup == game.coup:
                return False
            # Only a correct event changes a recorded game, so this coup is not the
            # game's truth: remember it, so no stale snapshot brings it back later.
            self._retire(game.number, game.coup)
            if game.number in self._amended:
                return False  # the coup a correction replaced, arriving late
            raise ConflictError(
                f"game {game.number} is already recorded as {known.coup.winner.value}"
                " with different content; only a correct event may change it"
            )
        if self._is_retired(game):
            return False
        if game.number in self._voided:
            if self._voided[game.number] is None:
                self._retire(game.number, game.coup)  # the voided game, seen at last
                return False
            del self._voided[game.number]
            self._amended.discard(game.number)
        self._games[game.number] = game
        try:
            self.roads.append(game)  # the next game in order: incremental
        except GameOrderError:
            self._rebuild()  # a late game filling a gap
        self.shuffling = False
        self.version += 1
        return True

    def void(self, number: int) -> bool:
        """Remove a game entered by mistake; returns False for a repeated void.

        A void for a game that has not arrived yet marks it voided, so it is not
        reported missing and its late arrival is ignored.  A game a snapshot
        already voided is marked as voided by the event, which no older snapshot
        can undo (True, though the roads stay the same).
        """
        removed = self._games.pop(number, None)
        if removed is None:
            if number in self._voided and number in self._amended:
                return False
            self._amended.add(number)
            self._voided.setdefault(number, None)
            self.version += 1
            return True
        self._amended.add(number)
        self._voided[number] = removed.coup
        self._retire(number, removed.coup)
        self._rebuild()
        self.version += 1
        return True

    def correct(self, game: Game) -> bool:
        """Replace (or supply) a game's coup, then rebuild in game order.

        Returns False when a correction already gave the game exactly that coup
        (a coup a snapshot brought is marked as corrected, which no older
        snapshot can undo).
        """
        known = self._games.get(game.number)
        if known is not None and known.coup == game.coup and game.number in self._amended:
            return False
        self._amended.add(game.number)
        self._voided.pop(game.number, None)
        if known is not None:
            self._retire(game.number, known.coup)
        self._retired.get(game.number, set()).discard(game.coup)
        self._games[game.number] = game
        self._rebuild()
        self.version += 1
        return True

    def set_limits(self, limits: Limits) -> bool:
        if limits == self.limits:
            return False
        self.limits = limits
        self.version += 1
        return True

    def set_shuffling(self, shuffling: bool) -> bool:
        """The dealer is shuffling (shown on the board until the burn or the first coup)."""
        if self.shuffling == shuffling:
            return False
        self.shuffling = shuffling
        self.version += 1
        return True

    def mark_cut_card(self) -> bool:
        """The cut card is out: the next coup is the shoe's last."""
        if self.cut_card_out:
            return False
        self.cut_card_out = True
        self.version += 1
        return True

    def apply_snapshot(
        self, shoe_id: str, games: Iterable[Game], voided: Iterable[int] = ()
    ) -> bool:
        """Merge a controller's snapshot of a shoe; returns True if anything changed.

        The rule of protocol.md: a snapshot replaces this shoe's view when it
        holds at least every game the display has (recorded or voided), so a
        void or correction the display missed is caught up (listed in
        ``snapshot_overrides``).  A snapshot that lacks some of them is older
        than what the display already saw, so it only fills numbers the display
        knows nothing about.  Whatever a void or correct event set, and a voided
        coup, no snapshot brings back or changes (it may predate the event):
        only a redeal (a different coup for a voided game) replaces a void.
        A snapshot disagreeing with a game the display keeps is listed in
        ``snapshot_conflicts`` for the feed to log and count.  A snapshot of a
        new shoe id starts that shoe; one of a finished (archived) shoe is ignored.
        """
        games = {game.number: game for game in games}
        voided = set(voided)
        self.snapshot_conflicts = ()
        self.snapshot_overrides = ()
        started = shoe_id != self.shoe_id
        if started:
            if self.is_archived(shoe_id):
                return False
            self.new_shoe(shoe_id)
        known = set(self._games) | set(self._voided)
        newer = known <= set(games) | voided
        new_games = dict(self._games)
        new_voided = dict(self._voided)
        conflicts: list[int] = []
        overrides: list[int] = []
        for number in sorted(set(games) | voided):
            theirs = games.get(number)
            if number not in known:
                if theirs is not None:
                    new_games[number] = theirs
                else:
                    new_voided[number] = None
            elif number in self._voided:
                gone = self._voided[number]
                if theirs is None:
                    continue
                if gone is not None and not self._is_retired(theirs):
                    del new_voided[number]  # a redeal
                    new_games[number] = theirs
                else:
                    self._retire(number, theirs.coup)
            elif theirs == self._games[number]:
                continue
            elif (
                newer
                and number not in self._amended
                and not (theirs is not None and self._is_retired(theirs))
            ):
                overrides.append(number)
                self._retire(number, self._games[number].coup)
                if theirs is None:
                    new_voided[number] = new_games.pop(number).coup
                else:
                    new_games[number] = theirs
            else:
                conflicts.append(number)
                if theirs is not None:
                    self._retire(number, theirs.coup)
        self.snapshot_conflicts = tuple(conflicts)
        self.snapshot_overrides = tuple(overrides)
        if new_games == self._games and new_voided == self._voided:
            return started
        for number in set(new_games) ^ set(self._games) | set(overrides):
            self._amended.discard(number)
        self._games = new_games
        self._voided = new_voided
        self._rebuild()
        if self._games:
            self.shuffling = False
        self.version += 1
        return True

    @property
    def retired_count(self) -> int:
        """How many replaced or rejected coups the table remembers.

        It grows when an event teaches the table that a coup is not a game's
        truth, even when nothing on screen changes (or the event is rejected as a
        conflict): the feed journals such events too, so a restart remembers it.
        """
        return sum(len(coups) for coups in self._retired.values())

    def _retire(self, number: int, coup: Coup) -> None:
        self._retired.setdefault(number, set()).add(coup)

    def _is_retired(self, game: Game) -> bool:
        """A coup this game number held before a void or correction replaced it."""
        known = self._games.get(game.number)
        return game.coup in self._retired.get(game.number, ()) and (
            known is None or known.coup != game.coup
        )

    def _rebuild(self) -> None:
        self.roads = Roads.build(self.games, rows=self.rows)
