"""Freeze what the road engine returns today, so that a rewrite can be held to it cell for cell.

Run once, before changing the engine: ``.venv/bin/python tools/freeze_roads.py``
writes ``tests/data/roads_frozen.jsonl.gz`` (gzipped JSON lines, read by
``tests/test_roads_frozen.py``).
Each line is one shoe: the hand-worked examples of roads.md first, then random
shoes from a fixed seed (results drawn with the game's frequencies, streaky
shoes that make dragon tails, shoes dealt with cards so the side-bet counters
move), each with its row count.  For the whole shoe it keeps every road's cells
as the public API returns them (bead plate, big road with ties, pairs and
natural, the three derived roads with the game of each entry), the column
lengths, counts and streaks; and after every coup the ask road (what each
derived road would add after a Banker and after a Player).

Cells are short tokens, fields joined by ``.``: a bead ``col.row.game``, a
big-road cell ``col.row.winner.ties.game.flags.logical_col.logical_row``
(winner ``-`` before any Banker or Player result, game ``-`` then too; flags
``b`` banker pair, ``p`` player pair, ``n`` natural), a derived entry
``col.row.colour.game``.  The ask road after a coup is six letters, Banker's
three roads then Player's (``r``, ``b``, ``-`` for nothing).
"""

from __future__ import annotations

import gzip
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from scoreboard.game.cards import RANKS, SUITS, Card, parse_cards
from scoreboard.game.notation import result_games
from scoreboard.game.rules import Coup, Game, Winner, deal_coup, record_coup, result_coup
from scoreboard.roads.engine import Color, DerivedRoad, Roads
from scoreboard.roads.stats import COUNTER_NAMES

FROZEN = Path(__file__).resolve().parent.parent / "tests" / "data" / "roads_frozen.jsonl.gz"
SEED = 20261203
# roads.md, "Worked examples": H1 to H9.
WORKED = (
    "BBBPPBPPPP",
    "B" * 9 + "P" * 10,
    "TTBTBPT",
    "TTT",
    "BPPPB",
    "BPBPBPBP",
    "B" * 8 + "P" * 7 + "B" * 6,
    "B" * 8 + "P" * 8 + "B" * 8 + "P" * 2,
    "B" * 8 + "P" * 7 + "B" * 6 + "P" * 5 + "B" * 4 + "P" * 3 + "B" + "P",
)
ROW_COUNTS = (6, 6, 6, 6, 6, 3, 4, 5, 8, 1, 2)
LETTER = {Color.RED: "r", Color.BLUE: "b", None: "-"}


# -- shoes -------------------------------------------------------------------
def coup_token(coup: Coup) -> str:
    """``B``/``P``/``T`` with flags ``b``, ``p``, ``n``; a dealt coup as ``player/banker`` cards."""
    if coup.has_cards:
        return "/".join("".join(str(card) for card in hand) for hand in (coup.player, coup.banker))
    flags = "b" * coup.banker_pair + "p" * coup.player_pair + "n" * coup.natural
    return coup.winner.value + flags


def token_coup(token: str) -> Coup:
    if "/" in token:
        player, banker = (parse_cards([hand[i : i + 2] for i in range(0, len(hand), 2)])
                          for hand in token.split("/"))  # fmt: skip
        return record_coup(player, banker)
    flags = token[1:]
    return result_coup(
        Winner(token[0]), banker_pair="b" in flags, player_pair="p" in flags, natural="n" in flags
    )


def games_of(record: dict[str, Any]) -> list[Game]:
    """The games of a frozen shoe, numbered from its ``first``."""
    tokens = record["shoe"].split()
    return [Game(number, token_coup(t)) for number, t in enumerate(tokens, start=record["first"])]


def random_coup(rng: random.Random) -> Coup:
    winner = rng.choices((Winner.BANKER, Winner.PLAYER, Winner.TIE), (45.9, 44.6, 9.5))[0]
    return result_coup(
        winner,
        banker_pair=rng.random() < 0.075,
        player_pair=rng.random() < 0.075,
        natural=rng.random() < 0.34,
    )


