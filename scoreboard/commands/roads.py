"""``scoreboard roads [RESULTS] [--rows N]``: lay out a shoe's roads as JSON.

RESULTS is read by :func:`parse_results`; with no RESULTS, stdin holds one shoe
per line and each line gets one JSON object (an ``{"error": ...}`` object for a
line that does not parse, and exit status 1 at the end).
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import sys

from scoreboard.cli import UsageError
from scoreboard.core.roads import Roads
from scoreboard.core.rules import Coup, Game, Winner, result_coup

# A token is a run of characters other than spaces, commas and dashes.
TOKEN = re.compile(r"[^\s,-]+")
COUPS = {"B": Winner.BANKER, "P": Winner.PLAYER, "T": Winner.TIE}
FLAGS = {"b": "banker_pair", "p": "player_pair", "n": "natural"}

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


class ResultsSyntaxError(ValueError):
    """A RESULTS string that does not read as coups; names the character and position."""


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
        "--rows", type=int, default=6, metavar="N", help="rows of every road (default 6)"
    )
    parser.set_defaults(func=run)


def parse_results(text: str) -> list[Coup]:
    """Coups from a RESULTS string; positions in errors count from 1.

    >>> [(c.winner.value, c.banker_pair, c.player_pair, c.natural) for c in parse_results("Bbn,t")]
    [('B', True, False, True), ('T', False, False, False)]
    >>> [c.winner.value for c in parse_results("bbp")]
    ['B', 'B', 'P']
    >>> parse_results("bbx")
    Traceback (most recent call last):
    ...
    scoreboard.commands.roads.ResultsSyntaxError: bad character 'x' at position 3: ...
    """
    coups: list[Coup] = []
    for match in TOKEN.finditer(text):
        token, offset = match.group(), match.start()
        if token == token.lower():  # no capital: every letter is a coup
            for index, char in enumerate(token):
                letter = char.upper()
                if letter not in COUPS:
                    raise _bad(char, offset + index, flags_allowed=char == "n")
                coups.append(coup_for(letter))
        else:
            coups.extend(_coups_with_flags(token, offset))
    return coups


def _coups_with_flags(token: str, offset: int) -> list[Coup]:
    """Capitals start coups, lower-case b, p, n after one are its flags."""
    letters: list[list[str]] = []  # [coup letter, flag, flag, ...]
    for index, char in enumerate(token):
        if char in COUPS:
            letters.append([char])
        elif char in FLAGS:
            if not letters:
                raise ResultsSyntaxError(
                    f"flag {char!r} at position {offset + index + 1} has no coup letter "
                    "before it: write the coup in capitals first, e.g. Bb"
                )
            letters[-1].append(char)
        else:
            raise _bad(char, offset + index, flags_allowed=True)
    return [coup_for(letter, "".join(sorted(set(flags)))) for letter, *flags in letters]


@functools.cache
def coup_for(letter: str, flags: str = "") -> Coup:
    """The result-only coup for ``letter`` with ``flags`` (sorted, e.g. ``"bn"``), shared."""
    return result_coup(
        COUPS[letter],
        banker_pair="b" in flags,
        player_pair="p" in flags,
        natural="n" in flags,
    )


def _bad(char: str, index: int, *, flags_allowed: bool = False) -> ResultsSyntaxError:
    expected = "B, P or T"
    if flags_allowed:
        expected += " (or the flags b, p, n after a capital coup letter)"
    return ResultsSyntaxError(
        f"bad character {char!r} at position {index + 1}: expected {expected}"
    )


def roads_for(text: str, rows: int) -> dict[str, object]:
    """The JSON object for one shoe written as RESULTS."""
    coups = parse_results(text)
    games = [Game(number, coup) for number, coup in enumerate(coups, start=1)]
    return Roads.build(games, rows=rows).to_json()


def _dumps(obj: object) -> str:
    return json.dumps(obj, separators=(",", ":"))


def run(args: argparse.Namespace) -> int:
    if args.rows < 1:
        raise UsageError(f"--rows must be at least 1, got {args.rows}")
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
