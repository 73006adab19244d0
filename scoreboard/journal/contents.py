"""What a verified chain holds, shoe by shoe: games, voids, corrections, refusals, alerts.

Each file of the chain is one shoe's journal (an archive, or the live one), so
its lines replayed into a fresh table give that shoe as the display showed it;
the voids and corrections are read off what applying each event did, the
refused messages are the journaled coups the table rejected (kept so a restart
remembers them), and the alerts are the chain's ``alert`` lines.  The shoe's
health reports (``shoe_health`` events) are listed as they came, for staff.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scoreboard.game.events import ShoeHealth
from scoreboard.journal._replay import RESTORERS
from scoreboard.journal.chain import Held
from scoreboard.journal.records import ALERT_KIND, INFORMATIONAL
from scoreboard.protocol import ProtocolError, parse_dict
from scoreboard.table.applied import Applied
from scoreboard.table.state import TableState, apply_event


@dataclass(frozen=True, slots=True)
class Change:
    """A game voided or corrected (``kind``), with the reason and the line that did it."""

    game: int
    kind: str
    reason: str
    line: int
    by_snapshot: bool = False  # pragma: no mutate (the one maker always says)


@dataclass(frozen=True, slots=True)
class HealthLine:
    """A shoe health report the journal kept: a condition raised, cleared or seen."""

    condition: str
    state: str
    detail: str
    line: int


@dataclass(frozen=True, slots=True)
class ShoeHeld:
    """One file of the chain replayed: the shoe it holds and what happened to it."""

    path: Path
    shoe: str | None
    games: int
    #: The game numbers the shoe holds, dealt or voided.
    numbers: tuple[int, ...]
    voided: tuple[int, ...]
    changes: tuple[Change, ...]
    refused: tuple[tuple[int, int], ...]  # (game, line)
    alerts: tuple[dict[str, Any], ...]
    first_at: float | None
    last_at: float | None
    health: tuple[HealthLine, ...] = ()


def shoes_held(held: Iterable[Held]) -> list[ShoeHeld]:
    """The shoes of a chain's lines (:attr:`ChainReport.held`), one per file, in order."""
    files: dict[Path, list[Held]] = {}
    for each in held:
        files.setdefault(each.path, []).append(each)
    return [_replayed(path, lines) for path, lines in files.items()]


def _replayed(path: Path, lines: list[Held]) -> ShoeHeld:
    table = TableState()
    changes: list[Change] = []
    refused: list[tuple[int, int]] = []
    alerts: list[dict[str, Any]] = []
    health: list[HealthLine] = []
    times = [
        float(h.line.record["at"])
        for h in lines
        if h.line.record is not None and isinstance(h.line.record.get("at"), int | float)
    ]
    for each in lines:
        line, kind, data = each.line, each.line.kind, each.line.data
        if line.record is None:
            continue
        if kind == ALERT_KIND and isinstance(data, dict):
            alerts.append(data)
        if kind in INFORMATIONAL or (not isinstance(data, dict) and kind not in RESTORERS):
            continue
        try:
            if kind in RESTORERS:
                RESTORERS[kind](table, data, f"{path} line {line.number}")
                continue
            event = parse_dict(kind, data, f"{path} line {line.number}")
            applied = apply_event(table, event)
        except (ValueError, KeyError, TypeError, ProtocolError):
            continue  # audit reports the chain; a line replay cannot read changes nothing
        if isinstance(event, ShoeHealth):
            health.append(HealthLine(event.condition, event.state, event.detail, line.number))
        refused += [(game, line.number) for game in applied.conflicts]
        changes += _changes(applied, line.number)
    return ShoeHeld(
        path=path,
        shoe=table.shoe_id,
        games=len(table.games),
        numbers=tuple(sorted({game.number for game in table.games} | set(table.voided))),
        voided=table.voided,
        changes=tuple(changes),
        refused=tuple(refused),
        alerts=tuple(alerts),
        first_at=min(times, default=None),
        last_at=max(times, default=None),
        health=tuple(health),
    )


def _changes(applied: Applied, number: int) -> list[Change]:
    """The voids and corrections applying an event made (a newer snapshot's too)."""
    return [
        Change(a.game, a.kind.value, a.reason, number, a.by_snapshot) for a in applied.amendments
    ]
