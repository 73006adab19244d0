"""Protocol v2 ordering in the pure core: what a repeated or old message costs (issue 9).

A burst brings the same retained snapshot again and again, and replays or late
copies bring events older than the table's position.  This times
``apply_event`` (no parsing, no journal) on a table holding one 80-game shoe:

- a v2 snapshot identical to the board, as of the table's position (the fast
  path: recognised by ``order.shows`` without touching a record or the roads);
- a stale v2 coup (an origin older than the position: ignored unread);
- a stale v2 snapshot (older than the last event that changed the games);
- a v1 snapshot (origin ``None``) identical to the board: the v1 merge rule,
  which compares every game through the record transitions.

Each figure is the best of ``--repeat`` timeit runs of ``--number`` applies,
per apply, with the process pinned to one core.  Every apply is checked to
leave the board as it was (a benchmark may check correctness).

Run: ``.venv/bin/python benchmarks/bench_ordering.py [--number N] [--repeat R]``
"""

from __future__ import annotations

import argparse
import os
import sys
import timeit
from collections.abc import Callable

from one_core import pin_to_one_core

from scoreboard.game.events import CoupReceived, Event, NewShoe, Origin, Snapshot
from scoreboard.game.rules import Game
from scoreboard.game.shoe import Dealer
from scoreboard.table.applied import Applied
from scoreboard.table.state import TableState, apply_event

GAMES = 80
SESSION = 1_764_547_200_000  # a controller session (milliseconds, as the controller makes them)


def eighty_games(seed: int = 2026) -> tuple[str, tuple[Game, ...]]:
    """The first 80 games of the first dealt shoe that has that many."""
    dealer = Dealer(seed=seed)
    while True:
        events = list(dealer.shoe())
        first = events[0]
        assert isinstance(first, NewShoe)
        games = tuple(e.game for e in events if isinstance(e, CoupReceived))
        if len(games) >= GAMES:
            return first.shoe, games[:GAMES]


def v2_table(shoe: str, games: tuple[Game, ...]) -> TableState:
    """A table that took the shoe in as a v2 controller sends it: new_shoe seq 1, coups 2..81."""
    table = TableState()
    apply_event(table, NewShoe(shoe, origin=Origin(SESSION, 1)))
    for seq, game in enumerate(games, start=2):
        assert apply_event(table, CoupReceived(shoe, game, origin=Origin(SESSION, seq))).changed
    return table


def v1_table(shoe: str, games: tuple[Game, ...]) -> TableState:
    table = TableState()
    apply_event(table, NewShoe(shoe))
    for game in games:
        assert apply_event(table, CoupReceived(shoe, game)).changed
    return table


def per_apply(table: TableState, event: Event, number: int, repeat: int) -> float:
    """Best of ``repeat`` runs of ``number`` applies, in µs per apply; checks nothing moved."""
    version, board = table.version, table.games
    timer = timeit.Timer(lambda: apply_event(table, event))
    best = min(timer.repeat(repeat=repeat, number=number)) / number
    assert table.version == version and table.games == board, "an apply changed the board"
    return best * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--number", type=int, default=2000, help="applies per timeit run")
    parser.add_argument("--repeat", type=int, default=7, help="timeit runs (the best counts)")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, {pin_to_one_core()}")

    shoe, games = eighty_games()
    last = Origin(SESSION, len(games) + 1)
    v2 = v2_table(shoe, games)
    snapshot = Snapshot(shoe, games, origin=last)
    assert not apply_event(v2, snapshot).changed and v2.position == last
    v1 = v1_table(shoe, games)
    v1_snapshot = Snapshot(shoe, games)
    assert not apply_event(v1, v1_snapshot).changed

    stale_coup = CoupReceived(shoe, games[39], origin=Origin(SESSION, 41))
    stale_snapshot = Snapshot(shoe, games[:40], origin=Origin(SESSION, 41))
    checks: list[tuple[str, TableState, Event, Callable[[Applied], bool]]] = [
        ("v2 identical snapshot (fast path)", v2, snapshot, lambda a: not a.changed),
        ("v2 stale coup (older than the position)", v2, stale_coup, lambda a: a.stale),
        ("v2 stale snapshot (older than the games)", v2, stale_snapshot, lambda a: a.stale),
        ("v1 identical snapshot (origin None)", v1, v1_snapshot, lambda a: not a.changed),
    ]
    print(f"apply_event on a table holding one {len(games)}-game shoe, best of {args.repeat} x "
          f"{args.number} applies")  # fmt: skip
    for name, table, event, expected in checks:
        assert expected(apply_event(table, event)), name
        micros = per_apply(table, event, args.number, args.repeat)
        print(f"{name:45s} {micros:8.2f} µs per apply")
    return 0


if __name__ == "__main__":
    sys.exit(main())
