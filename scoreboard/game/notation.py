"""The results notation: a shoe written as coups, e.g. ``"Bbn P Tp"``.

Each of ``B``, ``P``, ``T`` is one coup.  In a token (a run of characters
other than spaces, commas and dashes) with a capital letter, capitals start
coups and lower-case ``b``, ``p``, ``n`` after one are its banker pair, player
pair and natural flags.  In a token with no capital every letter is a coup,
so ``"bbp"`` is Banker, Banker, Player.  The roads command, the screenshot
command and the tests all read shoes through :func:`parse_results`.

>>> [(c.winner.value, c.banker_pair, c.player_pair, c.natural) for c in parse_results("Bbn,t")]
[('B', True, False, True), ('T', False, False, False)]
>>> [game.number for game in result_games("BTP")]
[1, 2, 3]
"""

from __future__ import annotations

import functools
import re

from scoreboard.game.rules import Coup, Game, Winner, result_coup

__all__ = ["FLAGS", "ResultsSyntaxError", "parse_results", "result_games"]

_TOKEN = re.compile(r"[^\s,-]+")
_COUPS = frozenset(winner.value for winner in Winner)
# Flag letter -> the keyword of result_coup it sets.
FLAGS = {"b": "banker_pair", "p": "player_pair", "n": "natural"}


class ResultsSyntaxError(ValueError):
    """Results text that does not read as coups; names the character and its position."""


def parse_results(text: str) -> list[Coup]:
    """Coups from results text; positions in errors count from 1.

    >>> [c.winner.value for c in parse_results("bbp")]
    ['B', 'B', 'P']
    >>> parse_results("bbx")
    Traceback (most recent call last):
    ...
    scoreboard.game.notation.ResultsSyntaxError: bad character 'x' at position 3: expected B, P or T
    """
    coups: list[Coup] = []
    for match in _TOKEN.finditer(text):
        token, offset = match.group(), match.start()
        if token == token.lower():
            coups.extend(_lowercase_coups(token, offset))
        else:
            coups.extend(_coups_with_flags(token, offset))
    return coups


def result_games(text: str) -> list[Game]:
    """Games numbered from 1 for results text, as the roads are built from them."""
    return [Game(number, coup) for number, coup in enumerate(parse_results(text), start=1)]


def _lowercase_coups(token: str, offset: int) -> list[Coup]:
    """A token with no capital: every letter is a coup."""
    coups = []
    for index, char in enumerate(token):
        letter = char.upper()
        if letter not in _COUPS:
            raise _bad(char, offset + index, flags_allowed=char == "n")
        coups.append(_coup_for(letter))
    return coups


def _coups_with_flags(token: str, offset: int) -> list[Coup]:
    """Capitals start coups, lower-case b, p, n after one are its flags."""
    letters: list[list[str]] = []  # [coup letter, flag, flag, ...]
    for index, char in enumerate(token):
        if char in _COUPS:
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
    return [_coup_for(letter, "".join(sorted(set(flags)))) for letter, *flags in letters]


@functools.cache
def _coup_for(letter: str, flags: str = "") -> Coup:
    """The result-only coup for ``letter`` with ``flags`` (sorted, e.g. ``"bn"``), shared."""
    return result_coup(Winner(letter), **{FLAGS[flag]: True for flag in flags})


def _bad(char: str, index: int, *, flags_allowed: bool) -> ResultsSyntaxError:
    expected = "B, P or T"
    if flags_allowed:
        expected += " (or the flags b, p, n after a capital coup letter)"
    return ResultsSyntaxError(
        f"bad character {char!r} at position {index + 1}: expected {expected}"
    )
