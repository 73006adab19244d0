"""Protocol v2 ordering survives a restart: the journal keeps the position, limits and shoes.

docs/display-feed.md ("Ordering"): the position ``(session, seq)`` is
"journaled with the events, so it survives a restart"; limits are ordered among
limits; a snapshot is judged against the last event that changed the games.
Each test drives the core and the journal through their public API only.
"""

from __future__ import annotations

import os

from scoreboard.game.events import (
    ControllerStatus,
    CoupReceived,
    CutCard,
    LimitsReceived,
    NewShoe,
    Origin,
    Shuffle,
    Snapshot,
    Void,
)
from scoreboard.game.limits import Limits
from scoreboard.game.rules import Game, Winner, result_coup
from scoreboard.game.variants import VARIANTS
from scoreboard.journal import Journal
from scoreboard.table.state import TableState, apply_event

BANKER = result_coup(Winner.BANKER)
PLAYER = result_coup(Winner.PLAYER)
DEFAULT = Limits.default_for(VARIANTS["commission"])
LOW = Limits(currency="USD", bets={"player": (10, 500), "banker": (10, 500)}, pays=DEFAULT.pays)
HIGH = Limits(
    currency="USD", bets={"player": (100, 50000), "banker": (100, 50000)}, pays=DEFAULT.pays
)


def coup(shoe: str, number: int, seq: int, session: int = 1, result=BANKER) -> CoupReceived:
    return CoupReceived(shoe, Game(number, result), origin=Origin(session, seq))


def live(state_dir, events) -> TableState:
    """A display that replays ``state_dir``, applies and journals ``events`` as the session does."""
    table = TableState()
    with Journal(state_dir) as journal:
        journal.replay(table)
        for event in events:
            applied = apply_event(table, event)
            journal.keep(event, table, applied)
    return table


def restarted(state_dir) -> TableState:
    table = TableState()
    with Journal(state_dir) as journal:
        journal.replay(table)
    return table


# -- what held up (kept as regression checks) -------------------------------------------


def test_plain_replay_restores_position_games_and_limits_order(tmp_path):
    events = [
        NewShoe("S1", origin=Origin(1, 1)),
        LimitsReceived(LOW, origin=Origin(1, 2)),
        coup("S1", 1, 3),
        coup("S1", 2, 4, result=PLAYER),
        Void("S1", 2, origin=Origin(1, 5)),
        LimitsReceived(HIGH, origin=Origin(1, 6)),
        coup("S1", 3, 7),
    ]
    before = live(tmp_path, events)
    after = restarted(tmp_path)
    assert after.position == before.position == Origin(1, 7)
    assert after.games == before.games and after.voided == (2,)
    # A late copy of the older limits after the restart stays stale.
    assert apply_event(after, LimitsReceived(LOW, origin=Origin(1, 2))).stale
    assert after.limits == HIGH
    # The retained snapshot of the same session, as of the last coup, changes nothing.
    same = Snapshot("S1", before.games, (2,), origin=Origin(1, 7))
    assert not apply_event(after, same).changed
    # An older snapshot (before the void) is stale: the void stays.
    old = Snapshot("S1", (Game(1, BANKER), Game(2, PLAYER)), origin=Origin(1, 4))
    assert apply_event(after, old).stale and after.voided == (2,)


def test_stale_events_are_never_journaled(tmp_path):
    live(tmp_path, [NewShoe("S1", origin=Origin(1, 1)), coup("S1", 1, 2)])
    size = os.path.getsize(tmp_path / "journal.jsonl")
    live(tmp_path, [coup("S1", 1, 2), Void("S1", 1, origin=Origin(1, 2)), coup("S1", 1, 1)])
    assert os.path.getsize(tmp_path / "journal.jsonl") == size


def test_late_snapshot_of_previous_shoe_does_not_touch_new_shoe():
    table = TableState()
    for event in [
        NewShoe("S1", origin=Origin(1, 1)),
        coup("S1", 1, 2),
        coup("S1", 2, 3),
        NewShoe("S2", "S1", 2, origin=Origin(1, 4)),
        coup("S2", 1, 5, result=PLAYER),
    ]:
        apply_event(table, event)
    late = Snapshot("S1", (Game(1, BANKER), Game(2, BANKER)), origin=Origin(1, 3))
    assert apply_event(table, late).stale
    assert table.shoe_id == "S2" and table.games == (Game(1, PLAYER),)


