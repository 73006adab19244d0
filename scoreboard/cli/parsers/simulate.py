"""The arguments of ``scoreboard simulate`` (run by :mod:`scoreboard.cli.commands.simulate`)."""

from __future__ import annotations

import argparse

from scoreboard.cli.arg_types import DECKS, SEED, SHOES
from scoreboard.game.shoe import MAX_DECKS


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="deal whole shoes and compare observed frequencies with exact odds",
        description="Deal whole simulated shoes (burn, cut card, end-of-shoe rule) and print "
        "observed frequencies beside the exact ones, with z-scores.",
    )
    parser.add_argument(
        "--decks", type=DECKS, default=MAX_DECKS, help=f"1 to {MAX_DECKS} (default 8)"
    )
    parser.add_argument("--shoes", type=SHOES, default=1000, help="shoes to deal (1000)")
    parser.add_argument("--seed", type=SEED, help="seed for a repeatable run")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(runs="scoreboard.cli.commands.simulate")
