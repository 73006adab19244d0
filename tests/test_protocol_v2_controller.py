"""The simulated controller speaks v2, seen from a real mosquitto: every payload stamped
with the connection's session and the next seq, a will naming the session, a new
session per connection and per start, and a resync answered for the previous shoe too."""

from __future__ import annotations

import json
import threading
import time

import pytest
from mqtt_broker import Recorder, needs_mosquitto, publisher, running_broker, unique_prefix
from mqtt_broker import wait_for as until

from scoreboard.controller import Controller
from scoreboard.game.limits import Limits
from scoreboard.game.shoe import Dealer, timed
from scoreboard.game.variants import VARIANTS
from scoreboard.protocol import (
    WILL_SEQ,
    ControllerStatus,
    ResyncRequest,
    Snapshot,
    Topics,
    parse_message,
    wire,
)

pytestmark = needs_mosquitto

KEY = b"pit key"


def controller(broker, prefix: str, **options) -> Controller:
    return Controller(
        broker.endpoint(prefix, hmac_key=KEY),
        limits=Limits.default_for(VARIANTS["commission"]),
        **options,
    )


def parsed(recorder: Recorder, topics: Topics) -> list:
    """Every message recorded, parsed (and its signature checked), in arrival order."""
    with recorder.lock:
        messages = [(m.topic, bytes(m.payload)) for m in recorder.messages]
    return [parse_message(topics, topic, payload, key=KEY) for topic, payload in messages]


def short_shoes(count: int, seed: int = 4) -> list:
    events = []
    dealer = iter(Dealer(decks=1, seed=seed))
    shuffles = 0
    while shuffles < count:
        event = next(dealer)
        events.append(event)
        shuffles += type(event).__name__ == "Shuffle"
    return events


@pytest.mark.slow
def test_every_payload_of_a_session_has_the_next_seq_and_a_snapshot_the_last_one(broker):
    prefix = unique_prefix()
    topics = Topics(prefix)
    recorder = Recorder(broker.settings(), f"{prefix}/#").start()
    dealer = controller(broker, prefix)
    dealer.start()
    try:
        dealer.deal(timed(short_shoes(2), 0.0, 0.0))
        assert dealer.flush(10)
        last_seq = dealer.origin.seq
        assert until(lambda: any(e.origin.seq == last_seq for e in parsed(recorder, topics)))
        time.sleep(0.3)  # and the snapshot after it
    finally:
        dealer.stop()
        recorder.stop()
    events = parsed(recorder, topics)
    sessions = {event.origin.session for event in events}
    assert sessions == {dealer.session}
    assert events[0] == ControllerStatus(True, events[0].origin) and events[0].origin.seq == 1
    last = 0
    for event in events:
        if isinstance(event, Snapshot):
            assert event.origin.seq == last  # as of the payload just before it
        else:
            assert event.origin.seq == last + 1
            last = event.origin.seq
    assert isinstance(events[-1], ControllerStatus) and not events[-1].online  # the goodbye
    shoes = [e for e in events if type(e).__name__ == "NewShoe"]
    assert shoes[0].previous is None and shoes[1].previous == shoes[0].shoe
    games_of_first = max(len(e.games) for e in events if isinstance(e, Snapshot))
    assert shoes[1].previous_games in (games_of_first, len(dealer.previous.games))
    marks = [e for e in events if type(e).__name__ in ("Burn", "CutCard", "Shuffle")]
    assert marks and all(e.shoe in (shoes[0].shoe, shoes[1].shoe) for e in marks)


def test_the_will_names_the_session_and_a_reconnect_makes_a_new_session(tmp_path):
    with running_broker(tmp_path / "broker") as broker:
        prefix = unique_prefix()
        topics = Topics(prefix)
        dealer = controller(broker, prefix)
        dealer.start()
        thread = threading.Thread(target=lambda: dealer.linger(60), daemon=True)
        thread.start()
        try:
            assert until(lambda: dealer.link.connected, 10)
            first = dealer.session
            broker.stop()  # the connection drops: the broker is gone
            broker.start()
            recorder = Recorder(broker.settings(), topics.controller_status).start()
            assert until(lambda: any(e.online for e in parsed(recorder, topics)), 15)
            birth = parsed(recorder, topics)[-1]
            assert birth.origin.session == dealer.session > first and birth.origin.seq == 1
            second = dealer.session
            dealer.stop_dealing()
            thread.join(10)
            dealer.link.drop()  # a power cut: the broker publishes the will
            assert until(lambda: not parsed(recorder, topics)[-1].online, 10)
            will = parsed(recorder, topics)[-1]  # signed: parse_message checked it
            assert will.origin.session == second and will.origin.seq == WILL_SEQ
            with recorder.lock:
                raw = json.loads(recorder.messages[-1].payload)
            assert set(raw) == {"v", "online", "session", "sig"}
            recorder.stop()
        finally:
            dealer.stop()


def test_a_restarted_controller_has_a_greater_session(broker, tmp_path):
    prefix = unique_prefix()
    sessions = []
    for _ in range(2):
        dealer = controller(broker, prefix, state_dir=tmp_path / "state")
        dealer.start()
        assert until(lambda d=dealer: d.link.connected, 10)
        sessions.append(dealer.session)
        dealer.stop()
    assert sessions[1] > sessions[0]
    saved = json.loads((tmp_path / "state" / "controller.json").read_text())
    assert saved["session"] == sessions[1]


@pytest.mark.slow
def test_a_resync_naming_the_previous_shoe_is_answered_with_its_snapshot(broker):
    prefix = unique_prefix()
    topics = Topics(prefix)
    dealer = controller(broker, prefix)
    dealer.start()
    events = short_shoes(2)
    dealer.deal(timed(events, 0.0, 0.0))
    # Everything dealt is on the broker before the recorder listens: a snapshot of
    # the previous shoe still in flight would pass for the answer.
    assert dealer.flush(10)
    thread = threading.Thread(target=lambda: dealer.linger(30), daemon=True)
    thread.start()
    recorder = Recorder(broker.settings(), topics.snapshot).start()
    try:
        previous = dealer.previous
        assert previous is not None and previous.shoe != dealer.shoe_id
        asker = publisher(broker.settings())
        topic, payload = wire(topics, ResyncRequest("d1", previous.shoe, (70,)), KEY)
        asker.publish(topic, payload, qos=1).wait_for_publish(5)

        def answered() -> list[Snapshot]:
            return [s for s in parsed(recorder, topics) if s.shoe == previous.shoe]

        assert until(lambda: bool(answered()), 10)
        answer = answered()[0]
        assert answer.games == previous.games and answer.origin.session == dealer.session
        retained = Recorder(broker.settings(), topics.snapshot).start()
        assert until(lambda: bool(retained.messages), 5)
        assert parsed(retained, topics)[0].shoe == dealer.shoe_id  # the retained one: current
        retained.stop()
        asker.loop_stop()
    finally:
        dealer.stop()
        recorder.stop()
