"""Issue 9, item 3: signed messages replayed against a display with the key set, on a
real mosquitto.  Each replay must leave the board (shoe, games, marks) as it was."""

from __future__ import annotations

import time

import pytest
from mqtt_broker import Display, Recorder, needs_mosquitto, publisher, unique_prefix, wait_for

from scoreboard.controller import Controller
from scoreboard.game.limits import Limits
from scoreboard.game.shoe import Dealer, timed
from scoreboard.game.variants import VARIANTS
from scoreboard.protocol import Topics
from scoreboard.table.applied import FeedStatus

pytestmark = [needs_mosquitto, pytest.mark.slow]

KEY = b"the pit's shared key"


class Table:
    """A controller that dealt one whole shoe and part of the next, and what it published."""

    def __init__(self, broker, prefix: str) -> None:
        self.topics = Topics(prefix)
        self.broker = broker
        self.recorder = Recorder(broker.settings(), f"{prefix}/#").start()
        self.controller = Controller(
            broker.endpoint(prefix, hmac_key=KEY),
            limits=Limits.default_for(VARIANTS["commission"]),
        )
        self.controller.start()
        events = []
        shoes = coups = 0
        for event in Dealer(decks=1, seed=31):
            events.append(event)
            shoes += type(event).__name__ == "NewShoe"
            coups += shoes == 2 and type(event).__name__ == "CoupReceived"
            if coups == 3:
                break
        self.controller.deal(timed(events, 0.0, 0.0))
        assert self.controller.flush(10)
        dealt = sum(type(event).__name__ == "CoupReceived" for event in events)
        assert wait_for(lambda: len(self.recorded("coup")) == dealt, 10)  # the last one heard

    def recorded(self, suffix: str, contains: bytes = b"") -> list[bytes]:
        return [p for p in self.recorder.on(f"{self.topics.prefix}/{suffix}") if contains in p]

    def replay(self, topic: str, payload: bytes) -> None:
        client = publisher(self.broker.settings())
        client.publish(topic, payload, qos=1).wait_for_publish(5)
        client.disconnect()
        client.loop_stop()

    def close(self) -> None:
        self.controller.stop()
        self.recorder.stop()


def board(display: Display) -> tuple:
    table = display.table
    return (table.shoe_id, table.games, table.shuffling, table.cut_card_out, table.shoe_number)


def live_display(broker, table: Table) -> Display:
    display = Display(broker.settings(), table.topics.prefix, hmac_key=KEY).start()
    shoe = table.controller.shoe_id
    games = len(table.controller.games)
    assert display.until(
        lambda: display.table.shoe_id == shoe and len(display.table.games) == games
    )
    assert display.until(lambda: display.status() is FeedStatus.LIVE)
    return display


def replayed_leaves_the_board(display: Display, table: Table, topic: str, payload: bytes) -> None:
    """The replay reaches the display, which counts it as stale or refused and changes nothing."""
    before, refused = board(display), refusals(display)
    table.replay(topic, payload)
    assert display.until(lambda: refusals(display) > refused, 10), display.session.ignored
    assert board(display) == before
    assert display.status() is FeedStatus.LIVE


def refusals(display: Display) -> int:
    """The payloads the display ignored as stale or rejected."""
    session = display.session
    return session.ignored["stale"] + session.ignored["replay"] + session.rejected


def test_an_earlier_shoes_signed_coup_replayed_to_a_fresh_display(broker):
    table = Table(broker, unique_prefix())
    try:
        first_shoe = table.recorded("event", b'"new_shoe"')[0]
        old_coup = table.recorded("coup")[0]
        assert first_shoe and b'"game":1,' in old_coup
        display = live_display(broker, table)
        try:
            replayed_leaves_the_board(display, table, table.topics.coup, old_coup)
        finally:
            display.stop()
    finally:
        table.close()


def test_an_earlier_shoes_signed_coup_replayed_to_a_live_display(broker):
    prefix = unique_prefix()
    display = Display(broker.settings(), prefix, hmac_key=KEY).start()
    assert display.until(lambda: display.session.subscribed)
    table = Table(broker, prefix)
    try:
        assert display.until(lambda: len(display.table.games) == len(table.controller.games))
        assert display.until(lambda: display.status() is FeedStatus.LIVE)
        old_coup = table.recorded("coup")[0]
        replayed_leaves_the_board(display, table, table.topics.coup, old_coup)
    finally:
        display.stop()
        table.close()


def test_an_old_signed_cut_card_is_ignored(broker):
    table = Table(broker, unique_prefix())
    try:
        cut_card = table.recorded("event", b'"cut_card"')[0]
        display = live_display(broker, table)
        try:
            replayed_leaves_the_board(display, table, table.topics.event, cut_card)
        finally:
            display.stop()
    finally:
        table.close()


def test_an_old_signed_shuffle_is_ignored(broker):
    table = Table(broker, unique_prefix())
    try:
        shuffle = table.recorded("event", b'"shuffle"')[0]
        display = live_display(broker, table)
        try:
            replayed_leaves_the_board(display, table, table.topics.event, shuffle)
        finally:
            display.stop()
    finally:
        table.close()


def test_a_replayed_will_of_an_older_session_shows_no_offline(broker):
    prefix = unique_prefix()
    topics = Topics(prefix)
    watcher = Recorder(broker.settings(), topics.controller_status).start()
    first = Controller(
        broker.endpoint(prefix, hmac_key=KEY), limits=Limits.default_for(VARIANTS["commission"])
    )
    first.start()
    first.wait(0.5)
    first.link.drop()  # a power cut: the broker publishes its will
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not [p for p in watcher.on(topics.controller_status)
                                               if b'"online":false' in p]:  # fmt: skip
        time.sleep(0.05)
    will = next(p for p in watcher.on(topics.controller_status) if b'"online":false' in p)
    watcher.stop()
    table = Table(broker, prefix)  # the controller is back: a newer session
    try:
        display = live_display(broker, table)
        try:
            replayed_leaves_the_board(display, table, topics.controller_status, will)
        finally:
            display.stop()
    finally:
        table.close()


def test_a_coup_of_t2_signed_with_the_shared_key_is_refused_on_t1(broker):
    base = unique_prefix().rsplit("/", 1)[0]
    t1 = Table(broker, f"{base}/T1")
    t2 = Table(broker, f"{base}/T2")
    try:
        display = live_display(broker, t1)
        try:
            before = display.status()
            t2_coup = t2.recorded("coup")[-1]
            replayed_leaves_the_board(display, t1, t1.topics.coup, t2_coup)
            assert before is FeedStatus.LIVE
        finally:
            display.stop()
    finally:
        t2.close()
        t1.close()
