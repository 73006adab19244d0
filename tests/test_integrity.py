"""Integrity alerts: a card too many, more cards than the shoe holds, an unshuffled run."""

from __future__ import annotations

import json
import logging
from fractions import Fraction
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from integrity_shoes import (
    ACE_OF_SPADES,
    cards_through,
    shoe_events,
    shuffled,
    with_a_ninth_ace_of_spades,
)

from scoreboard.feeds.simulated import SimulatedFeed
from scoreboard.game.cards import parse_cards
from scoreboard.game.events import Burn, Correct, CoupReceived, Event, NewShoe
from scoreboard.game.rules import Game, Winner, deal_coup, result_coup
from scoreboard.game.shoe import DECK, Dealer, fresh_codes, timed
from scoreboard.journal import Journal
from scoreboard.protocol import display_status
from scoreboard.table.integrity import (
    RUN,
    AlertKind,
    IntegrityAlert,
    ShoeIntegrity,
    false_alarm_bound,
)
from scoreboard.table.state import TableState, apply_event


def deal(events: list[Event], table: TableState | None = None) -> TableState:
    table = TableState() if table is None else table
    for event in events:
        apply_event(table, event)
    return table


def coup(*cards: str):
    return deal_coup(parse_cards(list(cards)))


# -- a proper shoe raises nothing ----------------------------------------------------------------
def test_three_hundred_properly_shuffled_shoes_raise_no_alert() -> None:
    dealer = Dealer(decks=8, seed=2026)
    table = TableState()
    for _ in range(300):
        for event in dealer.shoe():
            applied = apply_event(table, event)
            assert applied.alerts == (), (table.shoe_id, applied.alerts)
        assert table.decks == 8 and table.alerts == ()


def test_the_false_alarm_figure_is_the_exact_expected_number_of_runs() -> None:
    # 411 windows of 6 cards, rising or falling; the first card leaves room (8 ranks of 13),
    # then the one card that continues the run, 8 copies among 415, 414, ... unseen.
    by_hand = 2 * 411 * Fraction(8, 13) * Fraction(8**5, 415 * 414 * 413 * 412 * 411)
    assert false_alarm_bound(8) == float(by_hand)
    assert RUN == 6 and false_alarm_bound(8) < 1.4e-6
    assert false_alarm_bound(16) < 2.8e-6 and false_alarm_bound(1) < 2.1e-7


# -- overcount ---------------------------------------------------------------------------------
def test_a_shoe_with_a_ninth_ace_of_spades_in_8_decks_raises_exactly_one_alert() -> None:
    events = shoe_events(with_a_ninth_ace_of_spades(seed=5))
    table = deal(events)
    assert table.decks == 8
    assert [(a.kind, a.detail) for a in table.alerts] == [
        (AlertKind.OVERCOUNT, "A♠ seen 9 times in 8 decks")
    ]
    alert = table.alerts[0]
    ninth = [game for game, code in cards_through(events) if code == ACE_OF_SPADES][8]
    assert alert.shoe == "S1" and alert.game == ninth
    status = display_status("d1", table, rejected=0, feed="connected")
    assert status["alerts"] == [
        {"kind": "overcount", "game": ninth, "detail": "A♠ seen 9 times in 8 decks"}
    ]


def test_a_card_seen_once_more_than_one_deck_holds_it_counts_the_burn_too() -> None:
    table = deal([NewShoe("S1", decks=1), Burn(tuple(parse_cards(["AS", "2D"])), shoe="S1")])
    applied = apply_event(table, CoupReceived("S1", Game(1, coup("AS", "3C", "KD", "6H"))))
    assert [a.detail for a in applied.alerts] == ["A♠ seen 2 times in 1 deck"]
    # A third one is no new alert: each card alerts once a shoe.
    again = apply_event(table, CoupReceived("S1", Game(2, coup("AS", "4C", "KH", "5H"))))
    assert again.alerts == () and len(table.alerts) == 1


def test_an_alert_the_burn_raises_is_of_game_0() -> None:
    table = deal([NewShoe("S1", decks=1)])
    applied = apply_event(table, Burn(tuple(parse_cards(["AS", "AS"])), shoe="S1"))
    assert [(a.game, a.detail) for a in applied.alerts] == [(0, "A♠ seen 2 times in 1 deck")]


