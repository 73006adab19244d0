"""The checked values of the command line: every number finite and in range, every input a file.

Each numeric option of every subcommand takes its ``type=`` from here, so a
NaN, an infinity, a negative or an out-of-range value is refused by argparse
itself (exit 2, ``argument --pace: expected ...``) before a command runs with
it: ``float("nan")`` passes every ``<=`` test a command might make, and a
``--duration`` of NaN would never end.  :func:`input_file` and
:func:`output_file` refuse a path that is there but is not a regular file (a
FIFO, whose ``open`` blocks; ``/dev/zero``; a directory), :func:`directory` one
that is not a directory; a missing one is left to the command, which reads it
(and says it is missing) or makes it.
``tests/test_cli_arg_types.py`` walks the parser and fails on any numeric
option that does not take its type from here.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from scoreboard.game.shoe import MAX_DECKS
from scoreboard.regular_file import kind

__all__ = [
    "DAY",
    "DECKS",
    "DURATION",
    "KEEPALIVE",
    "SEED",
    "SHOES",
    "Number",
    "clock",
    "directory",
    "input_file",
    "output_file",
    "seconds",
    "whole",
]

DAY = 86_400.0
YEAR = 365 * DAY


@dataclass(frozen=True, slots=True)
class Number:
    """An argparse type: a finite number from ``low`` to ``high`` (above ``low`` when ``above``).

    >>> whole(1, 8)("3"), seconds(0, 60)("1.5")
    (3, 1.5)
    >>> seconds(0, 60)("nan")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected seconds, 0 to 60, got 'nan'
    """

    low: float
    high: float
    integral: bool = False
    above: bool = False
    unit: str = ""

    def __call__(self, text: str) -> int | float:
        try:
            value: int | float = int(text) if self.integral else float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {self.wanted}, got {text!r}") from None
        if not (math.isfinite(value) and self.holds(value)):
            raise argparse.ArgumentTypeError(f"expected {self.wanted}, got {text!r}")
        return value

    def holds(self, value: float) -> bool:
        """Whether ``value`` is within the bounds (NaN never is)."""
        above_low = value > self.low if self.above else value >= self.low
        return above_low and value <= self.high

    @property
    def wanted(self) -> str:
        """What the option takes, for its error: ``seconds, 0 to 86400``."""
        what = self.unit or ("a whole number" if self.integral else "a number")
        if self.above:
            return f"{what}, more than {self.low:g} and at most {self.high:g}"
        return f"{what}, {self.low:g} to {self.high:g}"


def whole(low: int, high: int, unit: str = "") -> Number:
    """A whole number ``low`` to ``high``: ``whole(1, 8)`` for decks."""
    return Number(low, high, integral=True, unit=unit and f"whole {unit}")


def seconds(low: float, high: float, *, above: bool = False) -> Number:
    """A finite number of seconds ``low`` to ``high`` (more than ``low`` with ``above``)."""
    return Number(low, high, above=above, unit="seconds")


#: Decks in a shoe, as the dealer deals them.
DECKS = whole(1, MAX_DECKS)
#: A shuffle seed: what the dealer draws when none is given (it is written in shoe ids).
SEED = whole(0, 2**32 - 1)
#: Shoes to deal before stopping (``shoe --shoes``, ``simulate --shoes``).
SHOES = whole(1, 1_000_000)
#: ``--keepalive``, as ``mqtt.keepalive`` in a config.
KEEPALIVE = whole(1, 3600, "seconds")
#: ``--duration`` of a board that quits by itself (tests, demos): 0 (at once) to a year.
DURATION = seconds(0, YEAR)


def clock(text: str) -> str:
    """A time of day as the header shows it, ``HH:MM`` from 00:00 to 23:59.

    >>> clock("09:05")
    '09:05'
    >>> clock("99:99")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected HH:MM, 00:00 to 23:59, got '99:99'
    """
    if not re.fullmatch(r"([01][0-9]|2[0-3]):[0-5][0-9]", text):
        raise argparse.ArgumentTypeError(f"expected HH:MM, 00:00 to 23:59, got {text!r}")
    return text


def input_file(text: str) -> Path:
    """A file to read: refused when it is there but not a regular file; a missing one passes.

    The reader opens it (with :func:`scoreboard.regular_file.open_regular`) and
    says so if it is missing.  Nothing is opened here: a device is only looked at.

    >>> input_file("/dev/zero")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: /dev/zero: not a regular file but a character device
    """
    return _checked_path(text, stat.S_ISREG, "a regular file")


def output_file(text: str) -> Path:
    """A file to write (replaced if there): a FIFO would hold the writer until a reader came."""
    return _checked_path(text, stat.S_ISREG, "a regular file")


def directory(text: str) -> Path:
    """A directory to keep state in (made if missing).

    >>> directory("/dev/null")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: /dev/null: not a directory but a character device
    """
    return _checked_path(text, stat.S_ISDIR, "a directory")


def _checked_path(text: str, fits: Callable[[int], bool], wanted: str) -> Path:
    """``text`` as a path, unless what is there (a link followed) is not what ``fits``."""
    path = Path(text)
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return path  # missing or unreadable: the command says which, naming the file
    if not fits(mode):
        raise argparse.ArgumentTypeError(f"{text}: not {wanted} but {kind(mode)}")
    return path
