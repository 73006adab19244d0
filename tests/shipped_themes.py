"""The shipped themes, each loaded once per test process.

A theme is a frozen value: every test that reads ``classic`` reads the same one,
so parsing its YAML once is enough for a whole worker.
"""

from __future__ import annotations

import functools

from scoreboard.screen.theme.loading import load_theme
from scoreboard.screen.theme.values import Theme


@functools.cache
def shipped_theme(name: str) -> Theme:
    """The theme ``name`` as :func:`load_theme` reads it, read once."""
    return load_theme(name)
