"""Table state semantics of the live feed: gaps, voids, corrections, snapshots, shoes."""

from __future__ import annotations

from dataclasses import replace

import pytest
from dealt import dealt_shoe
from hypothesis import given, settings
from hypothesis import strategies as st

from scoreboard.game.cards import parse_cards
from scoreboard.game.events import Origin
from scoreboard.game.limits import Limits
from scoreboard.game.rules import Game, deal_coup
from scoreboard.game.seats import DEAL_ORDER
from scoreboard.protocol import (
    Burn,
    CardDealt,
    ControllerStatus,
    Correct,
    CoupReceived,
    CutCard,
    LimitsReceived,
    NewShoe,
    ShoeHealth,
    Shuffle,
    Snapshot,
    Void,
    apply_event,
    display_status,
)
from scoreboard.roads.engine import Roads
from scoreboard.table.state import TableState

SHOE, GAMES = dealt_shoe(99).shoe, list(dealt_shoe(99).games)


def table_with(numbers, shoe: str = SHOE) -> TableState:
    table = TableState()
    table.new_shoe(shoe)
    for n in numbers:
        table.add_game(GAMES[n - 1])
    return table


def other_coup(number: int) -> Game:
    coup = next(g.coup for g in GAMES if g.coup != GAMES[number - 1].coup)
    return Game(number, coup)


def roads_json(games) -> dict:
    return Roads.build(games).to_json()


# -- redelivery, conflicts, gaps -------------------------------------------------------
def test_a_redelivered_coup_changes_nothing():
    table = table_with([1, 2])
    version = table.version
    assert table.add_game(GAMES[1]).changed is False
    assert table.version == version


def test_a_different_coup_for_a_recorded_game_is_a_conflict():
    table = table_with([1, 2])
    assert table.add_game(other_coup(2)).conflicts == (2,)
    assert table.games == (GAMES[0], GAMES[1])


def test_a_gap_is_missing_until_it_arrives_then_roads_are_in_game_order():
    table = table_with([1, 2, 5])
    assert table.missing == (3, 4)
    table.add_game(GAMES[3])
    table.add_game(GAMES[2])
    assert table.missing == ()
    assert table.roads.to_json() == roads_json(GAMES[:5])
    assert table.last_game == GAMES[4]


@settings(max_examples=60, deadline=None)
@given(st.permutations(range(1, 31)), st.lists(st.integers(1, 30), max_size=10))
def test_roads_are_a_function_of_the_games_never_of_arrival_order(order, repeats):
    table = TableState()
    table.new_shoe(SHOE)
    for n in [*order[:15], *repeats, *order[15:]]:
        table.add_game(GAMES[n - 1])
    assert table.games == tuple(GAMES[:30])
    assert table.roads.to_json() == roads_json(GAMES[:30])


# -- voids and corrections -------------------------------------------------------------
def test_a_void_removes_the_game_without_leaving_it_missing():
    table = table_with([1, 2, 3])
    assert table.void(2).changed is True
    assert table.games == (GAMES[0], GAMES[2]) and table.missing == () and table.voided == (2,)
    assert table.roads.to_json() == roads_json([GAMES[0], GAMES[2]])
    assert table.void(2).changed is False


def test_a_voided_coup_redelivered_stays_voided_but_a_redeal_is_recorded():
    table = table_with([1, 2, 3])
    table.void(3)
    assert table.add_game(GAMES[2]).changed is False
    assert table.game(3) is None
    redeal = other_coup(3)
    assert table.add_game(redeal).changed is True
    assert table.game(3) == redeal and table.voided == ()


def test_a_void_before_the_game_arrives_keeps_it_out():
    table = table_with([1, 2, 4])
    assert table.void(3).changed is True
    assert table.missing == ()
    assert table.add_game(GAMES[2]).changed is False
    assert table.game(3) is None


def test_a_correction_replaces_a_recorded_coup_and_rebuilds():
    table = table_with([1, 2, 3])
    fixed = other_coup(2)
    assert table.correct(fixed).changed is True
    assert table.games == (GAMES[0], fixed, GAMES[2])
    assert table.roads.to_json() == roads_json([GAMES[0], fixed, GAMES[2]])
    assert table.correct(fixed).changed is False


def test_a_correction_can_restore_a_voided_game():
    table = table_with([1, 2])
    table.void(2)
    table.correct(GAMES[1])
    assert table.games == (GAMES[0], GAMES[1]) and table.voided == ()


