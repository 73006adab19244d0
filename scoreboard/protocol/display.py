"""What a display says about itself: its retained status and its last will.

protocol.md defines both sides of the contract; the display's side of the
events (what each does to the table) is :func:`scoreboard.table.state.apply_event`,
re-exported here for the protocol's readers.  The status carries the board's
own health (:mod:`scoreboard.table.health`: drawing and the journal), read here
through the small protocols below so the protocol stays free of the layers
that produce them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from scoreboard.protocol.contract import VERSION
from scoreboard.table.state import TableState

__all__ = ["DISPLAY_OFFLINE", "display_status"]

#: The display's last will, exactly as protocol.md gives it.
DISPLAY_OFFLINE = b'{"online": false}'
#: The journal's reason is cut to this many characters in the status.
REASON_CHARS = 200


class Drawing(Protocol):
    """How drawing goes (``scoreboard.table.health.RenderHealth``)."""

    @property
    def ok(self) -> bool: ...
    @property
    def failing(self) -> Sequence[str]: ...
    @property
    def failures(self) -> int: ...
    @property
    def last_frame(self) -> float | None: ...


class Keeping(Protocol):
    """Whether the journal keeps what the board shows (``table.health.JournalHealth``)."""

    @property
    def state(self) -> str: ...
    @property
    def reason(self) -> str: ...


def display_status(
    display_id: str,
    table: TableState,
    *,
    rejected: int,
    feed: str,
    render: Drawing | None = None,
    journal: Keeping | None = None,
    ignored: Mapping[str, int] | None = None,
    limits_heard: bool = False,
) -> dict[str, Any]:
    """The retained status payload a display publishes about itself.

    Without ``render`` the board is taken as drawing fine with no frame yet; without
    ``journal``, as keeping none (``off``).  ``ignored`` counts what was received
    and left unapplied, by reason (superseded snapshots, stale events...).
    ``limits_heard``: the controller sent the limits shown (else they are the
    config's, until it does).

    >>> status = display_status("T1-a", TableState(), rejected=0, feed="connected")
    >>> status["games"], status["last_game"], status["counts"]
    (0, None, {'B': 0, 'P': 0, 'T': 0})
    >>> status["corrections"], status["alerts"], status["dealing"]
    (0, [], None)
    >>> status["shoe_health"]
    {'mark': None, 'raised': [], 'seen': {}}
    >>> status["limits"]
    {'currency': '', 'bets': {}, 'from': 'none'}
    >>> status["render"], status["journal"], status["position"], status["unfinished"]
    ({'ok': True, 'failing': [], 'failures': 0, 'last_frame': None}, \
{'state': 'off', 'reason': ''}, None, None)
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
        "render": _render(render),
        "journal": _journal(journal),
        "position": _position(table),
        "unfinished": _unfinished(table),
        "ignored": dict(ignored or {}),
        "limits": _limits(table, limits_heard),
        "corrections": len(table.amendments),
        "alerts": [
            {"kind": alert.kind.value, "game": alert.game, "detail": alert.detail}
            for alert in table.alerts
        ],
        "shoe_health": _shoe_health(table),
        "dealing": _dealing(table),
    }


def _shoe_health(table: TableState) -> dict[str, Any]:
    """The card-reading shoe's health as the board shows it: its mark, what is raised,
    how often each condition was reported."""
    watch = table.shoe_watch
    mark = watch.mark
    return {
        "mark": None if mark is None else mark.removeprefix("shoe_"),
        "raised": [{"condition": h.condition, "detail": h.detail} for h in watch.raised],
        "seen": dict(watch.seen),
    }


def _dealing(table: TableState) -> dict[str, Any] | None:
    """The hand being dealt: its game and the seats dealt (never a card)."""
    forming = table.forming
    if forming is None:
        return None
    return {"game": forming.game, "seats": [str(seat) for seat in forming.seats]}


def _limits(table: TableState, heard: bool) -> dict[str, Any]:
    """The limits shown and who said them: the controller, the config, or nobody yet.

    A journal that brought back a controller's limits (they carry its origin) counts
    as the controller's.
    """
    limits = table.limits
    if heard or table.limits_origin is not None:
        source = "controller"
    else:
        source = "config" if limits.known else "none"
    bets = {bet: list(limits.bets[bet]) for bet in limits.order if bet in limits.bets}
    return {"currency": limits.currency, "bets": bets, "from": source}


def _render(render: Drawing | None) -> dict[str, Any]:
    if render is None:
        return {"ok": True, "failing": [], "failures": 0, "last_frame": None}
    last = render.last_frame
    return {
        "ok": render.ok,
        "failing": list(render.failing),
        "failures": render.failures,
        "last_frame": None if last is None else round(last, 3),
    }


def _journal(journal: Keeping | None) -> dict[str, str]:
    if journal is None:
        return {"state": "off", "reason": ""}
    # An OS error's text may hold a file name no JSON encoder takes: keep the status sendable.
    reason = journal.reason[:REASON_CHARS].encode("utf-8", "replace").decode("utf-8")
    return {"state": str(journal.state), "reason": reason}


def _position(table: TableState) -> dict[str, int] | None:
    """The controller session and sequence number the table has applied up to."""
    position = table.position
    if position is None:
        return None
    return {"session": position.session, "seq": position.seq}


def _unfinished(table: TableState) -> dict[str, Any] | None:
    """The previous shoe, while games at its end are missing."""
    unfinished = table.unfinished
    if unfinished is None:
        return None
    return {"shoe": unfinished.shoe, "missing": list(unfinished.missing)}
