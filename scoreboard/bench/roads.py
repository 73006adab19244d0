"""What appending one coup to the roads costs, everything the board shows beside them updated.

Each sample is one ``Roads.append`` plus reading ``counts``, ``streaks`` and
``predictions`` (computed lazily, so reading them is part of "updated"), over
whole 80-coup shoes drawn at random with the game's frequencies (B 45.9 %,
P 44.6 %, T 9.5 %, each pair 7.5 %, natural 34 %) from a fixed seed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from scoreboard.core.roads import Roads
from scoreboard.core.rules import Game, Winner, result_coup

from .stats import Spread

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
    between: Callable[[], object] = lambda: None,
) -> list[float]:
    """Seconds per append, each including (``read``) what the board shows beside the roads.

    ``between`` is called before each shoe, outside the timing (the bench's stop raises there).
    """
    clock = time.perf_counter
    times = []
    for games in shoes:
        between()
        roads = Roads()
        for game in games:
            start = clock()
            roads.append(game)
            if read:
                roads.counts  # noqa: B018 - reading is part of "everything updated"
                roads.streaks  # noqa: B018
                roads.predictions  # noqa: B018
            times.append(clock() - start)
    return times


def road_append_us(shoes: int, between: Callable[[], object] = lambda: None) -> Spread:
    """Microseconds per append over ``shoes`` shoes, after a warm-up on other shoes."""
    sample = random_shoes(shoes + WARM_UP_SHOES, between=between)
    append_times(sample[shoes:], between=between)
    return Spread.of(append_times(sample[:shoes], between=between)).scaled(1e6)
