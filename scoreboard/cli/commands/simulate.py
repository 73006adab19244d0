"""``scoreboard simulate``: deal whole shoes and compare frequencies with the exact odds."""

from __future__ import annotations

import argparse
import json
import math
import sys
import time

from scoreboard.cli.commands._shared import LABELS
from scoreboard.game.odds import EVENTS, exact_odds
from scoreboard.game.simulation import simulate


class ProgressBar:
    """A one-line bar on stderr, drawn only on a terminal and only after a second."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.start = time.monotonic()
        self.enabled = sys.stderr.isatty()
        self.last_draw = 0.0

    def __call__(self, done: int) -> None:
        now = time.monotonic()
        if (
            not self.enabled
            or now - self.start < 1
            or (now - self.last_draw < 0.1 and done < self.total)
        ):
            return
        self.last_draw = now
        filled = int(30 * done / self.total)
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{self.total} shoes")
        if done == self.total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def z_score(count: int, trials: int, probability: float) -> float:
    spread = math.sqrt(trials * probability * (1 - probability))
    return (count - trials * probability) / spread if spread else 0.0


def run(args: argparse.Namespace) -> int:
    tally = simulate(
        decks=args.decks, shoes=args.shoes, seed=args.seed, progress=ProgressBar(args.shoes)
    )
    exact = {key: float(value) for key, value in exact_odds(args.decks).items()}
    frequencies = tally.frequencies()
    counts = tally.counts
    if args.json:
        print(
            json.dumps(
                {
                    "decks": args.decks,
                    "shoes": tally.shoes,
                    "coups": tally.coups,
                    "frequencies": frequencies,
                    "exact": exact,
                    "z": {k: z_score(counts[k], tally.coups, exact[k]) for k in EVENTS},
                }
            )
        )
        return 0
    print(
        f"{tally.shoes} shoes of {args.decks} deck{'s' if args.decks > 1 else ''}, "
        f"{tally.coups} coups ({tally.coups / tally.shoes:.1f} per shoe)"
    )
    width = max(len(label) for label in LABELS.values())
    print(f"  {'event':<{width}} {'observed':>9} {'exact':>9} {'z':>7}")
    for key in EVENTS:
        z = z_score(counts[key], tally.coups, exact[key])
        print(f"  {LABELS[key]:<{width}} {frequencies[key]:9.6f} {exact[key]:9.6f} {z:7.2f}")
    return 0
