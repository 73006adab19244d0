"""``scoreboard themes``: list the themes it can find; shared theme/size options."""

from __future__ import annotations

import argparse
from dataclasses import dataclass

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


#: The window ``--portrait --windowed`` opens without a ``--size``.
WINDOWED_PORTRAIT = (1080, 1920)


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


@dataclass(frozen=True, slots=True)
class DisplayRequest:
    """What the display flags ask for: the theme, the screen and how the picture sits on it.

    ``size`` None is the desktop's; ``portrait`` asks for the portrait layout on
    a screen that may be landscape (the kiosk then turns the picture 90 degrees);
    ``rotate`` is the clockwise turn for a monitor mounted on its side.
    """

    theme: Theme
    size: tuple[int, int] | None
    rotate: int = 0
    portrait: bool = False
    motion: bool = True


def add_display_arguments(parser: argparse.ArgumentParser, *, default_size: str | None) -> None:
    """--theme, --size, --portrait, --rotate and --no-motion, shared by demo, run and screenshot."""
    parser.add_argument(
        "--theme", default="classic", metavar="NAME|FILE", help="theme name or YAML file"
    )
    add_screen_arguments(parser, default_size=default_size)


def add_screen_arguments(
    parser: argparse.ArgumentParser, *, default_size: str | None, portrait: bool = True
) -> None:
    """--size, --portrait, --rotate and --no-motion (``run`` has its own --theme)."""
    size_help = "screen size, e.g. 1920x1080; taller than wide picks the portrait layout"
    if default_size:
        size_help += f" (default {default_size})"
    parser.add_argument("--size", default=default_size, metavar="WxH", help=size_help)
    if portrait:
        parser.add_argument(
            "--portrait",
            action="store_true",
            help=(
                "portrait layout: with --size, swaps it to taller than wide; full screen on a "
                "landscape screen, turns the picture 90 degrees (as --rotate 90)"
            ),
        )
    parser.add_argument(
        "--rotate",
        type=int,
        choices=config.ROTATIONS,
        metavar="{0,90,180,270}",
        help=(
            "turn the picture clockwise by this many degrees, for a monitor mounted on its "
            "side that the OS does not rotate (90/270 on a landscape screen: portrait layout)"
        ),
    )
    parser.add_argument(
        "--no-motion",
        dest="motion",
        action="store_false",
        default=None,
        help="no animation: every change drawn at once (as the theme's motion.enabled: false)",
    )


def display_from_args(args: argparse.Namespace) -> DisplayRequest:
    """The validated theme and the requested screen (size None: the desktop's).

    ``--portrait`` with a size (or a window) swaps it to taller than wide; full
    screen without a size it is left to the kiosk, which turns the picture on a
    landscape screen instead of asking for a mode the screen does not have.
    """
    try:
        theme = load_theme(args.theme)
    except ThemeError as error:
        raise UsageError(str(error)) from None
    size = parse_size(args.size) if args.size else None
    portrait = bool(getattr(args, "portrait", False))
    rotate = args.rotate or 0
    if portrait and rotate:
        raise UsageError("--portrait and --rotate: give one (--rotate 90 is portrait turned)")
    if portrait and (size is not None or getattr(args, "windowed", False)):
        width, height = size or WINDOWED_PORTRAIT
        size = (min(width, height), max(width, height))
        portrait = False
    motion = True if args.motion is None else args.motion
    return DisplayRequest(theme, size, rotate=rotate, portrait=portrait, motion=motion)


def parse_size(text: str) -> tuple[int, int]:
    """``"1920x1080"`` -> ``(1920, 1080)``, or a one-line ``--size`` usage error."""
    try:
        return config.parse_size(text)
    except ValueError as error:
        raise UsageError(f"--size: {error}") from None
