"""``scoreboard roads [RESULTS] [--rows N]``: lay out a shoe's roads as JSON.

RESULTS is read by :func:`scoreboard.game.notation.parse_results` (re-exported
here with its :class:`ResultsSyntaxError`); with no RESULTS, stdin holds one
shoe per line and each line gets one JSON object (an ``{"error": ...}`` object
for a line that does not parse, and exit status 1 at the end).
"""

from __future__ import annotations

import argparse
import json
import sys

from scoreboard.cli import UsageError
from scoreboard.game.notation import ResultsSyntaxError, result_games
from scoreboard.roads.engine import Roads

__all__ = ["roads_for", "run"]


def roads_for(text: str, rows: int) -> dict[str, object]:
    """The JSON object for one shoe written as RESULTS.

    >>> shoe = roads_for("Bbn P Tp", rows=6)
    >>> shoe["counts"]["banker_pairs"], shoe["counts"]["naturals"], shoe["counts"]["T"]
    (1, 1, 1)
    """
    return Roads.build(result_games(text), rows=rows).to_json()


def _dumps(obj: object) -> str:
    return json.dumps(obj, separators=(",", ":"))


def run(args: argparse.Namespace) -> int:
    if args.results:
        try:
            print(_dumps(roads_for(" ".join(args.results), args.rows)))
        except ResultsSyntaxError as error:
            raise UsageError(str(error)) from None
        return 0
    status = 0
    write = sys.stdout.write
    for line_number, line in enumerate(sys.stdin, start=1):
        try:
            write(_dumps(roads_for(line, args.rows)) + "\n")
        except ResultsSyntaxError as error:
            write(_dumps({"error": f"line {line_number}: {error}"}) + "\n")
            status = 1
        sys.stdout.flush()
    return status
