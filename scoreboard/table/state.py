"""The table's state: the current shoe's games, its roads, the limits; and how events change it.

Every feed (the demo dealer, MQTT, the journal's replay) hands events of the one
vocabulary (:mod:`scoreboard.game.events`) to :func:`apply_event`, which
returns an :class:`Applied` value saying what happened.  Each game number
is a :class:`~scoreboard.table._records.GameRecord` changed only by
:func:`~scoreboard.table._records.transition`.  The roads are always a function
of the shoe's recorded games in game order, never of arrival order: appending
the next game in order is incremental, anything else (a late game filling a
gap, a void, a correction) rebuilds them.

>>> from scoreboard.game.events import CoupReceived, NewShoe, Void
>>> from scoreboard.game.rules import Game, Winner, result_coup
>>> table = TableState()
>>> apply_event(table, NewShoe("S1")).changed
True
>>> apply_event(table, CoupReceived("S1", Game(2, result_coup(Winner.PLAYER)))).changed
True
>>> table.missing, len(table.roads.bead_plate)
((1,), 1)
>>> apply_event(table, Void("S1", 1)).changed, table.missing
(True, ())

Protocol v2 events carry an :class:`~scoreboard.game.events.Origin`; how
their order decides what applies is :mod:`scoreboard.table._order`, and the
previous shoe that ended with games missing is :mod:`scoreboard.table.unfinished`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping

from scoreboard.game.cards import Card
from scoreboard.game.events import (
    CardDealt,
    ControllerStatus,
    Event,
    NewShoe,
    Origin,
    ShoeHealth,
    Snapshot,
)
from scoreboard.game.limits import Limits, ScheduledLimits, limits_after
from scoreboard.game.rules import Coup, Game
from scoreboard.game.variants import VARIANTS, Variant
from scoreboard.roads.engine import GameOrderError, Roads
from scoreboard.table import _order as order
from scoreboard.table._event_rules import RULES, in_shoe
from scoreboard.table._records import (
    Arrived,
    Change,
    Corrected,
    Dealt,
    Effect,
    GameRecord,
    Reported,
    Restated,
    Voided,
    transition,
)
from scoreboard.table.amendments import Amendment, AmendmentLog, amendment, dropped
from scoreboard.table.applied import CHANGED, STALE, TRANSIENT, UNCHANGED, Applied
from scoreboard.table.integrity import IntegrityAlert, ShoeIntegrity, valid_decks
from scoreboard.table.shoe_watch import Forming, ShoeWatch, settles
from scoreboard.table.unfinished import UnfinishedShoe, completes, left_unfinished

__all__ = ["TableState", "apply_event"]

#: How many finished shoes the table remembers, so a late message cannot restart one.
ARCHIVED_SHOES = 64


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
        decks: int | None = None,
    ) -> None:
        """``decks``: a shoe's decks when its new shoe does not say (config ``table.decks``)."""
        if decks is not None and valid_decks(decks) is None:
            raise ValueError(f"decks must be 1 to 16, got {decks!r}")
        self.table_id = table_id
        self.table_name = table_name
        #: The name this display was given (config, ``--table-name``): it wins over the
        #: name a controller says, which shows only where this is empty.
        self.own_name = table_name
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
        self._last_number = 0  # the highest recorded number, kept by _change_many
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
        #: Limits announced for a later time (``effective_at``); :meth:`switch_limits` applies them.
        self.scheduled: ScheduledLimits | None = None
        #: The kiosk's wall clock as :meth:`switch_limits` last gave it (None: not yet).
        self.wall: float | None = None
        #: The decks of a shoe that does not say (None: unknown).
        self.default_decks = decks
        #: The current shoe's decks (None: unknown, so only the order of the cards is checked).
        self.decks = decks
        self._records: dict[int, GameRecord] = {}
        self._archived: deque[str] = deque(maxlen=ARCHIVED_SHOES)
        self._amended = AmendmentLog()
        self._integrity = ShoeIntegrity("", decks)
        #: The hand being dealt, face down (None: none); see :mod:`scoreboard.table.shoe_watch`.
        self.forming: Forming | None = None
        #: The card-reading shoe's health as its controller reported it.
        self.shoe_watch = ShoeWatch()

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

        Kept as the games change (a coup raises it; only a void, correction or
        snapshot that takes the highest game off the board scans the shoe), so a
        late coup of a long shoe costs what an early one does.
        """
        return self._last_number

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

    @property
    def amendments(self) -> tuple[Amendment, ...]:
        """This shoe's voids and corrections that changed the board, in the order applied."""
        return self._amended.amendments

    def corrected(self, number: int) -> bool:
        """True when game ``number``'s coup on the board was set by a correction (its mark)."""
        return self._amended.corrected(number)

    @property
    def alerts(self) -> tuple[IntegrityAlert, ...]:
        """This shoe's integrity alerts, each raised once, oldest first."""
        return self._integrity.alerts

    def is_archived(self, shoe_id: str) -> bool:
        """True for a recent shoe that has been replaced by a newer one."""
        return shoe_id != self.shoe_id and shoe_id in self._archived

    def follows(self, session: int) -> bool:
        """True when a controller status of ``session`` concerns the stream the table follows.

        See :func:`scoreboard.table._order.follows`.
        """
        return order.follows(self, session)

    # -- changing ------------------------------------------------------------
    def apply(self, event: Event) -> Applied:
        """Apply one event the way protocol.md says (see :func:`apply_event`)."""
        applied = self._apply(event)
        forming = self.forming
        if forming is not None and not applied.stale and settles(forming, event, self.shoe_id):
            self.forming = None  # its coup shows the faces
            self.version += 1
        return applied

    def _apply(self, event: Event) -> Applied:
        if isinstance(event, Snapshot) and completes(self.unfinished, event):
            self.unfinished = None
            return Applied(completed=event.shoe)
        origin = getattr(event, "origin", None)
        if origin is None:
            rule = RULES.get(type(event))
            return UNCHANGED if rule is None else rule(self, event)
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
        if not applied.conflicts:
            order.advance(self, event, origin)
        return applied

    # -- the card-reading shoe (issue 23) --
    def deal(self, event: CardDealt) -> Applied:
        """A card of the hand being dealt, face down; unchanged for a game already on the board."""
        record = self._records.get(event.game)
        if event.shoe != self.shoe_id or (record is not None and record.recorded):
            return UNCHANGED
        forming = Forming.started(event) if self.forming is None else self.forming.dealt(event)
        if forming == self.forming:
            return UNCHANGED
        self.forming = forming
        self.version += 1
        return TRANSIENT

    def take_health(self, event: ShoeHealth) -> Applied:
        """The shoe's health report: its mark, its counts (and the journal keeps it)."""
        self.shoe_watch = self.shoe_watch.took(event)
        self.version += 1
        return CHANGED

    def take_name(self, name: str) -> Applied | None:
        """The name the table's controller says (its birth): shown unless this display has its own.

        >>> table = TableState(); _ = table.take_name("Salon 8"); table.table_name
        'Salon 8'
        >>> TableState(table_name="VIP 1").take_name("Salon 8") is None
        True
        """
        shown = self.own_name or name or self.table_name
        if shown == self.table_name:
            return None
        self.table_name = shown
        self.version += 1
        return CHANGED

    def take_birth(self, event: ControllerStatus) -> Applied:
        """A controller's birth restates the shoe's raised conditions and the table's name."""
        named = self.take_name(event.name) if event.name else None
        health = self.restate_health(event.raised)
        if health is not None:
            return health
        return UNCHANGED if named is None else named

    def restate_health(self, raised: tuple[ShoeHealth, ...]) -> Applied | None:
        """The conditions a controller status says are raised now (a display joining late)."""
        watch = self.shoe_watch.restated(raised)
        if watch == self.shoe_watch:
            return None
        self.shoe_watch = watch
        self.version += 1
        return CHANGED

    # -- the end of the card-reading shoe's part --

    def new_shoe(self, shoe_id: str, decks: int | None = None) -> Applied:
        """Start a new shoe of ``decks`` (else the default): roads clear, the number advances."""
        if self.shoe_id is not None and self.shoe_id != shoe_id:
            self._archived.append(self.shoe_id)
        self.shoe_id = shoe_id
        self.shoe_number += 1
        self._records = {}
        self._last_number = 0
        self._amended = AmendmentLog()
        self.decks = valid_decks(decks) or self.default_decks
        self._integrity = ShoeIntegrity(shoe_id, self.decks)
        self.roads = Roads(rows=self.rows)
        self.shuffling = False
        self.cut_card_out = False
        self.version += 1
        return CHANGED

    def start_shoe(self, event: NewShoe) -> Applied:
        """A new shoe event: :meth:`new_shoe`, keeping the shoe it ends as ``unfinished``
        when games of it never came (:func:`~scoreboard.table.unfinished.left_unfinished`)."""
        gap = left_unfinished(self, event)
        applied = self.new_shoe(event.shoe, event.decks)
        if gap is not None:
            self.unfinished = gap
        return applied

    def add_game(self, game: Game) -> Applied:
        """Record a coup of the current shoe (idempotent; a contradiction is a conflict)."""
        return self._add(game, Arrived(game.coup))

    def add_dealt(self, game: Game) -> Applied:
        """Record a coup newer than everything applied (protocol v2: its origin says so).

        A voided game's coup is then a redeal, whatever the game held (:class:`Dealt`).
        """
        return self._add(game, Dealt(game.coup))

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

    def void(self, number: int, reason: str = "") -> Applied:
        """Remove a game entered by mistake; a void for a game not yet arrived marks it."""
        return self._rebuilt(self._change_many({number: Voided()}, reason=reason))

    def correct(self, game: Game, reason: str = "") -> Applied:
        """Replace (or supply) a game's coup, then rebuild in game order."""
        return self._rebuilt(self._change_many({game.number: Corrected(game.coup)}, reason=reason))

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

    def restate(self, snapshot: Snapshot) -> Applied:
        """A v2 snapshot as of the position or later: the controller's whole truth of its shoe.

        It replaces the shoe's games and voids, overriding even what a correct
        or void event set (it has seen them: that decides a missed second
        correction); a game it does not list is forgotten.  One identical to the
        board is recognised first, without touching a record or the roads,
        because a burst brings the same retained snapshot again and again.
        """
        if snapshot.shoe == self.shoe_id and order.shows(self._records, snapshot):
            return UNCHANGED
        return in_shoe(self, snapshot.shoe, lambda: self._restate(snapshot))

    def _restate(self, snapshot: Snapshot) -> Applied:
        """:meth:`restate` in the snapshot's own shoe."""
        changes: dict[int, Change] = {number: Restated(None) for number in snapshot.voided}
        changes.update((game.number, Restated(game.coup)) for game in snapshot.games)
        applied = self._change_many(changes, forget=set(self._records) - set(changes))
        if applied.changed:
            if snapshot.games:
                self.shuffling = False
            self._rebuild()
        return applied

    def set_limits(
        self, limits: Limits, *, effective_at: float | None = None, cancel_scheduled: bool = False
    ) -> Applied:
        """Show ``limits`` now, or from ``effective_at`` (:func:`.limits.limits_after`)."""
        shown, scheduled = limits_after(
            self.limits,
            self.scheduled,
            limits,
            effective_at=effective_at,
            cancel_scheduled=cancel_scheduled,
            wall=self.wall,
        )
        if shown == self.limits and scheduled == self.scheduled:
            return UNCHANGED
        self.limits, self.scheduled = shown, scheduled
        self.version += 1
        return CHANGED

    def switch_limits(self, now_wall: float) -> Applied:
        """At ``now_wall`` (the kiosk's wall clock), apply the scheduled limits if they are due.

        >>> from scoreboard.game.variants import VARIANTS
        >>> table, later = TableState(), Limits.default_for(VARIANTS["commission"])
        >>> table.set_limits(later, effective_at=1000.0).changed, table.limits.known
        (True, False)
        >>> table.switch_limits(999.0).changed, table.switch_limits(1000.0).changed
        (False, True)
        >>> table.limits == later, table.scheduled
        (True, None)
        """
        self.wall = now_wall
        due = self.scheduled
        if due is None or not due.at <= now_wall:
            return UNCHANGED
        self.limits, self.scheduled = due.limits, None
        self.version += 1
        return CHANGED

    def burn(self, cards: tuple[Card, ...]) -> Applied:
        """The burn: shuffling is over, and its cards count for the integrity checks."""
        news = self._integrity.counts_burn(cards)
        alerts = self._integrity.burned(cards)
        if not news and not self.shuffling:
            return UNCHANGED
        self.shuffling = False
        self.version += 1
        return Applied(changed=True, alerts=alerts)

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

        >>> from scoreboard.game.events import Void
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

    def _change_many(
        self,
        changes: Mapping[int, Change],
        forget: Iterable[int] = (),
        reason: str = "",  # pragma: no mutate (only void and correct read it; both pass one)
    ) -> Applied:
        """Run each game number's change through the one transition; bump ``version`` once.

        ``forget``: numbers a v2 snapshot does not list (its truth has no such game);
        a recorded one dropped is an override, like a void the display missed.
        What became of each game's coup is noted as an amendment and for the
        integrity checks.
        """
        conflicts: list[int] = []
        overrides: list[int] = []
        made: list[Amendment | None] = []
        moved: list[tuple[int, Coup | None, Coup | None]] = []  # a game's coup changed
        retired = 0
        changed = False
        shoe = self.shoe_id or ""
        for number in sorted(forget):
            gone = self._records.pop(number)
            if gone.recorded:
                overrides.append(number)
            made.append(dropped(shoe, number, gone))
            moved.append((number, gone.coup, None))
            changed = True
        for number in sorted(changes):
            before = self._records.get(number)
            after, effect = transition(before, changes[number])
            if after is not before:
                self._records[number] = after
                retired += len(after.retired - before.retired) if before else len(after.retired)
                old = None if before is None else before.coup
                if old != after.coup:
                    moved.append((number, old, after.coup))
            changed |= effect in (Effect.CHANGED, Effect.OVERRIDE)
            if effect is Effect.CONFLICT:
                conflicts.append(number)
            elif effect is Effect.OVERRIDE:
                overrides.append(number)
            made.append(amendment(shoe, number, changes[number], before, after, effect, reason))
        self._last_number = self._top_after(set(changes) | set(forget))
        if changed:
            self.version += 1
        amendments = tuple(m for m in made if m is not None)
        self._amended.add(amendments)
        alerts: tuple[IntegrityAlert, ...] = ()
        for number, old, new in moved:
            alerts += self._integrity.replaced(number, old, new, self._coup_at)
        return Applied(
            changed,
            tuple(conflicts),
            tuple(sorted(overrides)),
            retired,
            amendments=amendments,
            alerts=alerts,
        )

    def _top_after(self, touched: set[int]) -> int:
        """The highest recorded number once ``touched`` changed: a scan only when the top left."""
        records = self._records
        top = self._last_number
        if top in touched and not (top in records and records[top].recorded):
            return max((n for n, r in records.items() if r.recorded), default=0)
        raised = [n for n in touched if n > top and n in records and records[n].recorded]
        return max(raised, default=top)

    def _coup_at(self, number: int) -> Coup | None:
        """Game ``number``'s coup as dealt (a voided game's too), for the integrity checks."""
        record = self._records.get(number)
        return None if record is None else record.coup

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
    :mod:`scoreboard.table._order`); a controller status with an origin moves the position only.
    """
    return table.apply(event)
