"""The ``scoreboard`` command: the parser, and each command run when it is asked for.

A command is two modules of one name: its arguments in
:mod:`scoreboard.cli.parsers` (``register(subparsers)`` adds its parser and sets
``runs`` to the module that runs it) and its work in
:mod:`scoreboard.cli.commands` (``run(args)`` returns the exit status).  The parsers
import only light modules, so ``scoreboard --help`` and ``--version`` load
neither pygame nor paho; a command's own module is imported when it runs.
Parsers are discovered, so adding a command never edits this file.  Options
several commands share are declared in :mod:`scoreboard.cli.options`.

Modules: ``options`` (options several commands share), ``arg_types`` (checked
values: every number finite and in range) and ``errors`` (the two ways a command
ends in one line).  Public: :func:`main`, :func:`build_parser`, :func:`asked_command`,
:func:`version`, :class:`UsageError`, :class:`CommandError`.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import importlib
import pkgutil
import sys
from typing import NoReturn

import scoreboard
from scoreboard.cli import parsers
from scoreboard.cli.errors import CommandError, UsageError
from scoreboard.service import logsetup, stopping

__all__ = ["CommandError", "UsageError", "asked_command", "build_parser", "main", "version"]

#: The distribution whose installed metadata names the version.
DISTRIBUTION = "scoreboard"


class OneLineParser(argparse.ArgumentParser):
    """Argument errors in one line, like every other error of the command."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see --help)\n")


def version() -> str:
    """The installed package's version, or the source's when it is run uninstalled."""
    from importlib import metadata  # costs a dozen modules: only when asked

    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return scoreboard.__version__


class VersionAction(argparse.Action):
    """``--version``: prints ``scoreboard VERSION`` and exits 0, looked up only when given."""

    def __init__(self, option_strings: list[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, default=argparse.SUPPRESS, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *_args: object) -> NoReturn:
        print(f"{parser.prog} {version()}")
        parser.exit()


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command; of ``command`` alone when it names one, of none when ``""``.

    One command's parser reads its arguments, help and errors exactly as the whole
    one does, and spares the start-up of every other command's declarations (the
    display flags alone import the theme and config readers).  Anything else
    (no command, an unknown one) gets the whole parser, whose help and
    ``invalid choice`` error list every command.
    """
    parser = OneLineParser(prog="scoreboard", description="Baccarat roadmap kiosk and tools.")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages to stderr")
    parser.add_argument("--version", action=VersionAction, help="print the version and exit")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    names = sorted(info.name for info in pkgutil.iter_modules(parsers.__path__))
    if command == "":
        names = []
    elif command is not None and "_" not in command and command.replace("-", "_") in names:
        names = [command.replace("-", "_")]  # a module named like its command (check-theme)
    for name in names:
        importlib.import_module(f"{parsers.__name__}.{name}").register(subparsers)
    return parser


def asked_command(argv: list[str]) -> str | None:
    """Which commands parsing ``argv`` needs: the one it names, ``""`` for none, None for all.

    ``scoreboard``'s own options take no value, so the first word not starting with
    ``-`` is the command.  ``--version`` met before it ends the parsing at once, so
    needs no command; any other option (``--help``, an abbreviation, ``--``) may
    need them all.
    """
    for word in argv:
        if word == "--version":
            return ""
        if not word.startswith("-"):
            return word
        if word not in ("-v", "--verbose"):
            return None
    return None


#: Seconds a stop may take from its signal before the process leaves without the rest of it.
STOP_LIMIT = 4.5


def main(argv: list[str] | None = None) -> int:
    """The command line's exit status; ``argv`` None: this process's own command line."""
    # From the start, SIGTERM and SIGINT never raise into the imports and the parsing
    # (scoreboard.service.stopping): there they end the process at once, nothing having begun.
    # Commands that stop in order (set_defaults(stops=True)) keep the routing: their
    # loops look at the stop; the process's own command keeps it to its very end, so a
    # second signal while the interpreter exits changes nothing.  The other commands
    # get Python's handling back.
    with contextlib.ExitStack() as routing:
        stop = routing.enter_context(stopping.stop_on_signals(limit=STOP_LIMIT, begun=False))
        words = sys.argv[1:] if argv is None else argv
        args = build_parser(asked_command(words)).parse_args(argv)
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
        return int(importlib.import_module(args.runs).run(args) or 0)
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
