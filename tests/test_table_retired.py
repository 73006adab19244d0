"""A coup that a void or a correction replaced is old news wherever it turns up again.

Found by the random-order property of test_feed_properties (CI run, 2026-11-29):
game 1 dealt as X, corrected to Y, then voided; a retained snapshot from before
the correction (listing X) arrived last and brought game 1 back as X, because X
differed from the voided coup Y and so looked like a redeal.
"""

from __future__ import annotations

from test_feed_properties import GAMES, SHOE, assert_shows, deliver, other_coup, table_with, wire

from scoreboard.protocol import Correct, CoupReceived, Snapshot, Void, apply_event


def test_a_snapshot_from_before_a_correction_does_not_bring_back_a_voided_game() -> None:
    table = table_with([1, 2, 3])
    fixed = other_coup(GAMES, 1)
    apply_event(table, Correct(SHOE, fixed, "wrong card"))
    apply_event(table, Void(SHOE, 1, "misdeal"))
    deliver(table, Snapshot(SHOE, tuple(GAMES[:3])))  # stale: game 1 as first dealt
    assert_shows(table, SHOE, GAMES[1:3], voided=[1])


def test_a_redelivered_original_after_a_correction_is_ignored_not_a_conflict() -> None:
    table = table_with([1, 2])
    fixed = other_coup(GAMES, 2)
    apply_event(table, Correct(SHOE, fixed, "wrong card"))
    assert deliver(table, CoupReceived(SHOE, GAMES[1])) == 0
    assert_shows(table, SHOE, [GAMES[0], fixed])


def test_two_snapshots_in_reverse_order_do_not_flip_the_road_back() -> None:
    """The newer snapshot brings a correction the display missed; the older one then loses."""
    table = table_with([1, 2, 3])
    fixed = other_coup(GAMES, 2)
    newer = Snapshot(SHOE, (GAMES[0], fixed, GAMES[2]))
    older = Snapshot(SHOE, tuple(GAMES[:3]))
    applied = apply_event(table, wire(newer))
    assert applied.conflicts == () and applied.overrides == (2,)
    assert deliver(table, older) == 1  # kept ours, counted as a conflict
    assert_shows(table, SHOE, [GAMES[0], fixed, GAMES[2]])


def test_a_real_redeal_of_a_voided_game_is_still_accepted() -> None:
    table = table_with([1, 2])
    apply_event(table, Void(SHOE, 2, "misdeal"))
    redeal = other_coup(GAMES, 2, salt=3)
    assert deliver(table, CoupReceived(SHOE, redeal)) == 0
    assert_shows(table, SHOE, [GAMES[0], redeal])


def test_a_correction_before_the_original_coup_then_a_void_stays_voided() -> None:
    """Correct 2 precedes the original coup 2, then void 2; a stale snapshot has the original."""
    table = table_with([1])
    fixed = other_coup(GAMES, 2)
    apply_event(table, Correct(SHOE, fixed, "wrong card"))
    assert deliver(table, CoupReceived(SHOE, GAMES[1])) == 0  # the replaced original, late
    apply_event(table, Void(SHOE, 2, "misdeal"))
    deliver(table, Snapshot(SHOE, (GAMES[0], GAMES[1])))
    assert_shows(table, SHOE, [GAMES[0]], voided=[2])


def test_a_conflicting_coup_is_remembered_so_a_later_stale_snapshot_cannot_use_it() -> None:
    """The snapshot brought the corrected coup; the original then conflicts, is counted, and
    after a correct and a void a stale snapshot listing the original changes nothing."""
    table = table_with([])
    fixed = other_coup(GAMES, 1)
    deliver(table, Snapshot(SHOE, (fixed,)))
    assert deliver(table, CoupReceived(SHOE, GAMES[0])) == 1
    apply_event(table, Correct(SHOE, fixed, "wrong card"))
    apply_event(table, Void(SHOE, 1, "misdeal"))
    deliver(table, Snapshot(SHOE, (GAMES[0],)))
    assert_shows(table, SHOE, [], voided=[1])


def test_a_coup_arriving_after_a_snapshot_voided_it_is_remembered() -> None:
    table = table_with([])
    deliver(table, Snapshot(SHOE, (GAMES[1],), voided=(1,)))
    assert deliver(table, CoupReceived(SHOE, GAMES[0])) == 0  # voided: ignored
    fixed = other_coup(GAMES, 1)
    apply_event(table, Correct(SHOE, fixed, "wrong card"))
    apply_event(table, Void(SHOE, 1, "misdeal"))
    deliver(table, Snapshot(SHOE, (GAMES[0], GAMES[1])))
    assert_shows(table, SHOE, [GAMES[1]], voided=[1])
