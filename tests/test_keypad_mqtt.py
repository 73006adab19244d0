"""The keypad as the table's controller over a real mosquitto: the other displays follow it.

The keypad display is the real kiosk driven by pygame key events (tests/keypad_kiosk.py);
the other displays are ordinary MQTT displays (``MqttFeed``) polled by the test.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field

import pytest
from keypad_kiosk import WALL, Driver, keypad_kiosk
from mqtt_broker import Broker, Display, needs_mosquitto, running_broker, unique_prefix

from scoreboard.game.events import NewShoe
from scoreboard.game.shoe import Dealer
from scoreboard.journal import Journal
from scoreboard.keypad.feed import KeypadFeed
from scoreboard.keypad.publish import KeypadPublisher
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState

pytestmark = needs_mosquitto


@dataclass
class Table:
    """One table on its own broker and topics, and the MQTT displays started on it."""

    broker: Broker
    prefix: str = field(default_factory=unique_prefix)
    displays: list[Display] = field(default_factory=list)

    def display(self, display_id: str, **options) -> Display:
        display = Display(self.broker.settings(), self.prefix, display_id, **options).start()
        self.displays.append(display)
        assert display.until(lambda: display.session.subscribed, 15), "display never connected"
        return display


@pytest.fixture
def table_net(tmp_path):
    with running_broker(tmp_path / "broker") as broker:
        net = Table(broker)
        try:
            yield net
        finally:
            for display in net.displays:
                display.stop()


def keypad_feed(broker, prefix, state_dir, *, journal=None, wall_clock=time.time) -> KeypadFeed:
    publisher = KeypadPublisher(
        broker.endpoint(prefix),
        client_id=f"keypad-{uuid.uuid4().hex[:6]}",
        state_dir=state_dir,
        wall_clock=wall_clock,
    )
    return KeypadFeed(journal=journal, publisher=publisher, wall_clock=lambda: WALL)


def until_live(pad: Driver, timeout: float = 15.0) -> None:
    """Turn the kiosk in real time until the keypad's link is up and announced."""
    deadline = time.monotonic() + timeout
    while pad.feed.status(0.0) is not FeedStatus.LIVE:
        assert time.monotonic() < deadline, "the keypad never connected"
        time.sleep(0.05)
        pad.at(pad.clock.now + 0.05)


def same_board(display: Display, table: TableState):
    return lambda: (
        (display.table.shoe_id, display.table.games, display.table.voided)
        == (
            table.shoe_id,
            table.games,
            table.voided,
        )
    )


def test_the_other_displays_follow_the_keypad(table_net, tmp_path):
    broker, prefix = table_net.broker, table_net.prefix
    other = table_net.display("d2")
    with keypad_kiosk(keypad_feed(broker, prefix, tmp_path / "keypad")) as pad:
        until_live(pad)
        t = pad.type("[6] [3] [1] [4] [5] [1] [2]", pad.clock.now)
        assert [g.coup.winner.value for g in pad.table.games] == ["B", "P", "P", "T"]
        assert other.until(same_board(other, pad.table), 15)
        assert other.table.games[2].coup.player_pair and other.table.games[2].coup.player_natural
        assert other.status() is FeedStatus.LIVE
        t = pad.type("[-] [-]", t)  # void game 4
        assert other.until(same_board(other, pad.table), 15) and other.table.voided == (4,)
        first = pad.table.shoe_id
        t = pad.type("[3] [*] [*] [1]", t)  # game 5, a new shoe, its game 1
        assert pad.table.shoe_id != first and len(pad.table.games) == 1
        assert other.until(same_board(other, pad.table), 15)
        assert other.table.is_archived(first) and other.session.rejected == 0
        late = table_net.display("d3")  # from the retained snapshot
        assert late.until(same_board(late, pad.table), 15)
    assert other.until(lambda: other.status() is FeedStatus.CONTROLLER_OFFLINE, 10)


#: A shoe controller in a process of its own (sessions are its clock's): six coups, then it fails.
SHOE_THAT_FAILS = """
import sys
from scoreboard.settings.config import MqttConfig
from scoreboard.settings.endpoint import Endpoint
from scoreboard.controller import Controller
from scoreboard.game.events import CoupReceived
from scoreboard.game.limits import Limits
from scoreboard.game.shoe import Dealer, timed
from scoreboard.game.variants import VARIANTS
from scoreboard.protocol import Topics

port, prefix = int(sys.argv[1]), sys.argv[2]
events = list(Dealer(decks=8, seed=5).shoe())
sixth = [i for i, e in enumerate(events) if isinstance(e, CoupReceived)][5]
endpoint = Endpoint(MqttConfig(port=port, keepalive=1), Topics(prefix))
controller = Controller(endpoint, limits=Limits.default_for(VARIANTS["commission"]))
controller.start()
controller.deal(timed(events[: sixth + 1], 0.0, 0.0))
print(controller.session)
controller.stop()
"""


