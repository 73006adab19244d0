"""``scoreboard check-theme FILE...``: validate theme files, OK or every error.

OK is a promise: the kiosk can draw the theme at every supported size.  Its
numbers are in range, its text is drawable, its fonts load (tried in a child
process) and have a glyph for every character it puts on screen.  Under the OK
it says what each road shows on a 1080p screen in each orientation the theme
lays out, so a theme that would scroll a whole shoe is seen before a kiosk shows it.
The theme is also drawn once for real (:mod:`scoreboard.screen.board.probe`): a text
that leaves its panel, two texts over each other or a text below its size floor
is an error, as it is for the kiosk.
"""

from __future__ import annotations

import argparse

from scoreboard.screen.board.layout import compute_layout
from scoreboard.screen.board.probe import require_drawable
from scoreboard.screen.theme.fonts import check_font
from scoreboard.screen.theme.loading import load_theme
from scoreboard.screen.theme.values import DERIVED_PANELS, Theme, ThemeError

REFERENCE_SIZES = {"landscape": (1920, 1080), "portrait": (1080, 1920), "wide": (2560, 1080)}
WHOLE_SHOE = {"big_road": 48, "derived": 46}
"""Columns a whole 8-deck shoe needs on the big and derived roads (99 % of shoes, six
rows: docs/display.md, "The layout grid"); the bead plate needs 90 coups' cells."""
SHOE_COUPS = 90

__all__ = ["missing_glyphs", "run"]


def run(args: argparse.Namespace) -> int:
    status = 0
    for name in args.files:
        try:
            theme = require_drawable(load_theme(name))
        except ThemeError as error:
            for line in error.errors:
                print(line)
            status = 1
            continue
        print(f"{theme.source}: OK")
        for line in road_report(theme):
            print(f"  {line}")
    return status


def road_report(theme: Theme) -> list[str]:
    """What each road shows at 1080p per orientation, and whether a whole shoe fits.

    >>> print(road_report(load_theme("classic"))[0])  # doctest: +NORMALIZE_WHITESPACE
    landscape 1920x1080: bead plate 15 columns, big road 50 (28 px cells),
    derived 48 (14 px): a whole shoe fits
    """
    lines = []
    for orientation, size in REFERENCE_SIZES.items():
        if orientation not in theme.layouts:
            continue
        grids = compute_layout(theme, size).grids
        shown = {road: (grid.cols, round(grid.cell_height)) for road, grid in grids.items()}
        derived = [shown[name] for name in DERIVED_PANELS if name in shown]
        if derived:
            shown["derived"] = min(derived)
        needs = {**WHOLE_SHOE, "bead_plate": -(-SHOE_COUPS // theme.roads.rows)}
        parts, short = [], []
        for road, words in (
            ("bead_plate", "bead plate {} columns"),
            ("big_road", "big road {} ({} px cells)"),
            ("derived", "derived {} ({} px)"),
        ):
            if road in shown:
                parts.append(words.format(*shown[road]))
                if shown[road][0] < needs[road]:
                    short.append(road.replace("_", " "))
        verdict = f"a whole shoe scrolls on {', '.join(short)}" if short else "a whole shoe fits"
        lines.append(f"{orientation} {size[0]}x{size[1]}: {', '.join(parts)}: {verdict}")
    return lines


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
    for bold in (False, True):
        chain = theme.fonts.chain(bold=bold)
        missing = set(check_font(chain[0], "".join(texts.values())).missing)
        for later in chain[1:]:  # what the theme's font lacks, a font after it may have
            missing &= check_font(later, "".join(sorted(missing))).missing if missing else set()
        for key, text in texts.items():
            absent = sorted(set(text) & missing)
            if absent:
                problems.append(f"{key}: {chain[0].name} has no glyph for {''.join(absent)}")
    return problems
