"""What a display does with each event, and what it says about itself.

protocol.md defines both sides of the contract: ``apply_event`` is the display's
side (late redeliveries and feed-level events change nothing), and
``display_status`` and ``DISPLAY_OFFLINE`` are the retained status and last will
a display publishes.
"""

from __future__ import annotations

from typing import Any

from scoreboard.core.table import TableState
from scoreboard.protocol.contract import VERSION
from scoreboard.protocol.events import (
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

#: The display's last will, exactly as protocol.md gives it.
DISPLAY_OFFLINE = b'{"online": false}'


def apply_event(table: TableState, event: Event) -> bool:
    """Apply one validated event to the table the way protocol.md says; True if it changed.

    Raises :class:`~scoreboard.core.table.ConflictError` for a coup that
    contradicts a recorded one.  Events of a finished shoe (a late redelivery)
    and feed-level events (controller status, resync) change nothing here.
    """
    match event:
        case CoupReceived(shoe=shoe, game=game):
            if table.is_archived(shoe):
                return False
            if shoe != table.shoe_id:
                table.new_shoe(shoe)
            before = table.version
            table.add_game(game)
            return table.version != before
        case NewShoe(shoe=shoe):
            if shoe == table.shoe_id or table.is_archived(shoe):
                return False
            table.new_shoe(shoe)
            return True
        case Shuffle():
            return table.set_shuffling(True)
        case Burn():
            return table.set_shuffling(False)
        case CutCard():
            return table.mark_cut_card()
        case Void(shoe=shoe, game=number):
            return shoe == table.shoe_id and table.void(number)
        case Correct(shoe=shoe, game=game):
            return shoe == table.shoe_id and table.correct(game)
        case Snapshot(shoe=shoe, games=games, voided=voided):
            return table.apply_snapshot(shoe, games, voided)
        case LimitsReceived(limits=limits):
            return table.set_limits(limits)
    return False


def display_status(
    display_id: str, table: TableState, *, rejected: int, feed: str
) -> dict[str, Any]:
    """The retained status payload a display publishes about itself."""
    counts = {"B": 0, "P": 0, "T": 0}
    games = table.games
    for game in games:
        counts[game.coup.winner.value] += 1
    last = table.last_game
    return {
        "v": VERSION,
        "online": True,
        "display": display_id,
        "shoe": table.shoe_id,
        "games": len(games),
        "last_game": last.number if last is not None else None,
        "counts": counts,
        "missing": list(table.missing),
        "rejected": rejected,
        "feed": feed,
    }
