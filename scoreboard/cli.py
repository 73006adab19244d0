"""The ``scoreboard`` command: argument parsing only.

Each subcommand lives in its own module under :mod:`scoreboard.commands` and
exposes ``register(subparsers)``, which adds its parser and sets ``func`` to a
callable taking the parsed arguments and returning the exit status.  Commands
are discovered, so adding one never edits this file.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import pkgutil
import signal
import sys
import threading
import types
from collections.abc import Iterator
from typing import NoReturn

import scoreboard.commands
from scoreboard import logsetup


class UsageError(Exception):
    """A bad argument value found after parsing; exits 2 with a one-line message."""


class CommandError(Exception):
    """The command cannot do its job here (no display, ...); exits 1 with the message."""


class OneLineParser(argparse.ArgumentParser):
    """Argument errors in one line, like every other error of the command."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see --help)\n")


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Meanwhile, SIGTERM leaves as Ctrl-C does: through every ``finally`` on the way out.

    A service manager stops the kiosk with SIGTERM; the loops' cleanup says goodbye on
    the status topic and closes the journal.  Only the main thread can set a signal
    handler, so elsewhere (tests) this does nothing.  The previous handler comes back
    on exit.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


#: Where an exception raised by a signal handler is "ignored" (Python prints a traceback
#: and carries on): weakref and finalizer callbacks.  A stop landing there is re-sent.
_NO_RAISE_FILES = ("weakref.py", "_weakrefset.py")


def _interrupt(signum: int, frame: types.FrameType | None) -> None:
    """SIGTERM as Ctrl-C; re-sent a moment later if it landed in a weakref callback.

    Raised there, the KeyboardInterrupt would only print "Exception ignored in ..."
    with a traceback and the process would go on running.
    """
    if frame is not None and frame.f_code.co_filename.endswith(_NO_RAISE_FILES):
        threading.Timer(0.01, os.kill, (os.getpid(), signum)).start()
        return
    raise KeyboardInterrupt


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
    logsetup.configure(args.verbose)
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
