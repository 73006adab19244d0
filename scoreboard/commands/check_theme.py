"""``scoreboard check-theme FILE...``: validate theme files, OK or every error."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from scoreboard.theme import Theme, ThemeError, load_theme

if TYPE_CHECKING:
    import pygame.freetype


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
        missing = missing_glyphs(theme)
        for line in missing:
            print(f"{theme.source}: warning: {line}")
        print(f"{theme.source}: OK")
    return status


def missing_glyphs(theme: Theme) -> list[str]:
    """Labels with characters the theme's fonts cannot draw (they would show as boxes)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame.freetype

    pygame.freetype.init()
    texts = {"roads.letters": "".join(theme.roads.letters.values())}
    for lang, labels in theme.labels.items():
        for key in labels.__dataclass_fields__:
            texts[f"labels.{lang}.{key}"] = getattr(labels, key)
    problems = []
    for path in sorted({theme.fonts.regular, theme.fonts.bold}):
        font = pygame.freetype.Font(str(path), 20)
        for key, text in texts.items():
            absent = absent_glyphs(font, text)
            if absent:
                problems.append(f"{key}: {path.name} has no glyph for {''.join(absent)}")
    return problems


def absent_glyphs(font: pygame.freetype.Font, text: str) -> list[str]:
    """The characters of ``text`` (sorted, whitespace aside) ``font`` has no glyph for.

    pygame.freetype, not pygame.font: ``pygame.font.Font.metrics`` (pygame-ce 2.5)
    gives the .notdef box's metrics for a missing glyph, never None.
    """
    metrics = font.get_metrics(text)
    absent = sorted({c for c, m in zip(text, metrics, strict=False) if m is None})
    return [c for c in absent if not c.isspace()]