# -- snapshots ---------------------------------------------------------------------------
def test_a_snapshot_holding_every_game_replaces_the_view():
    table = table_with([1, 2, 5])
    assert table.apply_snapshot(SHOE, GAMES[:6]).changed is True
    assert table.games == tuple(GAMES[:6]) and table.missing == ()
    assert table.roads.to_json() == roads_json(GAMES[:6])


def test_an_identical_snapshot_changes_nothing():
    table = table_with([1, 2, 3])
    version = table.version
    assert table.apply_snapshot(SHOE, GAMES[:3]).changed is False
    assert table.version == version


def test_a_stale_snapshot_only_fills_games_the_display_never_saw():
    table = table_with([1, 2, 5])
    older = [GAMES[0], other_coup(2), GAMES[2]]  # lacks game 5: published before it
    assert table.apply_snapshot(SHOE, older).changed is True
    assert table.games == (GAMES[0], GAMES[1], GAMES[2], GAMES[4])
    assert table.missing == (4,)


def test_a_snapshot_carries_voids():
    table = table_with([1, 2, 3])
    assert table.apply_snapshot(SHOE, [GAMES[0], GAMES[2]], voided=[2]).changed is True
    assert table.games == (GAMES[0], GAMES[2]) and table.voided == (2,)


def test_a_snapshot_of_a_new_shoe_starts_it_and_an_old_shoe_is_ignored():
    table = table_with([1, 2, 3])
    number = table.shoe_number
    assert table.apply_snapshot("NEXT", GAMES[:2]).changed is True
    assert (table.shoe_id, table.shoe_number) == ("NEXT", number + 1)
    assert table.games == tuple(GAMES[:2])
    assert table.apply_snapshot(SHOE, GAMES[:10]).changed is False
    assert table.shoe_id == "NEXT"


# -- events through apply_event ----------------------------------------------------------
def test_a_coup_of_a_new_shoe_starts_a_new_shoe():
    table = table_with([1, 2])
    assert apply_event(table, CoupReceived("NEXT", GAMES[0])).changed is True
    assert table.shoe_id == "NEXT" and table.games == (GAMES[0],)


def test_a_late_coup_of_a_finished_shoe_does_not_restart_it():
    table = table_with([1, 2])
    apply_event(table, NewShoe("NEXT"))
    assert apply_event(table, CoupReceived(SHOE, GAMES[2])).changed is False
    assert apply_event(table, NewShoe(SHOE)).changed is False
    assert table.shoe_id == "NEXT" and table.games == ()


def test_shoe_events_set_the_board_marks():
    table = table_with([])
    assert apply_event(table, Shuffle()).changed is True and table.shuffling
    assert apply_event(table, Burn(())).changed is True and not table.shuffling
    assert apply_event(table, CutCard()).changed is True and table.cut_card_out
    assert apply_event(table, CutCard()).changed is False
    assert apply_event(table, NewShoe("NEXT")).changed is True
    assert not table.cut_card_out


def test_a_burn_that_ends_the_shuffle_is_a_new_version_of_the_table():
    """What redraws on ``version`` (the good-road plate) must see the shuffle end at the burn,
    not at the next coup."""
    table = table_with([1, 2])
    apply_event(table, Shuffle())
    shuffling = table.version
    assert apply_event(table, Burn(())).changed is True and not table.shuffling
    assert table.version > shuffling


def test_void_and_correct_of_another_shoe_are_ignored():
    table = table_with([1, 2])
    assert apply_event(table, Void("OTHER", 1)).changed is False
    assert apply_event(table, Correct("OTHER", other_coup(1))).changed is False
    assert table.games == (GAMES[0], GAMES[1])
    assert apply_event(table, Void(SHOE, 1, "misdeal")).changed is True


def test_limits_and_statuses():
    table = table_with([])
    limits = Limits("EUR", {"tie": (5, 500)}, {"tie": "9:1"})
    assert apply_event(table, LimitsReceived(limits)).changed is True and table.limits == limits
    assert apply_event(table, LimitsReceived(limits)).changed is False
    assert apply_event(table, ControllerStatus(False)).changed is False