def test_restart_then_retained_birth_limits_snapshot_of_same_session(tmp_path):
    events = [
        ControllerStatus(True, origin=Origin(1, 0)),
        NewShoe("S1", origin=Origin(1, 1)),
        LimitsReceived(HIGH, origin=Origin(1, 2)),
        coup("S1", 1, 3),
        coup("S1", 2, 4, result=PLAYER),
    ]
    before = live(tmp_path, events)
    after = restarted(tmp_path)
    assert not apply_event(after, ControllerStatus(True, origin=Origin(1, 0))).stale
    limits = apply_event(after, LimitsReceived(HIGH, origin=Origin(1, 2)))
    assert not limits.changed and after.limits == HIGH
    snap = apply_event(after, Snapshot("S1", before.games, origin=Origin(1, 4)))
    assert not snap.stale and not snap.changed
    assert after.position == Origin(1, 4) and after.games == before.games


# -- defects ------------------------------------------------------------------------------


def test_a_new_sessions_birth_survives_a_restart(tmp_path):
    """The controller restarted (birth of session 2): the board follows session 2.

    The birth moves the position but is not journaled (it "changed" nothing),
    so after a restart the table is back on session 1 and a late session-1
    coup, stale before the restart, is recorded."""
    before = live(
        tmp_path,
        [
            NewShoe("S1", origin=Origin(1, 1)),
            coup("S1", 1, 2),
            ControllerStatus(True, origin=Origin(2, 0)),
        ],
    )
    assert before.position == Origin(2, 0)
    assert apply_event(before, coup("S1", 2, 9, result=PLAYER)).stale
    after = restarted(tmp_path)
    assert after.position == before.position
    assert apply_event(after, coup("S1", 2, 9, result=PLAYER)).stale


def test_a_no_op_event_that_moved_the_position_survives_a_restart(tmp_path):
    """Identical limits move the position (display-feed.md: "including a no-op such as
    identical limits") but are not journaled: a restart loses that position."""
    before = live(
        tmp_path,
        [
            NewShoe("S1", origin=Origin(1, 1)),
            LimitsReceived(LOW, origin=Origin(1, 2)),
            coup("S1", 1, 3),
            LimitsReceived(LOW, origin=Origin(1, 4)),
        ],
    )
    assert before.position == Origin(1, 4)
    assert restarted(tmp_path).position == Origin(1, 4)


def test_limits_order_survives_a_shoe_change_and_a_restart(tmp_path):
    """The new shoe's journal opens with the limits written without their origin, so
    after a restart a late copy of older limits replaces the newer ones on screen."""
    live(
        tmp_path,
        [
            NewShoe("S1", origin=Origin(1, 1)),
            LimitsReceived(LOW, origin=Origin(1, 2)),
            coup("S1", 1, 3),
            LimitsReceived(HIGH, origin=Origin(1, 4)),
            NewShoe("S2", "S1", 1, origin=Origin(1, 5)),
            coup("S2", 1, 6),
        ],
    )
    after = restarted(tmp_path)
    assert after.limits == HIGH
    assert apply_event(after, LimitsReceived(LOW, origin=Origin(1, 2))).stale
    assert after.limits == HIGH


def _rewrite_by_losing_the_file(tmp_path, first, then):
    """Apply ``first``, delete the journal under the display, apply ``then``: a rewrite."""
    table = TableState()
    with Journal(tmp_path) as journal:
        journal.replay(table)
        for event in first:
            journal.keep(event, table, apply_event(table, event))
        os.unlink(tmp_path / "journal.jsonl")
        for event in then:
            journal.keep(event, table, apply_event(table, event))
    assert (tmp_path / "journal.jsonl").exists()
    return table


