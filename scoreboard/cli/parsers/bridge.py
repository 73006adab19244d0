"""The arguments of ``scoreboard bridge`` (run by :mod:`scoreboard.cli.commands.bridge`)."""

from __future__ import annotations

import argparse

from scoreboard.cli.arg_types import directory, input_file, whole
from scoreboard.cli.options import add_mqtt_arguments
from scoreboard.shoes.emulate import Emulated

#: Under the config's state dir when ``--state-dir`` is not given: a display on the
#: same box keeps its own journal beside it.
STATE_SUBDIR = "bridge"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "bridge",
        help="read a card-reading shoe's serial line and publish it as the table's controller",
        description=(
            "Read an Angel Eye or Bee-Tek shoe on a serial line and publish it as the "
            "table's controller (contract v2): new shoes and burns, each coup with its "
            "cards, the cards as they are dealt (face down), the shoe's health, a retained "
            "snapshot, the configured limits, answers to cmd/resync. Journaled in the "
            "state dir: a restart continues the same shoe."
        ),
    )
    parser.add_argument(
        "--shoe", required=True, choices=[kind.value for kind in Emulated], help="the shoe"
    )
    parser.add_argument(
        "--serial",
        required=True,
        metavar="PATH",
        help="the shoe's serial device (best a /dev/serial/by-id/... name: it survives a replug)",
    )
    parser.add_argument(
        "--baud",
        type=whole(50, 4_000_000),
        metavar="N",
        help="line speed (default: the shoe's, 4800 Angel Eye, 9600 Bee-Tek)",
    )
    parser.add_argument(
        "--suits",
        metavar="ORDER",
        help="Angel Eye: the suits its card byte numbers 1-4 name (default DCSH: "
        "1 diamonds, 2 clubs, 3 spades, 4 hearts)",
    )
    parser.add_argument("--config", metavar="FILE", type=input_file, help="YAML configuration file")
    parser.add_argument(
        "--state-dir",
        metavar="DIR",
        type=directory,
        help="where the bridge's journal and sessions live (default: the config's state "
        f"dir + /{STATE_SUBDIR})",
    )
    add_mqtt_arguments(parser)
    parser.set_defaults(
        runs="scoreboard.cli.commands.bridge", stops=True
    )  # SIGTERM and Ctrl-C: scoreboard.service.stopping
