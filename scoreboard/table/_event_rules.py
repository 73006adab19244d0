"""What each kind of event does to a table: the display's side of protocol.md.

:data:`RULES` holds one rule per kind of event, for an event without an origin
(the demo, v1, an old journal), applied as it arrives; protocol v2 replaces the
rules for coups and snapshots of an ordered stream
(:data:`scoreboard.table._order.ORDERED_RULES`) and keeps the others.  A rule
sees the table as a :class:`~scoreboard.table._ruled.RuledTable`: it changes it
only through its methods (:meth:`~scoreboard.table.state.TableState.new_shoe`,
:meth:`~scoreboard.table.state.TableState.void`...) and returns
:data:`~scoreboard.table.applied.UNCHANGED` when the event is not for this
table's shoe.

>>> from scoreboard.game.events import NewShoe, Void
>>> from scoreboard.table.state import TableState
>>> table = TableState()
>>> RULES[NewShoe](table, NewShoe("S1")).changed
True
>>> RULES[Void](table, Void("S0", 1)) is UNCHANGED   # a void of another shoe
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from scoreboard.game.events import (
    Burn,
    CardDealt,
    Correct,
    CoupReceived,
    CutCard,
    LimitsReceived,
    NewShoe,
    ShoeHealth,
    Shuffle,
    Snapshot,
    Void,
)
from scoreboard.table._ruled import RuledTable
from scoreboard.table.applied import UNCHANGED, Applied

__all__ = ["RULES", "Rule", "in_shoe"]

#: A rule: what an event does to a table.
Rule = Callable[[RuledTable, Any], Applied]


def in_shoe(table: RuledTable, shoe: str, then: Callable[[], Applied]) -> Applied:
    """``then()`` in shoe ``shoe``, starting it first if the table is on another one.

    A new shoe and what followed in it come back as one result: changed.
    """
    if shoe == table.shoe_id:
        return then()
    table.new_shoe(shoe)
    return replace(then(), changed=True)


def _on_coup(table: RuledTable, event: CoupReceived) -> Applied:
    if table.is_archived(event.shoe):
        return UNCHANGED  # a late redelivery of a finished shoe
    return in_shoe(table, event.shoe, lambda: table.add_game(event.game))


def _on_new_shoe(table: RuledTable, event: NewShoe) -> Applied:
    if event.shoe == table.shoe_id or table.is_archived(event.shoe):
        return UNCHANGED
    return table.start_shoe(event)


def _on_void(table: RuledTable, event: Void) -> Applied:
    return table.void(event.game, event.reason) if event.shoe == table.shoe_id else UNCHANGED


def _on_mark(table: RuledTable, event: Shuffle | Burn | CutCard) -> Applied:
    """The shoe's marks; one naming another shoe (v2) marks nothing here."""
    if event.shoe is not None and event.shoe != table.shoe_id:
        return UNCHANGED
    if isinstance(event, CutCard):
        return table.mark_cut_card()
    if isinstance(event, Burn):
        return table.burn(event.cards)
    return table.set_shuffling(True)


def _on_correct(table: RuledTable, event: Correct) -> Applied:
    return table.correct(event.game, event.reason) if event.shoe == table.shoe_id else UNCHANGED


def _on_snapshot(table: RuledTable, event: Snapshot) -> Applied:
    return table.apply_snapshot(event.shoe, event.games, event.voided)


def _on_limits(table: RuledTable, event: LimitsReceived) -> Applied:
    return table.set_limits(
        event.limits, effective_at=event.effective_at, cancel_scheduled=event.cancel_scheduled
    )


#: What each kind of event does to a table; feed-level events (controller status,
#: resync) have no rule: they change no table.
RULES: dict[type, Rule] = {
    CoupReceived: _on_coup,
    NewShoe: _on_new_shoe,
    Shuffle: _on_mark,
    Burn: _on_mark,
    CutCard: _on_mark,
    Void: _on_void,
    Correct: _on_correct,
    Snapshot: _on_snapshot,
    LimitsReceived: _on_limits,
    # The card-reading shoe's own events (issue 23): the hand face down, the shoe's health.
    CardDealt: lambda table, event: table.deal(event),
    ShoeHealth: lambda table, event: table.take_health(event),
}