def test_rewrite_from_table_keeps_the_position_of_a_shoe_without_games(tmp_path):
    """A rewrite of a shoe with no games yet writes no origin at all: after a restart
    the position is gone and every older payload is news again."""
    before = _rewrite_by_losing_the_file(
        tmp_path,
        [
            NewShoe("S1", origin=Origin(1, 1)),
            coup("S1", 1, 2),
            NewShoe("S2", "S1", 1, origin=Origin(1, 3)),
        ],
        [Shuffle(shoe="S2", origin=Origin(1, 4))],
    )
    assert before.position == Origin(1, 4)
    after = restarted(tmp_path)
    assert after.shoe_id == "S2"
    assert after.position == before.position


def test_rewrite_from_table_keeps_the_limits_order(tmp_path):
    before = _rewrite_by_losing_the_file(
        tmp_path,
        [
            NewShoe("S1", origin=Origin(1, 1)),
            LimitsReceived(LOW, origin=Origin(1, 2)),
            LimitsReceived(HIGH, origin=Origin(1, 3)),
        ],
        [coup("S1", 1, 4)],
    )
    after = restarted(tmp_path)
    assert after.limits == before.limits == HIGH
    assert apply_event(after, LimitsReceived(LOW, origin=Origin(1, 2))).stale
    assert after.limits == HIGH


def test_rewrite_from_table_keeps_the_games_origin(tmp_path):
    """Game 2 was lost, game 3 arrived, then a cut card.  The retained snapshot as of
    coup 3 fills game 2 (it is judged against the last event that changed the games,
    not the cut card).  After a rewrite and a restart it is wrongly stale: the rewrite
    stamps the shoe's snapshot with the cut card's origin."""
    first = [NewShoe("S1", origin=Origin(1, 1)), coup("S1", 1, 2), coup("S1", 3, 4)]
    then = [CutCard(shoe="S1", origin=Origin(1, 5))]
    retained = Snapshot(
        "S1", (Game(1, BANKER), Game(2, PLAYER), Game(3, BANKER)), origin=Origin(1, 4)
    )
    control = TableState()
    for event in first + then:
        apply_event(control, event)
    assert apply_event(control, retained).changed and control.missing == ()
    _rewrite_by_losing_the_file(tmp_path, first, then)
    after = restarted(tmp_path)
    assert after.missing == (2,)
    applied = apply_event(after, retained)
    assert not applied.stale
    assert after.missing == () and after.games == retained.games


def test_an_unfinished_previous_shoe_survives_a_restart(tmp_path):
    """new_shoe says S1 had 3 games, the display has 2: S1 is unfinished and will be
    asked for.  After a restart the journal of S2 no longer knows it, so the resync
    is never asked and S1's archive stays short with no warning."""
    before = live(
        tmp_path,
        [
            NewShoe("S1", origin=Origin(1, 1)),
            coup("S1", 1, 2),
            coup("S1", 2, 3),
            NewShoe("S2", "S1", 3, origin=Origin(1, 5)),
        ],
    )
    assert before.unfinished is not None and before.unfinished.missing == (3,)
    after = restarted(tmp_path)
    assert after.shoe_id == "S2"
    assert after.unfinished is not None and after.unfinished.missing == (3,)


def test_a_completed_previous_shoe_is_forgotten_across_a_restart(tmp_path):
    """The late snapshot that completes S1 goes to its archive, and the journal of S2
    says so: a restart does not ask for S1 again."""
    events = [
        NewShoe("S1", origin=Origin(1, 1)),
        coup("S1", 1, 2),
        coup("S1", 2, 3),
        NewShoe("S2", "S1", 3, origin=Origin(1, 5)),
    ]
    whole = Snapshot("S1", (Game(1, BANKER), Game(2, BANKER), Game(3, BANKER)), origin=Origin(1, 4))
    before = live(tmp_path, [*events, whole])
    assert before.unfinished is None and before.shoe_id == "S2"
    after = restarted(tmp_path)
    assert after.shoe_id == "S2" and after.unfinished is None
    archived = [p.read_text() for p in (tmp_path / "shoes").glob("*.jsonl")]
    assert any('"game":3' in text for text in archived)  # the completed shoe has its end
