"""Card notation of rules.md: ranks, optional suits, case-insensitive, 10 for T."""

from __future__ import annotations

import pytest

from scoreboard.game.cards import Card, UnknownCardError, hand_total, parse_card, parse_cards


@pytest.mark.parametrize(
    ("token", "rank", "suit"),
    [
        ("9S", "9", "S"),
        ("KH", "K", "H"),
        ("T", "T", None),
        ("10D", "T", "D"),
        ("10", "T", None),
        ("a", "A", None),
        ("qc", "Q", "C"),
        (" 7h ", "7", "H"),
    ],
)
def test_parses_the_notation_of_the_rules(token: str, rank: str, suit: str | None) -> None:
    assert parse_card(token) == Card(rank, suit)


@pytest.mark.parametrize("token", ["", "1", "11", "X", "9X", "10DD", "AS1", "0", "S9", "ten"])
def test_an_unknown_token_raises_an_error_naming_it(token: str) -> None:
    with pytest.raises(UnknownCardError) as caught:
        parse_card(token)
    assert repr(token) in str(caught.value)


def test_a_non_string_token_is_an_unknown_card() -> None:
    with pytest.raises(UnknownCardError):
        parse_card(9)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("rank", "points"),
    [("A", 1), ("2", 2), ("5", 5), ("9", 9), ("T", 0), ("J", 0), ("Q", 0), ("K", 0)],
)
def test_point_values(rank: str, points: int) -> None:
    assert Card(rank).points == points


def test_a_hand_total_is_the_last_digit_of_the_sum() -> None:
    assert hand_total(parse_cards(["9", "8"])) == 7
    assert hand_total(parse_cards(["K", "Q", "J"])) == 0
    assert hand_total(parse_cards(["5", "5", "9"])) == 9


def test_cards_print_in_wire_notation() -> None:
    assert [str(c) for c in parse_cards(["10d", "k", "as"])] == ["TD", "K", "AS"]


def test_the_first_bad_token_of_several_is_named() -> None:
    with pytest.raises(UnknownCardError, match="'ZZ'"):
        parse_cards(["9S", "ZZ", "YY"])


@pytest.mark.parametrize("token", ["x", "z", " q9 "])
def test_the_error_keeps_the_token_as_it_was_written(token: str) -> None:
    with pytest.raises(UnknownCardError) as caught:
        parse_card(token)
    assert caught.value.token == token


@pytest.mark.parametrize(("rank", "suit"), [("X", None), ("1", None), ("A", "X"), ("A", "s")])
def test_a_card_is_only_made_of_a_known_rank_and_suit(rank: str, suit: str | None) -> None:
    with pytest.raises(UnknownCardError, match="unknown card"):
        Card(rank, suit)