def test_the_display_status_counts_what_is_shown():
    table = table_with([1, 2, 3, 5])
    status = display_status("d1", table, rejected=3, feed="missing games")
    counts = {w: sum(g.coup.winner.value == w for g in [*GAMES[:3], GAMES[4]]) for w in "BPT"}
    assert status == {
        "v": 2, "online": True, "display": "d1", "shoe": SHOE, "games": 4, "last_game": 5,
        "counts": counts, "missing": [4], "rejected": 3, "feed": "missing games",
        "render": {"ok": True, "failing": [], "failures": 0, "last_frame": None},
        "journal": {"state": "off", "reason": ""}, "position": None, "unfinished": None,
        "ignored": {}, "limits": {"currency": "", "bets": {}, "from": "none"},
        "corrections": 0, "alerts": [],
        "shoe_health": {"mark": None, "raised": [], "seen": {}}, "dealing": None,
    }  # fmt: skip
    assert apply_event(table, Snapshot(SHOE, tuple(GAMES[:5]))).changed is True
    assert display_status("d1", table, rejected=3, feed="connected")["missing"] == []


# -- what the table's defaults and bookkeeping promise (each pinned against a mutant) ----------


def test_a_default_deck_count_is_checked_and_a_new_shoe_may_name_its_own() -> None:
    with pytest.raises(ValueError, match="decks must be 1 to 16"):
        TableState(decks=17)
    table = TableState(decks=6)
    assert (table.decks, table.new_shoe("A").changed, table.decks) == (6, True, 6)
    table.new_shoe("B", decks=8)
    assert table.decks == 8
    unknown = TableState()
    unknown.new_shoe("C", decks=1)
    assert unknown.decks == 1


def test_a_void_or_correction_without_a_reason_and_without_a_shoe_says_none() -> None:
    table = TableState()
    table.add_game(GAMES[0])
    table.add_game(GAMES[1])
    table.void(1)
    table.correct(other_coup(2))
    assert [(a.shoe, a.game, a.reason) for a in table.amendments] == [("", 1, ""), ("", 2, "")]


def test_an_immediate_limits_message_leaves_a_schedule_alone_unless_it_cancels_it() -> None:
    table, later = TableState(), Limits.default_for(table_with([]).variant)
    table.set_limits(later, effective_at=2000.0)
    now = replace(later, currency="EUR")
    assert table.set_limits(now).changed and table.scheduled is not None
    version = table.version
    assert table.switch_limits(2000.0).changed and table.limits == later
    assert table.version > version  # the board redraws the limits that fell due


def test_the_cut_card_marked_twice_changes_the_table_once() -> None:
    table = table_with([1])
    assert table.mark_cut_card().changed is True
    assert table.mark_cut_card().changed is False


def test_a_restored_position_also_dates_the_games_unless_they_are_dated_apart() -> None:
    table = TableState()
    table.restore_position(Origin(3, 40))
    assert (table.position, table.games_origin, table.limits_origin) == (Origin(3, 40),) * 2 + (
        None,
    )
    table.restore_position(Origin(3, 40), games=Origin(3, 12), limits=Origin(2, 5))
    assert (table.games_origin, table.limits_origin) == (Origin(3, 12), Origin(2, 5))


def test_the_last_number_falls_to_0_when_every_game_is_voided() -> None:
    table = table_with([1, 2])
    table.void(2)
    assert table.last_number == 1
    table.void(1)
    assert (table.last_number, table.last_game, table.missing) == (0, None, ())


ONE_DECK_ACE = parse_cards(["AS", "2D", "3C", "4H", "5S", "6D"])
NO_ACE = parse_cards(["9C", "8D", "7C", "TH", "JS", "QD"])


def test_a_card_seen_twice_in_a_one_deck_shoe_is_an_alert() -> None:
    table = TableState()
    table.new_shoe("A", decks=1)
    assert table.add_game(Game(1, deal_coup(ONE_DECK_ACE))).alerts == ()
    alerts = table.add_game(Game(2, deal_coup(ONE_DECK_ACE))).alerts
    assert alerts and {a.kind.value for a in alerts} == {"overcount"}


def test_a_corrected_coup_no_longer_counts_its_old_cards() -> None:
    table = TableState()
    table.new_shoe("A", decks=1)
    table.add_game(Game(1, deal_coup(ONE_DECK_ACE)))
    table.correct(Game(1, deal_coup(NO_ACE)))
    assert table.add_game(Game(2, deal_coup(ONE_DECK_ACE))).alerts == ()


def test_before_any_new_shoe_the_table_holds_no_game_and_its_alerts_name_no_shoe() -> None:
    table = TableState(decks=1)
    assert (table.last_number, table.last_game, table.missing) == (0, None, ())
    table.add_game(Game(1, deal_coup(ONE_DECK_ACE)))
    alerts = table.add_game(Game(2, deal_coup(ONE_DECK_ACE))).alerts
    assert alerts and {a.shoe for a in alerts} == {""}


