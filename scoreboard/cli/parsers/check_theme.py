"""The arguments of ``scoreboard check-theme`` (run by ``cli.commands.check_theme``)."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "check-theme",
        help="validate theme files",
        description=(
            "Validate theme YAML files (or shipped theme names). Prints 'FILE: OK' or "
            "every problem as 'file: key.path: what was expected'; exit 1 on any error."
        ),
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="theme YAML file or name")
    parser.set_defaults(runs="scoreboard.cli.commands.check_theme")
