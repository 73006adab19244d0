"""What each kind of event does to a table: the display's side of protocol.md.

:data:`RULES` holds one rule per kind of event, for an event without an origin
(the demo, v1, an old journal), applied as it arrives; protocol v2 replaces the
rules for coups and snapshots of an ordered stream
(:data:`scoreboard.table._order.ORDERED_RULES`) and keeps the others.  A rule
changes the table only through its methods (:meth:`~scoreboard.table.state.TableState.new_shoe`,
:meth:`~scoreboard.table.state.TableState.void`...) and returns None when the
event is not for this table's shoe: the table module imports this one, so
``table.apply`` turns that None into its unchanged
:class:`~scoreboard.table.state.Applied`.

>>> from scoreboard.game.events import NewShoe, Void
>>> from scoreboard.table.state import TableState
>>> table = TableState()
>>> RULES[NewShoe](table, NewShoe("S1")).changed
True
>>> RULES[Void](table, Void("S0", 1)) is None   # a void of another shoe
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

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
from scoreboard.table.unfinished import left_unfinished

if TYPE_CHECKING:
    from scoreboard.table.applied import Applied
    from scoreboard.table.state import TableState

__all__ = ["RULES", "Rule", "in_shoe"]

#: A rule: what an event does to a table (None: nothing, the event is not for it).
Rule = Callable[["TableState", Any], "Applied | None"]  # pragma: no mutate (type names only)


def in_shoe(table: TableState, shoe: str, then: Callable[[], Applied]) -> Applied:
    """``then()`` in shoe ``shoe``, starting it first if the table is on another one.

    A new shoe and what followed in it come back as one result: changed.
    """
    if shoe == table.shoe_id:
        return then()
    table.new_shoe(shoe)
    return replace(then(), changed=True)


def _on_coup(table: TableState, event: CoupReceived) -> Applied | None:
    if table.is_archived(event.shoe):
        return None  # a late redelivery of a finished shoe
    return in_shoe(table, event.shoe, lambda: table.add_game(event.game))


def _on_new_shoe(table: TableState, event: NewShoe) -> Applied | None:
    if event.shoe == table.shoe_id or table.is_archived(event.shoe):
        return None
    gap = left_unfinished(table, event)
    applied = table.new_shoe(event.shoe, event.decks)
    if gap is not None:
        table.unfinished = gap
    return applied


def _on_void(table: TableState, event: Void) -> Applied | None:
    return table.void(event.game, event.reason) if event.shoe == table.shoe_id else None


def _on_mark(table: TableState, event: Shuffle | Burn | CutCard) -> Applied | None:
    """The shoe's marks; one naming another shoe (v2) marks nothing here."""
    if event.shoe is not None and event.shoe != table.shoe_id:
        return None
    if isinstance(event, CutCard):
        return table.mark_cut_card()
    if isinstance(event, Burn):
        return table.burn(event.cards)
    return table.set_shuffling(True)


def _on_correct(table: TableState, event: Correct) -> Applied | None:
    return table.correct(event.game, event.reason) if event.shoe == table.shoe_id else None


def _on_snapshot(table: TableState, event: Snapshot) -> Applied:
    return table.apply_snapshot(event.shoe, event.games, event.voided)


def _on_limits(table: TableState, event: LimitsReceived) -> Applied:
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
