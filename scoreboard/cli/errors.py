"""The two ways a command ends in one line instead of a traceback."""

from __future__ import annotations


class UsageError(Exception):
    """A bad argument value found after parsing; exits 2 with a one-line message."""


class CommandError(Exception):
    """The command cannot do its job here (no display, ...); exits 1 with the message."""
