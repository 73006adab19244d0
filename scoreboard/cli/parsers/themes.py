"""The arguments of ``scoreboard themes`` (run by :mod:`scoreboard.cli.commands.themes`)."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "themes",
        help="list the shipped themes",
        description="List the themes shipped with scoreboard (name, orientations, title).",
    )
    parser.set_defaults(runs="scoreboard.cli.commands.themes")
