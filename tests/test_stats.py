"""Counters and streaks (scoreboard.core.stats), with coups dealt from real cards."""

from __future__ import annotations

import pytest

from scoreboard.core.cards import parse_cards
from scoreboard.core.roads import Roads
from scoreboard.core.rules import Game, Winner, record_coup, result_coup
from scoreboard.core.stats import Counts, Streaks, Tally


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