def test_the_alert_kinds_are_the_display_status_schemas() -> None:
    """The kind is published as it is (display status, journal): the schema lists each."""
    schema = json.loads(
        resources.files("scoreboard.schemas").joinpath("display_status.json").read_text()
    )
    kinds = schema["properties"]["alerts"]["items"]["properties"]["kind"]["enum"]
    assert [kind.value for kind in AlertKind] == kinds


def test_the_same_burn_delivered_twice_counts_once() -> None:
    burn = Burn(tuple(parse_cards(["AS"])), shoe="S1")
    table = deal([NewShoe("S1", decks=1), burn])
    assert apply_event(table, burn).changed is False
    assert table.alerts == ()


def test_a_corrected_coup_takes_its_cards_with_it() -> None:
    table = deal(
        [NewShoe("S1", decks=1), CoupReceived("S1", Game(1, coup("AS", "3C", "KD", "6H")))]
    )
    apply_event(table, Correct("S1", Game(1, coup("2S", "3C", "KD", "6H")), "misread"))
    applied = apply_event(table, CoupReceived("S1", Game(2, coup("AS", "4C", "KH", "5H"))))
    assert applied.alerts == () and table.alerts == ()


def test_a_corrected_coup_takes_its_suitless_cards_with_it_by_rank() -> None:
    burn = Burn(tuple(parse_cards(["A", "A", "A"])))
    table = deal(
        [NewShoe("S1", decks=1), burn, CoupReceived("S1", Game(1, coup("A", "K", "8", "9")))]
    )
    apply_event(table, Correct("S1", Game(1, coup("2", "K", "7", "9")), "misread"))
    applied = apply_event(table, CoupReceived("S1", Game(2, coup("A", "K", "8", "9"))))
    assert applied.alerts == () and table.alerts == ()  # the fourth ace of one deck


def test_a_burn_that_is_no_news_raises_nothing_and_says_so() -> None:
    integrity = ShoeIntegrity("S1", decks=1)
    burn = tuple(parse_cards(["AS", "AS"]))
    assert integrity.counts_burn(()) is False and integrity.burned(()) == ()
    assert integrity.counts_burn(burn) is True
    assert [a.game for a in integrity.burned(burn)] == [0]
    assert integrity.counts_burn(burn) is False and integrity.burned(burn) == ()


def test_a_whole_deck_is_no_card_too_many_and_a_correction_takes_its_cards_out() -> None:
    integrity = ShoeIntegrity("S1", decks=1)
    deck = [f"{rank}{suit}" for rank in "A23456789TJQK" for suit in "SHDC"]
    dealt = ["9S", "KS", "KH", "9H"]  # a natural tie: four cards
    integrity.burned(tuple(parse_cards([card for card in deck if card not in dealt])))
    first = coup(*dealt)
    coup_of = {1: first}.get
    assert integrity.replaced(1, None, first, coup_of) == ()  # 52 cards: the deck
    assert integrity.replaced(1, first, first, coup_of) == ()  # still 52, not 56
    assert integrity.alerts == ()


def test_results_only_coups_carry_no_cards_and_raise_nothing() -> None:
    table = deal([NewShoe("S1", decks=1)])
    for number in range(1, 200):
        assert (
            apply_event(table, CoupReceived("S1", Game(number, result_coup(Winner.BANKER)))).alerts
            == ()
        )


def test_cards_without_a_suit_are_counted_by_rank_four_a_deck() -> None:
    table = deal([NewShoe("S1", decks=1), Burn(tuple(parse_cards(["A", "A", "A", "A"])))])
    applied = apply_event(table, CoupReceived("S1", Game(1, coup("A", "3", "K", "6"))))
    assert [(a.kind, a.detail) for a in applied.alerts] == [
        (AlertKind.OVERCOUNT, "A seen 5 times in 1 deck")
    ]


def test_cards_without_a_suit_in_two_decks_are_eight_of_a_rank() -> None:
    table = deal([NewShoe("S1", decks=2), Burn(tuple(parse_cards(["A"] * 8)))])
    assert table.alerts == ()
    applied = apply_event(table, Burn(tuple(parse_cards(["A"]))))
    assert [a.detail for a in applied.alerts] == ["A seen 9 times in 2 decks"]


