"""The MQTT feed's bookkeeping, driven through its paho callbacks without a network."""

from __future__ import annotations

from dataclasses import dataclass

from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.reasoncodes import ReasonCode

from scoreboard.config import MqttConfig
from scoreboard.core.shoe import Dealer
from scoreboard.core.table import FeedStatus, TableState
from scoreboard.feeds.mqtt import MqttFeed, _ranges
from scoreboard.protocol import CoupReceived, Topics, encode, encode_payload

PREFIX = "unit/v1/T1"
TOPICS = Topics(PREFIX)
GAMES = [e.game for e in Dealer(seed=1).shoe() if isinstance(e, CoupReceived)]
SHOE = "S1"


@dataclass
class RawMessage:
    topic: str
    payload: bytes


class Harness:
    def __init__(self, **options) -> None:
        self.feed = MqttFeed(MqttConfig(port=1), topics=TOPICS, display_id="u1", **options)
        self.table = TableState()
        self.wakes = 0
        self.feed._wake = self.wake
        self.published: list[tuple[str, bytes]] = []
        self.feed.client.publish = self.capture  # the network side is not under test here

    def wake(self) -> None:
        self.wakes += 1

    def capture(self, topic, payload=None, qos=0, retain=False, properties=None):
        self.published.append((topic, payload))

        class Info:
            def wait_for_publish(self, timeout=None):
                return None

        return Info()

    def connect(self) -> None:
        self.feed._on_connect(self.feed.client, None, None, ReasonCode(PacketTypes.CONNACK), None)

    def disconnect(self) -> None:
        code = ReasonCode(PacketTypes.DISCONNECT, "Unspecified error")
        self.feed._on_disconnect(self.feed.client, None, None, code, None)

    def message(self, topic: str, payload: bytes) -> None:
        self.feed._on_message(self.feed.client, None, RawMessage(topic, payload))

    def coup(self, number: int) -> None:
        game = GAMES[number - 1]
        self.message(TOPICS.coup, encode_payload(encode(CoupReceived(SHOE, game))[1]))

    def poll(self, now: float) -> FeedStatus:
        self.feed.poll(self.table, now)
        return self.feed.status(now)

    def resyncs(self) -> int:
        return sum(topic == TOPICS.resync for topic, _ in self.published)


def test_the_mark_follows_the_connection_the_controller_and_the_gaps():
    h = Harness()
    h.feed.client.subscribe = lambda *args, **kwargs: None
    assert h.poll(0) is FeedStatus.CONNECTING
    h.connect()
    assert h.wakes == 1
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


def test_resync_is_asked_at_once_then_with_backoff_while_games_are_missing():
    h = Harness()
    h.feed.client.subscribe = lambda *args, **kwargs: None
    h.connect()
    h.coup(1)
    h.coup(4)
    h.poll(100.0)
    assert h.resyncs() == 1
    assert h.feed.next_deadline(100.0) == 102.0
    h.poll(101.0)
    assert h.resyncs() == 1
    for now, expected_next in ((102.0, 106.0), (106.0, 114.0), (114.0, 124.0), (124.0, 134.0)):
        h.poll(now)
        assert h.feed.next_deadline(now) == expected_next
    h.coup(2)
    h.coup(3)
    h.poll(125.0)
    assert h.feed.next_deadline(125.0) is None


def test_the_status_is_republished_only_when_it_changes():
    h = Harness()
    h.feed.client.subscribe = lambda *args, **kwargs: None
    h.connect()
    h.poll(0)
    statuses = [p for t, p in h.published if t == TOPICS.display_status("u1")]
    assert len(statuses) == 1
    h.poll(1)
    h.coup(1)
    h.coup(1)  # redelivery: no change
    h.poll(2)
    statuses = [p for t, p in h.published if t == TOPICS.display_status("u1")]
    assert len(statuses) == 2 and b'"games":1' in statuses[-1]
    h.message(TOPICS.coup, b"garbage")
    h.poll(3)
    statuses = [p for t, p in h.published if t == TOPICS.display_status("u1")]
    assert len(statuses) == 3 and b'"rejected":1' in statuses[-1]


def test_a_bug_while_applying_is_contained_and_counted():
    class BrokenJournal:
        def record(self, event, table):
            raise RuntimeError("boom")

        def close(self):
            pass

    h = Harness(journal=BrokenJournal())
    h.feed.client.subscribe = lambda *args, **kwargs: None
    h.connect()
    h.coup(1)
    h.coup(2)
    h.poll(0)  # does not raise
    assert h.feed.rejected_by_reason["internal error"] == 2
    assert len(h.table.games) == 2


def test_callbacks_never_raise_even_when_wake_does():
    h = Harness()

    def broken_wake():
        raise RuntimeError("wake failed")

    h.feed._wake = broken_wake
    h.coup(1)  # would kill paho's thread if it raised
    h.feed._on_disconnect(None, None, None, None, None)
    h.poll(0)
    assert len(h.table.games) == 1


def test_missing_games_are_logged_as_ranges():
    assert _ranges((3, 4, 5, 9, 11, 12)) == "3-5, 9, 11-12"
    assert _ranges(()) == ""


def test_a_controller_that_never_announced_itself_is_shown_offline():
    h = Harness()
    h.feed.client.subscribe = lambda *args, **kwargs: None
    h.connect()
    granted = [ReasonCode(PacketTypes.SUBACK, "Granted QoS 1")]
    h.feed._on_subscribe(h.feed.client, None, 1, granted, None)
    assert h.poll(10.0) is FeedStatus.LIVE
    assert h.feed.next_deadline(10.0) == 11.0
    assert h.poll(11.0) is FeedStatus.CONTROLLER_OFFLINE
    assert b'"feed":"controller offline"' in h.published[-1][1]
    h.message(TOPICS.controller_status, b'{"v":1,"online":true}')  # the retained status
    assert h.poll(11.5) is FeedStatus.LIVE
    h.disconnect()
    h.connect()  # after a reconnect the controller must show itself again
    h.feed._on_subscribe(h.feed.client, None, 2, granted, None)
    assert h.poll(20.0) is FeedStatus.LIVE
    assert h.poll(21.0) is FeedStatus.CONTROLLER_OFFLINE
