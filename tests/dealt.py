"""Shared test material: seeded dealt shoes and the raw messages a controller sends.

Module-level constants in test files import these directly; tests take them as
the ``dealt_shoe`` and ``raw_message`` fixtures of conftest.py.  Shoes are
cached: dealing one is the same work for every file that asks.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from scoreboard.game.events import CoupReceived, Event, NewShoe
from scoreboard.game.rules import Game
from scoreboard.game.shoe import Dealer, ShoeEvent
from scoreboard.journal import Journal
from scoreboard.protocol import Topics, wire
from scoreboard.table.state import TableState, apply_event


@dataclass(frozen=True, slots=True)
class DealtShoe:
    """One whole shoe as the dealer dealt it: its id, every event, its games in order."""

    shoe: str
    events: tuple[ShoeEvent, ...]

    @property
    def games(self) -> tuple[Game, ...]:
        return tuple(e.game for e in self.events if isinstance(e, CoupReceived))

    @property
    def coups(self) -> tuple[CoupReceived, ...]:
        return tuple(e for e in self.events if isinstance(e, CoupReceived))


@functools.cache
def dealt_shoe(seed: int, decks: int = 8, *, short: bool = False) -> DealtShoe:
    """The first shoe of ``Dealer(decks, seed)``; ``short``: the cut card 12-14 from the back."""
    cut_card = (12, 14) if short else (14, 16)
    events = tuple(Dealer(decks=decks, seed=seed, cut_card=cut_card).shoe())
    first = events[0]
    assert isinstance(first, NewShoe)
    return DealtShoe(first.shoe, events)


def run_of(shoe_id: str) -> str:
    """The run tag in the id of a shoe a ``shoe`` or ``demo`` process dealt (TABLE-SEED-RUN-NNN).

    With it a test deals the same shoes again by itself, ``Dealer(seed=S, run=run_of(id))``.
    """
    return shoe_id.rsplit("-", 2)[-2]


def raw_message(topics: Topics, event: Event, key: bytes | None = None) -> tuple[str, bytes]:
    """``(topic, payload)`` exactly as a controller publishes ``event`` (signed with ``key``)."""
    return wire(topics, event, key)


def dealt_games(seed: int, coups: int) -> list[Game]:
    """Simulated coups, numbered on as one shoe however long (several shoes' cards)."""
    games: list[Game] = []
    while len(games) < coups:
        for event in Dealer(seed=seed).shoe():
            if isinstance(event, CoupReceived):
                games.append(Game(len(games) + 1, event.game.coup))
        seed += 1
    return games[:coups]


def table_with(games: list[Game], shoe: str = "dealt") -> TableState:
    """A table whose current shoe holds ``games``, added in order."""
    table = TableState(table_id="T1")
    table.new_shoe(shoe)
    for game in games:
        table.add_game(game)
    return table


def journaled_table(state: Path, events: Iterable[Event]) -> TableState:
    """The table of a display restarted on ``state``, then ``events`` applied and journaled."""
    table = TableState()
    with Journal(state) as journal:
        journal.replay(table)
        for event in events:
            journal.keep(event, table, apply_event(table, event))
    return table
