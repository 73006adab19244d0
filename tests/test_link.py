"""The Link against a real mosquitto: it hands over link events, publishes, leaves a will."""

from __future__ import annotations

import threading
import time

from mqtt_broker import Broker, Recorder, needs_mosquitto, publisher, unique_prefix

from scoreboard.link.client import (
    Connected,
    Disconnected,
    Link,
    LinkEvent,
    Message,
    Publish,
    Subscribed,
    Unreachable,
    default_client_id,
)
from scoreboard.protocol import Topics
from scoreboard.settings.endpoint import Endpoint

pytestmark = needs_mosquitto


class Collector:
    """Drains a link from the test's thread, as its owner's loop would."""

    def __init__(self, link: Link) -> None:
        self.link = link
        self.events: list[LinkEvent] = []
        self.woken = threading.Event()

    def wake(self) -> None:
        self.woken.set()

    def until(self, predicate, timeout: float = 15.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.woken.wait(0.05)
            self.woken.clear()
            self.events += self.link.drain()
            if predicate():
                return True
        return False

    def of(self, kind: type) -> list:
        return [event for event in self.events if isinstance(event, kind)]


def start_link(endpoint: Endpoint, **options) -> Collector:
    link = Link(endpoint, client_id=f"link-{unique_prefix().replace('/', '-')}", **options)
    collector = Collector(link)
    link.start(collector.wake)
    return collector


def test_a_link_connects_subscribes_and_hands_over_raw_messages(broker):
    prefix = unique_prefix()
    topics = Topics(prefix)
    stamps = iter(range(1000, 2000))
    c = start_link(
        broker.endpoint(prefix),
        subscriptions=(topics.coup, topics.event),
        clock=lambda: float(next(stamps)),
    )
    try:
        assert c.until(lambda: bool(c.of(Subscribed)))
        assert c.of(Connected) == [Connected(session_present=False, broker=broker.address)]
        assert c.of(Subscribed) == [Subscribed(refused=())]
        assert c.link.connected
        client = publisher(broker.settings())
        client.publish(topics.coup, b"not even json", qos=1).wait_for_publish(5)
        client.publish(f"{prefix}/elsewhere", b"x", qos=1).wait_for_publish(5)
        client.publish(topics.event, b"{}", qos=1).wait_for_publish(5)
        assert c.until(lambda: len(c.of(Message)) == 2)
        # Raw, in order, unparsed: judging them is the owner's job; stamped by the clock.
        assert [(m.topic, m.payload) for m in c.of(Message)] == [
            (topics.coup, b"not even json"),
            (topics.event, b"{}"),
        ]
        assert all(m.received_at >= 1000.0 for m in c.of(Message))
        client.loop_stop()
    finally:
        c.link.stop()


def test_a_link_publishes_and_a_clean_stop_leaves_no_will(broker):
    prefix = unique_prefix()
    topic = f"{prefix}/display/d1/status"
    recorder = Recorder(broker.settings(), f"{prefix}/#").start()
    c = start_link(broker.endpoint(prefix), will=Publish(topic, b"gone", qos=1, retain=True))
    try:
        assert c.until(lambda: c.link.connected)
        c.link.publish(Publish(topic, b"here", qos=1, retain=True)).wait_for_publish(5)
        c.link.stop()
        assert not c.link.connected
        time.sleep(0.5)
        assert recorder.on(topic) == [b"here"]
        assert c.until(lambda: bool(c.of(Disconnected)), 5)
    finally:
        recorder.stop()


def test_a_dropped_link_leaves_its_will_with_the_broker(broker):
    prefix = unique_prefix()
    topic = f"{prefix}/controller/status"
    recorder = Recorder(broker.settings(), topic).start()
    c = start_link(broker.endpoint(prefix), will=Publish(topic, b"offline", qos=1, retain=True))
    try:
        assert c.until(lambda: c.link.connected)
        c.link.drop()  # a power cut: no DISCONNECT
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not recorder.on(topic):
            time.sleep(0.05)
        assert recorder.on(topic) == [b"offline"]
    finally:
        recorder.stop()


def test_a_link_reports_a_lost_broker_and_reconnects(tmp_path):
    prefix = unique_prefix()
    broker = Broker(tmp_path / "broker")
    (tmp_path / "broker").mkdir()
    c = start_link(broker.endpoint(prefix))  # nobody listening yet
    try:
        assert c.until(lambda: bool(c.of(Unreachable)), 10)
        assert not c.of(Connected)
        broker.start()
        assert c.until(lambda: bool(c.of(Connected)), 30)
        broker.stop()
        assert c.until(lambda: bool(c.of(Disconnected)), 10)
        assert not c.link.connected
    finally:
        c.link.stop()
        broker.stop()


def test_a_wake_that_always_raises_does_not_kill_the_network_thread(broker, caplog):
    prefix = unique_prefix()
    topics = Topics(prefix)
    calls = []

    def broken_wake():
        calls.append(1)
        raise RuntimeError("wake failed")

    link = Link(broker.endpoint(prefix), client_id="link-broken-wake", subscriptions=(topics.coup,))
    link.start(broken_wake)
    try:
        client = publisher(broker.settings())
        deadline = time.monotonic() + 15
        events: list[LinkEvent] = []
        while time.monotonic() < deadline and not any(isinstance(e, Subscribed) for e in events):
            time.sleep(0.05)
            events += link.drain()
        for number in range(3):
            client.publish(topics.coup, b"%d" % number, qos=1).wait_for_publish(5)
        while time.monotonic() < deadline and sum(isinstance(e, Message) for e in events) < 3:
            time.sleep(0.05)
            events += link.drain()
        assert [e.payload for e in events if isinstance(e, Message)] == [b"0", b"1", b"2"]
        assert link.connected and len(calls) >= 5  # every event still tried to wake
        # The link's own guard caught it (paho's last-resort net is not relied upon).
        assert "mqtt: error in on_message (ignored)" in caplog.text
        client.loop_stop()
    finally:
        link.stop()


def test_the_default_client_id_names_who_and_the_table():
    assert default_client_id("controller", Topics("baccarat/v1/T1")) == (
        "scoreboard-controller-baccarat-v1-T1"
    )
    assert len(default_client_id("d" * 200, Topics("baccarat/v1/T1"))) == 128
