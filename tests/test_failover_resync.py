"""A display that subscribed and got no snapshot asks for one: jittered, backing off, then quiet.

The broker lost its retained store, or keeps it per node (RabbitMQ 3.x: a display on
another node than its controller's never gets the retained snapshot nor the retained
controller status).  First through the session alone (link events and a clock in,
what it publishes out), then over a real mosquitto whose retained snapshot is gone.
"""

from __future__ import annotations

import itertools
import threading
from pathlib import Path

from mqtt_broker import Display, needs_mosquitto, publisher, running_broker, unique_prefix

from scoreboard.controller import Controller
from scoreboard.feeds._session import DisplaySession
from scoreboard.game.events import ControllerStatus, CoupReceived, Event, Origin, Snapshot
from scoreboard.game.limits import Limits
from scoreboard.game.shoe import Dealer, timed
from scoreboard.game.variants import VARIANTS
from scoreboard.link.client import Connected, Message, Subscribed
from scoreboard.protocol import ResyncRequest, Topics, parse_message, wire
from scoreboard.protocol.contract import WILL_SEQ
from scoreboard.settings.config import MqttConfig
from scoreboard.settings.endpoint import Endpoint
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState

TOPICS = Topics("unit/v2/T1")
SHOE = list(Dealer(decks=1, seed=41).shoe())
COUPS = [e for e in SHOE if isinstance(e, CoupReceived)]
ORIGIN = Origin(1_764_000_000_000, 5)


def new_session() -> DisplaySession:
    return DisplaySession(Endpoint(MqttConfig(port=1), TOPICS), "u1", clock=lambda: 0.0)


def message(event: Event, *, retained: bool = False) -> Message:
    return Message(*wire(TOPICS, event), received_at=0.0, retained=retained)


def asked(session: DisplaySession, table: TableState, times: list[float]) -> list[float]:
    """The times among ``times`` at which the session published a resync request."""
    when = []
    for now in times:
        for publish in session.step([], table, now):
            if publish.topic == TOPICS.resync:
                request = parse_message(TOPICS, publish.topic, publish.payload)
                assert isinstance(request, ResyncRequest)
                assert (request.display, request.missing) == ("u1", ())
                when.append(now)
    return when


TICKS = [n / 10 for n in range(0, 3000)]  # five minutes in 0.1 s steps


def test_no_snapshot_after_subscribing_asks_within_3_s_then_ever_more_rarely():
    s, table = new_session(), TableState()
    s.step([Connected(False, "pit:1883"), Subscribed()], table, 0.0)
    when = asked(s, table, TICKS[1:])
    assert 1.0 <= when[0] < 3.05
    gaps = [b - a for a, b in itertools.pairwise(when)]
    assert gaps[0] >= 2.5  # 5 s, jittered 0.5x-1.5x
    assert all(gap <= 90 for gap in gaps)  # at most a minute, jittered
    assert 5 <= len(when) <= 10  # five minutes: 1-3 s, then 5, 10, 20, 40, 60, 60... jittered
    assert s.snapshot_requests == len(when)


def test_a_retained_snapshot_on_subscribing_means_nothing_is_asked():
    s, table = new_session(), TableState()
    snapshot = Snapshot(COUPS[0].shoe, (COUPS[0].game,), (), "2026-12-01T00:00:00Z", ORIGIN)
    s.step([Connected(False), Subscribed(), message(snapshot, retained=True)], table, 0.0)
    assert asked(s, table, TICKS[1:]) == []
    assert s.next_deadline(300.0) is None


def test_a_controller_whose_will_says_offline_is_not_asked():
    s, table = new_session(), TableState()
    birth = ControllerStatus(True, Origin(ORIGIN.session, 1))
    s.step([Connected(False), Subscribed(), message(birth, retained=True)], table, 0.0)
    will = ControllerStatus(False, Origin(ORIGIN.session, WILL_SEQ))
    s.step([message(will)], table, 0.5)  # it went away before it had a shoe
    assert s.status(0.5) is FeedStatus.CONTROLLER_OFFLINE
    assert asked(s, table, TICKS[6:600]) == []