# -- too many cards ------------------------------------------------------------------------------
def test_more_cards_than_the_decks_hold_is_one_alert() -> None:
    two_decks = shoe_events(shuffled(seed=3, decks=2), decks=1, cut=14)
    table = deal(two_decks)
    kinds = [a.kind for a in table.alerts]
    assert kinds.count(AlertKind.TOO_MANY_CARDS) == 1
    alert = next(a for a in table.alerts if a.kind is AlertKind.TOO_MANY_CARDS)
    games = [game for game, _ in cards_through(two_decks)]
    crossing = games[52]  # the 53rd card
    assert alert.game == crossing
    assert (
        alert.detail
        == f"{games.count(crossing) + games.index(crossing)} cards seen; 1 deck holds 52"
    )
    assert kinds.count(AlertKind.OVERCOUNT) == len({a.detail for a in table.alerts}) - 1


# -- unshuffled ----------------------------------------------------------------------------------
def test_a_shoe_straight_from_the_box_raises_unshuffled_once() -> None:
    table = deal(shoe_events(fresh_codes(8)))
    unshuffled = [a for a in table.alerts if a.kind is AlertKind.UNSHUFFLED]
    assert len(unshuffled) == 1 and unshuffled[0].game == 2
    assert unshuffled[0].detail == "6 cards in a row in order: 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ (games 1-2)"
    assert table.alerts == tuple(unshuffled)  # the counts are right: nothing else


def test_falling_runs_count_too() -> None:
    table = deal(shoe_events(list(reversed(fresh_codes(8)))))
    assert [a.kind for a in table.alerts] == [AlertKind.UNSHUFFLED]


def _with_run(seed: int, start: int, run: list[int]) -> list[int]:
    """A shuffled shoe with ``run`` (card codes) moved to positions ``start``... (swapped in)."""
    codes = shuffled(seed)
    for offset, code in enumerate(run):
        elsewhere = codes.index(code, start + len(run))
        codes[start + offset], codes[elsewhere] = codes[elsewhere], codes[start + offset]
    return codes


@pytest.mark.parametrize(("length", "alerts"), [(RUN - 1, 0), (RUN, 1), (13, 1)])
def test_a_run_of_the_run_length_in_a_shuffled_shoe_alerts_and_one_shorter_does_not(
    length: int, alerts: int
) -> None:
    hearts = [DECK.index(card) for card in DECK if card.suit == "H"][:length]
    table = deal(shoe_events(_with_run(seed=8, start=40, run=hearts)))
    assert [a.kind for a in table.alerts] == [AlertKind.UNSHUFFLED] * alerts


def test_a_coups_last_card_does_not_continue_its_first() -> None:
    """4-8 of spades then the 3: five in order, and the 3 comes last, not before the 4."""
    table = deal([NewShoe("S1")])
    applied = apply_event(
        table, CoupReceived("S1", Game(1, coup("4S", "5S", "6S", "7S", "8S", "3S")))
    )
    assert applied.alerts == () and table.alerts == ()


def test_a_run_across_three_games_names_them_from_its_first_card() -> None:
    games = [
        coup("9H", "KD", "KH", "2S"),  # ends with the 2
        coup("3S", "4S", "5S", "6S"),
        coup("7S", "KC", "2H", "KS"),  # starts with the 7
    ]
    table = deal([NewShoe("S1")] + [CoupReceived("S1", Game(n, c)) for n, c in enumerate(games, 1)])
    assert [(a.game, a.detail) for a in table.alerts] == [
        (3, "6 cards in a row in order: 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ (games 1-3)")
    ]


def test_cards_without_a_suit_make_no_run() -> None:
    games = [coup("9", "K", "K", "2"), coup("3", "4", "5", "6"), coup("7", "K", "2", "K")]
    table = deal([NewShoe("S1")] + [CoupReceived("S1", Game(n, c)) for n, c in enumerate(games, 1)])
    assert table.alerts == ()


def test_a_missing_game_breaks_the_sequence_until_it_arrives() -> None:
    events = shoe_events(fresh_codes(8))
    held = next(e for e in events if isinstance(e, CoupReceived) and e.game.number == 2)
    table = deal([e for e in events[:5] if e is not held])  # new shoe, burn, games 1, 3
    assert table.alerts == ()
    applied = apply_event(table, held)
    assert [a.kind for a in applied.alerts] == [AlertKind.UNSHUFFLED]


