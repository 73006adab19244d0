"""``scoreboard check-theme FILE...``: validate theme files, OK or every error.

OK is a promise: the kiosk can draw the theme at every supported size.  Its
numbers are in range, its text is drawable, its fonts load (tried in a child
process) and have a glyph for every character it puts on screen.
"""

from __future__ import annotations

import argparse

from scoreboard.fonts import absent_glyphs, check_font
from scoreboard.theme import Theme, ThemeError, load_theme

__all__ = ["absent_glyphs", "missing_glyphs", "register", "run"]


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "check-theme",
        help="validate theme files",
        description=(
            "Validate theme YAML files (or shipped theme names). Prints 'FILE: OK' or "
            "every problem as 'file: key.path: what was expected'; exit 1 on any error."
        ),
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="theme YAML file or name")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    status = 0
    for name in args.files:
        try:
            theme = load_theme(name)
        except ThemeError as error:
            for line in error.errors:
                print(line)
            status = 1
            continue
        print(f"{theme.source}: OK")
    return status


def missing_glyphs(theme: Theme) -> list[str]:
    """Labels with characters the theme's fonts cannot draw (empty for any loaded theme).

    :func:`load_theme` already refuses such a theme; this lists them per label
    for a theme built some other way.
    """
    texts = {f"roads.letters.{k}": v for k, v in theme.roads.letters.items()}
    for lang, labels in theme.labels.items():
        for key in labels.__dataclass_fields__:
            texts[f"labels.{lang}.{key}"] = getattr(labels, key)
    problems = []
    for path in sorted({theme.fonts.regular, theme.fonts.bold}):
        check = check_font(path, "".join(texts.values()))
        for key, text in texts.items():
            absent = sorted(set(text) & check.missing)
            if absent:
                problems.append(f"{key}: {path.name} has no glyph for {''.join(absent)}")
    return problems
