"""The table's state: the current shoe's games, its roads, the limits; and how events change it.

Every feed (the demo dealer, MQTT, the journal's replay) hands events of the one
vocabulary (:mod:`scoreboard.core.events`) to :func:`apply_event`, which
returns an :class:`Applied` value saying what happened.  Each game number
is a :class:`~scoreboard.core.records.GameRecord` changed only by
:func:`~scoreboard.core.records.transition`.  The roads are always a function
of the shoe's recorded games in game order, never of arrival order: appending
the next game in order is incremental, anything else (a late game filling a
gap, a void, a correction) rebuilds them.

>>> from scoreboard.core.events import CoupReceived, NewShoe, Void
>>> from scoreboard.core.rules import Game, Winner, result_coup
>>> table = TableState()
>>> apply_event(table, NewShoe("S1")).changed
True
>>> apply_event(table, CoupReceived("S1", Game(2, result_coup(Winner.PLAYER)))).changed
True
>>> table.missing, len(table.roads.bead_plate)
((1,), 1)
>>> apply_event(table, Void("S1", 1)).changed, table.missing
(True, ())
"""

from __future__ import annotations

import enum
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from scoreboard.core.events import (
    Burn,
    Correct,
    CoupReceived,
    CutCard,
    Event,
    LimitsReceived,
    NewShoe,
    Shuffle,
    Snapshot,
    Void,
)
from scoreboard.core.limits import Limits
from scoreboard.core.records import (
    Arrived,
    Change,
    Corrected,
    Effect,
    GameRecord,
    Reported,
    Voided,
    transition,
)
from scoreboard.core.roads import GameOrderError, Roads
from scoreboard.core.rules import Game
from scoreboard.core.variants import VARIANTS, Variant

__all__ = ["Applied", "FeedStatus", "Limits", "TableState", "apply_event"]

#: How many finished shoes the table remembers, so a late message cannot restart one.
ARCHIVED_SHOES = 64


class FeedStatus(enum.Enum):
    """What the feed mark on screen says."""

    DEMO = "demo"
    LIVE = "live"
    CONNECTING = "connecting"
    OFFLINE = "offline"
    CONTROLLER_OFFLINE = "controller offline"
    MISSING_GAMES = "missing games"


@dataclass(frozen=True, slots=True)
class Applied:
    """What applying one event did.

    ``changed``: the board changed (``version`` was bumped).  ``conflicts``: game
    numbers where the event contradicted what the table keeps (refused: the feed
    counts and logs it).  ``overrides``: game numbers a newer snapshot changed or
    voided (a correction or void the display had missed: logged).  ``retired``:
    how many coups the table newly learned are not a game's truth; such an event
    must be journaled even when nothing changed, so a restart remembers it.
    """

    changed: bool = False
    conflicts: tuple[int, ...] = ()
    overrides: tuple[int, ...] = ()
    retired: int = 0

    def __bool__(self) -> bool:
        raise TypeError("an Applied is not a truth value: ask .changed or .worth_keeping")

    @property
    def worth_keeping(self) -> bool:
        """True when the journal must record the event."""
        return self.changed or self.retired > 0


UNCHANGED = Applied()
CHANGED = Applied(changed=True)


