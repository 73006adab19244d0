"""The arguments of ``scoreboard bench`` (run by :mod:`scoreboard.cli.commands.bench`)."""

from __future__ import annotations

import argparse

from scoreboard.cli.options import add_display_arguments


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="measure this box: frames, idle CPU, memory, publish->flip; PASS or FAIL",
        description=(
            "Measure what the board needs on this machine and say whether it is ready for "
            "the floor: a frame within a 60 Hz refresh (16.7 ms, p99) at the screen's size, "
            "idle under 2 % of a core, publish->flip p99 within 50 ms (when mosquitto is "
            "installed). The screen's size is --size, else the display's own (1920x1080 "
            "without one). Exit status 0 on PASS, 1 on FAIL, 2 on bad arguments. About 1-2 "
            "minutes; --quick is a short first look."
        ),
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object instead")
    parser.add_argument(
        "--quick", action="store_true", help="a short run: fewer frames and shoes, 2 s idle"
    )
    add_display_arguments(parser, windowed=False, good_roads=False)
    parser.set_defaults(
        runs="scoreboard.cli.commands.bench", stops=True
    )  # SIGTERM and Ctrl-C: scoreboard.service.stopping