def test_the_answer_ends_the_asking_and_a_new_connection_starts_again():
    s, table = new_session(), TableState()
    s.step([Connected(False), Subscribed()], table, 0.0)
    # Asked at 1-3 s; a second ask may follow 2.5 s later at the soonest (jittered).
    before = asked(s, table, TICKS[1:40])
    assert 1 <= len(before) <= 2 and before[0] < 3.05
    snapshot = Snapshot(COUPS[0].shoe, (COUPS[0].game,), (), "2026-12-01T00:00:00Z", ORIGIN)
    s.step([message(snapshot)], table, 4.0)
    assert len(table.games) == 1
    assert asked(s, table, TICKS[41:1000]) == []
    s.step([Connected(False), Subscribed()], table, 100.0)  # a reconnect (another node)
    again = asked(s, table, [100 + t for t in TICKS[1:32]])  # up to 3.1 s: exactly one
    assert len(again) == 1 and s.snapshot_requests == len(before) + 1


def test_a_floor_of_displays_subscribing_at_once_spreads_its_requests():
    """200 displays reconnected by one broker restart: the first requests spread over 2 s."""
    table = TableState()
    sessions = [new_session() for _ in range(200)]
    for s in sessions:
        s.step([Connected(False), Subscribed()], table, 0.0)
    firsts = [asked(s, TableState(), TICKS[1:31])[0] for s in sessions]
    assert min(firsts) >= 1.0 and max(firsts) <= 3.05
    assert max(firsts) - min(firsts) >= 1.5
    busiest = max(sum(1 for t in firsts if start <= t < start + 0.2) for start in TICKS[10:30])
    assert busiest <= 50  # 20 expected per 0.2 s; never the whole floor at once


def test_a_controller_heard_live_is_online_where_its_retained_status_never_came():
    s, table = new_session(), TableState()
    s.step([Connected(False), Subscribed()], table, 0.0)
    assert s.status(2.0) is FeedStatus.CONTROLLER_OFFLINE  # a second of silence
    retained = Snapshot(COUPS[0].shoe, (COUPS[0].game,), (), "2026-12-01T00:00:00Z", ORIGIN)
    s.step([message(retained, retained=True)], table, 2.0)
    assert s.status(2.0) is FeedStatus.CONTROLLER_OFFLINE  # from the store: proves nothing
    live = CoupReceived(COUPS[1].shoe, COUPS[1].game, origin=Origin(ORIGIN.session, 6))
    s.step([message(live)], table, 3.0)
    assert s.status(3.0) is FeedStatus.LIVE
    assert len(table.games) == 2


@needs_mosquitto
def test_a_display_whose_broker_lost_the_retained_snapshot_asks_and_gets_the_shoe(
    tmp_path: Path,
):
    with running_broker(tmp_path / "broker") as broker:
        prefix = unique_prefix()
        topics = Topics(prefix)
        controller = Controller(
            broker.endpoint(prefix), limits=Limits.default_for(VARIANTS["commission"])
        )
        dealt = SHOE[: SHOE.index(COUPS[5]) + 1]  # six coups, then quiet
        thread = threading.Thread(target=controller.linger, args=(60,), daemon=True)
        display = None
        try:
            controller.start()
            controller.deal(timed(dealt, 0.0, 0.0))
            assert controller.flush(10)
            thread.start()  # answering resyncs
            # The retained snapshot is gone (a broker restored without it, a node without it).
            raw = publisher(broker.settings())
            raw.publish(topics.snapshot, b"", qos=1, retain=True).wait_for_publish(5)
            raw.loop_stop()
            display = Display(broker.settings(), prefix).start()
            assert display.until(lambda: len(display.table.games) == 6, 20)
            assert [g.coup for g in display.table.games] == [c.game.coup for c in COUPS[:6]]
            assert display.session.snapshot_requests == 1
            assert display.status() is FeedStatus.LIVE
        finally:
            if display is not None:
                display.stop()
            controller.stop()
            thread.join(10)
