"""The board's side of the shoe's own events: the hand forming face down, the shoe's health.

The table keeps the seats dealt and never a card's face (a squeezed hand is
revealed by its coup); its health is raised, cleared and counted, and a controller
status restates what is raised.
"""

from __future__ import annotations

from dealt import dealt_shoe

from scoreboard.game.cards import parse_card
from scoreboard.game.events import ControllerStatus, Origin, ShoeHealth
from scoreboard.game.seats import DEAL_ORDER, Seat, Side, seats_of
from scoreboard.protocol import CardDealt, Correct, CoupReceived, NewShoe, Snapshot, Void
from scoreboard.protocol import apply_event as apply
from scoreboard.table.shoe_watch import MAX_CONDITIONS, Forming, deals_of
from scoreboard.table.state import TableState

SHOE = dealt_shoe(7)
GAMES = SHOE.games


def table_at(game: int) -> TableState:
    """A table whose shoe has games 1 to ``game - 1`` on the board."""
    table = TableState()
    apply(table, NewShoe(SHOE.shoe))
    for played in GAMES[: game - 1]:
        apply(table, CoupReceived(SHOE.shoe, played))
    return table


def deal(table: TableState, game: int, seats=DEAL_ORDER, *, faces: bool = False) -> None:
    for event in deals_of(SHOE.shoe, GAMES[game - 1], faces=faces):
        if event.seat in seats:
            applied = apply(table, event)
            assert applied.changed and not applied.worth_keeping  # redrawn, never journaled


def test_the_hand_forms_seat_by_seat_and_keeps_no_face_even_when_the_deal_has_it():
    table = table_at(5)
    version = table.version
    deal(table, 5, DEAL_ORDER[:3], faces=True)
    assert table.forming == Forming(SHOE.shoe, 5, DEAL_ORDER[:3])
    assert table.version == version + 3
    assert not any(hasattr(table.forming, name) for name in ("cards", "card", "player"))
    assert table.last_number == 4  # the board's games: unchanged


def test_its_coup_ends_the_hand_being_dealt():
    table = table_at(5)
    deal(table, 5, seats_of(GAMES[4].coup), faces=True)
    apply(table, CoupReceived(SHOE.shoe, GAMES[4]))
    assert table.forming is None and table.last_number == 5


def test_a_void_a_new_shoe_a_snapshot_or_an_abandoned_hand_ends_it_too():
    ends = [
        Void(SHOE.shoe, 5, "misdeal"),
        NewShoe("next"),
        Snapshot(SHOE.shoe, GAMES[:5]),
        ShoeHealth("hand_abandoned", "seen", "powered on mid-hand"),
        Correct(SHOE.shoe, GAMES[4]),
        CoupReceived("next", GAMES[0]),
    ]
    for end in ends:
        table = table_at(5)
        deal(table, 5)
        apply(table, end)
        assert table.forming is None, end


def test_what_is_not_its_end_leaves_it():
    others = [
        Void(SHOE.shoe, 2),
        ShoeHealth("error:2", "raised"),
        CoupReceived(SHOE.shoe, GAMES[2]),
    ]
    for other in others:
        table = table_at(5)
        deal(table, 5)
        apply(table, other)
        assert table.forming == Forming(SHOE.shoe, 5, DEAL_ORDER), other


def test_a_deal_of_a_game_on_the_board_or_of_another_shoe_is_not_shown():
    table = table_at(5)
    assert not apply(table, CardDealt(SHOE.shoe, 4, DEAL_ORDER[0])).changed
    assert not apply(table, CardDealt("other", 5, DEAL_ORDER[0])).changed
    assert table.forming is None


def test_a_later_game_starts_a_new_hand_and_a_late_deal_of_the_earlier_one_is_ignored():
    table = table_at(5)
    deal(table, 5)
    apply(table, CardDealt(SHOE.shoe, 6, DEAL_ORDER[0]))
    assert table.forming == Forming(SHOE.shoe, 6, DEAL_ORDER[:1])
    assert not apply(table, CardDealt(SHOE.shoe, 5, Seat(Side.PLAYER, 3))).changed
    assert not apply(table, CardDealt(SHOE.shoe, 6, DEAL_ORDER[0])).changed  # a copy


def test_a_v2_deal_moves_the_position_and_a_replay_is_stale():
    table = table_at(5)
    event = CardDealt(SHOE.shoe, 5, DEAL_ORDER[0], parse_card("9H"), Origin(3, 10))
    assert apply(table, event).changed and table.position == Origin(3, 10)
    assert apply(table, event).stale


def test_health_is_raised_cleared_and_counted():
    table = TableState()
    apply(table, ShoeHealth("device", "raised", "/dev/ttyUSB0 is gone"))
    assert table.shoe_watch.mark == "shoe_offline" and table.shoe_watch.offline
    apply(table, ShoeHealth("error:2", "raised", "card not read"))
    assert table.shoe_watch.mark == "shoe_offline"  # the device first: nothing is read
    apply(table, ShoeHealth("device", "cleared", "back"))
    assert table.shoe_watch.mark == "shoe_error"
    apply(table, ShoeHealth("error:2", "seen", "again"))  # seen once: still raised
    assert table.shoe_watch.mark == "shoe_error"
    applied = apply(table, ShoeHealth("error:2", "cleared"))
    assert applied.worth_keeping and table.shoe_watch.mark is None
    assert dict(table.shoe_watch.seen) == {"device": 2, "error:2": 3}
    assert table.shoe_watch.last == ShoeHealth("error:2", "cleared")


def test_a_controller_status_restates_what_is_raised_and_a_birth_without_clears_it():
    table = TableState()
    raised = (ShoeHealth("device", "raised", "gone"),)
    assert apply(table, ControllerStatus(True, Origin(4, 1), raised)).changed
    assert table.shoe_watch.mark == "shoe_offline"
    assert not apply(table, ControllerStatus(False, Origin(4, 2))).changed  # a will: as it was
    assert table.shoe_watch.mark == "shoe_offline"
    assert apply(table, ControllerStatus(True, Origin(5, 1))).changed
    assert table.shoe_watch.mark is None


def test_a_flood_of_conditions_keeps_a_bounded_watch():
    table = TableState()
    for code in range(1000):
        apply(table, ShoeHealth(f"error:{code}", "raised"))
    watch = table.shoe_watch
    assert len(watch.raised) <= MAX_CONDITIONS + 1 and len(watch.seen) <= MAX_CONDITIONS + 1
    assert dict(watch.seen)["other"] == 1000 - MAX_CONDITIONS
