"""``scoreboard demo``: the kiosk dealing a simulated shoe, shoe after shoe, forever.

For trade shows and for trying a theme: full screen unless ``--windowed``, one
coup every ``--pace`` seconds, a shuffle screen between shoes.  Esc quits in
windowed mode; Ctrl-C always does.
"""

from __future__ import annotations

import argparse

from scoreboard.cli import UsageError
from scoreboard.commands.themes import add_display_arguments, display_from_args
from scoreboard.core.shoe import Dealer
from scoreboard.core.table import TableState


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="show the board dealing a simulated shoe (full screen)",
        description="Show the board dealing a simulated shoe at a table's pace, forever.",
    )
    add_display_arguments(parser, default_size=None)
    parser.add_argument("--windowed", action="store_true", help="a window instead of full screen")
    parser.add_argument(
        "--pace", type=float, default=4.0, metavar="SECONDS", help="seconds per coup (default 4)"
    )
    parser.add_argument("--seed", type=int, help="shuffle seed (default: random)")
    parser.add_argument("--decks", type=int, default=8, metavar="N", help="decks per shoe (1-8)")
    parser.add_argument(
        "--shuffle-seconds",
        type=float,
        metavar="SECONDS",
        help="how long the shuffle screen shows between shoes (default 3 x pace)",
    )
    parser.add_argument("--table-name", default="", help="table name for the header")
    parser.add_argument("--duration", type=float, metavar="SECONDS", help="quit after this long")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    theme, size = display_from_args(args)
    if args.pace <= 0:
        raise UsageError("--pace must be a positive number of seconds")
    try:
        dealer = Dealer(decks=args.decks, seed=args.seed)
    except ValueError as error:
        raise UsageError(str(error)) from None
    from scoreboard.app import run_kiosk
    from scoreboard.feeds.simulated import SimulatedFeed

    feed = SimulatedFeed(dealer, pace=args.pace, shuffle_seconds=args.shuffle_seconds)
    table = TableState(table_id="T1", table_name=args.table_name)
    return run_kiosk(feed, table, theme, windowed=args.windowed, size=size, run_for=args.duration)
