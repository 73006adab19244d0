"""Good roads (好路): the patterns players walk the floor looking for.

Each is read off the roads as they stand, so it is a pure function of them: a
void or a correction that rebuilds the roads clears a pattern it broke.  The big
road's patterns look at its columns (the streaks; ties make no column), newest
last; a derived road's at its entries in the order they were placed.

- **Long Banker / long Player** (長莊 / 長閒): the current column is Banker (Player)
  and at least ``streak`` long.
- **Single jump** (單跳, the chop): the newest ``chop`` or more columns are all
  one long (B P B P ...).
- **Double jump** (雙跳): the newest ``double`` or more complete columns are all
  two long (BB PP BB ...).  A current column of one may still become two, so it
  keeps the pattern without counting towards it.
- **One Banker two Players** (一莊兩閒) and **one Player two Bankers** (一閒兩莊):
  the newest ``one_two`` or more complete columns alternate one Banker and two
  Players (B PP B PP ...), or one Player and two Bankers; a current column still
  short of its two counts as above.
- **A derived road all red** (大眼仔 / 小路 / 曱甴路 長紅): its newest ``red`` or more
  entries are red (the big road has been regular by that road's measure).

Patterns that hold at once are all reported (a long Banker of 6 is not a chop).
The counts say how far each goes, for "長莊 7" on a tile.  Past results do not
predict future results; the board says so wherever it shows these.

>>> from scoreboard.game.notation import result_games
>>> [str(g) for g in good_roads(Roads.build(result_games("BBBBBBB")))]
['long banker 7']
>>> [str(g) for g in good_roads(Roads.build(result_games("PBPBPB")))]
['single jump 6']
>>> [str(g) for g in good_roads(Roads.build(result_games("BBPPBBPPB")))]
['double jump 4', 'big eye boy red 6']
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from scoreboard.game.rules import Winner
from scoreboard.roads.engine import Color, DerivedRoad, Roads

__all__ = ["GoodRoad", "GoodRoadRules", "Pattern", "columns", "good_roads"]


class Pattern(enum.StrEnum):
    """The patterns, valued by the names config, JSON and themes use."""

    LONG_BANKER = "long_banker"
    LONG_PLAYER = "long_player"
    SINGLE_JUMP = "single_jump"
    DOUBLE_JUMP = "double_jump"
    ONE_BANKER_TWO_PLAYERS = "one_banker_two_players"
    ONE_PLAYER_TWO_BANKERS = "one_player_two_bankers"
    BIG_EYE_BOY_RED = "big_eye_boy_red"
    SMALL_ROAD_RED = "small_road_red"
    COCKROACH_PIG_RED = "cockroach_pig_red"


#: The names a board shows by default, English and Chinese (a theme may rename them).
NAMES: dict[Pattern, tuple[str, str]] = {
    Pattern.LONG_BANKER: ("Long Banker", "長莊"),
    Pattern.LONG_PLAYER: ("Long Player", "長閒"),
    Pattern.SINGLE_JUMP: ("Single jump", "單跳"),
    Pattern.DOUBLE_JUMP: ("Double jump", "雙跳"),
    Pattern.ONE_BANKER_TWO_PLAYERS: ("One Banker two Players", "一莊兩閒"),
    Pattern.ONE_PLAYER_TWO_BANKERS: ("One Player two Bankers", "一閒兩莊"),
    Pattern.BIG_EYE_BOY_RED: ("Big eye boy all red", "大眼仔長紅"),
    Pattern.SMALL_ROAD_RED: ("Small road all red", "小路長紅"),
    Pattern.COCKROACH_PIG_RED: ("Cockroach pig all red", "曱甴路長紅"),
}

_SIMPLIFIED = str.maketrans("長莊閒單雙兩紅", "长庄闲单双两红")


def good_road_name(pattern: Pattern, language: str) -> str:
    """The name a board shows in ``language`` (a shipped code): Chinese in either script,
    else English (the other languages' floors say these in English or Chinese).

    >>> good_road_name(Pattern.LONG_BANKER, "zh-Hans"), good_road_name(Pattern.LONG_BANKER, "th")
    ('长庄', 'Long Banker')
    """
    english, chinese = NAMES[pattern]
    if language == "zh-Hans":
        return chinese.translate(_SIMPLIFIED)
    return chinese if language in ("zh", "zh-Hant") else english


_RED_PATTERNS = {
    DerivedRoad.BIG_EYE_BOY: Pattern.BIG_EYE_BOY_RED,
    DerivedRoad.SMALL_ROAD: Pattern.SMALL_ROAD_RED,
    DerivedRoad.COCKROACH_PIG: Pattern.COCKROACH_PIG_RED,
}


@dataclass(frozen=True, slots=True)
class GoodRoadRules:
    """How far a pattern must go before it is a good road (config ``good_roads``).

    ``streak``: coups in the current column; ``chop``, ``double`` and ``one_two``:
    columns; ``red``: derived-road entries.  Each at least 2.
    """

    streak: int = 6
    chop: int = 4
    double: int = 3
    one_two: int = 4
    red: int = 6

    def __post_init__(self) -> None:
        for name in ("streak", "chop", "double", "one_two", "red"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 2 <= value <= 99:
                raise ValueError(f"good_roads.{name} must be a whole number from 2 to 99")


@dataclass(frozen=True, slots=True)
class GoodRoad:
    """A pattern that holds now and how far it goes (coups, columns or entries)."""

    pattern: Pattern
    length: int

    def __str__(self) -> str:
        return f"{self.pattern.value.replace('_', ' ')} {self.length}"


def columns(lengths: Sequence[int], last: Winner | None) -> list[tuple[Winner, int]]:
    """The big road's columns as (side, length), oldest first; sides alternate to ``last``.

    >>> columns((3, 1, 2), Winner.PLAYER)
    [(<Winner.PLAYER: 'P'>, 3), (<Winner.BANKER: 'B'>, 1), (<Winner.PLAYER: 'P'>, 2)]
    """
    if last is None:
        return []
    other = Winner.PLAYER if last is Winner.BANKER else Winner.BANKER
    count = len(lengths)
    return [(last if (count - 1 - i) % 2 == 0 else other, n) for i, n in enumerate(lengths)]


def _trailing(cols: Sequence[tuple[Winner, int]], wanted: dict[Winner, int]) -> int:
    """Complete columns at the end whose lengths are ``wanted`` for their side.

    The current (newest) column may be shorter than wanted: it is still on its way,
    keeps the pattern and is not counted.  Longer than wanted breaks the pattern.
    """
    count = 0
    for index in range(len(cols) - 1, -1, -1):
        side, length = cols[index]
        short = length < wanted[side]  # pragma: no mutate (an equal length counts above)
        if length == wanted[side]:
            count += 1
        elif index == len(cols) - 1 and short:
            continue
        else:
            break
    return count


def _trailing_red(colors: Sequence[Color]) -> int:
    count = 0
    for color in reversed(colors):
        if color is not Color.RED:
            break
        count += 1
    return count


def good_roads(roads: Roads, rules: GoodRoadRules | None = None) -> tuple[GoodRoad, ...]:
    """Every good road the roads show now, in :class:`Pattern` order.

    >>> from scoreboard.game.notation import result_games
    >>> [str(g) for g in good_roads(Roads.build(result_games("BPPBPPB")))]
    ['one banker two players 5']
    >>> good_roads(Roads.build(result_games("BBBBBB")), GoodRoadRules(streak=7))
    ()
    """
    rules = rules or GoodRoadRules()
    found: list[GoodRoad] = []
    streaks = roads.streaks
    if streaks.current_length >= rules.streak:
        side = Pattern.LONG_BANKER if streaks.current_side is Winner.BANKER else Pattern.LONG_PLAYER
        found.append(GoodRoad(side, streaks.current_length))
    cols = columns(roads.column_lengths, streaks.current_side)
    one = {Winner.BANKER: 1, Winner.PLAYER: 1}
    shapes = (
        (Pattern.SINGLE_JUMP, one, rules.chop),
        (Pattern.DOUBLE_JUMP, {Winner.BANKER: 2, Winner.PLAYER: 2}, rules.double),
        (Pattern.ONE_BANKER_TWO_PLAYERS, {Winner.BANKER: 1, Winner.PLAYER: 2}, rules.one_two),
        (Pattern.ONE_PLAYER_TWO_BANKERS, {Winner.BANKER: 2, Winner.PLAYER: 1}, rules.one_two),
    )
    for pattern, wanted, least in shapes:
        count = _trailing(cols, wanted)
        if count >= least:
            found.append(GoodRoad(pattern, count))
    for road, pattern in _RED_PATTERNS.items():
        count = _trailing_red([cell.color for cell in roads.derived(road.k)])
        if count >= rules.red:
            found.append(GoodRoad(pattern, count))
    return tuple(found)
