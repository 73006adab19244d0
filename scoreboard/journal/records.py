"""The journal's lines: one JSON record per line, as appended and as rewritten.

``{"at": <unix time>, "kind": <payload kind>, "data": <payload>}``, the payload in
the wire format of :mod:`scoreboard.protocol`, or a ``history`` record.
"""

from __future__ import annotations

import time
from typing import Any

from scoreboard.core.events import CutCard, Event, LimitsReceived, NewShoe, Shuffle, Snapshot
from scoreboard.core.table import TableState
from scoreboard.protocol import canonical_json, encode

#: The record a rotated journal holds after the limits: the shoes before this one
#: (their count and recent ids), so a restart shows the right shoe number and a
#: late message of a finished shoe still cannot restart it.
HISTORY_KIND = "history"


def line(kind: str, data: dict[str, Any]) -> bytes:
    return canonical_json({"at": round(time.time(), 3), "kind": kind, "data": data}) + b"\n"


def opening(table: TableState) -> bytes:
    """The first lines of a new shoe's journal: the limits and the shoes before it."""
    history = {"shoe_number": table.shoe_number - 1, "archived": list(table.archived)}
    return line(*encode(LimitsReceived(table.limits))) + line(HISTORY_KIND, history)


def state_records(table: TableState) -> list[tuple[str, dict[str, Any]]]:
    """The records that rebuild ``table`` on replay: what a rewritten journal holds."""
    shoe = table.shoe_id
    history = {
        "shoe_number": table.shoe_number - (shoe is not None),
        "archived": list(table.archived),
    }
    events: list[Event] = [LimitsReceived(table.limits)]
    if shoe is not None:
        events.append(NewShoe(shoe))
        if holds_games(table):
            origin = getattr(table, "position", None)  # protocol v2: the newest event applied
            events.append(Snapshot(shoe, table.games, table.voided, origin=origin))
    if table.cut_card_out:
        events.append(CutCard(shoe=shoe))
    if table.shuffling:
        events.append(Shuffle(shoe=shoe))
    records = [encode(event) for event in events]
    return [records[0], (HISTORY_KIND, history), *records[1:]]


def holds_games(table: TableState) -> bool:
    return bool(table.games or table.voided)
