"""The tableau, checked cell by cell against the table of rules.md written out by hand."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoreboard.game.cards import RANKS, SUITS, Card, parse_cards
from scoreboard.game.rules import (
    OUTCOMES,
    Coup,
    ImpossibleHandError,
    Outcome,
    Winner,
    banker_draws,
    deal_coup,
    deal_order,
    event_counts,
    outcome_index,
    player_draws,
    record_coup,
    result_coup,
    settle,
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


# -- settle: the one statement of the outcome and side bets ---------------------------


@pytest.mark.parametrize("player_total", range(10))
@pytest.mark.parametrize("banker_total", range(10))
@pytest.mark.parametrize("player_cards", [2, 3])
@pytest.mark.parametrize("banker_cards", [2, 3])
def test_settle_against_the_rules_written_out(
    player_total: int, banker_total: int, player_cards: int, banker_cards: int
) -> None:
    outcome = settle(player_total, banker_total, player_cards, banker_cards)
    if player_total > banker_total:
        winner = Winner.PLAYER
    elif banker_total > player_total:
        winner = Winner.BANKER
    else:
        winner = Winner.TIE
    assert outcome.winner is winner
    assert outcome.player_natural is (player_cards == 2 and player_total in (8, 9))
    assert outcome.banker_natural is (banker_cards == 2 and banker_total in (8, 9))
    assert outcome.natural is (outcome.player_natural or outcome.banker_natural)
    assert outcome.banker_six is (winner is Winner.BANKER and banker_total == 6)
    assert outcome.dragon7 is (winner is Winner.BANKER and banker_total == 7 and banker_cards == 3)
    assert outcome.panda8 is (winner is Winner.PLAYER and player_total == 8 and player_cards == 3)
    assert (
        OUTCOMES[outcome_index(player_total, banker_total, player_cards, banker_cards)] == outcome
    )


def test_every_outcome_index_is_a_different_place_in_the_table() -> None:
    indexes = {
        outcome_index(p, b, pc, bc)
        for p in range(10)
        for b in range(10)
        for pc in (2, 3)
        for bc in (2, 3)
    }
    assert indexes == set(range(len(OUTCOMES))) and len(OUTCOMES) == 400


def test_an_outcome_names_its_events_as_the_odds_do() -> None:
    assert settle(6, 7, 2, 3).events == ("B", "dragon7")
    assert settle(8, 7, 3, 2).events == ("P", "panda8")
    assert settle(9, 8).events == ("P", "natural")
    assert settle(3, 6, 3, 2).events == ("B", "banker_six")
    assert settle(4, 4, 3, 3).events == ("T",)


def test_event_counts_fold_weights_per_outcome_into_events() -> None:
    weights = [0] * len(OUTCOMES)
    weights[outcome_index(6, 7, 2, 3)] = 3  # Dragon 7
    weights[outcome_index(9, 9, 2, 2)] = 5  # tie of naturals
    weights[outcome_index(2, 6, 3, 3)] = 7  # Banker 6
    assert event_counts(weights) == {
        "B": 10,
        "P": 0,
        "T": 5,
        "natural": 5,
        "banker_six": 7,
        "dragon7": 3,
        "panda8": 0,
    }


@given(st.lists(cards_strategy, min_size=6, max_size=6))
def test_a_dealt_coup_carries_what_settle_says(cards: list[Card]) -> None:
    coup = deal_coup(cards)
    outcome = settle(coup.player_total, coup.banker_total, len(coup.player), len(coup.banker))
    assert (coup.winner, coup.player_natural, coup.banker_natural) == (
        outcome.winner,
        outcome.player_natural,
        outcome.banker_natural,
    )
    assert (coup.banker_six, coup.dragon7, coup.panda8) == (
        outcome.banker_six,
        outcome.dragon7,
        outcome.panda8,
    )


# -- result-only coups: consistent or ImpossibleHandError, never anything else ----------

totals = st.one_of(st.none(), st.integers(0, 9))


@given(st.sampled_from(Winner), st.booleans(), st.booleans(), st.booleans(), totals, totals)
def test_a_result_only_report_gives_a_consistent_coup_or_a_clean_rejection(
    winner: Winner,
    player_pair: bool,
    banker_pair: bool,
    natural: bool,
    player_total: int | None,
    banker_total: int | None,
) -> None:
    # Every two-card deal the report allows (totals known or not), by brute force.
    allowed = [
        (p, b)
        for p in (range(10) if player_total is None else [player_total])
        for b in (range(10) if banker_total is None else [banker_total])
        if (p > b, b > p) == (winner is Winner.PLAYER, winner is Winner.BANKER)
        and (not natural or max(p, b) >= 8)
    ]
    try:
        coup = result_coup(
            winner,
            player_pair=player_pair,
            banker_pair=banker_pair,
            natural=natural,
            player_total=player_total,
            banker_total=banker_total,
        )
    except ImpossibleHandError as error:
        assert not allowed, error
        assert str(error).startswith(("result ", "natural flagged"))
        return
    assert allowed
    assert (coup.winner, coup.player_pair, coup.banker_pair) == (winner, player_pair, banker_pair)
    assert (coup.player_total, coup.banker_total) == (player_total, banker_total)
    assert coup.natural is natural
    assert coup.player_natural is (natural and all(p >= 8 for p, _ in allowed))
    assert coup.banker_natural is (natural and all(b >= 8 for _, b in allowed))
    assert coup.banker_six is (winner is Winner.BANKER and banker_total == 6)
    assert not coup.dragon7 and not coup.panda8 and not coup.has_cards


@pytest.mark.parametrize(
    ("winner", "natural", "player_natural", "banker_natural"),
    [
        (Winner.BANKER, True, False, True),
        (Winner.PLAYER, True, True, False),
        (Winner.TIE, True, True, True),
        (Winner.BANKER, False, False, False),
    ],
)
def test_a_result_only_natural_is_the_winners(
    winner: Winner, natural: bool, player_natural: bool, banker_natural: bool
) -> None:
    coup = result_coup(winner, natural=natural)
    assert (coup.player_natural, coup.banker_natural) == (player_natural, banker_natural)


def test_a_natural_against_a_known_total_lands_where_the_totals_put_it() -> None:
    nine = result_coup(Winner.BANKER, natural=True, banker_total=9)  # Player 0-8: maybe not
    assert (nine.player_natural, nine.banker_natural) == (False, True)
    eight = result_coup(Winner.BANKER, natural=True, player_total=8)  # Banker must have 9
    assert (eight.player_natural, eight.banker_natural) == (True, True)
    low = result_coup(Winner.PLAYER, natural=True, banker_total=3)
    assert (low.player_natural, low.banker_natural) == (True, False)


@pytest.mark.parametrize(
    ("winner", "natural", "player_total", "banker_total", "message"),
    [
        (Winner.BANKER, False, 9, 3, "result B disagrees with totals Player 9 Banker 3"),
        (Winner.BANKER, False, 9, None, "result B disagrees with totals Player 9 Banker ?"),
        (Winner.PLAYER, False, None, 9, "result P disagrees with totals Player \\? Banker 9"),
        (Winner.PLAYER, False, 0, None, "result P disagrees"),
        (Winner.TIE, False, 4, 5, "result T disagrees"),
        (Winner.BANKER, True, None, 3, "natural flagged but no hand can have 8 or 9"),
        (Winner.TIE, True, 7, None, "natural flagged .* result T and totals Player 7 Banker \\?"),
        (Winner.PLAYER, True, 6, 5, "natural flagged"),
    ],
)
def test_an_impossible_result_only_coup_is_rejected_saying_why(
    winner: Winner,
    natural: bool,
    player_total: int | None,
    banker_total: int | None,
    message: str,
) -> None:
    with pytest.raises(ImpossibleHandError, match=message):
        result_coup(winner, natural=natural, player_total=player_total, banker_total=banker_total)


@pytest.mark.parametrize("bad", [-1, 10, True, 2.0, "5"])
def test_a_total_that_is_not_a_whole_number_0_to_9_is_rejected(bad: object) -> None:
    with pytest.raises(ImpossibleHandError, match="banker_total must be a whole number 0-9"):
        result_coup(Winner.PLAYER, banker_total=bad)  # type: ignore[arg-type]
    with pytest.raises(ImpossibleHandError, match="player_total must be a whole number 0-9"):
        result_coup(Winner.PLAYER, player_total=bad)  # type: ignore[arg-type]


def test_totals_0_and_9_are_accepted_boundaries() -> None:
    coup = result_coup(Winner.PLAYER, player_total=9, banker_total=0, natural=True)
    assert (coup.player_total, coup.banker_total, coup.player_natural) == (9, 0, True)
    assert not coup.banker_natural
    assert result_coup(Winner.TIE, player_total=0, banker_total=0).winner is Winner.TIE
    assert result_coup(Winner.BANKER, player_total=0, banker_total=9).banker_total == 9


def test_a_result_only_banker_six_needs_the_banker_total() -> None:
    assert result_coup(Winner.BANKER, banker_total=6).banker_six
    assert result_coup(Winner.BANKER, player_total=5, banker_total=6).banker_six
    assert not result_coup(Winner.BANKER, player_total=5).banker_six
    assert not result_coup(Winner.BANKER, banker_total=7).banker_six


def test_a_coup_as_json_names_every_field() -> None:
    coup = deal_coup(parse_cards(["KS", "4D", "6H", "KC", "3S", "9H"]))  # Dragon 7
    assert coup.as_dict() == {
        "player": ["KS", "6H"],
        "banker": ["4D", "KC", "3S"],
        "player_total": 6,
        "banker_total": 7,
        "winner": "B",
        "player_natural": False,
        "banker_natural": False,
        "natural": False,
        "player_pair": False,
        "banker_pair": False,
        "banker_six": False,
        "dragon7": True,
        "panda8": False,
    }
    flagged = result_coup(Winner.TIE, natural=True, player_pair=True, banker_pair=True)
    assert flagged.as_dict() == {
        "player": [],
        "banker": [],
        "player_total": None,
        "banker_total": None,
        "winner": "T",
        "player_natural": True,
        "banker_natural": True,
        "natural": True,
        "player_pair": True,
        "banker_pair": True,
        "banker_six": False,
        "dragon7": False,
        "panda8": False,
    }


def test_a_bare_coup_and_outcome_carry_no_flags() -> None:
    coup = Coup(Winner.PLAYER)
    assert coup.as_dict() == {
        "player": [],
        "banker": [],
        "player_total": None,
        "banker_total": None,
        "winner": "P",
        **dict.fromkeys(
            (
                "player_natural",
                "banker_natural",
                "natural",
                "player_pair",
                "banker_pair",
                "banker_six",
                "dragon7",
                "panda8",
            ),
            False,
        ),
    }
    assert Outcome(Winner.TIE) == Outcome(Winner.TIE, False, False, False, False, False)
    assert Outcome(Winner.TIE).events == ("T",)


@pytest.mark.parametrize(
    ("player", "banker", "message"),
    [
        (["2", "3"], ["4", "K", "A", "2"], "^Banker has 4 cards; a hand has 2 or 3$"),
        (
            ["9", "K"],
            ["2", "K", "5"],
            r"^Banker drew a third card but a natural \(Player 9\) ends the coup on two cards$",
        ),
        (
            ["2", "K", "5"],
            ["8", "K"],
            r"^Player drew a third card but a natural \(Banker 8\) ends the coup on two cards$",
        ),
    ],
)
def test_a_rejected_hand_is_named_by_its_side(
    player: list[str], banker: list[str], message: str
) -> None:
    with pytest.raises(ImpossibleHandError, match=message):
        record_coup(parse_cards(player), parse_cards(banker))


def test_a_result_only_coup_has_no_pairs_unless_reported() -> None:
    coup = result_coup(Winner.BANKER)
    assert (coup.player_pair, coup.banker_pair, coup.natural) == (False, False, False)


def test_event_counts_need_a_weight_per_outcome() -> None:
    with pytest.raises(ValueError):
        event_counts([1, 2, 3])


def test_deal_order_puts_two_hands_back_in_the_order_the_dealer_drew_them() -> None:
    """P1 B1 P2 B2, then Player's third, then Banker's: what a shoe reads, card by card."""
    cards = parse_cards(["2S", "3H", "4D", "5C", "6S", "7H"])
    assert deal_order(tuple(cards[0:4:2]), tuple(cards[1:4:2])) == tuple(cards[:4])
    player, banker = (cards[0], cards[2], cards[4]), (cards[1], cards[3], cards[5])
    assert deal_order(player, banker) == tuple(cards)
    assert deal_order(player[:2], banker) == (*cards[:4], cards[5])
    assert deal_order(player, banker[:2]) == tuple(cards[:5])
