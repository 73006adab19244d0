"""What a display says about itself: its retained status and its last will.

protocol.md defines both sides of the contract; the display's side of the
events (what each does to the table) is :func:`scoreboard.core.table.apply_event`,
re-exported here for the protocol's readers.
"""

from __future__ import annotations

from typing import Any

from scoreboard.core.table import TableState, apply_event
from scoreboard.protocol.contract import VERSION

__all__ = ["DISPLAY_OFFLINE", "apply_event", "display_status"]

#: The display's last will, exactly as protocol.md gives it.
DISPLAY_OFFLINE = b'{"online": false}'


def display_status(
    display_id: str, table: TableState, *, rejected: int, feed: str
) -> dict[str, Any]:
    """The retained status payload a display publishes about itself.

    >>> status = display_status("T1-a", TableState(), rejected=0, feed="connected")
    >>> status["games"], status["last_game"], status["counts"]
    (0, None, {'B': 0, 'P': 0, 'T': 0})
    """
    counts = table.roads.counts
    last = table.last_game
    return {
        "v": VERSION,
        "online": True,
        "display": display_id,
        "shoe": table.shoe_id,
        "games": counts.games,
        "last_game": last.number if last is not None else None,
        "counts": {"B": counts.banker, "P": counts.player, "T": counts.tie},
        "missing": list(table.missing),
        "rejected": rejected,
        "feed": feed,
    }
