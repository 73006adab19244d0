"""The arguments of ``scoreboard screenshot`` (run by :mod:`scoreboard.cli.commands.screenshot`)."""

from __future__ import annotations

import argparse

from scoreboard.cli.arg_types import DECKS, SEED, clock, output_file, whole
from scoreboard.cli.options import add_display_arguments, add_table_arguments, add_table_name
from scoreboard.lobby.floor import MAX_TABLES as MAX_LOBBY_TABLES
from scoreboard.protocol.shoe_events import CONDITION
from scoreboard.table.applied import FeedStatus

#: The most coups ``--coups`` deals (shoe after shoe: about 130 shoes of 8 decks).
MAX_COUPS = 10_000


def shoe_condition(text: str) -> str:
    """A shoe condition as the protocol names it (``device``, ``error:2``)."""
    if CONDITION.fullmatch(text) is None:
        raise argparse.ArgumentTypeError(f"{text[:80]!r}: expected a key such as device or error:2")
    return text


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "screenshot",
        help="render the kiosk frame for a state to a PNG",
        description=(
            "Render exactly the frame the kiosk would show and write it as a PNG. Needs no display."
        ),
    )
    parser.add_argument("-o", "--output", required=True, type=output_file, metavar="FILE.png")
    add_display_arguments(parser, default_size="1920x1080", windowed=False)
    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "--results", metavar="TOKENS", help='coups as in `scoreboard roads`, e.g. "BBPT Bbn"'
    )
    source.add_argument(
        "--seed",
        type=SEED,
        help="seed of the simulated shoe of --coups and --whole-shoe (default: random, printed)",
    )
    source.add_argument(
        "--lobby",
        type=whole(1, MAX_LOBBY_TABLES),
        metavar="N",
        help="the lobby board instead: the first page (up to 48 tiles) of N simulated tables, "
        "each dealt part way into its own shoe",
    )
    parser.add_argument(
        "--coups",
        type=whole(0, MAX_COUPS),
        default=0,
        metavar="N",
        help="coups of a simulated shoe to deal; past the cut card a new shoe begins, as at a"
        " table (8 decks: about 70-80 coups a shoe), and a line says so",
    )
    parser.add_argument(
        "--whole-shoe",
        action="store_true",
        help="deal a simulated shoe to its end (its last coup just dealt)",
    )
    parser.add_argument(
        "--decks", type=DECKS, default=8, metavar="N", help="decks in the simulated shoe"
    )
    parser.add_argument(
        "--status",
        default="demo",
        choices=[s.value for s in FeedStatus],
        help="the feed mark to show (default demo)",
    )
    parser.add_argument(
        "--clock", type=clock, metavar="HH:MM", help="the clock to show (default: now)"
    )
    add_table_name(parser)
    add_table_arguments(parser, sample=True)
    parser.add_argument(
        "--no-limits",
        action="store_true",
        help="limits unknown, as before the controller says them (the board says so)",
    )
    parser.add_argument(
        "--shuffling", action="store_true", help="show the shuffle screen over this state"
    )
    parser.add_argument(
        "--cut-card",
        action="store_true",
        help="the cut card is out: show the final-hand mark",
    )
    parser.add_argument(
        "--fault",
        action="append",
        default=[],
        metavar="PANEL",
        help="show PANEL as failed to draw: its placeholder and the display-fault mark",
    )
    parser.add_argument(
        "--dealing",
        type=whole(1, 6),
        metavar="N",
        help="the next hand being dealt: its first N cards (1-6) face down in the last hand",
    )
    parser.add_argument(
        "--shoe-health",
        action="append",
        default=[],
        type=shoe_condition,
        metavar="CONDITION",
        help="a condition the card-reading shoe raised (device, error:2...): its staff mark",
    )
    parser.add_argument(
        "--journal-failing",
        action="store_true",
        help="show the journal warning, as while the journal cannot write",
    )
    parser.set_defaults(runs="scoreboard.cli.commands.screenshot")
