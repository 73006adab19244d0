"""``scoreboard themes``: list the themes it can find (the display flags: ``display_args``)."""

from __future__ import annotations

import argparse

from scoreboard.screen.theme.loading import available_themes, load_theme, themes_dir
from scoreboard.screen.theme.values import ThemeError


def run(_args: argparse.Namespace) -> int:
    """Print each shipped theme: name, orientations, title (an invalid one says why)."""
    for name in available_themes():
        try:
            theme = load_theme(name)
        except ThemeError as error:
            print(f"{name:<12} (invalid: {error.errors[0]})")
            continue
        orientations = "+".join(theme.layouts)
        print(f"{name:<12} {orientations:<20} {theme.title}")
    print(f"# in {themes_dir()}; pass --theme NAME or --theme FILE.yaml")
    return 0