def random_shoes(rng: random.Random) -> Iterator[list[Coup]]:
    """150 shoes of game frequencies, 100 streaky ones, 50 dealt with cards."""
    for _ in range(150):
        yield [random_coup(rng) for _ in range(rng.randint(1, 90))]
    for _ in range(100):
        coups: list[Coup] = []
        while len(coups) < rng.randint(20, 80):
            coups += [random_coup(rng)] * rng.choice((1, 1, 2, 3, 5, 7, 9, 12, 16))
        yield coups
    for _ in range(50):
        cards = (Card(rng.choice(RANKS), rng.choice(SUITS)) for _ in iter(int, 1))
        yield [deal_coup(cards) for _ in range(rng.randint(40, 80))]


def shoes() -> Iterator[tuple[int, int, list[Game]]]:
    """(rows, first game number, games) of every frozen shoe."""
    for text in WORKED:
        yield 6, 1, result_games(text)
    rng = random.Random(SEED)
    for index, coups in enumerate(random_shoes(rng)):
        first = rng.choice((1, 1, 1, 7))
        games = [Game(number, coup) for number, coup in enumerate(coups, start=first)]
        yield ROW_COUNTS[index % len(ROW_COUNTS)], first, games


# -- what the engine returns ---------------------------------------------------
def ask_road(roads: Roads) -> str:
    predictions = roads.predictions
    return "".join(
        LETTER[predictions[winner][road]] for winner in (Winner.BANKER, Winner.PLAYER)
        for road in DerivedRoad
    )  # fmt: skip


def record_of(rows: int, first: int, games: list[Game]) -> dict[str, Any]:
    """The frozen line of one shoe: the roads appended game by game, read at the end."""
    roads = Roads(rows)
    asked = []
    for game in games:
        roads.append(game)
        asked.append(ask_road(roads))
    record = {"rows": rows, "first": first, "shoe": " ".join(coup_token(g.coup) for g in games)}
    return record | roads_record(roads) | {"ask_road": " ".join(asked)}


def roads_record(roads: Roads) -> dict[str, Any]:
    """Every road, the column lengths, counts and streaks of ``roads`` as tokens."""
    big = []
    for cell in roads.big_road:
        flags = "b" * cell.banker_pair + "p" * cell.player_pair + "n" * cell.natural
        winner = "-" if cell.winner is None else cell.winner.value
        game = "-" if cell.game is None else cell.game
        fields = (cell.col, cell.row, winner, cell.ties, game, flags, cell.logical_col,
                  cell.logical_row)  # fmt: skip
        big.append(".".join(map(str, fields)))
    record: dict[str, Any] = {
        "bead_plate": " ".join(f"{c.col}.{c.row}.{c.game}" for c in roads.bead_plate),
        "big_road": " ".join(big),
    }
    for road in DerivedRoad:
        cells = roads.derived(road.k)
        games_added = roads.entry_games(road)
        record[road.value] = " ".join(
            f"{c.col}.{c.row}.{LETTER[c.color]}.{g}"
            for c, g in zip(cells, games_added, strict=True)
        )
    counts = roads.counts
    streaks = roads.streaks
    side = "-" if streaks.current_side is None else streaks.current_side.value
    record |= {
        "column_lengths": list(roads.column_lengths),
        "counts": [getattr(counts, name) for name in COUNTER_NAMES],
        "streaks": [side, streaks.current_length, streaks.longest_banker, streaks.longest_player],
    }
    return record


def frozen_records() -> list[dict[str, Any]]:
    """The frozen shoes, as written by :func:`main`."""
    text = gzip.decompress(FROZEN.read_bytes()).decode()
    return [json.loads(line) for line in text.splitlines()]


def main() -> int:
    FROZEN.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(record_of(*shoe), separators=(",", ":")) for shoe in shoes()]
    # mtime=0: the same shoes give the same bytes.
    FROZEN.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode(), mtime=0))
    print(f"{FROZEN}: {len(lines)} shoes, {FROZEN.stat().st_size:,} bytes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
