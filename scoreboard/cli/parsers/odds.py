"""The arguments of ``scoreboard odds`` (run by :mod:`scoreboard.cli.commands.odds`)."""

from __future__ import annotations

import argparse

from scoreboard.cli.arg_types import DECKS
from scoreboard.game.shoe import MAX_DECKS
from scoreboard.game.variants import VARIANTS


def add_variant_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant", choices=sorted(VARIANTS), default="commission", help="table variant"
    )
    parser.add_argument("--tie-pays", type=int, choices=(8, 9), help="tie pays 8:1 or 9:1")
    parser.add_argument("--pair-pays", type=int, choices=(10, 11), help="pairs pay 11:1 or 10:1")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "odds",
        help="exact probabilities and house edges by full enumeration",
        description="Exact probabilities of a fresh shoe by full enumeration (card removal "
        "included), and the house edge of each bet for the chosen pay table.",
    )
    parser.add_argument(
        "--decks", type=DECKS, default=MAX_DECKS, help=f"1 to {MAX_DECKS} (default 8)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_variant_arguments(parser)
    parser.set_defaults(runs="scoreboard.cli.commands.odds")
