"""The results notation (scoreboard.game.notation): what is written is what is read."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoreboard.game.notation import FLAGS, ResultsSyntaxError, parse_results, result_games
from scoreboard.game.rules import Winner, result_coup

coups = st.tuples(st.sampled_from("BPT"), st.sets(st.sampled_from("bpn")))
separators = st.sampled_from([" ", ",", "-", "  ", ", ", "\t", ""])


@given(st.lists(st.tuples(coups, separators), max_size=30))
def test_written_coups_read_back_as_the_same_coups(written: list) -> None:
    text = "".join(letter + "".join(flags) + separator for (letter, flags), separator in written)
    expected = [
        result_coup(Winner(letter), **{FLAGS[flag]: True for flag in flags})
        for (letter, flags), _ in written
    ]
    assert parse_results(text) == expected
    assert [game.coup for game in result_games(text)] == expected
    assert [game.number for game in result_games(text)] == list(range(1, len(expected) + 1))


@given(st.lists(st.sampled_from("bpt"), min_size=1, max_size=20))
def test_a_token_without_capitals_is_a_coup_per_letter(letters: list[str]) -> None:
    coups_read = parse_results("".join(letters))
    assert [coup.winner for coup in coups_read] == [Winner(letter.upper()) for letter in letters]
    assert not any(c.banker_pair or c.player_pair or c.natural for c in coups_read)


def test_repeated_flags_count_once() -> None:
    assert parse_results("Bbb") == [result_coup(Winner.BANKER, banker_pair=True)]


def test_equal_coups_are_shared_values() -> None:
    first, second = parse_results("Bn Bn")
    assert first is second


def test_an_empty_text_is_an_empty_shoe() -> None:
    assert parse_results("") == [] and parse_results(" ,- ") == [] and result_games("") == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("BBX", "^bad character 'X' at position 3: expected B, P or T \\(or the flags b, p, n"),
        ("bbx", "^bad character 'x' at position 3: expected B, P or T$"),
        ("bp n", "^bad character 'n' at position 4: expected B, P or T \\(or the flags"),
        ("P bB", "^flag 'b' at position 3 has no coup letter before it: write the coup"),
        ("B,9", "^bad character '9' at position 3"),
    ],
)
def test_errors_name_the_character_and_its_position(text: str, message: str) -> None:
    with pytest.raises(ResultsSyntaxError, match=message):
        parse_results(text)
    assert issubclass(ResultsSyntaxError, ValueError)
