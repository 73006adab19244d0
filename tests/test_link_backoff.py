"""The reconnect rule of every link: full jitter, the cap doubling to 10 s, reset when it works.

After a broker restart a floor's controllers, displays and lobbies all try again;
paho's fixed 1, 2, 4, 8, 10 s brought them back in the same instants.  Each link
now draws its wait uniformly in [0, cap] from a random source of its own.  The
rule is checked on seeded sources here, then on real links against a real
mosquitto: the cap grows while the broker is away and starts over once the link
has subscribed; and a link whose socket is numbered past 1023 (as a 300-table
floor's are) works at all.
"""

from __future__ import annotations

import os
import random
import resource
import statistics

import pytest
from mqtt_broker import Broker, needs_mosquitto, publisher, unique_prefix
from test_link import start_link

from scoreboard.link._backoff import FIRST_CAP, MAX_CAP, Backoff
from scoreboard.link.client import Message, Subscribed, build_client
from scoreboard.protocol import Topics
from scoreboard.settings.config import MqttConfig
from scoreboard.settings.endpoint import Endpoint


def test_each_wait_is_within_its_cap_and_the_cap_doubles_up_to_ten_seconds() -> None:
    backoff = Backoff(random.Random(22))
    caps, waits = [], []
    for _ in range(12):
        caps.append(backoff.cap)
        waits.append(backoff.next_wait())
    assert caps == [1.0, 2.0, 4.0, 8.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0]
    assert (FIRST_CAP, MAX_CAP) == (1.0, 10.0)
    assert all(0.0 <= wait <= cap for wait, cap in zip(waits, caps, strict=True))


def test_the_waits_are_spread_over_the_whole_cap_not_near_it() -> None:
    """Full jitter: uniform from 0, not the cap with a little noise (half of it at the least)."""
    rng = random.Random(5)
    waits = []
    for _ in range(2000):
        backoff = Backoff(rng)
        for _ in range(4):
            backoff.next_wait()
        waits.append(backoff.next_wait())  # the fifth: cap 10 s
    assert min(waits) < 0.1 and max(waits) > 9.9
    assert 4.7 < statistics.mean(waits) < 5.3
    assert sum(wait < 5.0 for wait in waits) > 900  # half below half the cap


def test_a_good_connection_starts_the_cap_over() -> None:
    backoff = Backoff(random.Random(1))
    for _ in range(6):
        backoff.next_wait()
    assert backoff.cap == MAX_CAP
    backoff.succeeded()
    assert backoff.cap == FIRST_CAP
    assert backoff.next_wait() <= FIRST_CAP
    assert backoff.cap == 2 * FIRST_CAP


def test_two_clients_draw_different_waits() -> None:
    first, second = Backoff(random.Random(1)), Backoff(random.Random(2))
    assert [first.next_wait() for _ in range(5)] != [second.next_wait() for _ in range(5)]
    # Every client the link builds has a source of its own: a floor does not share a schedule.
    endpoint = Endpoint(MqttConfig(port=1), Topics("t/v2/T1"))
    draws = {build_client(endpoint, f"c{n}").backoff.next_wait() for n in range(50)}
    assert len(draws) == 50


@needs_mosquitto
def test_the_cap_grows_while_the_broker_is_away_and_starts_over_once_subscribed(tmp_path) -> None:
    broker = Broker(tmp_path)  # its port chosen, nothing listening yet: connection refused
    prefix = unique_prefix()
    c = start_link(broker.endpoint(prefix), subscriptions=(Topics(prefix).coup,))
    try:
        assert c.until(lambda: c.link.backoff.cap >= 4 * FIRST_CAP, timeout=20)
        broker.start()
        assert c.until(lambda: bool(c.of(Subscribed)), timeout=30)
        assert c.link.backoff.cap == FIRST_CAP
    finally:
        c.link.stop()
        broker.stop()


@needs_mosquitto
def test_a_link_whose_socket_is_numbered_past_1023_connects_and_receives(tmp_path) -> None:
    """``select()`` cannot wait on such a socket: paho failed it silently, again and again."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 1200:
        if hard != resource.RLIM_INFINITY and hard < 1200:
            pytest.fail(f"this test needs 1200 open files (ulimit -n); the hard limit: {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (1200, hard))
    broker = Broker(tmp_path)
    broker.start()
    prefix = unique_prefix()
    topics = Topics(prefix)
    spares = [os.open(os.devnull, os.O_RDONLY) for _ in range(1030)]
    try:
        c = start_link(broker.endpoint(prefix), subscriptions=(topics.coup,))
        assert c.until(lambda: bool(c.of(Subscribed)), timeout=20), c.events
        sock = c.link._client.socket()
        assert sock is not None and sock.fileno() > 1023
        for spare in spares:
            os.close(spare)
        spares = []
        sender = publisher(broker.settings())
        sender.publish(topics.coup, b"past 1023", qos=1).wait_for_publish(10)
        sender.disconnect()
        sender.loop_stop()
        assert c.until(lambda: any(m.payload == b"past 1023" for m in c.of(Message)))
    finally:
        for spare in spares:
            os.close(spare)
        c.link.stop()
        broker.stop()
