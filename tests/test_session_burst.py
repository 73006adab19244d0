"""A burst through the display session: bounded slices, coalesced snapshots, paced status.

The session is driven with link events, a loop time ``now`` and a work clock it
is given (so a slice's budget is spent exactly when the test says); only its
public outputs are read: the table, the backlog, the counters, the deadline
and what it asks to publish.
"""

from __future__ import annotations

import itertools
import json

from scoreboard.feeds._pacing import BURST_STATUS_INTERVAL
from scoreboard.feeds._session import DisplaySession
from scoreboard.game.events import CoupReceived, Event, NewShoe, Snapshot
from scoreboard.game.shoe import Dealer
from scoreboard.link.client import Connected, LinkEvent, Message, Publish
from scoreboard.protocol import Topics, wire
from scoreboard.roads.engine import Roads
from scoreboard.settings.config import MqttConfig
from scoreboard.settings.endpoint import Endpoint
from scoreboard.table.health import RenderHealth
from scoreboard.table.state import TableState

TOPICS = Topics("unit/v1/T1")
STATUS = TOPICS.display_status("u1")
SHOES = [list(Dealer(seed=seed).shoe()) for seed in (3, 4)]


class WorkClock:
    """The session's work clock: each reading moves it on by ``tick`` seconds."""

    def __init__(self, tick: float) -> None:
        self.tick, self.t = tick, 0.0

    def __call__(self) -> float:
        self.t += self.tick
        return self.t


def session(tick: float = 0.0, budget: float = 0.05) -> DisplaySession:
    endpoint = Endpoint(MqttConfig(port=1), TOPICS)
    return DisplaySession(endpoint, "u1", budget=budget, clock=WorkClock(tick))


def message(event: Event) -> Message:
    return Message(*wire(TOPICS, event), received_at=0.0)


def statuses(published: list[Publish]) -> list[dict]:
    return [json.loads(p.payload) for p in published if p.topic == STATUS]


def burst(events: list[Event]) -> list[LinkEvent]:
    return [Connected(False), *(message(e) for e in events)]


def test_a_step_works_one_slice_and_leaves_the_rest_queued_for_straight_after_the_frame():
    s, table = session(tick=0.01), TableState()  # each event costs 10 ms of the 50 ms slice
    s.step(burst(SHOES[0]), table, 0.0)
    first = len(table.games)
    assert 0 < first < 10
    assert s.backlog > 0
    assert s.next_deadline(0.0) == 0.0  # back at once, after drawing
    steps = 1
    while s.backlog:
        s.step([], table, steps * 0.06)
        steps += 1
    games = [e.game for e in SHOES[0] if isinstance(e, CoupReceived)]
    assert table.games == tuple(games) and steps > 10
    assert s.next_deadline(steps * 0.06) is None


def test_every_step_makes_progress_even_when_one_event_outlasts_the_budget():
    s, table = session(tick=1.0), TableState()
    s.step(burst(SHOES[0][:5]), table, 0.0)
    assert s.backlog == 5  # only the connect: at least one event per step, whatever it costs
    s.step([], table, 0.1)
    assert s.backlog == 4


def test_the_status_goes_out_at_most_twice_a_second_mid_burst_and_at_once_when_done():
    s, table = session(tick=0.01), TableState()
    published = [(0, p) for p in s.step(burst(SHOES[0] + SHOES[1]), table, 0)]
    step = 0
    while s.backlog:
        step += 1  # a step every 60 ms of loop time (the frame between them)
        published += [(step, p) for p in s.step([], table, step * 0.06) if p.topic == STATUS]
    steps = [n for n, _ in published]
    paced = steps[:-1]  # the last is the state once the backlog is done
    assert all((b - a) * 0.06 >= BURST_STATUS_INTERVAL for a, b in itertools.pairwise(paced))
    assert all((b - a) * 0.06 <= 1.0 for a, b in itertools.pairwise(steps))  # and once a second
    final = json.loads(published[-1][1].payload)
    assert steps[-1] == step  # the last slice's state at once, not 0.5 s later
    assert final["shoe"] == table.shoe_id and final["games"] == len(table.games)


