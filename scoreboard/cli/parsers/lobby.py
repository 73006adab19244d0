"""The arguments of ``scoreboard lobby`` (run by :mod:`scoreboard.cli.commands.lobby`)."""

from __future__ import annotations

import argparse

from scoreboard.cli.arg_types import DURATION, YEAR, input_file, seconds, whole
from scoreboard.cli.options import add_display_arguments, add_mqtt_arguments
from scoreboard.lobby.arrange import SortKey
from scoreboard.lobby.settings import PAGE_SECONDS_RANGE, PER_PAGE_RANGE, STALE_SECONDS_RANGE
from scoreboard.lobby.status import MIN_INTERVAL, REFRESH_SECONDS


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "lobby",
        help="a lobby wall: every table of the floor as a tile, fed from the broker",
        description=(
            "Show many tables as tiles (name, limits, shoe and game, the whole shoe's big "
            "road, counts, good roads, live/shuffling/final hand/offline/stale), discovered "
            "under the root prefix or listed in --config, pages rotating. Publishes its "
            "retained status on ROOT/lobby/ID/status. Flags override the --config file."
        ),
    )
    parser.add_argument("--config", metavar="FILE", type=input_file, help="YAML configuration file")
    add_mqtt_arguments(parser, lobby=True)
    parser.add_argument("--lobby-id", metavar="ID", help="this lobby's id (default: hostname)")
    add_display_arguments(parser, from_config=True, portrait=False, motion=False, good_roads=False)
    parser.add_argument(
        "--sort", choices=[key.value for key in SortKey], help="tile order (lobby.sort)"
    )
    parser.add_argument(
        "--filter-pit", metavar="PIT", action="append", help="show only this pit (repeatable)"
    )
    parser.add_argument(
        "--per-page", type=whole(*PER_PAGE_RANGE), metavar="N", help="tiles per page, 4-48"
    )
    parser.add_argument(
        "--page-seconds", type=seconds(*PAGE_SECONDS_RANGE), metavar="S", help="seconds per page"
    )
    parser.add_argument(
        "--stale-seconds",
        type=seconds(*STALE_SECONDS_RANGE),
        metavar="S",
        help="no update for this long: stale",
    )
    parser.add_argument(
        "--duration", type=DURATION, metavar="SECONDS", help="quit after this long (tests, demos)"
    )
    # Hidden, for process tests: the status's refresh (lobby/status.py), 30 s otherwise.
    parser.add_argument(
        "--status-refresh", type=seconds(MIN_INTERVAL, YEAR), default=REFRESH_SECONDS,
        help=argparse.SUPPRESS,
    )  # fmt: skip
    parser.set_defaults(
        runs="scoreboard.cli.commands.lobby", stops=True
    )  # SIGTERM and Ctrl-C: scoreboard.service.stopping
