"""The display flags, declared once: --theme, --windowed, --size, --portrait, --rotate, ...

``run``, ``lobby``, ``demo`` and ``screenshot`` show a board on a screen and
take the same flags for it, with the same words in ``--help``.  A command that
reads a config file (``run``, ``lobby``) declares them with ``from_config=True``:
no defaults (the file decides; a flag overrides it) and the config key named in
the help.  :func:`display_from_args` turns the flags of a command without a
config file into a :class:`DisplayRequest`.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from scoreboard.cli import UsageError
from scoreboard.config import ROTATIONS
from scoreboard.config import parse_size as read_size
from scoreboard.core.good_roads import GoodRoadRules
from scoreboard.theme import Theme, ThemeError, load_theme
from scoreboard.translations import SHIPPED, parse_languages

__all__ = [
    "WINDOWED_PORTRAIT",
    "DisplayRequest",
    "add_display_arguments",
    "display_from_args",
    "languages_from",
    "parse_size",
]

#: The window ``--portrait --windowed`` opens without a ``--size``.
WINDOWED_PORTRAIT = (1080, 1920)


@dataclass(frozen=True, slots=True)
class DisplayRequest:
    """What the display flags ask for: the theme, the screen and how the picture sits on it.

    ``size`` None is the desktop's; ``portrait`` asks for the portrait layout on
    a screen that may be landscape (the kiosk then turns the picture 90 degrees);
    ``rotate`` is the clockwise turn for a monitor mounted on its side;
    ``good_roads`` the thresholds of the good-road plate (None: off).
    """

    theme: Theme
    size: tuple[int, int] | None
    rotate: int = 0
    portrait: bool = False
    motion: bool = True
    good_roads: GoodRoadRules | None = None


def _key(config_key: str, used: bool) -> str:
    return f" ({config_key})" if used else ""


def add_display_arguments(
    parser: argparse.ArgumentParser,
    *,
    default_size: str | None = None,
    from_config: bool = False,
    windowed: bool = True,
    portrait: bool = True,
    motion: bool = True,
    good_roads: bool = True,
) -> None:
    """Declare the display flags ``parser`` takes (each flag is turned off by its keyword).

    ``from_config=True``: the command reads a config file, so no flag has a default
    of its own and each help names its key.

    >>> parser = argparse.ArgumentParser()
    >>> add_display_arguments(parser, from_config=True, portrait=False, good_roads=False)
    >>> args = parser.parse_args(["--size", "800x600", "--rotate", "90"])
    >>> args.theme, args.windowed, args.size, args.rotate, args.motion
    (None, None, '800x600', 90, None)
    """
    parser.add_argument(
        "--theme",
        default=None if from_config else "classic",
        metavar="NAME|FILE",
        help="theme name or YAML file" + _key("display.theme", from_config),
    )
    if windowed:
        parser.add_argument(
            "--windowed",
            action="store_true",
            default=None if from_config else False,
            help="a window instead of full screen" + _key("display.windowed", from_config),
        )
    parser.add_argument(
        "--languages",
        metavar="CODES",
        help="the languages shown, main first, e.g. en,th (shipped: "
        + ",".join(SHIPPED)
        + "; zh = zh-Hant); default the theme's"
        + _key("display.languages", from_config),
    )
    size_help = "screen size, e.g. 1920x1080; taller than wide picks the portrait layout"
    if default_size:
        size_help += f" (default {default_size})"
    parser.add_argument(
        "--size",
        default=default_size,
        metavar="WxH",
        help=size_help + _key("display.size", from_config),
    )
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
        choices=ROTATIONS,
        metavar="{0,90,180,270}",
        help=(
            "turn the picture clockwise by this many degrees, for a monitor mounted on its "
            "side that the OS does not rotate (90/270 on a landscape screen: portrait layout)"
        )
        + _key("display.rotate", from_config),
    )
    if motion:
        parser.add_argument(
            "--no-motion",
            dest="motion",
            action="store_false",
            default=None,
            help="no animation: every change drawn at once "
            + (
                "(display.motion: false)"
                if from_config
                else "(as the theme's motion.enabled: false)"
            ),
        )
    if good_roads:
        parser.add_argument(
            "--good-roads",
            action="store_true",
            default=None if from_config else False,
            help="name the good roads (長莊 long Banker, 單跳 single jump, ...) in the big "
            "road's title row" + _key("display.good_roads.enabled", from_config),
        )


def display_from_args(args: argparse.Namespace) -> DisplayRequest:
    """The validated theme and the requested screen (size None: the desktop's).

    ``--portrait`` with a size (or a window) swaps it to taller than wide; full
    screen without a size it is left to the kiosk, which turns the picture on a
    landscape screen instead of asking for a mode the screen does not have.
    """
    try:
        theme = load_theme(args.theme, languages_from(args))
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
    rules = GoodRoadRules() if getattr(args, "good_roads", False) else None
    return DisplayRequest(
        theme, size, rotate=rotate, portrait=portrait, motion=motion, good_roads=rules
    )


def languages_from(args: argparse.Namespace) -> tuple[str, ...]:
    """``--languages`` as shipped codes, main first (empty: not given), or a one-line usage error.

    >>> languages_from(argparse.Namespace(languages="en,zh"))
    ('en', 'zh-Hant')
    """
    text = getattr(args, "languages", None)
    if text is None:
        return ()
    try:
        return parse_languages(text)
    except ValueError as error:
        raise UsageError(str(error)) from None


def parse_size(text: str) -> tuple[int, int]:
    """``"1920x1080"`` -> ``(1920, 1080)``, or a one-line ``--size`` usage error."""
    try:
        return read_size(text)
    except ValueError as error:
        raise UsageError(f"--size: {error}") from None


def register(_subparsers: argparse._SubParsersAction) -> None:
    """No subcommand of its own (``cli`` asks every module of ``commands``): flags only."""
