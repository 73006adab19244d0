"""The lobby's retained status follows its tables, and junk cannot take the tables' places.

Found by the floor review: a real lobby whose tables were killed 0.5 s after its
last status kept saying ``live`` for as long as it was watched (the change was
held back by the pacing and nothing offered it again; the 30 s refresh rode on
frames).  And any payload on a made-up id took one of the 1,000 table places
for ever, so after a flood a real table never showed.  Both from the outside:
``scoreboard lobby`` and ``scoreboard shoe --tables`` as processes, a real
mosquitto, a plain subscriber.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from mqtt_broker import Recorder, needs_mosquitto, running_broker, wait_for
from paho.mqtt.enums import CallbackAPIVersion

pytestmark = needs_mosquitto
TOPIC = "baccarat/v2/lobby/W1/status"
#: The status's refresh for these lobbies (``--status-refresh``; 30 s by default, which
#: test_lobby_status.py pins in process): a test waits on it, never on the real 30 s.
REFRESH = 2.0


def lobby(broker, tmp_path: Path, *flags: str) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "scoreboard", "lobby", "--mqtt", broker.address]
    command += ["--lobby-id", "W1", "--windowed", "--size", "960x540", "--duration", "60"]
    command += ["--status-refresh", str(REFRESH), *flags]
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    with open(tmp_path / "lobby.log", "wb") as log:
        return subprocess.Popen(command, stderr=log, env=env)


def latest(recorder: Recorder) -> dict:
    payloads = recorder.on(TOPIC)
    return json.loads(payloads[-1]) if payloads else {}


def states(recorder: Recorder) -> dict[str, str]:
    return {t["table"]: t["state"] for t in latest(recorder).get("tables", [])}


def stop(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


@contextmanager
def watched_lobby(tmp_path: Path, publisher_id: str) -> Iterator[tuple[Any, Recorder, mqtt.Client]]:
    """A broker, a lobby on it, a subscriber to the lobby's status and a plain publisher."""
    with running_broker(tmp_path / "broker") as broker:
        recorder = Recorder(broker.settings(), TOPIC).start()
        publisher = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=publisher_id)
        publisher.connect("127.0.0.1", broker.port)
        publisher.loop_start()
        board = lobby(broker, tmp_path)
        try:
            yield broker, recorder, publisher
        finally:
            stop(board)
            publisher.loop_stop()
            recorder.stop()


def test_tables_killed_right_after_a_status_show_offline_in_the_next_one(tmp_path):
    with running_broker(tmp_path / "broker") as broker:
        recorder = Recorder(broker.settings(), TOPIC).start()
        command = [sys.executable, "-m", "scoreboard", "shoe", "--mqtt", broker.address]
        command += ["--tables", "2", "--pace", "0.4", "--seed", "12"]
        with open(tmp_path / "floor.log", "wb") as log:
            floor = subprocess.Popen(command, stderr=log)
        board = lobby(broker, tmp_path)
        try:
            assert wait_for(lambda: set(states(recorder).values()) == {"live"}, 30), latest(
                recorder
            )
            # Kill the floor just after a status went out: its wills land inside the pacing.
            count = len(recorder.on(TOPIC))
            assert wait_for(lambda: len(recorder.on(TOPIC)) > count, 10)
            floor.kill()
            floor.wait(10)
            assert wait_for(lambda: states(recorder) == {"T1": "offline", "T2": "offline"}, 5), (
                latest(recorder)
            )
        finally:
            if floor.poll() is None:
                floor.kill()
            stop(board)
            recorder.stop()


def test_the_status_is_refreshed_with_nothing_to_draw(tmp_path):
    """Offline tables never change by time: the status still goes out on the refresh with ages."""
    with watched_lobby(tmp_path, "will-maker") as (_broker, recorder, publisher):
        will = json.dumps({"v": 2, "online": False, "session": 1, "seq": 1})
        publisher.publish("baccarat/v2/Q1/controller/status", will, qos=1, retain=True)
        assert wait_for(lambda: states(recorder) == {"Q1": "offline"}, 20)
        first = latest(recorder)["ts"]
        assert wait_for(lambda: latest(recorder)["ts"] != first, 10 * REFRESH)  # the refresh


def test_junk_on_made_up_ids_takes_no_tile_and_a_flood_cannot_lock_a_table_out(tmp_path):
    with watched_lobby(tmp_path, "flooder") as (broker, recorder, publisher):
        assert wait_for(lambda: latest(recorder).get("online") is True, 20)
        for n in range(1500):  # junk on 1,500 made-up ids, none of them valid
            publisher.publish(f"baccarat/v2/X{n:04d}/snapshot", b"not json", qos=0)
        publisher.publish("baccarat/v2/JUNK5/event", b"{}", qos=1).wait_for_publish(10)
        assert wait_for(lambda: latest(recorder).get("rejected", 0) >= 1000, 30)
        time.sleep(1.5)
        assert states(recorder) == {}, sorted(states(recorder))[:10]
        command = [sys.executable, "-m", "scoreboard", "shoe", "--mqtt", broker.address]
        command += ["--table", "NEW1", "--pace", "0.3", "--seed", "2"]
        with open(tmp_path / "shoe.log", "wb") as log:
            shoe = subprocess.Popen(command, stderr=log)
        try:
            assert wait_for(lambda: states(recorder).get("NEW1") == "live", 30)
        finally:
            shoe.terminate()
            shoe.wait(20)
    log = (tmp_path / "lobby.log").read_text()  # the lobby stopped: its whole log
    assert log.count("rejected (") <= 25, log.count("rejected (")  # not a line per id
    assert "the rest are counted" in log


def test_a_full_floor_makes_room_only_by_evicting_a_dead_discovered_table():
    from scoreboard.game.events import NewShoe
    from scoreboard.lobby.floor import EVICTABLE_AFTER, Floor, TableRefused
    from scoreboard.lobby.tables import Listing

    floor = Floor([Listing("L1")], max_tables=3)
    floor.entry("HEARD", now=0.0).take(NewShoe("S1"), 100.0)
    floor.entry("NEVER", now=0.0)  # admitted, never heard since
    floor.entry("NEW1", now=101.0)  # full: NEVER goes
    assert set(floor.tables) == {"L1", "HEARD", "NEW1"}
    try:
        floor.entry("NEW2", now=101.0)  # NEW1 never heard either: it goes
    except TableRefused:
        raise AssertionError("a never-heard table should make room") from None
    assert set(floor.tables) == {"L1", "HEARD", "NEW2"}
    floor.entry("NEW2").take(NewShoe("S2"), 101.0)
    try:
        floor.entry("NEW3", now=102.0)  # both discovered tables were heard just now
    except TableRefused as error:
        assert "already shows 3" in str(error)
    else:
        raise AssertionError("a live table was evicted")
    floor.entry("NEW3", now=100.0 + EVICTABLE_AFTER + 1)  # HEARD has been silent long enough
    assert set(floor.tables) == {"L1", "NEW2", "NEW3"}
    assert floor.evicted == 3
