"""Good roads against hand-worked shoes and an oracle built from the results string alone."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoreboard.game.notation import result_games
from scoreboard.roads.engine import Color, Roads
from scoreboard.roads.good_roads import (
    NAMES,
    GoodRoad,
    GoodRoadRules,
    Pattern,
    good_road_name,
    good_roads,
)

P = Pattern


def found(results: str, rules: GoodRoadRules | None = None) -> dict[Pattern, int]:
    return {g.pattern: g.length for g in good_roads(Roads.build(result_games(results)), rules)}


def big_road_only(results: str, rules: GoodRoadRules | None = None) -> dict[Pattern, int]:
    red = {P.BIG_EYE_BOY_RED, P.SMALL_ROAD_RED, P.COCKROACH_PIG_RED}
    return {k: v for k, v in found(results, rules).items() if k not in red}


# Hand-worked shoes: columns written out, ties (T) make no column.
@pytest.mark.parametrize(
    ("results", "expected"),
    [
        ("", {}),
        ("TTT", {}),
        ("BBBBB", {}),  # five: one short
        ("BBBBBB", {P.LONG_BANKER: 6}),
        ("PBBBTBBTB", {P.LONG_BANKER: 6}),  # ties do not break a streak
        ("BPPPPPPP", {P.LONG_PLAYER: 7}),
        ("BBBBBBBP", {}),  # the long Banker ended
        ("BPB", {}),
        ("BPBP", {P.SINGLE_JUMP: 4}),
        ("BBPBPB", {P.SINGLE_JUMP: 4}),  # the first B column is two long: not part of it
        ("PBPBPBPBB", {}),  # the chop broke on the last coup
        ("BBPPBB", {P.DOUBLE_JUMP: 3}),
        ("BBPPBBP", {P.DOUBLE_JUMP: 3}),  # a current column of one is on its way
        ("BBPPBBPPP", {}),  # three long: broken
        ("PBBPPBB", {P.DOUBLE_JUMP: 3}),  # the leading P of one is not part of it
        ("BPPBPP", {P.ONE_BANKER_TWO_PLAYERS: 4}),
        ("BPPBPPBP", {P.ONE_BANKER_TWO_PLAYERS: 5}),
        ("PBBPBB", {P.ONE_PLAYER_TWO_BANKERS: 4}),
        ("PBBPBBPB", {P.ONE_PLAYER_TWO_BANKERS: 5}),
        ("BPPBPPBB", {}),  # B should have been one
    ],
)
def test_hand_worked_big_road_patterns(results, expected):
    assert big_road_only(results) == expected


def test_the_thresholds_come_from_the_rules():
    rules = GoodRoadRules(streak=3, chop=6, double=2, one_two=2, red=2)
    assert big_road_only("BBB", rules) == {P.LONG_BANKER: 3}
    assert big_road_only("BPBPB", rules) == {}
    assert big_road_only("PBB", rules) == {P.ONE_PLAYER_TWO_BANKERS: 2}
    assert big_road_only("BBPP", rules) == {P.DOUBLE_JUMP: 2}


@pytest.mark.parametrize("bad", [0, 1, 100, -3, True, 2.5, "6"])
def test_a_threshold_out_of_range_is_refused_by_name(bad):
    with pytest.raises(ValueError, match=r"good_roads\.chop must be a whole number from 2 to 99"):
        GoodRoadRules(chop=bad)


def test_the_bounds_of_a_threshold_are_accepted():
    """2 to 99, both ends included (docs/display.md, ``good_roads``)."""
    assert GoodRoadRules(streak=2, chop=99).chop == 99


@pytest.mark.parametrize("language", ["zh", "zh-Hant"])
def test_traditional_chinese_gets_the_names_the_floor_reads(language):
    assert good_road_name(P.LONG_BANKER, language) == "長莊"
    assert good_road_name(P.SINGLE_JUMP, "en") == NAMES[P.SINGLE_JUMP][0]


def test_a_regular_road_shows_its_derived_roads_all_red():
    # BBPPBBPPBBPP: every column two long. Big eye boy starts at column 2 row 2 (roads.md)
    # and stays red; small road from column 3 row 2, cockroach pig from column 4 row 2.
    got = found("BBPPBBPPBBPPBBPP", GoodRoadRules(red=2))
    roads = Roads.build(result_games("BBPPBBPPBBPPBBPP"))
    assert [c.color for c in roads.big_eye_boy] == [Color.RED] * len(roads.big_eye_boy)
    assert got[P.BIG_EYE_BOY_RED] == len(roads.big_eye_boy)
    assert got[P.SMALL_ROAD_RED] == len(roads.small_road)
    assert got[P.COCKROACH_PIG_RED] == len(roads.cockroach_pig)
    assert got[P.DOUBLE_JUMP] == 8


def test_a_blue_entry_ends_a_red_run():
    roads = Roads.build(result_games("BBPPBBPPBBPPP"))  # the last P breaks the pattern
    assert roads.big_eye_boy[-1].color is Color.BLUE
    assert P.BIG_EYE_BOY_RED not in found("BBPPBBPPBBPPP", GoodRoadRules(red=2))


def test_a_void_that_breaks_the_pattern_clears_it():
    games = result_games("PBBBBBB")
    assert found("PBBBBBB") == {P.LONG_BANKER: 6}
    kept = [g for g in games if g.number != 4]  # game 4 voided: the streak is five
    assert good_roads(Roads.build(kept)) == ()


def test_every_pattern_has_an_english_and_a_chinese_name():
    assert set(NAMES) == set(Pattern)
    assert NAMES[P.LONG_BANKER] == ("Long Banker", "長莊")
    assert NAMES[P.SINGLE_JUMP][1] == "單跳"
    assert NAMES[P.ONE_PLAYER_TWO_BANKERS][1] == "一閒兩莊"


# -- the oracle: columns written as strings and matched against the end of the results --------


def suffix_columns(results: str, wanted: dict[str, int]) -> int:
    """The most complete columns of lengths ``wanted`` the results end with, by construction.

    Builds every candidate ending (c complete columns, sides alternating, plus an
    optional current column shorter than its wanted length) and keeps the longest
    that the results end with and that is not the tail of a longer column.
    """
    s = results.replace("T", "")
    best = 0
    for count in range(1, len(s) + 1):
        for first in "BP":
            sides = [first if i % 2 == 0 else ("P" if first == "B" else "B") for i in range(count)]
            body = "".join(side * wanted[side] for side in sides)
            nxt = "P" if sides[-1] == "B" else "B"
            for partial in range(wanted[nxt]):
                suffix = body + nxt * partial
                if not s.endswith(suffix):
                    continue
                before = s[: len(s) - len(suffix)]
                if before and before[-1] == first:
                    continue
                best = max(best, count)
    return best


def streak(results: str) -> tuple[str, int]:
    s = results.replace("T", "")
    if not s:
        return "", 0
    n = len(s) - len(s.rstrip(s[-1]))
    return s[-1], n


results_text = st.lists(
    st.sampled_from(["B", "P", "T", "BB", "PP", "BP", "PB", "BBB", "PPP", "BPPBPP", "PBBPBB"]),
    max_size=30,
).map("".join)


@settings(max_examples=300, deadline=None)
@given(results_text, st.integers(2, 7), st.integers(2, 7), st.integers(2, 5))
def test_big_road_patterns_match_the_oracle(results, streak_n, chop_n, other_n):
    rules = GoodRoadRules(streak=streak_n, chop=chop_n, double=other_n, one_two=other_n)
    expected: dict[Pattern, int] = {}
    side, length = streak(results)
    if length >= streak_n:
        expected[P.LONG_BANKER if side == "B" else P.LONG_PLAYER] = length
    shapes = [
        (P.SINGLE_JUMP, {"B": 1, "P": 1}, chop_n),
        (P.DOUBLE_JUMP, {"B": 2, "P": 2}, other_n),
        (P.ONE_BANKER_TWO_PLAYERS, {"B": 1, "P": 2}, other_n),
        (P.ONE_PLAYER_TWO_BANKERS, {"B": 2, "P": 1}, other_n),
    ]
    for pattern, wanted, least in shapes:
        count = suffix_columns(results, wanted)
        if count >= least:
            expected[pattern] = count
    assert big_road_only(results, rules) == expected


@settings(max_examples=200, deadline=None)
@given(results_text, st.integers(2, 8))
def test_a_derived_road_is_all_red_exactly_when_its_newest_entries_are(results, red_n):
    roads = Roads.build(result_games(results))
    got = {g.pattern: g.length for g in good_roads(roads, GoodRoadRules(red=red_n))}
    for pattern, cells in [
        (P.BIG_EYE_BOY_RED, roads.big_eye_boy),
        (P.SMALL_ROAD_RED, roads.small_road),
        (P.COCKROACH_PIG_RED, roads.cockroach_pig),
    ]:
        colors = "".join(c.color.value[0] for c in cells)
        run = len(colors) - len(colors.rstrip("r"))
        assert got.get(pattern) == (run if run >= red_n else None)


@settings(max_examples=150, deadline=None)
@given(results_text)
def test_good_roads_are_a_function_of_the_roads_built_or_appended(results):
    games = result_games(results)
    appended = Roads()
    for game in games:
        appended.append(game)
    assert good_roads(appended) == good_roads(Roads.build(games))
    assert all(isinstance(g, GoodRoad) and g.length >= 2 for g in good_roads(appended))


def test_the_pattern_names_are_the_lobby_status_schemas() -> None:
    """The lobby publishes each pattern by its value, and config and themes name them so."""
    schema = json.loads(
        resources.files("scoreboard.schemas").joinpath("lobby_status.json").read_text()
    )
    tiles = schema["properties"]["tables"]["items"]["properties"]
    assert [pattern.value for pattern in Pattern] == tiles["good_roads"]["items"]["enum"]


def test_the_names_are_the_ones_docs_display_md_lists() -> None:
    text = (Path(__file__).parents[1] / "docs" / "display.md").read_text(encoding="utf-8")
    rows = re.findall(r"^  \| `(\w+)` \| ([^|]+) \| ([^|]+) \|$", text, re.M)
    documented = {
        Pattern(value): (english.strip(), chinese.strip()) for value, english, chinese in rows
    }
    assert documented == NAMES