def test_a_game_a_newer_snapshot_drops_is_overridden_without_a_reason_and_uncounted() -> None:
    """A v2 snapshot is the controller's whole truth: a game it lacks leaves the board, and its
    cards leave the integrity counts (the same ace dealt again is no overcount)."""
    table = TableState(decks=1)
    apply_event(table, NewShoe("A", origin=Origin(1, 1)))
    apply_event(table, CoupReceived("A", Game(1, deal_coup(ONE_DECK_ACE)), origin=Origin(1, 2)))
    applied = apply_event(table, Snapshot("A", (), origin=Origin(1, 3)))
    assert applied.overrides == (1,) and table.games == ()
    assert [(a.game, a.reason, a.by_snapshot) for a in table.amendments] == [(1, "", True)]
    again = CoupReceived("A", Game(1, deal_coup(ONE_DECK_ACE)), origin=Origin(1, 4))
    assert apply_event(table, again).alerts == ()


def test_a_newer_snapshot_that_corrects_a_game_gives_no_reason() -> None:
    table = table_with([1, 2])
    apply_event(table, Snapshot(SHOE, (GAMES[0], other_coup(2))))
    assert [(a.game, a.kind.value, a.reason, a.by_snapshot) for a in table.amendments] == [
        (2, "correct", "", True)
    ]


def test_a_birth_names_the_table_once_and_a_display_s_own_name_wins() -> None:
    """The name a controller's birth says is a change the journal keeps, once; a display given
    its own name keeps showing it."""
    table = table_with([1])
    version = table.version
    birth = ControllerStatus(True, origin=Origin(1, 0), name="Salon 8")
    assert apply_event(table, birth).changed is True and table.table_name == "Salon 8"
    assert table.version == version + 1
    assert apply_event(table, replace(birth, origin=Origin(2, 0))).changed is False
    assert table.version == version + 1
    own = TableState(table_name="VIP 1")
    assert apply_event(own, birth).changed is False and own.table_name == "VIP 1"


def test_a_birth_restates_the_shoe_s_raised_conditions_once() -> None:
    """A display that joins late shows what the shoe has raised; the same birth again is no news."""
    table = table_with([1])
    jam = ShoeHealth("error:2", "raised", "jam")
    version = table.version
    birth = ControllerStatus(True, origin=Origin(1, 0), raised=(jam,), name="Salon 8")
    assert apply_event(table, birth).changed is True
    assert table.shoe_watch.raised == (jam,) and table.table_name == "Salon 8"
    assert table.version == version + 2  # the name and the conditions
    assert apply_event(table, replace(birth, origin=Origin(2, 0))).changed is False
    assert table.version == version + 2


def test_whatever_takes_the_hand_being_dealt_off_the_table_redraws_the_board() -> None:
    """The board draws the hand face down from ``table.forming``: an event that ends it but
    changes nothing else (a new shoe message delivered twice) must still bump ``version``, or
    the board keeps showing a hand the table no longer holds."""
    ends = [NewShoe(SHOE), CoupReceived(SHOE, GAMES[0]), Void(SHOE, 2, "misdeal")]
    for end in ends:
        table = table_with([1])
        apply_event(table, CardDealt(SHOE, 2, DEAL_ORDER[0]))
        assert table.forming is not None
        version = table.version
        apply_event(table, end)
        assert table.forming is None or table.version == version, end
        assert table.forming is not None or table.version > version, end


def test_a_stale_copy_of_a_coup_does_not_end_the_hand_being_dealt() -> None:
    table = TableState()
    apply_event(table, NewShoe(SHOE, origin=Origin(1, 1)))
    coup = CoupReceived(SHOE, GAMES[0], origin=Origin(1, 2))
    apply_event(table, coup)
    apply_event(table, CardDealt(SHOE, 2, DEAL_ORDER[0], origin=Origin(1, 3)))
    assert apply_event(table, coup).stale
    assert table.forming is not None and table.forming.game == 2


def test_a_health_report_redraws_the_staff_mark() -> None:
    table = table_with([1])
    version = table.version
    assert apply_event(table, ShoeHealth("device", "raised", "unplugged")).changed is True
    assert table.shoe_watch.mark == "shoe_offline" and table.version == version + 1
