"""The lobby's feed against a real mosquitto: discovery, offline by last will, stale, refusals.

The lobby's :class:`LobbyFeed` is polled by the test's thread into a
:class:`Floor`, as the lobby's loop does, while real controllers (a
``scoreboard shoe`` process, the controller library, a raw client) publish.
"""

from __future__ import annotations

import logging
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from mqtt_broker import needs_mosquitto, publisher, running_broker, wait_for

from scoreboard.game.events import ControllerStatus, Origin, Snapshot
from scoreboard.lobby import Floor, Listing, TileState
from scoreboard.lobby.feed import LobbyFeed
from scoreboard.lobby.sample import dealt_games
from scoreboard.protocol import Topics, wire
from scoreboard.settings.endpoint import Endpoint

pytestmark = needs_mosquitto


class Lobby:
    """A LobbyFeed and its Floor, polled on demand."""

    def __init__(self, broker, root: str, floor: Floor | None = None, **options) -> None:
        endpoint = Endpoint(broker.settings(), Topics(root))
        self.feed = LobbyFeed(endpoint, root=root, lobby_id=f"L{uuid.uuid4().hex[:6]}", **options)
        self.floor = floor or Floor()
        self.feed.start(lambda: None)

    def view(self, table: str, stale: float = 300.0, now: float | None = None):
        self.feed.poll(self.floor, time.time())
        entry = self.floor.tables.get(table)
        return None if entry is None else entry.view(now or time.time(), stale)

    def until(self, table: str, predicate, stale: float = 300.0, timeout: float = 20.0) -> bool:
        def check() -> bool:
            view = self.view(table, stale)
            return view is not None and predicate(view)

        return wait_for(check, timeout)

    def stop(self) -> None:
        self.feed.stop()


def shoe_process(broker, prefix: str, log: Path) -> subprocess.Popen:
    argv = [sys.executable, "-m", "scoreboard", "shoe", "--mqtt", broker.address,
            "--prefix", prefix, "--pace", "0.2", "--seed", "5"]  # fmt: skip
    with open(log, "wb") as out:
        return subprocess.Popen(argv, stderr=out)


def send(client, topic: str, payload: bytes, retain: bool = True) -> None:
    client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(5)


@dataclass
class Hall:
    """A broker, a root prefix of its own, a raw publishing client, the lobbies started."""

    broker: Any
    root: str
    client: Any
    lobbies: list[Lobby] = field(default_factory=list)

    def topics(self, table: str) -> Topics:
        return Topics(f"{self.root}/{table}")

    def lobby(self, **options) -> Lobby:
        self.lobbies.append(Lobby(self.broker, self.root, **options))
        return self.lobbies[-1]


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[Hall]:
    with running_broker(tmp_path / "broker") as broker:
        client = publisher(broker.settings())
        hall = Hall(broker, f"test/{uuid.uuid4().hex[:8]}", client)
        try:
            yield hall
        finally:
            for lobby in hall.lobbies:
                lobby.stop()
            client.loop_stop()


def test_a_killed_controller_leaves_an_offline_tile_by_its_last_will(
    hall: Hall, tmp_path: Path
) -> None:
    shoe = shoe_process(hall.broker, f"{hall.root}/T2", tmp_path / "shoe.log")
    lobby = hall.lobby()
    try:
        assert lobby.until("T2", lambda v: v.state is TileState.LIVE and v.game >= 2)
        live = lobby.view("T2")
        shoe.kill()  # a power cut: no goodbye, the broker publishes the will
        shoe.wait(10)
        assert lobby.until("T2", lambda v: v.state is TileState.OFFLINE, timeout=15)
        offline = lobby.view("T2")
        assert offline.shoe == live.shoe and offline.game >= live.game  # the last good state
    finally:
        if shoe.poll() is None:
            shoe.kill()


def test_a_silent_table_goes_stale_after_stale_seconds_and_says_how_long(hall: Hall) -> None:
    topics = hall.topics("T1")
    shoe, games = dealt_games(3, 12)
    send(hall.client, *wire(topics, ControllerStatus(True, Origin(9, 1))))
    send(hall.client, *wire(topics, Snapshot(shoe, games, ts=None, origin=Origin(9, 1))))
    lobby = hall.lobby()
    assert lobby.until("T1", lambda v: v.state is TileState.LIVE, stale=1.5)
    time.sleep(1.6)  # the controller is up but says nothing
    stale = lobby.view("T1", stale=1.5)
    assert stale.state is TileState.STALE and stale.age == (2, "s")
    assert stale.game == 12  # still the last good data, saying how old it is


def test_a_retained_snapshot_says_its_own_age(hall: Hall) -> None:
    """Data the broker kept for an hour is an hour old, however new its delivery."""
    shoe, games = dealt_games(4, 8)
    an_hour_ago = time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(time.time() - 3600))
    snapshot = Snapshot(shoe, games, ts=an_hour_ago, origin=Origin(9, 1))
    send(hall.client, *wire(hall.topics("T1"), snapshot))
    lobby = hall.lobby()
    assert lobby.until("T1", lambda v: v.game == 8)
    view = lobby.view("T1")
    assert view.state is TileState.STALE and view.age == (61, "min")


def test_hostile_payloads_are_refused_counted_logged_once_and_change_no_tile(
    hall: Hall, caplog: pytest.LogCaptureFixture
) -> None:
    topics = hall.topics("T1")
    shoe, games = dealt_games(6, 10)
    key = b"table-one-key"
    lobby = hall.lobby(floor=Floor([Listing("T1", "Macau")]), keys={"T1": key})
    send(hall.client, *wire(topics, Snapshot(shoe, games, origin=Origin(9, 1)), key))
    assert lobby.until("T1", lambda v: v.game == 10)
    before = lobby.view("T1")
    caplog.set_level(logging.WARNING, logger="scoreboard.lobby.feed")
    hostile = [
        b"\xff\xfe not json",
        b'{"v": 2, "session": 9, "seq": 2, "shoe": "X", "coups": "many"}',
        # well formed, but unsigned: T1 is a keyed table
        wire(topics, Snapshot(shoe, games[:3], origin=Origin(9, 5)))[1],
        wire(topics, Snapshot(shoe, games[:3], origin=Origin(9, 6)))[1],
    ]
    for payload in hostile:
        send(hall.client, topics.snapshot, payload, retain=False)
    send(hall.client, f"{hall.root}/lobby/snapshot", b"{}", retain=False)  # a table named lobby
    assert wait_for(lambda: lobby.view("T1") is not None and lobby.feed.rejected >= 5)
    after = lobby.view("T1")
    assert after == before and after.road_key == before.road_key
    assert lobby.floor.tables["T1"].refused == 4
    assert "lobby" not in lobby.floor.tables
    lines = [r.getMessage() for r in caplog.records]
    unsigned = [line for line in lines if "T1" in line and "signature" in line.lower()]
    assert len(unsigned) == 1, lines  # two unsigned payloads, one line
    assert any("reserved" in line for line in lines)
