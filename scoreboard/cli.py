"""The ``scoreboard`` command: argument parsing only.

Each subcommand lives in its own module under :mod:`scoreboard.commands` and
exposes ``register(subparsers)``, which adds its parser and sets ``func`` to a
callable taking the parsed arguments and returning the exit status.  Commands
are discovered, so adding one never edits this file.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import pkgutil
import sys
from typing import NoReturn

import scoreboard.commands


class UsageError(Exception):
    """A bad argument value found after parsing; exits 2 with a one-line message."""


class OneLineParser(argparse.ArgumentParser):
    """Argument errors in one line, like every other error of the command."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="scoreboard", description="Baccarat roadmap kiosk and tools.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages to stderr")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for info in sorted(pkgutil.iter_modules(scoreboard.commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"scoreboard.commands.{info.name}")
        module.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    try:
        return int(args.func(args) or 0)
    except UsageError as error:
        print(f"scoreboard {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
