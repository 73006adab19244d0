"""The arguments of ``scoreboard roads`` (run by :mod:`scoreboard.cli.commands.roads`)."""

from __future__ import annotations

import argparse

from scoreboard.cli.arg_types import whole

#: The most rows ``--rows`` lays a road out on (a board shows 3 to 12).
MAX_ROWS = 100


SYNTAX = """\
RESULTS syntax:
  B, P, T      one coup each (Banker, Player, Tie). Spaces, commas and dashes
               separate tokens and are otherwise ignored.
  a token with a capital letter:
               capitals B P T start a coup; lower-case letters after one are its
               flags: b banker pair, p player pair, n natural.
               "Bbn P Tp" = Banker with banker pair and natural, Player, Tie with
               player pair.  "BbP" = Banker with banker pair, then Player.
  a token with no capital letter:
               every letter is a coup, so "bbp" = Banker, Banker, Player.
  An empty RESULTS (or an empty stdin line) is an empty shoe.

Output: one JSON object with bead_plate, big_road, big_eye_boy, small_road,
cockroach_pig, predictions, counts and streaks (col and row 0-based, row 0 at
the top, lists in placement order).  A bad character exits 2 naming it and its
position; on stdin the line gets {"error": "..."} and the exit status is 1.
"""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "roads",
        help="lay out bead plate, big road, derived roads and predictions as JSON",
        description=(
            "Lay out the roads of a shoe given as results and print them as JSON. "
            "With no RESULTS, read one shoe per line from stdin and print one JSON "
            "object per line."
        ),
        epilog=SYNTAX,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "results",
        nargs="*",
        metavar="RESULTS",
        help='coups such as BBPT or "Bbn P Tp" (several arguments are joined by spaces)',
    )
    parser.add_argument(
        "--rows",
        type=whole(1, MAX_ROWS),
        default=6,
        metavar="N",
        help=f"rows of every road (default 6, at most {MAX_ROWS})",
    )
    parser.set_defaults(runs="scoreboard.cli.commands.roads")