@settings(max_examples=30, deadline=None)
@given(order=st.permutations(range(12)))
def test_what_alerts_does_not_depend_on_the_order_coups_arrive_in(order) -> None:
    stacked = with_a_ninth_ace_of_spades(seed=11)
    stacked[60:66] = [DECK.index(c) for c in DECK if c.suit == "D"][3:9]  # a run, and overcounts
    events = shoe_events(stacked)
    coups = [e for e in events if isinstance(e, CoupReceived)][:12]
    rest = [e for e in events if isinstance(e, CoupReceived)][12:]
    in_order = deal(events)
    shuffled_arrival = deal([*events[:2], *(coups[i] for i in order), *rest])
    assert AlertKind.UNSHUFFLED in {a.kind for a in in_order.alerts}
    assert _same_kinds(in_order.alerts, shuffled_arrival.alerts)


def _same_kinds(one: tuple[IntegrityAlert, ...], other: tuple[IntegrityAlert, ...]) -> bool:
    """The same alerts by kind and card (an unshuffled run may be reported from another end)."""

    def key(alert: IntegrityAlert) -> str:
        return alert.kind.value if alert.kind is AlertKind.UNSHUFFLED else alert.detail

    return sorted(map(key, one)) == sorted(map(key, other))


# -- decks -------------------------------------------------------------------------------------
def test_the_decks_come_from_the_new_shoe_else_the_configured_default_else_unknown() -> None:
    table = TableState(decks=8)
    apply_event(table, NewShoe("S1"))
    assert table.decks == 8
    apply_event(table, NewShoe("S2", decks=6))
    assert table.decks == 6
    apply_event(table, NewShoe("S3"))
    assert table.decks == 8
    unknown = TableState()
    apply_event(unknown, NewShoe("S1"))
    assert unknown.decks is None


@pytest.mark.parametrize("decks", [0, 17, True, "8", 1e9, -1])
def test_a_hostile_deck_count_in_an_event_falls_back_to_the_default(decks) -> None:
    table = TableState(decks=8)
    apply_event(table, NewShoe("S1", decks=decks))
    assert table.decks == 8


@pytest.mark.parametrize("decks", [0, 17, True, "8", 1e9])
def test_a_hostile_configured_deck_count_is_refused_by_name(decks) -> None:
    with pytest.raises(ValueError, match="decks must be 1 to 16"):
        TableState(decks=decks)


def test_with_the_decks_unknown_only_the_order_is_checked() -> None:
    table = deal(shoe_events(with_a_ninth_ace_of_spades(seed=5), decks=None))
    assert table.decks is None and table.alerts == ()
    boxed = deal(shoe_events(fresh_codes(8), decks=None))
    assert [a.kind for a in boxed.alerts] == [AlertKind.UNSHUFFLED]


def test_a_new_shoe_starts_with_no_alerts() -> None:
    table = deal(shoe_events(fresh_codes(8)))
    apply_event(table, NewShoe("S2"))
    assert table.alerts == ()


def test_a_journal_replay_rebuilds_the_same_alerts(tmp_path: Path) -> None:
    events = shoe_events(with_a_ninth_ace_of_spades(seed=5))
    live = TableState()
    with Journal(tmp_path) as journal:
        journal.replay(live)
        for event in events:
            journal.keep(event, live, apply_event(live, event))
    again = TableState()
    with Journal(tmp_path) as journal:
        journal.replay(again)
    assert len(live.alerts) == 1 and again.alerts == live.alerts and again.decks == 8


def test_the_demo_logs_each_new_alert_once_at_warning(caplog) -> None:
    stacked = shoe_events(fresh_codes(8), shoe="T1-boxed")
    feed = SimulatedFeed(Dealer(decks=8, seed=1), pace=1.0, timed=timed(stacked, 1.0, 3.0))
    table = TableState()
    with caplog.at_level(logging.INFO, logger="scoreboard.feeds.simulated"):
        for now in range(12):  # the first ten coups or so
            feed.poll(table, float(now))
    lines = [(r.levelno, r.getMessage()) for r in caplog.records if "integrity" in r.getMessage()]
    assert lines == [
        (
            logging.WARNING,
            "demo: integrity alert (unshuffled): shoe T1-boxed, game 2:"
            " 6 cards in a row in order: 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ (games 1-2)",
        )
    ]
