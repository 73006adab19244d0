"""The ``scoreboard`` command: argument parsing only.

Each subcommand lives in its own module under :mod:`scoreboard.commands` and
exposes ``register(subparsers)``, which adds its parser and sets ``func`` to a
callable taking the parsed arguments and returning the exit status.  Commands
are discovered, so adding one never edits this file.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import importlib
import pkgutil
import sys
from typing import NoReturn

import scoreboard.commands
from scoreboard import logsetup, stopping


class UsageError(Exception):
    """A bad argument value found after parsing; exits 2 with a one-line message."""


class CommandError(Exception):
    """The command cannot do its job here (no display, ...); exits 1 with the message."""


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


#: Seconds a stop may take from its signal before the process leaves without the rest of it.
STOP_LIMIT = 4.5


def main(argv: list[str] | None = None) -> int:
    """The command line's exit status; ``argv`` None: this process's own command line."""
    # From the start, SIGTERM and SIGINT never raise into the imports and the parsing
    # (scoreboard.stopping): there they end the process at once, nothing having begun.
    # Commands that stop in order (set_defaults(stops=True)) keep the routing: their
    # loops look at the stop; the process's own command keeps it to its very end, so a
    # second signal while the interpreter exits changes nothing.  The other commands
    # get Python's handling back.
    with contextlib.ExitStack() as routing:
        stop = routing.enter_context(stopping.stop_on_signals(limit=STOP_LIMIT, begun=False))
        parser = build_parser()
        args = parser.parse_args(argv)
        logsetup.configure(args.verbose)
        if not getattr(args, "stops", False):
            routing.close()
            return _command(args)
        stop.begin()
        status = _command(args)
        if argv is None:
            routing.pop_all()
            atexit.register(stopping.ignore_stop_signals)  # before Python resets the handlers
        return status


def _command(args: argparse.Namespace) -> int:
    try:
        return int(args.func(args) or 0)
    except UsageError as error:
        print(f"scoreboard {args.command}: {error}", file=sys.stderr)
        return 2
    except CommandError as error:
        print(f"scoreboard {args.command}: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
