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

Protocol v2 events carry an :class:`~scoreboard.core.events.Origin`; how
their order decides what applies is :mod:`scoreboard.core.order`, and the
previous shoe that ended with games missing is :mod:`scoreboard.core.unfinished`.
"""

from __future__ import annotations

import enum
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from scoreboard.core import order
from scoreboard.core.event_rules import RULES, in_shoe
from scoreboard.core.events import Event, Origin, Snapshot
from scoreboard.core.limits import Limits
from scoreboard.core.records import (
    Arrived,
    Change,
    Corrected,
    Dealt,
    Effect,
    GameRecord,
    Reported,
    Voided,
    transition,
)
from scoreboard.core.roads import GameOrderError, Roads
from scoreboard.core.rules import Game
from scoreboard.core.unfinished import UnfinishedShoe, completes
from scoreboard.core.variants import VARIANTS, Variant

__all__ = ["Applied", "FeedStatus", "Limits", "TableState", "UnfinishedShoe", "apply_event"]

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
    ``stale``: ignored because its origin is not newer than what the table
    applied (a replay, a duplicate, an older controller session): never journaled.
    ``completed``: the id of the unfinished previous shoe this snapshot completed
    (the journal archives the snapshot as that shoe's truth).
    """

    changed: bool = False
    conflicts: tuple[int, ...] = ()
    overrides: tuple[int, ...] = ()
    retired: int = 0
    stale: bool = False
    completed: str | None = None

    def __bool__(self) -> bool:
        raise TypeError("an Applied is not a truth value: ask .changed or .worth_keeping")

    @property
    def worth_keeping(self) -> bool:
        """True when the journal must record the event."""
        return self.changed or self.retired > 0 or self.completed is not None


UNCHANGED = Applied()
CHANGED = Applied(changed=True)
STALE = Applied(stale=True)


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
        #: Unknown until a controller, the config or the demo says (never a made-up default).
        self.limits = limits or Limits.unknown(self.variant)
        self.rows = rows
        self.shoe_id: str | None = None
        self.shoe_number = 0
        self.roads = Roads(rows=rows)
        self.shuffling = False
        self.cut_card_out = False
        self.version = 0
        self._last_number: tuple[int, int] | None = None  # (version, last number)
        #: The highest origin applied (v2): what is not newer is stale.
        self.position: Origin | None = None
        #: The origin of the last event that changed the shoe's games (a coup, void,
        #: correct, new shoe or snapshot): what a snapshot is judged against.
        self.games_origin: Origin | None = None
        #: The origin of the limits shown: limits are retained apart from the shoe's
        #: stream, so they are ordered among themselves (see :meth:`apply`).
        self.limits_origin: Origin | None = None
        #: The previous shoe, when it ended with games the display never got.
        self.unfinished: UnfinishedShoe | None = None
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
        """The highest recorded game number (0 for an empty shoe).

        Kept per :attr:`version` (every change to the recorded games bumps it), so
        a frame asking from several panels does not scan the whole shoe each time:
        a late coup of a long shoe costs what an early one does.
        """
        known = self._last_number
        if known is not None and known[0] == self.version:
            return known[1]
        number = max((n for n, r in self._records.items() if r.recorded), default=0)
        self._last_number = (self.version, number)
        return number

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

    def follows(self, session: int) -> bool:
        """True when a controller status of ``session`` concerns the stream the table follows.

        See :func:`scoreboard.core.order.follows`.
        """
        return order.follows(self, session)

    # -- changing ------------------------------------------------------------
    def apply(self, event: Event) -> Applied:
        """Apply one event the way protocol.md says (see :func:`apply_event`)."""
        if isinstance(event, Snapshot) and completes(self.unfinished, event):
            self.unfinished = None
            return Applied(completed=event.shoe)
        origin = getattr(event, "origin", None)
        if origin is None:
            rule = RULES.get(type(event))
            applied = None if rule is None else rule(self, event)
            return UNCHANGED if applied is None else applied
        return self._apply_ordered(event, origin)

    def _apply_ordered(self, event: Event, origin: Origin) -> Applied:
        """A v2 event: stale unless newer than the position; applied ones advance it.

        An event that is not about this table's shoe (a void of another shoe, a
        coup of a finished one) or that is refused (a conflict) is not applied,
        so the position stays: the position is what the board has taken in.
        """
        if order.is_stale(self, event, origin):
            return STALE
        if not order.concerns(self, event):
            return UNCHANGED
        applied = order.ORDERED_RULES[type(event)](self, event)
        if applied is None:
            applied = UNCHANGED
        if not applied.conflicts:
            order.advance(self, event, origin)
        return applied

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
        return self._add(game, Arrived(game.coup))

    def _add(self, game: Game, change: Arrived | Dealt) -> Applied:
        """A coup through the one transition; the next game in order extends the roads."""
        before = self._records.get(game.number)
        applied = self._change(game.number, change)
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
        return in_shoe(self, shoe_id, lambda: self._merge_snapshot(games, voided))

    def _merge_snapshot(self, games: Iterable[Game], voided: Iterable[int]) -> Applied:
        """:meth:`apply_snapshot` in the snapshot's own shoe."""
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
        return applied

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

    def restore_position(
        self, position: Origin | None, *, games: Origin | None = None, limits: Origin | None = None
    ) -> None:
        """Set the origins applied so far (the journal, on replay, if it wrote them apart).

        ``games`` defaults to ``position``: a snapshot older than it is then stale.

        >>> from scoreboard.core.events import Void
        >>> table = TableState()
        >>> table.restore_position(Origin(3, 40))
        >>> apply_event(table, Void("S", 1, origin=Origin(3, 12))).stale
        True
        """
        self.position = position
        self.games_origin = position if games is None else games
        self.limits_origin = limits

    # -- inside ------------------------------------------------------------
    def _change(self, number: int, change: Change) -> Applied:
        return self._change_many({number: change})

    def _change_many(self, changes: Mapping[int, Change], forget: Iterable[int] = ()) -> Applied:
        """Run each game number's change through the one transition; bump ``version`` once.

        ``forget``: numbers a v2 snapshot does not list (its truth has no such game);
        a recorded one dropped is an override, like a void the display missed.
        """
        conflicts: list[int] = []
        overrides: list[int] = []
        retired = 0
        changed = False
        for number in sorted(forget):
            if self._records.pop(number).recorded:
                overrides.append(number)
            changed = True
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
        return Applied(changed, tuple(conflicts), tuple(sorted(overrides)), retired)

    def _rebuilt(self, applied: Applied) -> Applied:
        if applied.changed:
            self._rebuild()
        return applied

    def _rebuild(self) -> None:
        self.roads = Roads.build(self.games, rows=self.rows)


def apply_event(table: TableState, event: Event) -> Applied:
    """Apply one event to ``table`` the way protocol.md says, and say what it did.

    Events of a finished shoe (a late redelivery) and feed-level events
    (controller status, resync) change nothing.  Nothing raises: a coup that
    contradicts a recorded one comes back in ``Applied.conflicts``.  A v2 event
    not newer than ``table.position`` comes back ``stale`` (see
    :mod:`scoreboard.core.order`); a controller status with an origin moves the position only.
    """
    return table.apply(event)
