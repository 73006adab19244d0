"""What appending one coup to the roads costs, everything the board shows beside them updated.

Each sample is one ``Roads.append`` plus reading ``counts``, ``streaks`` and
``predictions`` (computed lazily, so reading them is part of "updated"), over
whole 80-coup shoes drawn at random with the game's frequencies (B 45.9 %,
P 44.6 %, T 9.5 %, each pair 7.5 %, natural 34 %) from a fixed seed.  With
``cells`` it also reads the entries each road gained (and the big road's last
cell, which a tie changes), as the board's scroll does after a coup.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from scoreboard.game.rules import Game, Winner, result_coup
from scoreboard.roads.engine import Roads

from .stats import Spread

ROAD_NAMES = ("bead_plate", "big_road", "big_eye_boy", "small_road", "cockroach_pig")
COUPS_PER_SHOE = 80
SEED = 20261129
WARM_UP_SHOES = 200


def random_shoe(rng: random.Random, coups: int = COUPS_PER_SHOE) -> tuple[list[Game], str]:
    """The games of one shoe and the same shoe as a RESULTS line.

    >>> games, line = random_shoe(random.Random(1), coups=3)
    >>> len(games), len(line.split())
    (3, 3)
    """
    games, tokens = [], []
    for number in range(1, coups + 1):
        winner = rng.choices((Winner.BANKER, Winner.PLAYER, Winner.TIE), (45.9, 44.6, 9.5))[0]
        banker_pair, player_pair = rng.random() < 0.075, rng.random() < 0.075
        natural = rng.random() < 0.34
        coup = result_coup(
            winner, banker_pair=banker_pair, player_pair=player_pair, natural=natural
        )
        games.append(Game(number, coup))
        flags = "b" * banker_pair + "p" * player_pair + "n" * natural
        tokens.append(winner.value + flags)
    return games, " ".join(tokens)


def random_shoes(
    count: int, seed: int = SEED, between: Callable[[], object] = lambda: None
) -> list[list[Game]]:
    rng = random.Random(seed)
    shoes = []
    for _ in range(count):
        between()
        shoes.append(random_shoe(rng)[0])
    return shoes


def append_times(
    shoes: Sequence[Sequence[Game]],
    *,
    read: bool = True,
    cells: bool = False,
    between: Callable[[], object] = lambda: None,
) -> list[float]:
    """Seconds per append, each including (``read``) what the board shows beside the roads
    and (``cells``) the road entries it draws anew.

    ``between`` is called before each shoe, outside the timing (the bench's stop raises there).
    """
    clock = time.perf_counter
    times = []
    for games in shoes:
        between()
        roads = Roads()
        known = dict.fromkeys(ROAD_NAMES, 0)
        for game in games:
            start = clock()
            roads.append(game)
            if read:
                roads.counts  # noqa: B018 - reading is part of "everything updated"
                roads.streaks  # noqa: B018
                roads.predictions  # noqa: B018
            if cells:
                for name, count in known.items():
                    known[name] = roads.length(name)
                    roads.entries(name, max(count - 1, 0))
            times.append(clock() - start)
    return times


def rebuild_times(shoes: Sequence[Sequence[Game]], *, to_json: bool = False) -> list[float]:
    """Seconds per whole-shoe ``Roads.build`` (and, with ``to_json``, the CLI's JSON of it)."""
    clock = time.perf_counter
    times = []
    for games in shoes:
        start = clock()
        roads = Roads.build(games)
        if to_json:
            roads.to_json()
        times.append(clock() - start)
    return times


def road_append_us(shoes: int, between: Callable[[], object] = lambda: None) -> Spread:
    """Microseconds per append over ``shoes`` shoes, after a warm-up on other shoes."""
    sample = random_shoes(shoes + WARM_UP_SHOES, between=between)
    append_times(sample[shoes:], between=between)
    return Spread.of(append_times(sample[:shoes], between=between)).scaled(1e6)
