"""Pins of the simulated shoe's bounds and defaults, and of the values every table starts with.

Written for mutants of game/shoe.py, game/limits.py and game/events.py that
survived the suite: each bound is tested on both sides.
"""

from __future__ import annotations

import pytest

from scoreboard.game.events import Correct, CoupReceived, Void
from scoreboard.game.limits import Limits
from scoreboard.game.rules import Game, Winner, result_coup
from scoreboard.game.shoe import Dealer, Shoe, fresh_codes, run_tag
from scoreboard.game.variants import VARIANTS


@pytest.mark.parametrize(("cut", "ok"), [(0, False), (1, True), (51, True), (52, False)])
def test_the_cut_card_lies_inside_the_shoe(cut: int, ok: bool) -> None:
    codes = fresh_codes(1)
    if ok:
        assert Shoe(codes, cut).cut_index == 52 - cut
    else:
        with pytest.raises(ValueError, match="cut card"):
            Shoe(codes, cut)


@pytest.mark.parametrize(
    ("decks", "cut_card", "ok"),
    [
        (1, (12, 12), True),  # the least that leaves room for the last two coups
        (1, (11, 12), False),
        (1, (13, 12), False),  # low above high
        (1, (26, 26), True),  # half a one-deck shoe at most
        (1, (26, 27), False),
        (8, (208, 208), True),
        (8, (208, 209), False),
    ],
)
def test_where_the_cut_card_may_go(decks: int, cut_card: tuple[int, int], ok: bool) -> None:
    if ok:
        assert Dealer(decks=decks, seed=1, cut_card=cut_card).cut_card == cut_card
    else:
        with pytest.raises(ValueError, match="cut card must be placed 12 to"):
            Dealer(decks=decks, seed=1, cut_card=cut_card)


def test_a_dealer_defaults_to_table_t1_and_a_cut_card_14_to_16_from_the_back() -> None:
    dealer = Dealer(seed=1)
    assert dealer.next_shoe_id().startswith("T1-") and dealer.cut_card == (14, 16)
    assert dealer.decks == 8


def test_a_fresh_seed_fits_32_bits_as_the_shoe_id_prints_it() -> None:
    assert all(0 <= Dealer().seed < 2**32 for _ in range(60))


def test_a_new_shoe_is_shuffled() -> None:
    assert Dealer(seed=1).new_shoe().codes != fresh_codes(8)


def test_a_run_tag_s_salt_takes_two_base_36_digits_and_wraps_past_them() -> None:
    at = 1_800_000_000
    assert run_tag(at, 36 * 36) == run_tag(at, 0) == "tro8w000"
    assert run_tag(at, 36 * 36 - 1) == "tro8w0zz"


def test_a_shoe_id_names_the_table_the_seed_and_the_run_only_when_given() -> None:
    assert Dealer(seed=255).next_shoe_id() == "T1-ff-001"
    assert Dealer(seed=255, run="tro8w000").next_shoe_id() == "T1-ff-tro8w000-001"


def test_a_long_table_id_is_cut_so_the_shoe_id_fits_64_characters_keeping_one() -> None:
    long = Dealer(seed=255, table_id="X" * 100).next_shoe_id()
    assert long == "X" * 57 + "-ff-001" and len(long) == 64
    assert Dealer(seed=255, table_id="X" * 57).next_shoe_id() == long
    tail = "-ff-" + "r" * 70 + "-001"
    assert Dealer(seed=255, table_id="XY", run="r" * 70).next_shoe_id() == "X" + tail


def test_the_limits_a_table_starts_with() -> None:
    assert Limits().currency == "USD" and Limits().bets == {} and Limits().pays == {}
    limits = Limits.default_for(VARIANTS["commission"])
    assert limits.currency == "USD"
    assert limits.bets == {
        "player": (25, 10000),
        "banker": (25, 10000),
        "tie": (5, 1000),
        "player_pair": (5, 500),
        "banker_pair": (5, 500),
    }


def test_an_event_without_a_reason_or_time_says_nothing() -> None:
    game = Game(1, result_coup(Winner.TIE))
    assert Void("S", 1).reason == "" and Correct("S", game).reason == ""
    assert CoupReceived("S", game).ts is None
