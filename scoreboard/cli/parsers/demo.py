"""The arguments of ``scoreboard demo`` (run by :mod:`scoreboard.cli.commands.demo`)."""

from __future__ import annotations

import argparse

from scoreboard.cli.arg_types import DAY, DECKS, DURATION, SEED, directory, seconds, whole
from scoreboard.cli.options import (
    add_display_arguments,
    add_mqtt_arguments,
    add_table_arguments,
    add_table_name,
)

#: The most coups ``--start-at`` takes (the shoe stops at its cut card anyway).
START_AT_MAX = 1000


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="show the board dealing a simulated shoe (full screen)",
        description=(
            "Show the board dealing a simulated shoe at a table's pace, forever, starting "
            "mid-shoe. Esc or q quits. With --mqtt, a simulated controller publishes the shoe "
            "to that broker and the board shows it as a live display would."
        ),
    )
    add_display_arguments(parser)
    parser.add_argument(
        "--pace",
        type=seconds(0, DAY, above=True),
        default=4.0,
        metavar="SECONDS",
        help="seconds per coup (default 4)",
    )
    parser.add_argument("--seed", type=SEED, help="shuffle seed (default: random)")
    parser.add_argument("--decks", type=DECKS, default=8, metavar="N", help="decks per shoe (1-8)")
    parser.add_argument(
        "--shuffle-seconds",
        type=seconds(0, DAY),
        metavar="SECONDS",
        help="how long the shuffle screen shows between shoes (default 3 x pace)",
    )
    add_table_name(parser)
    add_table_arguments(parser, sample=True)
    parser.add_argument(
        "--start-at",
        type=whole(0, START_AT_MAX),
        metavar="N",
        help=(
            "start mid-shoe with N coups already dealt, shown at once (default: 30-60 from "
            "the seed; 0: an empty board; at most up to the cut card)"
        ),
    )
    parser.add_argument("--duration", type=DURATION, metavar="SECONDS", help="quit after this long")
    parser.add_argument(
        "--state-dir",
        metavar="DIR",
        type=directory,
        help="journal the deal here, replay it on start (default: keep nothing; not with --mqtt)",
    )
    add_mqtt_arguments(parser)
    parser.set_defaults(
        runs="scoreboard.cli.commands.demo", stops=True
    )  # SIGTERM and Ctrl-C: scoreboard.service.stopping
