"""The arguments of ``scoreboard run`` (run by :mod:`scoreboard.cli.commands.run`)."""

from __future__ import annotations

import argparse

from scoreboard.cli.arg_types import directory, input_file, whole
from scoreboard.cli.options import add_display_arguments, add_mqtt_arguments
from scoreboard.settings.config import FEEDS
from scoreboard.settings.shoe import BAUD_RANGE, MODELS


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "run",
        help="the display: roads fed live from the table's MQTT broker (or the dealer keypad)",
        description=(
            "Show the table's roads, fed live by the shoe controller over MQTT, or by the "
            "dealer's numeric keypad (--feed keypad). Flags override the --config file."
        ),
    )
    parser.add_argument("--config", metavar="FILE", type=input_file, help="YAML configuration file")
    parser.add_argument(
        "--feed",
        choices=FEEDS,
        help=(
            "mqtt: the table's controller (default); keypad: the dealer keys results in; "
            "shoe: the card-reading shoe's serial line (--shoe, --serial); keypad and shoe "
            "publish as the table's controller when a broker is configured (feed:)"
        ),
    )
    shoe = parser.add_argument_group("shoe (--feed shoe; config shoe:)")
    shoe.add_argument("--shoe", choices=tuple(MODELS), help="the card-reading shoe (shoe.model)")
    shoe.add_argument(
        "--serial",
        metavar="PATH",
        help="its serial device, best a /dev/serial/by-id/... name (shoe.serial)",
    )
    shoe.add_argument(
        "--baud",
        type=whole(*BAUD_RANGE),
        metavar="N",
        help="line speed (shoe.baud; default the shoe's: 4800 Angel Eye, 9600 Bee-Tek)",
    )
    add_mqtt_arguments(parser)
    parser.add_argument("--display-id", metavar="ID", help="this display's id (default: hostname)")
    parser.add_argument(
        "--state-dir", metavar="DIR", type=directory, help="where the journal lives"
    )
    add_display_arguments(parser, from_config=True, portrait=False)
    parser.add_argument(
        "--headless",
        action="store_true",
        help="no window: apply the feed, journal it and publish the status only",
    )
    parser.set_defaults(
        runs="scoreboard.cli.commands.run", stops=True
    )  # SIGTERM and Ctrl-C: scoreboard.service.stopping
