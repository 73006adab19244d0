"""A board that follows a session nobody speaks for must not say LIVE.

The core ignores every payload of a session older than the one the board follows
(replays stay off the screen).  If that followed session was forged far ahead
(no key) or the real controller came back with its clock set back, the live
controller is the older session: the mark must leave LIVE, and the log say why.
"""

from __future__ import annotations

import logging

from scoreboard.feeds._session import DisplaySession
from scoreboard.game.events import ControllerStatus, CoupReceived, NewShoe, Origin
from scoreboard.game.shoe import Dealer
from scoreboard.link.client import Connected, Message
from scoreboard.protocol import Topics, wire
from scoreboard.settings.config import MqttConfig
from scoreboard.settings.endpoint import Endpoint
from scoreboard.table.applied import FeedStatus
from scoreboard.table.behind import LEFT_BEHIND_SPAN
from scoreboard.table.state import TableState

TOPICS = Topics("unit/v2/T1")
GAMES = [e.game for e in Dealer(seed=9).shoe() if isinstance(e, CoupReceived)]
FOLLOWED, OLDER = 1_900_000_000_000, 1_764_585_600_000  # a far-ahead session, the real one


def message(event) -> Message:
    return Message(*wire(TOPICS, event), received_at=0.0)


def following(session: int) -> tuple[DisplaySession, TableState]:
    s = DisplaySession(Endpoint(MqttConfig(port=1), TOPICS), "u1", clock=lambda: 0.0)
    table = TableState()
    events = [
        ControllerStatus(True, origin=Origin(session, 1)),
        NewShoe("S1", origin=Origin(session, 2)),
        CoupReceived("S1", GAMES[0], origin=Origin(session, 3)),
    ]
    s.step([Connected(False), *(message(e) for e in events)], table, 0.0)
    assert table.position == Origin(session, 3)
    assert s.status(0.0) is FeedStatus.LIVE
    return s, table


def test_an_older_session_dealing_on_unheard_takes_the_board_off_live(caplog):
    s, table = following(FOLLOWED)
    with caplog.at_level(logging.ERROR, logger="scoreboard"):
        now = 0.0
        for seq, game in enumerate(GAMES[1:8], start=10):  # the real controller deals on
            now += 1.0
            s.step([message(CoupReceived("S1", game, origin=Origin(OLDER, seq)))], table, now)
    assert len(table.games) == 1  # every one of them ignored: the core's rule stands
    assert s.status(now) is FeedStatus.CONTROLLER_OFFLINE
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and str(OLDER) in errors[0] and str(FOLLOWED) in errors[0]
    # The followed session speaks again: the mark is what it was.
    s.step([message(CoupReceived("S1", GAMES[1], origin=Origin(FOLLOWED, 4)))], table, now + 1)
    assert s.status(now + 1) is FeedStatus.LIVE


def test_a_burst_of_late_copies_of_an_older_session_leaves_live_alone():
    """After a reconnect the broker may hand over an old session's queue at once."""
    s, table = following(FOLLOWED)
    late = [
        message(CoupReceived("S1", g, origin=Origin(OLDER, n))) for n, g in enumerate(GAMES, 10)
    ]
    s.step(late, table, 1.0)
    while s.backlog:
        s.step([], table, 1.0 + LEFT_BEHIND_SPAN / 2)
    assert s.ignored["stale"] == len(GAMES)
    assert s.status(1.0 + LEFT_BEHIND_SPAN) is FeedStatus.LIVE


def test_replays_of_the_followed_session_never_take_the_board_off_live():
    s, table = following(OLDER)
    old = message(CoupReceived("S1", GAMES[0], origin=Origin(OLDER, 3)))
    for now in range(1, 20):
        s.step([old], table, float(now))
    assert s.ignored["replay"] == 19
    assert s.status(20.0) is FeedStatus.LIVE