def test_the_keypad_takes_over_from_a_failed_shoe_controller(table_net, tmp_path):
    """The fallback: the shoe dies mid-shoe, its display switches to the keypad.

    The keypad goes on with the same shoe under a newer controller session (even
    with this display's clock an hour behind the shoe's), and the display that
    stayed on MQTT follows it.
    """
    state = tmp_path / "keypad-display"
    shoe = next(e.shoe for e in Dealer(decks=8, seed=5).shoe() if isinstance(e, NewShoe))
    broker, prefix = table_net.broker, table_net.prefix
    stayed = table_net.display("d2")
    with Journal(state) as journal:
        switching = table_net.display("d1", journal=journal)
        command = [sys.executable, "-c", SHOE_THAT_FAILS, str(broker.port), prefix]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        session = int(done.stdout.split()[-1])
        assert switching.until(lambda: len(switching.table.games) == 6, 15)
        assert stayed.until(lambda: len(stayed.table.games) == 6, 15)
        switching.stop()
        table_net.displays.remove(switching)
    table = TableState()
    with Journal(state) as journal:
        journal.replay(table)  # what the display showed, with the controller's position
        assert table.shoe_id == shoe and len(table.games) == 6
        feed = keypad_feed(
            broker, prefix, state, journal=journal, wall_clock=lambda: time.time() - 3600
        )
        with keypad_kiosk(feed, table) as pad:
            until_live(pad)
            assert feed.publisher.stream.session > session
            pad.type("[3] [6] [1]", pad.clock.now)
            assert [g.number for g in table.games] == [1, 2, 3, 4, 5, 6, 7, 8]
            assert stayed.until(same_board(stayed, table), 15)
            assert stayed.table.shoe_id == shoe and stayed.table.games[7].coup.banker_pair
            assert stayed.status() is FeedStatus.LIVE
    again = TableState()
    with Journal(state) as journal:
        journal.replay(again)
    assert again.games == table.games  # the keypad's entries are in the display's journal


def test_scoreboard_run_feed_keypad_publishes_its_journaled_shoe(table_net, tmp_path):
    """``scoreboard run --feed keypad --mqtt``: the real command announces the keypad's shoe."""
    state = tmp_path / "state"
    table = TableState()
    with Journal(state) as journal:  # a shoe keyed in before this start
        feed = KeypadFeed(journal=journal, wall_clock=lambda: WALL)
        for key in ("[3]", "[6]", "[1]", "[2]"):
            feed.key(key, True, 0.0)
            feed.key(key, False, 0.1)
        feed.poll(table, 0.2)
    assert len(table.games) == 3
    other = table_net.display("d2")
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    command = [
        sys.executable, "-m", "scoreboard", "run", "--feed", "keypad", "--windowed",
        "--size", "640x360", "--mqtt", table_net.broker.address, "--prefix", table_net.prefix,
        "--display-id", "pit", "--state-dir", str(state),
    ]  # fmt: skip
    log_path = tmp_path / "run.log"
    with open(log_path, "wb") as log_file:
        process = subprocess.Popen(command, env=env, stderr=log_file)
        try:
            assert other.until(same_board(other, table), 30), log_path.read_text()
            assert other.until(lambda: other.status() is FeedStatus.LIVE, 10)
            process.terminate()
            assert process.wait(20) in (0, 130, -15)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    assert other.until(lambda: other.status() is FeedStatus.CONTROLLER_OFFLINE, 10)
    assert "keypad: publishing to" in log_path.read_text()


def test_a_keypad_whose_publishes_the_broker_refuses_is_not_live(tmp_path, caplog):
    """The lab's broker let the keypad's account read but not write: it showed LIVE and
    no display ever got a coup.  MQTT 5 says so in each PUBACK: the keypad must too."""
    acl = tmp_path / "acl"
    acl.write_text("topic read #\n")  # anonymous clients: read only
    with running_broker(tmp_path / "broker", acl_file=acl) as broker:
        prefix = unique_prefix()
        with keypad_kiosk(keypad_feed(broker, prefix, tmp_path / "keypad")) as pad:
            deadline = time.monotonic() + 15
            while not pad.feed.publisher.connected:
                assert time.monotonic() < deadline, "the keypad never connected"
                time.sleep(0.05)
                pad.at(pad.clock.now + 0.05)
            t = pad.type("[3]", pad.clock.now)
            deadline = time.monotonic() + 15
            while pad.feed.status(t) is FeedStatus.LIVE:
                assert time.monotonic() < deadline, "the keypad stayed LIVE"
                time.sleep(0.05)
                t += 0.05
                pad.at(t)
            assert pad.feed.status(t) is FeedStatus.OFFLINE
            assert [g.coup.winner.value for g in pad.table.games] == ["B"]  # kept locally
    refusals = [r for r in caplog.records if "refuses what this controller publishes" in r.message]
    assert len(refusals) == 1 and refusals[0].levelname == "ERROR"