def test_of_queued_snapshots_only_the_newest_is_decoded():
    s, table = session(), TableState()
    games = [e.game for e in SHOES[0] if isinstance(e, CoupReceived)]
    snapshots = [message(Snapshot("S1", tuple(games[:n]))) for n in range(1, 71)]
    coup = message(CoupReceived("S1", games[70]))
    published = s.step([Connected(False), *snapshots, coup], table, 0.0)
    assert s.snapshots_decoded == 1
    assert s.ignored["superseded"] == 69
    assert table.games == tuple(games[:71])
    ignored = statuses(published)[-1]["ignored"]
    assert ignored == {"superseded": 69, "unchanged": 0, "stale": 0, "replay": 0}


def test_a_snapshot_identical_to_the_last_applied_is_not_decoded_again():
    s, table = session(), TableState()
    games = [e.game for e in SHOES[0] if isinstance(e, CoupReceived)]
    snapshot = message(Snapshot("S1", tuple(games[:40])))
    s.step([Connected(False), snapshot], table, 0.0)
    version = table.version
    s.step([snapshot], table, 1.0)  # a reconnect redelivers the retained one
    assert (s.snapshots_decoded, s.ignored["unchanged"]) == (1, 1)
    assert table.version == version
    s.step([message(Snapshot("S1", tuple(games[:41])))], table, 2.0)
    assert s.snapshots_decoded == 2 and len(table.games) == 41


def test_an_empty_retained_snapshot_does_not_count_as_a_newer_one():
    s, table = session(), TableState()
    games = [e.game for e in SHOES[0] if isinstance(e, CoupReceived)]
    cleared = Message(TOPICS.snapshot, b"", 0.0)
    s.step([Connected(False), cleared, message(Snapshot("S1", tuple(games[:5])))], table, 0.0)
    assert len(table.games) == 5
    s.step([message(Snapshot("S1", tuple(games[:6]))), cleared], table, 1.0)
    assert s.ignored["superseded"] == 2 and len(table.games) == 5  # the clear was newest


def test_the_final_state_after_a_burst_of_shoes_is_the_last_shoe_exactly():
    s, table = session(tick=0.002), TableState()
    events = [e for shoe in SHOES for e in shoe]
    now = 0.0
    s.step(burst(events), table, now)
    while s.backlog:
        now += 0.02
        s.step([], table, now)
    last = [e for e in SHOES[1] if isinstance(e, CoupReceived)]
    assert table.shoe_id == last[0].shoe and table.shoe_number == 2
    assert table.games == tuple(e.game for e in last)
    assert table.roads.counts == Roads.build(table.games).counts


def test_the_status_reports_what_the_kiosk_said_about_its_last_frame():
    s, table = session(), TableState()
    assert statuses(s.step([Connected(False)], table, 0.0))[-1]["render"]["ok"] is True
    s.render = RenderHealth(failing=("big_road",), failures=2, last_frame=1_700_000_000.0)
    [status] = statuses(s.step([], table, 0.1))  # a failure goes out at once
    assert status["render"] == {
        "ok": False, "failing": ["big_road"], "failures": 2, "last_frame": 1_700_000_000.0,
    }  # fmt: skip


def test_a_newer_frame_alone_is_reported_at_most_every_five_seconds():
    s, table = session(), TableState()
    s.step([Connected(False)], table, 0.0)
    s.render = RenderHealth(last_frame=1.0)
    assert statuses(s.step([], table, 1.0)) == []
    assert s.next_deadline(1.0) == 5.0
    [status] = statuses(s.step([], table, 5.0))
    assert status["render"]["last_frame"] == 1.0
    s.step([message(NewShoe("S9"))], table, 5.1)  # a real change carries the frame's time
    s.render = RenderHealth(last_frame=6.0)
    s.step([message(NewShoe("S10"))], table, 6.0)
    assert s.next_deadline(6.0) is None  # nothing held back