class TableState:
    """One table's current shoe, readable by the renderer; every change bumps ``version``.

    Readers (the renderer, the status publisher) compare ``version`` to know when
    to redraw or republish.  Change it only through :func:`apply_event` (or the
    :meth:`apply` method it calls) and :meth:`set_rows`.
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
        self.roads = Roads(rows=rows)
        self.shuffling = False
        self.cut_card_out = False
        self.version = 0
        self._records: dict[int, GameRecord] = {}
        self._archived: deque[str] = deque(maxlen=ARCHIVED_SHOES)

    # -- reading -----------------------------------------------------------
    @property
    def games(self) -> tuple[Game, ...]:
        """The shoe's recorded games in game order."""
        return tuple(
            Game(number, record.coup)
            for number, record in sorted(self._records.items())
            if record.recorded and record.coup is not None
        )

    def game(self, number: int) -> Game | None:
        """Game ``number`` if it is recorded (on the board)."""
        record = self._records.get(number)
        if record is None or not record.recorded or record.coup is None:
            return None
        return Game(number, record.coup)

    def record(self, number: int) -> GameRecord | None:
        """Everything the table knows about game ``number`` (None: nothing)."""
        return self._records.get(number)

    @property
    def last_number(self) -> int:
        """The highest recorded game number (0 for an empty shoe)."""
        return max((n for n, r in self._records.items() if r.recorded), default=0)

    @property
    def last_game(self) -> Game | None:
        """The game with the highest number: the last coup on the board."""
        return self.game(self.last_number)

    @property
    def missing(self) -> tuple[int, ...]:
        """Game numbers below the highest one that have neither arrived nor been voided."""
        return tuple(n for n in range(1, self.last_number) if n not in self._records)

    @property
    def voided(self) -> tuple[int, ...]:
        """Game numbers voided in this shoe."""
        return tuple(sorted(n for n, record in self._records.items() if record.voided))

    @property
    def archived(self) -> tuple[str, ...]:
        """Recent finished shoes, oldest first."""
        return tuple(self._archived)

    def is_archived(self, shoe_id: str) -> bool:
        """True for a recent shoe that has been replaced by a newer one."""
        return shoe_id != self.shoe_id and shoe_id in self._archived

    # -- changing ------------------------------------------------------------
    def apply(self, event: Event) -> Applied:
        """Apply one event the way protocol.md says (see :func:`apply_event`)."""
        rule = _RULES.get(type(event))
        # Feed-level events (controller status, resync) change no table.
        return UNCHANGED if rule is None else rule(self, event)

    def _on_coup(self, event: CoupReceived) -> Applied:
        if self.is_archived(event.shoe):
            return UNCHANGED  # a late redelivery of a finished shoe
        started = self.new_shoe(event.shoe) if event.shoe != self.shoe_id else UNCHANGED
        return _either(started, self.add_game(event.game))

    def _on_new_shoe(self, event: NewShoe) -> Applied:
        if event.shoe == self.shoe_id or self.is_archived(event.shoe):
            return UNCHANGED
        return self.new_shoe(event.shoe)

    def _on_void(self, event: Void) -> Applied:
        return self.void(event.game) if event.shoe == self.shoe_id else UNCHANGED

    def _on_correct(self, event: Correct) -> Applied:
        return self.correct(event.game) if event.shoe == self.shoe_id else UNCHANGED

    def _on_snapshot(self, event: Snapshot) -> Applied:
        return self.apply_snapshot(event.shoe, event.games, event.voided)

    def new_shoe(self, shoe_id: str) -> Applied:
        """Start a new shoe: the roads clear, the shoe number advances."""
        if self.shoe_id is not None and self.shoe_id != shoe_id:
            self._archived.append(self.shoe_id)
        self.shoe_id = shoe_id
        self.shoe_number += 1
        self._records = {}
        self.roads = Roads(rows=self.rows)
        self.shuffling = False
        self.cut_card_out = False
        self.version += 1
        return CHANGED

    def add_game(self, game: Game) -> Applied:
        """Record a coup of the current shoe (idempotent; a contradiction is a conflict)."""
        before = self._records.get(game.number)
        applied = self._change(game.number, Arrived(game.coup))
        if not applied.changed:
            return applied
        self.shuffling = False
        if before is None:  # pragma: no mutate - a rebuild gives the same roads, only slower
            try:
                self.roads.append(game)  # the next game in order: incremental
                return applied
            except GameOrderError:
                pass  # a late game filling a gap
        self._rebuild()
        return applied

    def void(self, number: int) -> Applied:
        """Remove a game entered by mistake; a void for a game not yet arrived marks it."""
        return self._rebuilt(self._change(number, Voided()))

    def correct(self, game: Game) -> Applied:
        """Replace (or supply) a game's coup, then rebuild in game order."""
        return self._rebuilt(self._change(game.number, Corrected(game.coup)))

    def apply_snapshot(
        self, shoe_id: str, games: Iterable[Game], voided: Iterable[int] = ()
    ) -> Applied:
        """Merge a controller's snapshot of a shoe (the rule of protocol.md).

        The snapshot is *newer* when it holds at least every game number the
        display knows (recorded or voided): then it may override what it
        disagrees on, so a void or correction the display missed is caught up.
        An older one only fills numbers the display knows nothing about.  What a
        void or correct event set, and a retired coup, no snapshot changes.  A
        snapshot of a new shoe id starts that shoe; one of a finished shoe is
        ignored.
        """
        if shoe_id != self.shoe_id and self.is_archived(shoe_id):
            return UNCHANGED
        started = self.new_shoe(shoe_id) if shoe_id != self.shoe_id else UNCHANGED
        reported: dict[int, Reported] = {}
        theirs = {game.number: game.coup for game in games}
        newer = set(self._records) <= set(theirs) | set(voided)
        for number in set(voided):
            reported[number] = Reported(None, newer)
        for number, coup in theirs.items():
            reported[number] = Reported(coup, newer)
        applied = self._change_many(reported)
        if applied.changed:
            if self.games:
                self.shuffling = False
            self._rebuild()
        return _either(started, applied)

    def set_limits(self, limits: Limits) -> Applied:
        if limits == self.limits:
            return UNCHANGED
        self.limits = limits
        self.version += 1
        return CHANGED

    def set_shuffling(self, shuffling: bool) -> Applied:
        """The dealer is shuffling (shown on the board until the burn or the first coup)."""
        if self.shuffling == shuffling:
            return UNCHANGED
        self.shuffling = shuffling
        self.version += 1
        return CHANGED

    def mark_cut_card(self) -> Applied:
        """The cut card is out: the next coup is the shoe's last."""
        if self.cut_card_out:
            return UNCHANGED
        self.cut_card_out = True
        self.version += 1
        return CHANGED

    def set_rows(self, rows: int) -> bool:
        """Lay the roads out on ``rows`` rows (the theme owns this); True if it changed."""
        if rows == self.rows:
            return False
        self.rows = rows
        self._rebuild()
        self.version += 1
        return True

    def restore_history(self, shoe_number: int, archived: Iterable[str]) -> None:
        """Set the shoe count and the finished shoes (the journal, on replay after a restart).

        >>> table = TableState()
        >>> table.restore_history(4, ["S3", "S4"])
        >>> _ = table.new_shoe("S5")
        >>> table.shoe_number, table.is_archived("S4")
        (5, True)
        """
        self.shoe_number = shoe_number
        for shoe_id in archived:
            if shoe_id not in self._archived:
                self._archived.append(shoe_id)

    # -- inside ------------------------------------------------------------
    def _change(self, number: int, change: Change) -> Applied:
        return self._change_many({number: change})

    def _change_many(self, changes: Mapping[int, Change]) -> Applied:
        """Run each game number's change through the one transition; bump ``version`` once."""
        conflicts: list[int] = []
        overrides: list[int] = []
        retired = 0
        changed = False
        for number in sorted(changes):
            before = self._records.get(number)
            after, effect = transition(before, changes[number])
            if after is not before:
                self._records[number] = after
                retired += len(after.retired - before.retired) if before else len(after.retired)
            changed |= effect in (Effect.CHANGED, Effect.OVERRIDE)
            if effect is Effect.CONFLICT:
                conflicts.append(number)
            elif effect is Effect.OVERRIDE:
                overrides.append(number)
        if changed:
            self.version += 1
        return Applied(changed, tuple(conflicts), tuple(overrides), retired)

    def _rebuilt(self, applied: Applied) -> Applied:
        if applied.changed:
            self._rebuild()
        return applied

    def _rebuild(self) -> None:
        self.roads = Roads.build(self.games, rows=self.rows)


#: What each kind of event does to a table: the display's side of protocol.md.
_RULES: dict[type, Callable[[TableState, Any], Applied]] = {
    CoupReceived: TableState._on_coup,
    NewShoe: TableState._on_new_shoe,
    Shuffle: lambda table, _event: table.set_shuffling(True),
    Burn: lambda table, _event: table.set_shuffling(False),
    CutCard: lambda table, _event: table.mark_cut_card(),
    Void: TableState._on_void,
    Correct: TableState._on_correct,
    Snapshot: TableState._on_snapshot,
    LimitsReceived: lambda table, event: table.set_limits(event.limits),
}


def _either(started: Applied, then: Applied) -> Applied:
    """A new shoe (or not) and what followed in it, as one result."""
    return replace(then, changed=True) if started.changed else then


def apply_event(table: TableState, event: Event) -> Applied:
    """Apply one event to ``table`` the way protocol.md says, and say what it did.

    Events of a finished shoe (a late redelivery) and feed-level events
    (controller status, resync) change nothing.  Nothing raises: a coup that
    contradicts a recorded one comes back in ``Applied.conflicts``.
    """
    return table.apply(event)
