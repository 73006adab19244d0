"""``scoreboard themes``: list the themes it can find; shared theme/size options."""

from __future__ import annotations

import argparse

from scoreboard import config
from scoreboard.cli import UsageError
from scoreboard.theme import Theme, ThemeError, available_themes, load_theme, themes_dir


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "themes",
        help="list the shipped themes",
        description="List the themes shipped with scoreboard (name, orientations, title).",
    )
    parser.set_defaults(func=run)


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


def add_display_arguments(parser: argparse.ArgumentParser, *, default_size: str | None) -> None:
    """--theme, --size and --portrait, shared by demo and screenshot."""
    parser.add_argument(
        "--theme", default="classic", metavar="NAME|FILE", help="theme name or YAML file"
    )
    size_help = "screen size, e.g. 1920x1080; taller than wide picks the portrait layout"
    if default_size:
        size_help += f" (default {default_size})"
    parser.add_argument("--size", default=default_size, metavar="WxH", help=size_help)
    parser.add_argument(
        "--portrait",
        action="store_true",
        help="portrait layout: swaps --size to taller than wide (a screen turned on its side)",
    )


def display_from_args(args: argparse.Namespace) -> tuple[Theme, tuple[int, int] | None]:
    """The validated theme and the requested size (None: the desktop's)."""
    try:
        theme = load_theme(args.theme)
    except ThemeError as error:
        raise UsageError(str(error)) from None
    size = None
    if args.size:
        size = parse_size(args.size)
    if args.portrait:
        width, height = size or (1920, 1080)
        size = (min(width, height), max(width, height))
    return theme, size


def parse_size(text: str) -> tuple[int, int]:
    """``"1920x1080"`` -> ``(1920, 1080)``, or a one-line ``--size`` usage error."""
    try:
        return config.parse_size(text)
    except ValueError as error:
        raise UsageError(f"--size: {error}") from None
