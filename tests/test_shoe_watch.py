"""table/shoe_watch.py on its own: the hand forming face down, when a table event settles it,
and the shoe's health as a board keeps it (raised, cleared, counted, bounded).

Pure and fast: the module's first file for its mutation run (docs/mutation.md); the
table's side of the same rules is in test_table_shoe_watch.py.
"""

from __future__ import annotations

from scoreboard.game.cards import parse_cards
from scoreboard.game.events import (
    CardDealt,
    Correct,
    CoupReceived,
    NewShoe,
    ShoeHealth,
    Snapshot,
    Void,
)
from scoreboard.game.rules import Game, Winner, record_coup, result_coup
from scoreboard.game.seats import Seat, Side
from scoreboard.table.shoe_watch import MAX_CONDITIONS, Forming, ShoeWatch, deals_of, settles

P1, B1, P2 = Seat(Side.PLAYER, 1), Seat(Side.BANKER, 1), Seat(Side.PLAYER, 2)
BANKER = result_coup(Winner.BANKER)


def test_a_hand_gathers_its_seats_once_each_and_a_later_game_starts_another() -> None:
    hand = Forming.started(CardDealt("S1", 4, P1))
    assert hand == Forming("S1", 4, (P1,))
    hand = hand.dealt(CardDealt("S1", 4, B1))
    assert hand == Forming("S1", 4, (P1, B1))
    assert hand.dealt(CardDealt("S1", 4, B1)) == hand  # a repeated deal adds nothing
    assert hand.dealt(CardDealt("S1", 3, P2)) == hand  # a late deal of an earlier game
    assert hand.dealt(CardDealt("S1", 5, P1)) == Forming("S1", 5, (P1,))
    assert hand.dealt(CardDealt("S2", 1, P1)) == Forming("S2", 1, (P1,))
    assert hand.dealt(CardDealt("S2", 4, P2)) == Forming("S2", 4, (P2,))
    assert str(hand) == "S1 game 4: P1 B1 face down"


def test_the_deals_of_a_game_name_its_seats_in_order_with_their_faces_or_none() -> None:
    coup = record_coup(parse_cards(["2S", "3H", "9D"]), parse_cards(["4D", "TC"]))
    shown = deals_of("S1", Game(7, coup), faces=True)
    assert [(d.shoe, d.game, str(d.seat), str(d.card)) for d in shown] == [
        ("S1", 7, "P1", "2S"),
        ("S1", 7, "B1", "4D"),
        ("S1", 7, "P2", "3H"),
        ("S1", 7, "B2", "TC"),
        ("S1", 7, "P3", "9D"),
    ]
    withheld = deals_of("S1", Game(7, coup))
    assert [d.seat for d in withheld] == [d.seat for d in shown]
    assert all(d.card is None for d in withheld)


def test_what_settles_the_hand_being_dealt_and_what_does_not() -> None:
    hand = Forming("S1", 4, (P1,))
    settled = [
        CoupReceived("S1", Game(4, BANKER)),
        CoupReceived("S1", Game(5, BANKER)),
        Correct("S1", Game(4, BANKER)),
        Void("S1", 4),
        Snapshot("S1", (Game(4, BANKER),)),
        Snapshot("S1", (), voided=(4,)),
        NewShoe("S1"),
        ShoeHealth("hand_abandoned", "seen"),
    ]
    kept = [
        CoupReceived("S1", Game(3, BANKER)),
        Correct("S1", Game(3, BANKER)),
        Void("S1", 3),
        Void("S1", 5),
        Snapshot("S1", (Game(3, BANKER),), voided=(2,)),
        ShoeHealth("extra_card", "raised"),
    ]
    assert [settles(hand, event, "S1") for event in settled] == [True] * len(settled)
    assert [settles(hand, event, "S1") for event in kept] == [False] * len(kept)
    assert settles(hand, Void("S1", 3), "S2")  # the table is on another shoe now


def test_a_condition_raised_is_kept_with_its_report_until_cleared_and_every_report_counts() -> None:
    error = ShoeHealth("error:2", "raised", "jam")
    watch = ShoeWatch().took(error)
    assert watch.raised == (error,) and watch.seen == (("error:2", 1),) and watch.last == error
    seen = ShoeHealth("powered_on", "seen")
    watch = watch.took(seen)
    assert watch.raised == (error,) and watch.last == seen
    assert watch.seen == (("error:2", 1), ("powered_on", 1))
    watch = watch.took(ShoeHealth("error:2", "cleared"))
    assert watch.raised == () and watch.seen == (("error:2", 2), ("powered_on", 1))


def test_the_staff_mark_says_offline_before_an_error_and_none_when_well() -> None:
    error, device = ShoeHealth("error:7", "raised"), ShoeHealth("device", "raised")
    assert ShoeWatch().mark is None
    assert ShoeWatch().took(ShoeHealth("extra_card", "raised")).mark is None
    only_error = ShoeWatch().took(error)
    assert only_error.mark == "shoe_error" and only_error.errors == (error,)
    both = only_error.took(device)
    assert both.offline and both.mark == "shoe_offline" and both.errors == (error,)


def test_past_max_conditions_new_ones_are_counted_together_as_other() -> None:
    watch = ShoeWatch()
    for n in range(MAX_CONDITIONS - 1):
        watch = watch.took(ShoeHealth(f"c{n}", "seen"))
    last = watch.took(ShoeHealth("last", "raised"))
    assert [h.condition for h in last.raised] == ["last"]  # the 32nd is still its own
    full = last.took(ShoeHealth("more", "raised")).took(ShoeHealth("c0", "seen"))
    assert [h.condition for h in full.raised] == ["last", "other"]
    assert dict(full.seen)["other"] == 1 and dict(full.seen)["c0"] == 2
    assert len(full.seen) == MAX_CONDITIONS + 1
    assert MAX_CONDITIONS == 32


def test_a_status_restates_what_is_raised_keeping_at_most_max_conditions() -> None:
    reports = tuple(ShoeHealth(f"c{n}", "raised") for n in range(MAX_CONDITIONS + 3))
    watch = ShoeWatch().took(ShoeHealth("device", "raised")).restated(reports)
    assert watch.raised == reports[:MAX_CONDITIONS] and not watch.offline
    assert watch.seen == (("device", 1),)
