"""Counters and streaks (scoreboard.roads.stats), with coups dealt from real cards."""

from __future__ import annotations

import pytest

from scoreboard.game.cards import parse_cards
from scoreboard.game.rules import Game, Winner, record_coup, result_coup
from scoreboard.game.side_bets import TIERS
from scoreboard.roads.engine import Roads
from scoreboard.roads.stats import COUNTER_NAMES, Counts, Streaks, Tally


def dealt(player: str, banker: str):
    return record_coup(parse_cards(player.split()), parse_cards(banker.split()))


# Banker 6 (4+2, stands against a third card 0) beats Player 5 (2+3+K).
BANKER_SIX = dealt("2S 3D KH", "4C 2H")
# Banker draws on 3 (A+2) to a three-card 7 and beats Player 5.
DRAGON_7 = dealt("2S 3D KH", "AC 2H 4S")
# Player three-card 8 (2+3+3) beats Banker 5, who stands against a third card 3.
PANDA_8 = dealt("2S 3D 3H", "KC 5H")
# Player natural 9 (9+K) beats Banker 7 (4+3), both on two cards.
PLAYER_NATURAL = dealt("9S KH", "4D 3C")
# Player stands on 7; Banker's pair of twos (4) draws a 3: a 7-7 tie with a banker pair.
BANKER_PAIR_TIE = dealt("2S 5D", "2C 2H 3S")


def test_the_dealt_examples_are_what_their_names_say() -> None:
    assert BANKER_SIX.banker_six and BANKER_SIX.winner is Winner.BANKER
    assert DRAGON_7.dragon7 and PANDA_8.panda8
    assert PLAYER_NATURAL.player_natural and not PLAYER_NATURAL.banker_natural
    assert BANKER_PAIR_TIE.winner is Winner.TIE and BANKER_PAIR_TIE.banker_pair


def test_variant_counters_and_naturals_by_side() -> None:
    tally = Tally()
    for coup in (BANKER_SIX, DRAGON_7, PANDA_8, PLAYER_NATURAL, BANKER_PAIR_TIE):
        tally.add(coup)
    counts = tally.counts()
    assert counts == Counts(
        banker=2,
        player=2,
        tie=1,
        banker_pairs=1,
        player_pairs=0,
        naturals=1,
        player_naturals=1,
        banker_naturals=0,
        games=5,
        banker_six=1,
        dragon7=1,
        panda8=1,
        small_6=1,  # BANKER_SIX: Banker's two-card 6 over Player's 5
    )
    assert counts.percent("dragon7") == 20.0
    assert counts.percent("banker_pairs") == 20.0


def test_a_natural_counts_once_even_when_both_hands_have_one() -> None:
    tally = Tally()
    tally.add(result_coup(Winner.TIE, natural=True))  # side unknown: both hands
    counts = tally.counts()
    assert (counts.naturals, counts.player_naturals, counts.banker_naturals) == (1, 1, 1)


def test_percent_of_an_unknown_counter_is_refused() -> None:
    with pytest.raises(KeyError, match="no counter 'wins'"):
        Counts(games=1).percent("wins")
    with pytest.raises(KeyError):
        Counts(games=1).percent("games")


def test_roads_count_variant_counters_from_cards() -> None:
    games = [Game(n, coup) for n, coup in enumerate((BANKER_SIX, PANDA_8, DRAGON_7), 1)]
    roads = Roads.build(games)
    assert (roads.counts.banker_six, roads.counts.dragon7, roads.counts.panda8) == (1, 1, 1)
    assert roads.streaks == Streaks(Winner.BANKER, 1, 1, 1)


def test_no_streak_before_the_first_decision() -> None:
    assert Roads.build([Game(1, BANKER_PAIR_TIE)]).streaks == Streaks()


def test_a_result_only_natural_is_counted_once_on_the_winning_side() -> None:
    tally = Tally()
    tally.add(result_coup(Winner.BANKER, natural=True))
    tally.add(result_coup(Winner.PLAYER, natural=True))
    tally.add(result_coup(Winner.PLAYER, natural=True, banker_total=2))
    counts = tally.counts()
    assert (counts.naturals, counts.banker_naturals, counts.player_naturals) == (3, 1, 2)


def test_every_counter_is_counted_into_its_own_field() -> None:
    """Each counter gets a different value, so a swapped or dropped counter shows."""
    coups = (
        [BANKER_SIX] * 1
        + [DRAGON_7] * 2
        + [PANDA_8] * 3
        + [PLAYER_NATURAL] * 4
        + [BANKER_PAIR_TIE] * 5
        + [result_coup(Winner.BANKER, natural=True, player_pair=True)] * 6
    )
    tally = Tally()
    for coup in coups:
        tally.add(coup)
    assert tally.counts() == Counts(
        banker=9,
        player=7,
        tie=5,
        banker_pairs=5,
        player_pairs=6,
        naturals=10,
        player_naturals=4,
        banker_naturals=6,
        games=21,
        banker_six=1,
        dragon7=2,
        panda8=3,
        small_6=1,  # the result-only coups win no tier: their card counts are not known
    )


def test_counts_serialise_every_counter_with_its_percentage() -> None:
    counts = Counts(
        banker=5,
        player=3,
        tie=2,
        banker_pairs=1,
        player_pairs=4,
        naturals=6,
        player_naturals=2,
        banker_naturals=5,
        games=10,
        banker_six=7,
        dragon7=8,
        panda8=9,
        big_6=1,
    )
    tiers = dict.fromkeys(TIERS, 0) | {"big_6": 1}
    assert counts.to_json() == {
        "B": 5,
        "P": 3,
        "T": 2,
        "total": 10,
        "banker_pairs": 1,
        "player_pairs": 4,
        "naturals": 6,
        "player_naturals": 2,
        "banker_naturals": 5,
        "banker_six": 7,
        "dragon7": 8,
        "panda8": 9,
        **tiers,
        "percent": {
            "B": 50.0,
            "P": 30.0,
            "T": 20.0,
            "banker_pairs": 10.0,
            "player_pairs": 40.0,
            "naturals": 60.0,
            "player_naturals": 20.0,
            "banker_naturals": 50.0,
            "banker_six": 70.0,
            "dragon7": 80.0,
            "panda8": 90.0,
            **{tier: 10.0 * n for tier, n in tiers.items()},
        },
    }
    assert Counts().to_json()["percent"]["B"] == 0.0
    assert Counts(banker=1, games=3).to_json()["percent"]["B"] == 33.33


def test_percent_of_each_counter() -> None:
    counts = Counts(banker=1, player=2, tie=3, naturals=4, games=8)
    assert [counts.percent(name) for name in ("banker", "player", "tie", "naturals")] == [
        12.5,
        25.0,
        37.5,
        50.0,
    ]


def test_streaks_serialise_side_and_lengths() -> None:
    assert Streaks(Winner.PLAYER, 2, 5, 3).to_json() == {
        "current": {"side": "P", "length": 2},
        "longest": {"B": 5, "P": 3},
    }
    assert Streaks().to_json()["current"] == {"side": None, "length": 0}


def test_a_new_shoe_counts_zero_everywhere() -> None:
    zero = Counts()
    assert [getattr(zero, name) for name in COUNTER_NAMES] == [0] * (12 + len(TIERS))
    assert Tally().counts() == zero
    assert Streaks() == Streaks(None, 0, 0, 0)
