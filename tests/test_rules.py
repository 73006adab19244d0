"""The tableau, checked cell by cell against the table of rules.md written out by hand."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoreboard.core.cards import RANKS, SUITS, Card, parse_cards
from scoreboard.core.rules import (
    ImpossibleHandError,
    Winner,
    banker_draws,
    deal_coup,
    player_draws,
    record_coup,
    result_coup,
)

# rules.md, Banker's table, transcribed as text: D = draws, S = stands, for
# Player's third card worth 0..9, and the last column for "Player stood".
BANKER_TABLE = {
    0: "DDDDDDDDDD D",
    1: "DDDDDDDDDD D",
    2: "DDDDDDDDDD D",
    3: "DDDDDDDDSD D",
    4: "SSDDDDDDSS D",
    5: "SSSSDDDDSS D",
    6: "SSSSSSDDSS S",
    7: "SSSSSSSSSS S",
}

# A card of each point value: used to build hands with given totals.
BY_POINTS = {0: "K", 1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9"}


def two_cards(total: int) -> tuple[str, str]:
    """Two non-pair cards making ``total`` (pairs are fine too, but keep them apart)."""
    first = 0 if total != 0 else 5
    second = (total - first) % 10
    return BY_POINTS[first], BY_POINTS[second]


@pytest.mark.parametrize("banker_total", range(8))
@pytest.mark.parametrize("third", [*range(10), None])
def test_every_cell_of_the_banker_table(banker_total: int, third: int | None) -> None:
    row = BANKER_TABLE[banker_total]
    expected = (row[11] if third is None else row[third]) == "D"
    assert banker_draws(banker_total, third) is expected


@pytest.mark.parametrize("banker_total", range(8))
@pytest.mark.parametrize("third", range(10))
def test_every_cell_of_the_banker_table_through_a_dealt_coup(banker_total: int, third: int) -> None:
    p1, p2 = "A", "4"  # Player 5 draws
    b1, b2 = two_cards(banker_total)
    cards = parse_cards([p1, b1, p2, b2, BY_POINTS[third], "9"])
    coup = deal_coup(cards)
    assert len(coup.player) == 3
    assert (len(coup.banker) == 3) is (BANKER_TABLE[banker_total][third] == "D")


@pytest.mark.parametrize("player_total", range(8))
def test_player_draws_on_0_to_5_and_stands_on_6_and_7(player_total: int) -> None:
    assert player_draws(player_total) is (player_total <= 5)
    b1, b2 = "K", "7"  # Banker 7 stands whatever happens
    p1, p2 = two_cards(player_total)
    coup = deal_coup(parse_cards([p1, b1, p2, b2, "3", "3"]))
    assert len(coup.player) == (3 if player_total <= 5 else 2)
    assert len(coup.banker) == 2


def test_worked_example_player_2_3_banker_4_10_player_draws_6_banker_draws_ace() -> None:
    coup = deal_coup(parse_cards(["2", "4", "3", "10", "6", "A"]))
    assert [str(c) for c in coup.player] == ["2", "3", "6"]
    assert [str(c) for c in coup.banker] == ["4", "T", "A"]
    assert (coup.player_total, coup.banker_total, coup.winner) == (1, 5, Winner.BANKER)


@pytest.mark.parametrize(
    ("cards", "winner", "player_natural", "banker_natural"),
    [
        (["8", "2", "K", "K"], Winner.PLAYER, True, False),  # Player 8 natural, Banker 0 stands
        (["3", "9", "3", "K"], Winner.BANKER, False, True),  # Banker 9, Player 6 can't draw
        (["9", "8", "K", "K"], Winner.PLAYER, True, True),  # 9 beats 8
        (["4", "K", "4", "8"], Winner.TIE, True, True),  # 8 - 8
    ],
)
def test_a_natural_ends_the_coup_on_two_cards(
    cards: list[str], winner: Winner, player_natural: bool, banker_natural: bool
) -> None:
    coup = deal_coup(parse_cards([*cards, "5", "5"]))
    assert len(coup.player) == len(coup.banker) == 2
    assert coup.winner is winner
    assert (coup.player_natural, coup.banker_natural) == (player_natural, banker_natural)
    assert coup.natural


def test_banker_stands_on_3_against_an_8() -> None:
    coup = deal_coup(parse_cards(["A", "3", "4", "K", "8", "9"]))
    assert len(coup.banker) == 2
    assert (coup.player_total, coup.banker_total, coup.winner) == (3, 3, Winner.TIE)


def test_banker_6_draws_against_a_player_third_6_or_7() -> None:
    """Player 0 draws a 7; Banker 6 must draw against it, an ace: 7-7, a tie, no Dragon 7."""
    coup = deal_coup(parse_cards(["K", "6", "K", "K", "7", "A"]))
    assert coup.banker_total == 7 and len(coup.banker) == 3
    assert coup.winner is Winner.TIE and not coup.dragon7


def test_pairs_need_the_same_rank_not_the_same_value() -> None:
    kk = deal_coup(parse_cards(["KS", "QH", "KD", "JC", "K", "K"]))
    assert kk.player_pair and not kk.banker_pair
    kq = deal_coup(parse_cards(["KS", "QH", "QD", "QC", "K", "K"]))
    assert not kq.player_pair and kq.banker_pair


def test_dragon_7_and_panda_8_and_banker_six() -> None:
    dragon = deal_coup(parse_cards(["K", "4", "6", "K", "3", "K"]))  # P 6 stands; B 4 draws 3
    assert (dragon.player_total, dragon.banker_total, dragon.winner) == (6, 7, Winner.BANKER)
    assert dragon.dragon7 and not dragon.banker_six
    panda = deal_coup(parse_cards(["3", "K", "2", "7", "3", "K"]))  # P 5 draws 3 -> 8
    assert (panda.player_total, panda.banker_total, panda.winner) == (8, 7, Winner.PLAYER)
    assert panda.panda8
    six = deal_coup(parse_cards(["2", "K", "2", "6", "K", "K"]))  # P 4 draws 0; B 6 stands
    assert six.banker_six and six.winner is Winner.BANKER and not six.dragon7


def test_a_two_card_banker_7_is_no_dragon() -> None:
    coup = deal_coup(parse_cards(["K", "K", "6", "7", "K", "K"]))
    assert coup.winner is Winner.BANKER and coup.banker_total == 7 and not coup.dragon7


@pytest.mark.parametrize(
    ("player", "banker", "message"),
    [
        (["2", "3"], ["4", "K"], "Player must draw on 5"),
        (["6", "K"], ["6", "K", "A"], "Banker must stand on 6 when Player stood"),
        (["7", "K"], ["5", "K"], "Banker must draw on 5 when Player stood"),
        (["6", "K", "5"], ["7", "K"], "Player must stand on 6"),
        (["9", "K"], ["2", "K", "5"], "natural"),
        (["2", "3", "8"], ["3", "K", "4"], "Banker must stand on 3 when Player's third card is 8"),
        (["2", "3", "6"], ["4", "K"], "Banker must draw on 4 when Player's third card is 6"),
        (["2"], ["4", "K"], "Player has 1 cards"),
        (["2", "3", "4", "5"], ["4", "K"], "Player has 4 cards"),
    ],
)
def test_recorded_hands_that_break_the_tableau_are_rejected(
    player: list[str], banker: list[str], message: str
) -> None:
    with pytest.raises(ImpossibleHandError, match=message):
        record_coup(parse_cards(player), parse_cards(banker))


cards_strategy = st.builds(Card, st.sampled_from(RANKS), st.sampled_from([*SUITS, None]))


@given(st.lists(cards_strategy, min_size=6, max_size=6))
def test_any_card_sequence_deals_a_coup_of_4_to_6_cards(cards: list[Card]) -> None:
    coup = deal_coup(cards)
    used = len(coup.player) + len(coup.banker)
    assert 4 <= used <= 6
    assert 2 <= len(coup.player) <= 3 and 2 <= len(coup.banker) <= 3
    assert coup.player[:2] == (cards[0], cards[2]) and coup.banker[:2] == (cards[1], cards[3])
    assert coup.player_total == sum(c.points for c in coup.player) % 10
    assert coup.banker_total == sum(c.points for c in coup.banker) % 10


@given(st.lists(cards_strategy, min_size=6, max_size=6))
def test_the_validator_accepts_exactly_what_the_tableau_deals(cards: list[Card]) -> None:
    dealt = deal_coup(cards)
    for player_count in (2, 3):
        for banker_count in (2, 3):
            player = (cards[0], cards[2], *cards[4 : 4 + player_count - 2])
            rest = cards[4 + player_count - 2 :]
            banker = (cards[1], cards[3], *rest[: banker_count - 2])
            if (player, banker) == (dealt.player, dealt.banker):
                assert record_coup(player, banker) == dealt
            else:
                with pytest.raises(ImpossibleHandError):
                    record_coup(player, banker)


def test_a_result_only_coup_keeps_the_reported_flags() -> None:
    coup = result_coup(Winner.BANKER, banker_pair=True, natural=True)
    assert coup.winner is Winner.BANKER and coup.banker_pair and coup.natural
    assert not coup.has_cards and coup.player_total is None


def test_a_result_only_coup_with_disagreeing_totals_is_rejected() -> None:
    with pytest.raises(ImpossibleHandError, match="disagrees"):
        result_coup(Winner.PLAYER, player_total=3, banker_total=5)
    with pytest.raises(ImpossibleHandError, match="0-9"):
        result_coup(Winner.PLAYER, player_total=12, banker_total=5)
    with pytest.raises(ImpossibleHandError, match="natural"):
        result_coup(Winner.PLAYER, player_total=6, banker_total=5, natural=True)


def test_winner_letters_parse_case_insensitively() -> None:
    assert Winner.parse("b") is Winner.BANKER and Winner.parse("T") is Winner.TIE
    with pytest.raises(ValueError, match="'X'"):
        Winner.parse("X")
