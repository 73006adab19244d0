"""The MQTT feed against a real mosquitto: what display-feed.md promises a display does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time

import pytest
from dealt import run_of
from mqtt_broker import (
    Display,
    Recorder,
    needs_mosquitto,
    publisher,
    unique_prefix,
    wait_for,
)

from scoreboard.controller import Controller
from scoreboard.game.events import NewShoe
from scoreboard.game.limits import Limits
from scoreboard.game.rules import Game
from scoreboard.game.shoe import Dealer, timed
from scoreboard.game.variants import VARIANTS
from scoreboard.protocol import CoupReceived, encode, encode_payload
from scoreboard.table.applied import FeedStatus

pytestmark = needs_mosquitto


@pytest.fixture
def prefix():
    return unique_prefix()


@pytest.fixture
def displays():
    started: list[Display] = []
    yield started
    for display in started:
        display.stop()


def start_display(displays, broker, prefix, **options) -> Display:
    display = Display(broker.settings(), prefix, **options).start()
    displays.append(display)
    assert display.until(lambda: display.session.subscribed, 15), "display never connected"
    return display


def dealer_games(seed: int, decks: int = 8, run: str = "") -> tuple[str, list[Game]]:
    events = list(Dealer(decks=decks, seed=seed, run=run).shoe())
    shoe_id = next(e.shoe for e in events if isinstance(e, NewShoe))
    return shoe_id, [e.game for e in events if isinstance(e, CoupReceived)]


def coup_payload(shoe: str, game: Game, key: bytes | None = None) -> bytes:
    return encode_payload(encode(CoupReceived(shoe, game))[1], key)


class ControllerThread:
    """An in-process simulated controller dealing on a thread."""

    def __init__(self, broker, prefix, events, *, pace=0.0, key=None, **settings):
        self.controller = Controller(
            broker.endpoint(prefix, hmac_key=key, **settings),
            limits=Limits.default_for(VARIANTS["commission"]),
        )
        self.events = events
        self.pace = pace
        self.linger = 0.0
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        self.controller.deal(timed(self.events, self.pace, 0.0))
        if self.linger:
            self.controller.linger(self.linger)

    def start(self, linger: float = 0.0) -> ControllerThread:
        self.linger = linger
        self.controller.start()
        self.thread.start()
        return self

    def join(self, timeout=60):
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "controller did not finish"

    def stop(self):
        self.controller.stop_dealing()
        self.thread.join(20)
        self.controller.stop()


def test_a_shoe_published_by_scoreboard_shoe_arrives_complete_and_in_order(
    broker, prefix, displays
):
    display = start_display(displays, broker, prefix)
    recorder = Recorder(broker.settings(), f"{prefix}/#").start()
    command = [
        sys.executable, "-m", "scoreboard", "shoe", "--mqtt", broker.address,
        "--prefix", prefix, "--pace", "0", "--seed", "11", "--shoes", "1",
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert display.until(lambda: display.table.shoe_id is not None, 20)
    shoe_id, games = dealer_games(11, run=run_of(display.table.shoe_id))
    assert display.until(lambda: len(display.table.games) == len(games), 20)
    assert display.table.shoe_id == shoe_id
    assert display.table.games == tuple(games)
    assert display.table.missing == ()
    assert display.session.rejected == 0
    # The controller said goodbye: the mark says so, the roads stay.
    assert display.until(lambda: display.status() is FeedStatus.CONTROLLER_OFFLINE, 5)
    # Coups were published in game order, each with cards (the recorder is a client
    # of its own: on a loaded machine its last messages may still be on their way).
    assert wait_for(lambda: len(recorder.on(f"{prefix}/coup")) >= len(games), 10)
    coups = [json.loads(p) for p in recorder.on(f"{prefix}/coup")]
    assert [c["game"] for c in coups] == list(range(1, len(games) + 1))
    assert all("cards" in c for c in coups)
    # The display's retained status tells what it shows.
    topic = f"{prefix}/display/d1/status"

    def last_status():
        return json.loads(recorder.on(topic)[-1]) if recorder.on(topic) else {}

    assert wait_for(lambda: last_status().get("feed") == "controller offline", 5)
    status = last_status()
    counts = {w: sum(g.coup.winner.value == w for g in games) for w in "BPT"}
    assert status["online"] is True and status["display"] == "d1"
    assert status["games"] == len(games) and status["last_game"] == len(games)
    assert status["counts"] == counts and status["missing"] == [] and status["rejected"] == 0
    recorder.stop()


def test_qos1_redelivery_of_a_coup_is_ignored(broker, prefix, displays):
    display = start_display(displays, broker, prefix)
    shoe_id, games = dealer_games(3)
    client = publisher(broker.settings())
    for _ in range(3):
        client.publish(f"{prefix}/coup", coup_payload(shoe_id, games[0]), qos=1).wait_for_publish(5)
    client.publish(f"{prefix}/coup", coup_payload(shoe_id, games[1]), qos=1).wait_for_publish(5)
    assert display.until(lambda: len(display.table.games) == 2)
    time.sleep(0.3)
    display.poll()
    assert display.table.games == (games[0], games[1])
    assert display.session.rejected == 0
    assert display.session.applied == 2
    client.disconnect()  # at once; loop_stop alone waits out paho's 1 s poll
    client.loop_stop()


def test_a_conflicting_coup_is_rejected_and_the_recorded_one_kept(broker, prefix, displays):
    display = start_display(displays, broker, prefix)
    shoe_id, games = dealer_games(4)
    other = next(g.coup for g in games if g.coup != games[0].coup)
    client = publisher(broker.settings())
    client.publish(f"{prefix}/coup", coup_payload(shoe_id, games[0]), qos=1).wait_for_publish(5)
    client.publish(f"{prefix}/coup", coup_payload(shoe_id, Game(1, other)), qos=1).wait_for_publish(
        5
    )
    assert display.until(lambda: display.session.rejected == 1)
    assert display.table.games == (games[0],)
    assert display.session.rejected_by_reason["conflict"] == 1
    client.disconnect()  # at once; loop_stop alone waits out paho's 1 s poll
    client.loop_stop()


def test_a_gap_is_shown_and_healed_by_resync(broker, prefix, displays):
    display = start_display(displays, broker, prefix)
    recorder = Recorder(broker.settings(), f"{prefix}/cmd/resync").start()
    shoe_id, games = dealer_games(5)
    controller = ControllerThread(broker, prefix, []).start(linger=30)
    # Once it has announced itself (status, limits, no shoe yet) ...
    assert display.until(lambda: display.session.controller_online is True, 10)
    # ... the controller knows games 1-4, but game 3 never reaches the display.
    controller.controller.shoe_id = shoe_id
    controller.controller.games = games[:4]
    client = publisher(broker.settings())
    for game in (games[0], games[1], games[3]):
        client.publish(f"{prefix}/coup", coup_payload(shoe_id, game), qos=1).wait_for_publish(5)
    seen_missing = []

    def healed():
        if display.table.missing:
            seen_missing.append((display.table.missing, display.status()))
        return len(display.table.games) == 4

    assert display.until(healed, 20)
    assert ((3,), FeedStatus.MISSING_GAMES) in seen_missing
    assert display.table.games == tuple(games[:4])
    assert display.status() is FeedStatus.LIVE
    resyncs = [json.loads(p) for p in recorder.on(f"{prefix}/cmd/resync")]
    assert resyncs and resyncs[0]["missing"] == [3] and resyncs[0]["display"] == "d1"
    controller.stop()
    client.disconnect()  # at once; loop_stop alone waits out paho's 1 s poll
    client.loop_stop()
    recorder.stop()


def test_a_display_started_mid_shoe_catches_up_from_the_retained_snapshot(broker, prefix, displays):
    events = list(Dealer(seed=6).shoe())
    dealt = [e for e in events if isinstance(e, CoupReceived)]
    first_part = events[: events.index(dealt[20]) + 1]
    controller = ControllerThread(broker, prefix, first_part).start()
    controller.join()
    assert controller.controller.flush(10)
    display = start_display(displays, broker, prefix)
    assert display.until(lambda: len(display.table.games) == 21)
    assert display.table.games == tuple(e.game for e in dealt[:21])
    # ... and then follows the live coups.
    controller2 = ControllerThread(broker, prefix, events[len(first_part) :])
    controller2.controller.shoe_id = controller.controller.shoe_id
    controller2.controller.games = list(controller.controller.games)
    controller2.start().join()
    assert display.until(lambda: len(display.table.games) == len(dealt))
    assert display.table.games == tuple(e.game for e in dealt)
    assert display.session.rejected == 0
    controller.controller.stop()
    controller2.controller.stop()


def test_broker_restart_mid_shoe_shows_offline_then_reconnects_and_misses_nothing(
    broker, prefix, displays
):
    display = start_display(displays, broker, prefix)
    events = list(Dealer(seed=8).shoe())
    dealt = [e.game for e in events if isinstance(e, CoupReceived)]
    controller = ControllerThread(broker, prefix, events, pace=0.02).start()
    assert display.until(lambda: len(display.table.games) >= 10)
    broker.stop()
    stopped = time.monotonic()
    assert display.until(lambda: display.status() is FeedStatus.OFFLINE, 10)
    assert time.monotonic() - stopped < 2.0, "offline mark later than 2 s"
    kept = len(display.table.games)
    assert kept >= 10  # the roads stay on screen
    time.sleep(1.0)
    broker.start()
    assert display.until(lambda: display.session.subscribed, 30), "display did not reconnect"
    controller.join(120)
    assert display.until(lambda: len(display.table.games) == len(dealt), 30)
    assert display.table.games == tuple(dealt)
    assert display.table.missing == ()
    controller.controller.stop()


def test_mqtt_3_1_1_is_selectable(broker, prefix, displays):
    display = Display(broker.settings(protocol="3.1.1"), prefix).start()
    displays.append(display)
    assert display.until(lambda: display.session.subscribed, 15)
    events = list(Dealer(seed=9).shoe())[:6]
    controller = ControllerThread(broker, prefix, events, protocol="3.1.1").start()
    controller.join()
    wanted = [e.game for e in events if isinstance(e, CoupReceived)]
    assert display.until(lambda: display.table.games == tuple(wanted))
    controller.controller.stop()


def test_controller_offline_is_shown_within_2_seconds(broker, prefix, displays):
    display = start_display(displays, broker, prefix)
    command = [
        sys.executable, "-m", "scoreboard", "shoe", "--mqtt", broker.address,
        "--prefix", prefix, "--pace", "5", "--seed", "2",
    ]  # fmt: skip
    process = subprocess.Popen(command, stderr=subprocess.DEVNULL)
    try:
        assert display.until(lambda: display.session.controller_online is True, 20)
        assert display.status() in (FeedStatus.LIVE, FeedStatus.MISSING_GAMES)
        process.kill()  # no goodbye: the broker sends the last will
        process.wait(10)
        killed = time.monotonic()
        assert display.until(lambda: display.status() is FeedStatus.CONTROLLER_OFFLINE, 10)
        assert time.monotonic() - killed < 2.0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_the_display_leaves_offline_as_its_last_will(broker, prefix, tmp_path):
    recorder = Recorder(broker.settings(), f"{prefix}/display/+/status").start()
    command = [
        sys.executable, "-m", "scoreboard", "run", "--headless", "--mqtt", broker.address,
        "--prefix", prefix, "--display-id", "kiosk7", "--state-dir", str(tmp_path / "state"),
    ]  # fmt: skip
    process = subprocess.Popen(command, stderr=subprocess.DEVNULL)
    topic = f"{prefix}/display/kiosk7/status"
    try:
        assert wait_for(lambda: recorder.on(topic), 20)
        assert json.loads(recorder.on(topic)[0])["online"] is True
        process.kill()
        process.wait(10)
        assert wait_for(lambda: json.loads(recorder.on(topic)[-1]) == {"online": False}, 10)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        recorder.stop()


def test_a_restarted_display_replays_its_journal_then_catches_up(broker, prefix, tmp_path):
    from scoreboard.journal import Journal

    events = list(Dealer(seed=13).shoe())
    dealt = [e for e in events if isinstance(e, CoupReceived)]
    cut = events.index(dealt[15]) + 1
    state = tmp_path / "state"
    journal = Journal(state)
    display = Display(broker.settings(), prefix, journal=journal)
    journal.replay(display.table)
    display.start()
    first = ControllerThread(broker, prefix, events[:cut]).start()
    first.join()
    assert display.until(lambda: len(display.table.games) == 16)
    display.feed.link.drop()  # the power goes out: no goodbye, no flush
    first.controller.stop()
    # While the display is dark the shoe goes on.
    second = ControllerThread(broker, prefix, events[cut:])
    second.controller.shoe_id = first.controller.shoe_id
    second.controller.games = list(first.controller.games)
    second.start().join()
    assert second.controller.flush(10)
    # Power back: the journal shows the 16 games before any network traffic ...
    journal = Journal(state)
    again = Display(broker.settings(), prefix, journal=journal)
    journal.replay(again.table)
    assert again.table.games == tuple(e.game for e in dealt[:16])
    # ... and the retained snapshot brings the rest.
    again.start()
    try:
        assert again.until(lambda: len(again.table.games) == len(dealt))
        assert again.table.games == tuple(e.game for e in dealt)
    finally:
        again.stop()
        second.controller.stop()


def test_scoreboard_run_shows_the_feed_in_the_kiosk_window(broker, prefix, tmp_path):
    recorder = Recorder(broker.settings(), f"{prefix}/display/+/status").start()
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    command = [
        sys.executable, "-m", "scoreboard", "run", "--windowed", "--size", "1280x720",
        "--mqtt", broker.address, "--prefix", prefix, "--display-id", "win",
        "--state-dir", str(tmp_path / "state"),
    ]  # fmt: skip
    log_path = tmp_path / "run.log"
    log_file = open(log_path, "wb")  # noqa: SIM115
    process = subprocess.Popen(command, env=env, stderr=log_file)
    topic = f"{prefix}/display/win/status"

    def last():
        payloads = recorder.on(topic)
        return json.loads(payloads[-1]) if payloads else {}

    try:
        assert wait_for(lambda: last().get("online") is True, 30), log_path.read_text()
        events = list(Dealer(seed=17).shoe())[:8]
        controller = ControllerThread(broker, prefix, events).start()
        controller.join()
        wanted = sum(isinstance(e, CoupReceived) for e in events)
        assert wait_for(lambda: last().get("games") == wanted, 20), last()
        process.terminate()
        assert process.wait(20) in (0, 130, -15)
        assert wait_for(lambda: last() == {"online": False}, 10)
        controller.controller.stop()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        recorder.stop()
        log_file.close()


def test_a_display_started_before_the_broker_connects_when_it_comes_up(tmp_path, prefix):
    from mqtt_broker import Broker

    broker = Broker(tmp_path / "late")
    (tmp_path / "late").mkdir()
    display = Display(broker.settings(), prefix).start()
    try:
        assert not display.until(lambda: display.session.connected, 1.5)
        assert display.status() is FeedStatus.CONNECTING
        broker.start()
        assert display.until(lambda: display.session.subscribed, 30)
        # No controller has announced itself on this broker: said so within 2 s.
        assert display.until(lambda: display.status() is FeedStatus.CONTROLLER_OFFLINE, 2)
    finally:
        display.stop()
        broker.stop()


def test_a_silent_broker_is_noticed_by_the_keepalive(broker, prefix, displays):
    import signal

    display = start_display(displays, broker, prefix)
    assert display.feed.link.endpoint.mqtt.keepalive == 1
    broker.process.send_signal(signal.SIGSTOP)  # sockets stay open, nothing answers
    try:
        frozen = time.monotonic()
        assert display.until(lambda: display.status() is FeedStatus.OFFLINE, 10)
        noticed = time.monotonic() - frozen
        assert noticed < 3.0, f"a silent link was noticed after {noticed:.1f} s"
    finally:
        broker.process.send_signal(signal.SIGCONT)
    assert display.until(lambda: display.session.subscribed, 30)
