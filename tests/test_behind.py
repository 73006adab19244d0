"""table/behind.py at its edges: what climbs, for how long, and which session is named."""

from __future__ import annotations

from scoreboard.game.events import Origin
from scoreboard.table.behind import LeftBehind


def test_a_session_climbing_exactly_span_seconds_is_the_live_one() -> None:
    behind = LeftBehind(span=5.0)
    behind.stale(Origin(7, 1), 10.0)
    behind.stale(Origin(7, 2), 14.0)
    assert not behind.active  # 4 s of climbing, starting at 10 s: not yet
    behind.stale(Origin(7, 3), 15.0)
    assert behind.active and behind.session == 7


def test_the_same_seq_again_is_no_climb() -> None:
    behind = LeftBehind(span=5.0)
    behind.stale(Origin(7, 3), 0.0)
    behind.stale(Origin(7, 3), 9.0)  # a copy of the same payload, late
    assert not behind.active


def test_the_session_named_is_the_one_climbing_longest() -> None:
    behind = LeftBehind(span=5.0)
    assert behind.session is None
    behind.stale(Origin(3, 1), 0.0)
    behind.stale(Origin(3, 2), 6.0)  # 6 s
    behind.stale(Origin(4, 1), 10.0)
    behind.stale(Origin(4, 2), 14.0)  # 4 s, later on the clock
    assert behind.session == 3


def test_hearing_the_followed_session_forgets_every_climb() -> None:
    behind = LeftBehind(span=5.0)
    behind.stale(Origin(7, 1), 0.0)
    behind.stale(Origin(7, 2), 6.0)
    behind.heard(7.0)
    assert (behind.active, behind.session) == (False, None)
