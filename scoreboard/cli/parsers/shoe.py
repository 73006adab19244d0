"""The arguments of ``scoreboard shoe`` (run by :mod:`scoreboard.cli.commands.shoe`)."""

from __future__ import annotations

import argparse

from scoreboard.cli.arg_types import DAY, DECKS, SEED, SHOES, directory, seconds, whole
from scoreboard.cli.options import add_mqtt_arguments, add_table_arguments, add_table_name
from scoreboard.game.floor import LIMIT_TIERS, MAX_TABLES
from scoreboard.game.shoe import MAX_DECKS
from scoreboard.settings.shoe import MODELS


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "shoe",
        help="simulated shoe controller publishing to an MQTT broker",
        description=(
            "Deal simulated shoes by the real rules and publish them as the table feed: "
            "each card as it leaves the shoe (a deal event, face withheld), every coup with "
            "its cards, the shoe events, a retained snapshot after every "
            "coup, retained limits and the controller status (with a last will), each "
            "stamped with the connection's session and a sequence number (contract v2). "
            "Answers cmd/resync for the current and the previous shoe, and applies the pit's "
            "commands (cmd/pit: scoreboard pit), answering on cmd/pit/answer."
        ),
    )
    add_mqtt_arguments(parser)
    parser.add_argument(
        "--pace",
        type=seconds(0, DAY),
        default=2.0,
        metavar="SECONDS",
        help="seconds between coups",
    )
    parser.add_argument(
        "--shuffle-seconds",
        type=seconds(0, DAY),
        metavar="SECONDS",
        help="how long the shuffle lasts between shoes (default 3 x pace)",
    )
    parser.add_argument("--seed", type=SEED, help="shuffle seed (default: random)")
    parser.add_argument(
        "--tables",
        type=whole(1, MAX_TABLES),
        metavar="N",
        help=(
            "a simulated floor: deal N tables (<table>1 ... <table>N, default T1 ... TN), "
            "each with its own connection, shoe, seed and pace (within 25%% of --pace), "
            "and --limits for each; --seed makes the whole floor repeatable"
        ),
    )
    parser.add_argument(
        "--limit-tiers",
        action="store_true",
        help=(
            "with --tables: each table one of five sample tiers (Player/Banker "
            f"{', '.join(LIMIT_TIERS)}) in --currency, instead of --limits"
        ),
    )
    parser.add_argument("--decks", type=DECKS, default=MAX_DECKS, help="decks in the shoe")
    parser.add_argument(
        "--shoes", type=SHOES, metavar="N", help="stop after N shoes (default: never)"
    )
    add_table_name(parser)
    add_table_arguments(parser, sample=False)
    parser.add_argument(
        "--state-dir",
        type=directory,
        metavar="DIR",
        help="keep the last session (and shoe) here, so sessions grow even if the clock goes back",
    )
    parser.add_argument(
        "--linger",
        type=seconds(0, DAY),
        default=0.0,
        metavar="SECONDS",
        help="stay online answering resyncs this long after the last shoe",
    )
    parser.add_argument(
        "--no-cards",
        action="store_true",
        help="publish no deal event per card before each coup (as a controller without a "
        "card-reading shoe); --tables never publishes them",
    )
    _emulate_arguments(parser)
    parser.set_defaults(
        runs="scoreboard.cli.commands.shoe", stops=True
    )  # SIGTERM and Ctrl-C: scoreboard.service.stopping


def _emulate_arguments(parser: argparse.ArgumentParser) -> None:
    """``--emulate``: a card-reading shoe's bytes (:mod:`scoreboard.cli.commands._emulate_shoe`)."""
    group = parser.add_argument_group("emulated shoe (no MQTT: bytes on a serial line)")
    group.add_argument(
        "--emulate",
        choices=tuple(MODELS),
        help="deal as a card-reading shoe's bytes on a serial line instead of publishing",
    )
    group.add_argument(
        "--serial",
        metavar="PATH",
        help="with --emulate: write into this serial device (default: a pseudo-terminal "
        "created and named on stdout)",
    )
    group.add_argument(
        "--baud",
        type=whole(50, 4_000_000),
        metavar="N",
        help="with --emulate: line speed (default: the shoe's)",
    )
