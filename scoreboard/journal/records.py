"""The journal's lines: one JSON record per line, as appended and as rewritten.

``{"at": <unix time>, "mono": <monotonic time>, "kind": <payload kind>, "data":
<payload>, "prev": <hash of the line before>}``, the payload in the wire format
of :mod:`scoreboard.protocol`, or one of the records below.  Lines are kept as
:class:`~scoreboard.journal._links.Record` until written, when ``prev`` seals them
into the chain.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from scoreboard.game.events import (
    CutCard,
    Event,
    LimitsReceived,
    NewShoe,
    Origin,
    Shuffle,
    Snapshot,
)
from scoreboard.journal._links import Record
from scoreboard.protocol import encode
from scoreboard.table.integrity import IntegrityAlert
from scoreboard.table.state import TableState
from scoreboard.table.unfinished import UnfinishedShoe

#: The record a rotated journal holds after the limits: the shoes before this one
#: (their count and recent ids), so a restart shows the right shoe number and a
#: late message of a finished shoe still cannot restart it.
HISTORY_KIND = "history"
#: Where the table stands in the controller's stream (protocol v2): its position,
#: the origin of the last change of the games and that of the limits.  Written
#: when they moved without an event worth a line (a birth, identical limits) and
#: after the lines a new or rewritten journal opens with (which carry no origin),
#: so a restart judges replays exactly as before it.
POSITION_KIND = "position"
ORDERING_KEYS = ("position", "games", "limits")
#: The previous shoe while games at its end are missing (``null`` once completed), so
#: a restart goes on asking the controller for it.
UNFINISHED_KIND = "unfinished"

# Informational records: replay skips them, audit reads them.
#: Writing resumed after the journal could not take lines or lost some (a full or
#: read-only disk, the file deleted or replaced, a torn line cut): from when to when,
#: why, how many held lines follow, how many were dropped, and which lines were lost.
GAP_KIND = "gap"
#: An integrity alert the table raised (:class:`~scoreboard.table.integrity.IntegrityAlert`).
ALERT_KIND = "alert"
#: A file the retention removed (an archived shoe) or a shoe's journal replaced because it
#: held no games: its name, lines and last line's hash, so audit tells pruning from removal.
PRUNED_KIND = "pruned"
#: A late snapshot appended to its finished shoe's archive: that line's file, number and
#: hash (the archive's appended line is a branch off the chain that this record confirms).
COMPLETED_KIND = "completed"
INFORMATIONAL = frozenset({GAP_KIND, ALERT_KIND, PRUNED_KIND, COMPLETED_KIND})


def line(kind: str, data: Any) -> Record:
    """A record kept now, to be sealed into the chain when written."""
    return Record(round(time.time(), 3), round(time.monotonic(), 3), str(kind), data)


def opening(table: TableState, first: Record) -> list[Record]:
    """A new shoe's journal: the limits and the shoes before it, then ``first`` (the line of
    the event that started the shoe), then where the table stands (its position, an
    unfinished previous shoe): after that event, or replaying it would find it stale."""
    history = {"shoe_number": table.shoe_number - 1, "archived": list(table.archived)}
    limits = [line(*encode(event)) for event in limits_events(table)]
    opened = [*limits, line(HISTORY_KIND, history), first]
    after = [*position_records(table), *unfinished_records(table)]
    return opened + [line(*record) for record in after]


def alert_records(alerts: Iterable[IntegrityAlert]) -> list[Record]:
    """An ``alert`` record for each integrity alert an event raised."""
    return [
        line(
            ALERT_KIND,
            {
                "shoe": alert.shoe,
                "game": alert.game,
                "kind": alert.kind.value,
                "detail": alert.detail,
            },
        )
        for alert in alerts
    ]


def position_records(table: TableState) -> list[tuple[str, dict[str, Any]]]:
    """A ``position`` record for a table that follows a v2 stream; none for the demo or v1."""
    where = ordering(table)
    return [(POSITION_KIND, where)] if any(value is not None for value in where.values()) else []


def ordering(table: TableState) -> dict[str, list[int] | None]:
    """The table's place in the controller's stream, as a ``position`` record holds it.

    >>> ordering(TableState())
    {'position': None, 'games': None, 'limits': None}
    """
    origins = (table.position, table.games_origin, table.limits_origin)
    return {
        key: None if origin is None else [origin.session, origin.seq]
        for key, origin in zip(ORDERING_KEYS, origins, strict=True)  # pragma: no mutate (3 and 3)
    }


def unfinished_records(table: TableState) -> list[tuple[str, dict[str, Any]]]:
    """An ``unfinished`` record while the previous shoe lacks games; none otherwise."""
    gap = table.unfinished
    if gap is None:
        return []
    return [(UNFINISHED_KIND, {"shoe": gap.shoe, "missing": list(gap.missing), "final": gap.final})]


def restore_unfinished(table: TableState, data: dict[str, Any] | None, where: str) -> None:
    """Put an ``unfinished`` record back (``null``: completed); a malformed one raises."""
    if data is None:
        table.unfinished = None
        return
    shoe, missing, final = data["shoe"], data["missing"], data["final"]
    if (
        not isinstance(shoe, str)
        or isinstance(final, bool)
        or not isinstance(final, int)
        or not isinstance(missing, list)
        or not all(
            isinstance(n, int) and not isinstance(n, bool) and 0 < n <= final for n in missing
        )
    ):
        raise ValueError(f"{where}: unfinished record {data!r:.80} is malformed")
    # What the display had of that shoe is in its archive; completing it needs the count.
    table.unfinished = UnfinishedShoe(shoe, (), (), tuple(missing), final)


def restore_ordering(table: TableState, data: dict[str, Any], where: str) -> None:
    """Put a ``position`` record back into ``table``; a malformed one raises ValueError."""
    origins: list[Origin | None] = []
    for key in ORDERING_KEYS:
        value = data[key]
        if value is None:
            origins.append(None)
            continue
        if (
            not isinstance(value, list)
            or len(value) != 2
            or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in value)
        ):
            raise ValueError(f"{where}: position record {data!r:.80} is malformed")
        origins.append(Origin(value[0], value[1]))
    position, games, limits = origins
    table.restore_position(position, games=games, limits=limits)


def state_records(table: TableState) -> list[tuple[str, dict[str, Any]]]:
    """The records that rebuild ``table`` on replay: what a rewritten journal holds."""
    shoe = table.shoe_id
    history = {
        "shoe_number": table.shoe_number - (shoe is not None),
        "archived": list(table.archived),
    }
    events: list[Event] = limits_events(table)
    shown = len(events)
    if shoe is not None:
        events.append(NewShoe(shoe))
        if holds_games(table):
            # Protocol v2: as of the newest event applied (the position record follows).
            events.append(Snapshot(shoe, table.games, table.voided, origin=table.position))
    if table.cut_card_out:
        events.append(CutCard(shoe=shoe))
    if table.shuffling:
        events.append(Shuffle(shoe=shoe))
    records = [encode(event) for event in events]
    return [
        *records[:shown],
        (HISTORY_KIND, history),
        *records[shown:],
        *position_records(table),
        *unfinished_records(table),
    ]


def limits_events(table: TableState) -> list[Event]:
    """The limits shown, and those scheduled for a set time (so a new journal keeps both)."""
    events: list[Event] = [LimitsReceived(table.limits)]
    if table.scheduled is not None:
        scheduled = table.scheduled
        events.append(LimitsReceived(scheduled.limits, effective_at=scheduled.at))
    return events


def holds_games(table: TableState) -> bool:
    return bool(table.games or table.voided)
