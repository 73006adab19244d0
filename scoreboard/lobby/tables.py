"""One table as the lobby knows it, and the value a tile is drawn from.

The lobby holds a :class:`~scoreboard.table.state.TableState` per table and feeds
it through the same :func:`~scoreboard.table.state.apply_event` as a display, so
a table's shoe, roads and limits are exactly what its own board shows.  What the
lobby adds is *when* it last heard of the table (a snapshot's ``ts``, or the
arrival of a live event) and whether its controller said it is offline; from
those a tile says live, shuffling, final hand, offline, stale or waiting.

Nothing here reads a clock: every time is handed in, so a test drives ages and
staleness by numbers.  The lobby hands in its monotonic clock (a stepped wall
clock must not age or refresh a table), and the wall clock beside it only to
age a snapshot's ``ts``.

>>> entry = LobbyTable(Listing("T1", name="Macau 1", pit="A"))
>>> entry.view(now=100.0, stale_seconds=300).state
<TileState.WAITING: 'waiting'>
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass, field
from datetime import datetime

from scoreboard.game.events import ControllerStatus, Event, LimitsReceived, Origin, Snapshot
from scoreboard.game.limits import Limits
from scoreboard.roads.engine import BigRoadCell
from scoreboard.roads.good_roads import GoodRoad, GoodRoadRules, good_roads
from scoreboard.table.applied import Applied
from scoreboard.table.behind import LeftBehind
from scoreboard.table.state import TableState, apply_event

__all__ = [
    "Listing",
    "LobbyTable",
    "TileState",
    "TileView",
    "age_parts",
    "bet_range",
    "parse_ts",
]

#: The bets whose limits a tile shows as "min - max": the table's main bets.
MAIN_BETS = ("banker", "player")


class TileState(enum.StrEnum):
    """What a tile says about its table, most serious first in :meth:`LobbyTable.state`."""

    WAITING = "waiting"  # listed, nothing heard yet
    LIVE = "live"
    SHUFFLING = "shuffling"
    FINAL_HAND = "final hand"  # the cut card is out: the next coup ends the shoe
    OFFLINE = "offline"  # its controller said so (a clean stop, or its last will)
    STALE = "stale"  # nothing new for longer than stale_seconds


@dataclass(frozen=True, slots=True)
class Listing:
    """A table the lobby shows: its id (the topic level), and the name and pit staff know."""

    table_id: str
    name: str = ""
    pit: str = ""

    @property
    def title(self) -> str:
        return self.name or self.table_id


@dataclass(frozen=True, slots=True)
class TileView:
    """Everything one tile shows; two equal views draw the same pixels.

    ``road`` (the whole shoe's big road) is compared through ``road_key`` (the
    shoe and the table's version), so comparing views costs the same however
    long the shoe.  ``age`` is what the tile says of a stale table, as
    :func:`age_parts` words it; None while it is not stale.
    """

    table_id: str
    title: str
    pit: str
    state: TileState
    age: tuple[int, str] | None
    currency: str
    bets: tuple[int, int] | None  # minimum and maximum of the main bets; None: unknown
    shoe: str | None  # the shoe's id, for the lobby's status (never drawn: ids are for machines)
    #: The shoe's number at this table as the lobby counts them (the board's SHOE), 0: none yet.
    shoe_number: int
    game: int
    counts: tuple[int, int, int]  # Banker, Player, Tie
    good: tuple[GoodRoad, ...]
    road_key: tuple[str | None, int]
    road: tuple[BigRoadCell, ...] = field(compare=False, repr=False)
    #: When this table was last heard of (on the axis of ``now``), None: never; not drawn.
    heard: float | None = field(default=None, compare=False)


def age_parts(seconds: float) -> tuple[int, str]:
    """How long, as a tile says it, never less than it is: ``(n, unit)``, unit s, min or h.

    Rounded up, so "no update for 4 min" never stands over data 4 min 30 s old.

    >>> age_parts(45.2), age_parts(60), age_parts(241), age_parts(7200.5)
    ((46, 's'), (1, 'min'), (5, 'min'), (3, 'h'))
    """
    if seconds < 60:
        return max(1, math.ceil(seconds)), "s"
    if seconds <= 120 * 60:
        return math.ceil(seconds / 60), "min"
    return math.ceil(seconds / 3600), "h"


def bet_range(limits: Limits) -> tuple[int, int] | None:
    """The main bets' lowest minimum and highest maximum; any bet's when none is main.

    >>> bet_range(Limits(bets={"banker": (25, 5000), "player": (25, 10000), "tie": (5, 500)}))
    (25, 10000)
    >>> bet_range(Limits()) is None
    True
    """
    spans = [limits.bets[b] for b in MAIN_BETS if b in limits.bets] or list(limits.bets.values())
    if not spans:
        return None
    return min(low for low, _ in spans), max(high for _, high in spans)


def parse_ts(text: str | None) -> float | None:
    """A payload's ``ts`` (ISO 8601 UTC with a Z) as Unix seconds, None if it is not one.

    >>> parse_ts("2026-12-01T20:00:00.500Z")
    1796155200.5
    >>> parse_ts("yesterday") is None, parse_ts(None) is None
    (True, True)
    """
    if not text or not text.endswith("Z"):
        return None
    try:
        return datetime.fromisoformat(text[:-1] + "+00:00").timestamp()
    except ValueError:
        return None


class LobbyTable:
    """One table's state in the lobby: its board's state, when it was heard of, its controller.

    ``version`` grows with every change a tile could show, so the lobby redraws
    a tile only when it changed (ages aside, which :meth:`view` works out).
    """

    def __init__(self, listing: Listing, rules: GoodRoadRules | None = None) -> None:
        self.listing = listing
        self.rules = rules or GoodRoadRules()
        self.table = TableState(table_id=listing.table_id, table_name=listing.name)
        self.heard: float | None = None
        self.controller_online: bool | None = None
        #: An older session dealing on while every payload of it is ignored: the session
        #: followed is a forgery or a controller whose clock went back (the board's rule).
        self.behind = LeftBehind()
        self.refused = 0
        self.version = 0
        self._good: tuple[int, tuple[GoodRoad, ...]] = (-1, ())
        self._view: tuple[tuple[object, ...], TileView] | None = None
        self._table_version = self.table.version

    def take(
        self, event: Event, received: float, *, wall: float | None = None, live: bool = False
    ) -> Applied | None:
        """Apply a validated event received at ``received``; None when it was a status.

        A snapshot counts as news as of its ``ts`` (when it has one and it is not
        in the future): a retained snapshot hours old says so.  Any other
        controller event is live (never retained), news as of its arrival.
        Limits and the controller's status are retained and carry no time, so
        they never make a table look fresh.

        ``received`` is on the axis ages are read on (the lobby's monotonic
        clock); ``wall`` is the wall clock at that moment (Unix seconds, default
        ``received``: one axis), read only to age a snapshot's ``ts``.  So a wall
        clock stepped back or forward later (NTP at boot) never makes a silent
        table look fresh, nor a fresh one stale.

        ``live``: the payload was published just now (not from the broker's
        retained store).  One that applied says its controller is online, over a
        will the lobby holds (a will stands after its session's payloads), as a
        table's own board reads it: a stale retained will of an earlier session
        must not show a dealing table OFFLINE.  A payload naming a finished shoe
        changes nothing and is no news of the table either.
        """
        wall = received if wall is None else wall
        self.switch_limits(wall)
        if isinstance(event, ControllerStatus):
            self._controller(event)
            return None
        before = self.table.version
        shoe = getattr(event, "shoe", None)
        finished = shoe is not None and self.table.is_archived(shoe)
        followed = self.table.position
        applied = apply_event(self.table, event)
        origin = getattr(event, "origin", None)
        if applied.stale or finished:  # no news of the table
            if origin is not None and followed is not None and followed.session != origin.session:
                self._left_behind(origin, received)
            return applied
        if origin is not None:
            self.version += int(self.behind.active)  # the followed session spoke again
            self.behind.heard(received)
        if live and origin is not None and self.controller_online is False:
            self.controller_online = True
            self.version += 1
        if isinstance(event, Snapshot):
            stamped = parse_ts(event.ts)
            self._heard(received - (0.0 if stamped is None else max(0.0, wall - stamped)))
        elif not isinstance(event, LimitsReceived):
            self._heard(received)
        if self.table.version != before:
            self.version += 1
        self._table_version = self.table.version
        return applied

    def _left_behind(self, origin: Origin, received: float) -> None:
        """A payload of another session than the one followed was ignored (table/behind.py)."""
        was = self.behind.active
        self.behind.stale(origin, received)
        self.version += int(self.behind.active != was)

    def switch_limits(self, wall: float) -> None:
        """Scheduled limits whose time came (``wall``: Unix time), as a table's board switches."""
        if self.table.switch_limits(wall).changed:
            self.version += 1

    def _heard(self, when: float) -> None:
        if self.heard is None or when > self.heard:
            self.heard = when
            self.version += 1

    def _controller(self, event: ControllerStatus) -> None:
        """A birth says online; a will says offline, unless of a session the table left."""
        if event.origin is not None:
            if not event.online and not self.table.follows(event.origin.session):
                return
            if event.online and apply_event(self.table, event).stale:
                return
        if event.online != self.controller_online:
            self.controller_online = event.online
            self.version += 1
        self.version += 0 if self.table.version == self._table_version else 1
        self._table_version = self.table.version

    def good(self) -> tuple[GoodRoad, ...]:
        """The good roads of the current shoe, worked out once per change.

        None while the table shuffles: the finished shoe's roads are no road to
        bet on (the table's own board hides its plate then too).
        """
        if self.table.shuffling:
            return ()
        version, found = self._good
        if version != self.table.version:
            found = good_roads(self.table.roads, self.rules)
            self._good = (self.table.version, found)
        return found

    def age(self, now: float) -> float | None:
        return None if self.heard is None else max(0.0, now - self.heard)

    def state(self, now: float, stale_seconds: float) -> TileState:
        if self.controller_online is False or self.behind.active:
            return TileState.OFFLINE
        age = self.age(now)
        if age is None or self.table.shoe_id is None:
            return TileState.WAITING
        if age > stale_seconds:
            return TileState.STALE
        if self.table.shuffling:
            return TileState.SHUFFLING
        if self.table.cut_card_out:
            return TileState.FINAL_HAND
        return TileState.LIVE

    def view(self, now: float, stale_seconds: float) -> TileView:
        """What the tile shows at ``now``; the same value until the table or its age changes."""
        state = self.state(now, stale_seconds)
        age = self.age(now)
        shown_age = age_parts(age) if state is TileState.STALE and age is not None else None
        key = (self.version, state, shown_age)
        if self._view is not None and self._view[0] == key:
            return self._view[1]
        view = self._make_view(state, shown_age)
        self._view = (key, view)
        return view

    def _make_view(self, state: TileState, age: tuple[int, str] | None) -> TileView:
        table = self.table
        counts = table.roads.counts
        return TileView(
            table_id=self.listing.table_id,
            title=self.listing.title,
            pit=self.listing.pit,
            state=state,
            age=age,
            currency=table.limits.currency,
            bets=bet_range(table.limits),
            shoe=table.shoe_id,
            shoe_number=table.shoe_number if table.shoe_id is not None else 0,
            game=table.last_number,
            counts=(counts.banker, counts.player, counts.tie),
            good=self.good(),
            road_key=(table.shoe_id, table.version),
            road=tuple(table.roads.big_road),
            heard=self.heard,
        )

    def next_change(self, now: float, stale_seconds: float) -> float | None:
        """When this table's tile changes by time alone (it goes stale, its age ticks)."""
        if self.heard is None or self.controller_online is False:
            return None
        age = now - self.heard
        if age <= stale_seconds:
            return self.heard + stale_seconds + 1e-3
        n, unit = age_parts(age)
        step = {"s": 1, "min": 60, "h": 3600}[unit]
        return self.heard + n * step + 1e-3
