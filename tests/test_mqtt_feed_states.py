"""The display session's bookkeeping, driven by link events and a fake clock: no paho, no network.

Each test hands :class:`DisplaySession` the link events a broker would cause and
reads only its public outputs: the feed mark, the deadline, the counters and
the messages it asks to publish.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from scoreboard.feeds._session import DisplaySession, feed_word
from scoreboard.feeds.repeats import game_ranges
from scoreboard.game.events import Correct, Event, Snapshot
from scoreboard.game.rules import Game
from scoreboard.game.shoe import Dealer
from scoreboard.link.client import (
    Connected,
    Disconnected,
    LinkEvent,
    Message,
    Publish,
    Refused,
    Subscribed,
    Unreachable,
)
from scoreboard.protocol import (
    DISPLAY_OFFLINE,
    CoupReceived,
    Topics,
    encode,
    encode_payload,
    parse_message,
    topic_for,
)
from scoreboard.settings.config import MqttConfig
from scoreboard.settings.endpoint import Endpoint
from scoreboard.table.applied import Applied, FeedStatus
from scoreboard.table.state import TableState

PREFIX = "unit/v1/T1"
TOPICS = Topics(PREFIX)
GAMES = [e.game for e in Dealer(seed=1).shoe() if isinstance(e, CoupReceived)]
SHOE = "S1"
STATUS = TOPICS.display_status("u1")


class Harness:
    """A session, its table, the link events not yet stepped and everything published."""

    def __init__(self, *, journal=None, hmac_key: bytes | None = None) -> None:
        endpoint = Endpoint(MqttConfig(port=1), TOPICS, hmac_key=hmac_key)
        # A work clock that stands still: every step works through all it is given.
        self.session = DisplaySession(endpoint, "u1", journal=journal, clock=lambda: 0.0)
        self.table = TableState()
        self.pending: list[LinkEvent] = []
        self.published: list[Publish] = []

    def connect(self) -> None:
        self.pending.append(Connected(session_present=False))

    def subscribed(self) -> None:
        self.pending.append(Subscribed())

    def disconnect(self) -> None:
        self.pending.append(Disconnected("Unspecified error"))

    def message(self, topic: str, payload: bytes) -> None:
        self.pending.append(Message(topic, payload, received_at=0.0))

    def send(self, event: Event) -> None:
        kind, data = encode(event)
        self.message(topic_for(TOPICS, kind), encode_payload(data))

    def coup(self, number: int) -> None:
        self.send(CoupReceived(SHOE, GAMES[number - 1]))

    def poll(self, now: float) -> FeedStatus:
        self.published += self.session.step(self.pending, self.table, now)
        self.pending = []
        return self.session.status(now)

    def on(self, topic: str) -> list[Publish]:
        return [p for p in self.published if p.topic == topic]

    def resyncs(self) -> int:
        return len(self.on(TOPICS.resync))


def test_the_mark_follows_the_connection_the_controller_and_the_gaps():
    h = Harness()
    assert h.poll(0) is FeedStatus.CONNECTING
    h.connect()
    assert h.poll(1) is FeedStatus.LIVE
    h.message(TOPICS.controller_status, b'{"v":1,"online":false}')
    assert h.poll(2) is FeedStatus.CONTROLLER_OFFLINE
    h.message(TOPICS.controller_status, b'{"v":1,"online":true}')
    h.coup(1)
    h.coup(3)
    assert h.poll(3) is FeedStatus.MISSING_GAMES
    h.coup(2)
    assert h.poll(4) is FeedStatus.LIVE
    h.disconnect()
    assert h.poll(5) is FeedStatus.OFFLINE
    assert len(h.table.games) == 3  # the roads stay


def test_a_refused_or_unreachable_broker_leaves_the_mark_connecting(caplog):
    h = Harness()
    h.pending += [Unreachable(), Unreachable(), Refused("Not authorized")]
    with caplog.at_level(logging.WARNING, logger="scoreboard"):
        assert h.poll(0) is FeedStatus.CONNECTING
    assert h.published == []
    assert [r.getMessage() for r in caplog.records] == [
        "mqtt: broker 127.0.0.1:1 unreachable; retrying every 1-10 s",  # once, not per retry
        "mqtt: broker refused the connection: Not authorized (retrying)",  # another cause
    ]
    caplog.clear()
    h.connect()
    h.disconnect()
    h.pending.append(Refused("Not authorized"))
    with caplog.at_level(logging.WARNING, logger="scoreboard"):
        assert h.poll(1) is FeedStatus.OFFLINE
    assert "broker refused the connection: Not authorized" in caplog.text  # again, after a success


def test_resync_is_asked_at_once_then_with_backoff_while_games_are_missing():
    h = Harness()
    h.connect()
    h.coup(1)
    h.coup(4)
    h.poll(100.0)
    assert h.resyncs() == 1
    assert h.session.next_deadline(100.0) == 102.0
    h.poll(101.0)
    assert h.resyncs() == 1
    for now, expected_next in ((102.0, 106.0), (106.0, 114.0), (114.0, 124.0), (124.0, 134.0)):
        h.poll(now)
        assert h.session.next_deadline(now) == expected_next
    assert h.resyncs() == 5
    h.coup(2)
    h.coup(3)
    h.poll(125.0)
    assert h.session.next_deadline(125.0) is None


def test_a_resync_request_names_the_display_the_shoe_and_the_gap_and_is_signed():
    key = b"k" * 16
    h = Harness(hmac_key=key)
    h.connect()
    h.message(TOPICS.coup, encode_payload(encode(CoupReceived(SHOE, GAMES[0]))[1], key))
    h.message(TOPICS.coup, encode_payload(encode(CoupReceived(SHOE, GAMES[3]))[1], key))
    h.poll(0.0)
    [request] = h.on(TOPICS.resync)
    assert (request.qos, request.retain) == (1, False)
    asked = parse_message(TOPICS, request.topic, request.payload, key=key)
    assert (asked.display, asked.shoe, asked.missing) == ("u1", SHOE, (2, 3))


def test_no_resync_is_asked_while_offline_and_one_at_once_on_reconnect():
    h = Harness()
    h.connect()
    h.coup(1)
    h.disconnect()
    h.coup(3)  # arrived just before the link dropped
    h.poll(0.0)
    assert h.resyncs() == 0
    assert h.session.next_deadline(0.0) is None
    h.connect()
    h.poll(5.0)
    assert h.resyncs() == 1


def test_the_status_is_republished_only_when_it_changes():
    h = Harness()
    h.connect()
    h.poll(0)
    assert len(h.on(STATUS)) == 1
    assert all(p.retain and p.qos == 1 for p in h.on(STATUS))
    h.poll(1)
    h.coup(1)
    h.coup(1)  # redelivery: no change
    h.poll(2)
    statuses = h.on(STATUS)
    assert len(statuses) == 2 and b'"games":1' in statuses[-1].payload
    h.message(TOPICS.coup, b"garbage")
    h.poll(3)
    statuses = h.on(STATUS)
    assert len(statuses) == 3 and b'"rejected":1' in statuses[-1].payload


def test_the_status_is_published_again_on_every_connect():
    h = Harness()
    h.connect()
    h.poll(0)
    h.disconnect()
    h.poll(1)
    assert len(h.on(STATUS)) == 1  # nothing while offline
    h.connect()
    h.poll(2)
    assert len(h.on(STATUS)) == 2
    assert h.on(STATUS)[0].payload == h.on(STATUS)[1].payload  # same content, published again


def test_the_status_feed_word_follows_the_clock_it_is_given():
    h = Harness()
    h.connect()
    h.subscribed()
    h.poll(50.0)
    assert b'"feed":"connected"' in h.on(STATUS)[-1].payload
    h.poll(50.5)  # within the grace: still live, nothing new to say
    assert len(h.on(STATUS)) == 1
    h.poll(51.0)
    assert b'"feed":"controller offline"' in h.on(STATUS)[-1].payload


def test_the_feed_word_is_the_marks_word_and_connected_when_live():
    assert feed_word(FeedStatus.LIVE) == "connected"
    assert feed_word(FeedStatus.CONTROLLER_OFFLINE) == "controller offline"
    assert feed_word(FeedStatus.OFFLINE) == "offline"


def test_the_goodbye_and_the_will_say_offline_retained():
    h = Harness()
    assert h.session.will == Publish(STATUS, DISPLAY_OFFLINE, qos=1, retain=True)
    assert h.session.goodbye() is None  # nobody to tell
    h.connect()
    h.poll(0)
    assert h.session.goodbye() == h.session.will


def test_a_bug_while_applying_is_contained_and_counted():
    class BrokenJournal:
        def keep(self, *_):
            raise RuntimeError("boom")

    h = Harness(journal=BrokenJournal())
    h.connect()
    h.coup(1)
    h.coup(2)
    h.poll(0)  # does not raise
    assert h.session.rejected_by_reason["internal error"] == 2
    assert h.session.rejected == 2
    assert len(h.table.games) == 2


def test_what_changed_the_table_is_journaled_and_counted():
    kept: list[tuple[Event, Applied]] = []

    class Journal:
        def keep(self, event, _table, applied):
            kept.append((event, applied))

    h = Harness(journal=Journal())
    h.connect()
    h.coup(1)
    h.coup(1)  # a redelivery: handed to the journal, which keeps only what matters
    h.message(TOPICS.coup, b"garbage")  # never reaches the journal
    h.poll(0)
    assert [event for event, _ in kept] == [CoupReceived(SHOE, GAMES[0])] * 2
    assert [applied.worth_keeping for _, applied in kept] == [True, False]
    assert h.session.applied == 1


def test_an_empty_retained_message_is_a_cleared_topic_not_a_rejection():
    h = Harness()
    h.connect()
    h.message(TOPICS.snapshot, b"")
    h.poll(0)
    assert h.session.rejected == 0


def test_missing_games_are_logged_as_ranges():
    assert game_ranges((3, 4, 5, 9, 11, 12)) == "3-5, 9, 11-12"
    assert game_ranges((7,)) == "7"
    assert game_ranges(()) == ""


def test_a_controller_that_never_announced_itself_is_shown_offline():
    h = Harness()
    h.connect()
    h.subscribed()
    assert h.poll(10.0) is FeedStatus.LIVE
    assert h.session.next_deadline(10.0) == 11.0
    assert h.poll(11.0) is FeedStatus.CONTROLLER_OFFLINE
    assert b'"feed":"controller offline"' in h.published[-1].payload
    h.message(TOPICS.controller_status, b'{"v":1,"online":true}')  # the retained status
    assert h.poll(11.5) is FeedStatus.LIVE
    assert h.session.next_deadline(11.5) is not None  # the snapshot watch: ask if none comes
    h.disconnect()
    h.connect()  # after a reconnect the controller must show itself again
    h.subscribed()
    assert h.poll(20.0) is FeedStatus.LIVE
    assert h.poll(21.0) is FeedStatus.CONTROLLER_OFFLINE


def test_the_session_counts_a_snapshot_conflict_and_logs_an_override(caplog):
    h = Harness()
    h.connect()
    for number in (1, 2, 3):
        h.coup(number)
    fixed = Game(2, next(g.coup for g in GAMES if g.coup != GAMES[1].coup))
    h.send(Snapshot(SHOE, (GAMES[0], fixed, GAMES[2])))  # brings a correction it missed
    with caplog.at_level(logging.WARNING, logger="scoreboard"):
        h.poll(0)
    assert h.table.game(2) == fixed and h.session.rejected == 0
    assert h.session.rejected_by_reason["snapshot override"] == 1
    assert "missed correct or void" in caplog.text
    h.send(Correct(SHOE, fixed))
    h.send(Snapshot(SHOE, tuple(GAMES[:3])))  # stale: older than the correction
    with caplog.at_level(logging.WARNING, logger="scoreboard"):
        h.poll(1)
    assert h.table.game(2) == fixed
    assert h.session.rejected == 1 and h.session.rejected_by_reason["conflict"] == 1
    assert "games 2 differ" in caplog.text


def test_a_conflicting_coup_is_counted_and_the_recorded_one_named(caplog):
    h = Harness()
    h.connect()
    h.coup(1)
    other = next(g.coup for g in GAMES if g.coup.winner != GAMES[0].coup.winner)
    h.send(CoupReceived(SHOE, Game(1, other)))
    with caplog.at_level(logging.WARNING, logger="scoreboard"):
        h.poll(0)
    assert h.table.games == (GAMES[0],)
    assert h.session.rejected_by_reason["conflict"] == 1
    assert f"game 1 is already recorded as {GAMES[0].coup.winner.value}" in caplog.text


@dataclass(frozen=True)
class UnreachableBecause(Unreachable):
    """The link's event with the reason it names (a TLS failure, a refused port...)."""

    reason: str = ""


def test_each_cause_of_an_unreachable_broker_is_logged_once_until_a_success(caplog):
    h = Harness()
    expired = UnreachableBecause("certificate verify failed: certificate has expired")
    h.pending += [expired, expired, UnreachableBecause("Connection refused"), expired]
    with caplog.at_level(logging.WARNING, logger="scoreboard"):
        h.poll(0)
    lines = [r.getMessage() for r in caplog.records]
    assert lines == [
        "mqtt: broker 127.0.0.1:1 unreachable (certificate verify failed: certificate has"
        " expired); retrying every 1-10 s",
        "mqtt: broker 127.0.0.1:1 unreachable (Connection refused); retrying every 1-10 s",
    ]
    h.connect()
    h.disconnect()
    h.pending.append(expired)
    with caplog.at_level(logging.WARNING, logger="scoreboard"):
        h.poll(1)
    expiries = [r for r in caplog.records if "expired" in r.getMessage()]
    assert len(expiries) == 2  # a success in between: said again
