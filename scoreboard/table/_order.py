"""Protocol v2 ordering: which events with an origin are news, and what a newer one does.

Protocol v2 events carry an :class:`~scoreboard.game.events.Origin` (controller
session, sequence number).  The table keeps the highest one it applied
(``position``) and ignores what is older: a replay, a duplicate, a late copy, a
message of a controller session that has ended.  So the order of the
controller's stream decides what v1 could only guess (a coup after a void of
its game, a second correction the display missed), and events without an origin
(the demo, v1, an old journal) keep the v1 rules.

>>> from scoreboard.game.events import NewShoe, Origin, Void
>>> from scoreboard.table.state import TableState, apply_event
>>> table = TableState()
>>> _ = apply_event(table, NewShoe("S1"))
>>> apply_event(table, Void("S1", 2, origin=Origin(7, 10))).changed
True
>>> apply_event(table, Void("S1", 2, origin=Origin(7, 10))).stale   # the same payload again
True
>>> table.position
Origin(session=7, seq=10)

These are the table's own rules, kept apart from :class:`~scoreboard.table.state.TableState`
for size: they read and set its origins (a
:class:`~scoreboard.table._ruled.Positioned`) and change its games through its
public methods (a :class:`~scoreboard.table._ruled.RuledTable`).
"""

from __future__ import annotations

from collections.abc import Mapping

from scoreboard.game.events import (
    Burn,
    ControllerStatus,
    Correct,
    CoupReceived,
    CutCard,
    Event,
    LimitsReceived,
    NewShoe,
    Origin,
    Shuffle,
    Snapshot,
    Void,
)
from scoreboard.table._event_rules import RULES, Rule, in_shoe
from scoreboard.table._records import GameRecord
from scoreboard.table._ruled import Positioned, RuledTable
from scoreboard.table.applied import UNCHANGED, Applied

__all__ = ["ORDERED_RULES", "advance", "concerns", "follows", "is_stale", "shows"]

#: The events whose origin a later snapshot must not be older than.
GAME_EVENTS = (CoupReceived, NewShoe, Void, Correct, Snapshot)


def follows(table: Positioned, session: int) -> bool:
    """True when a controller status of ``session`` concerns the stream ``table`` follows.

    The session asks it of an offline status (the controller's last will):
    a will of an older session, replayed or late, says nothing about the
    controller that is dealing now.

    >>> from scoreboard.game.events import ControllerStatus, Origin
    >>> from scoreboard.table.state import TableState, apply_event
    >>> table = TableState()
    >>> _ = apply_event(table, ControllerStatus(True, origin=Origin(8, 0)))
    >>> table.follows(7), table.follows(8), table.follows(9)
    (False, True, True)
    """
    return table.position is None or session >= table.position.session


def is_stale(table: Positioned, event: Event, origin: Origin) -> bool:
    """Older than (or equal to) what ``table`` applied, by the rules of protocol v2.

    Limits are retained on their own topic and outlive a controller session,
    so a (re)connect brings them after newer payloads: they are stale only
    when not newer than the limits shown.  Otherwise a message of an older
    controller session is stale; a newer session is adopted (the controller
    restarted).  Within the session, a controller status is the session's
    birth or will (never stale), and a snapshot, retained too, is stale only
    when older than the last event that changed the games: one as of that
    event tells the same moment whole, and a cut card published since
    changes no game, so it must not make every resync answer stale.
    """
    if isinstance(event, LimitsReceived):
        return table.limits_origin is not None and origin <= table.limits_origin
    position = table.position
    if position is None:
        return False
    if origin.session != position.session:
        return origin.session < position.session  # pragma: no mutate (unequal: < is <=)
    if isinstance(event, ControllerStatus):
        return False
    if isinstance(event, Snapshot):
        return table.games_origin is not None and origin < table.games_origin
    return origin <= position


def concerns(table: RuledTable, event: Event) -> bool:
    """Whether ``event`` is about the current shoe or starts one (never a finished one)."""
    match event:
        case CoupReceived(shoe=shoe) | NewShoe(shoe=shoe) | Snapshot(shoe=shoe):
            return not table.is_archived(shoe)
        case Void(shoe=shoe) | Correct(shoe=shoe):
            return shoe == table.shoe_id
        case Shuffle(shoe=shoe) | Burn(shoe=shoe) | CutCard(shoe=shoe):
            return shoe is None or shoe == table.shoe_id
    return True


def advance(table: Positioned, event: Event, origin: Origin) -> None:
    """Take ``origin`` in.  A will moves nothing: it says nothing of the board, and its
    seq (fixed at connect, after every seq) would make the session's late payloads stale."""
    if isinstance(event, ControllerStatus) and not event.online:
        return
    table.position = origin if table.position is None else max(table.position, origin)
    if isinstance(event, LimitsReceived):
        table.limits_origin = origin
    elif isinstance(event, GAME_EVENTS):
        table.games_origin = origin


def _dealt(table: RuledTable, event: CoupReceived) -> Applied:
    """A v2 coup: newer than everything applied, so a voided game's coup is a redeal."""
    return in_shoe(table, event.shoe, lambda: table.add_dealt(event.game))


def shows(records: Mapping[int, GameRecord], snapshot: Snapshot) -> bool:
    """True when ``records`` hold exactly the snapshot's games and voids (the cheap check)."""
    if len(records) != len(snapshot.games) + len(snapshot.voided):
        return False
    for game in snapshot.games:
        record = records.get(game.number)
        if record is None or record.voided or record.coup != game.coup:
            return False
    return all(number in records and records[number].voided for number in snapshot.voided)


#: The rules of a v2 event already found newer than the position: the stream's
#: order settles what v1 guessed, so coups and snapshots follow simpler rules, and
#: a controller status (a birth or a will) moves the position and, online, says which
#: of the shoe's conditions are raised (none when it does not say).
ORDERED_RULES: dict[type, Rule] = {
    **RULES,
    CoupReceived: _dealt,
    Snapshot: lambda table, event: table.restate(event),
    ControllerStatus: lambda table, event: table.take_birth(event) if event.online else UNCHANGED,
}
