"""``scoreboard run --feed shoe``, from the outside: a display reading its shoe on a pty.

A real ``scoreboard run --headless`` process opens a symlink to a pty's slave with
pyserial (:mod:`shoe_cable`); the test writes the emulator's bytes into the
master.  What the display took is read back from its journal (the games, the
shoe's health) as a restart would read it; with a broker configured, a recorder
on the table's topics decodes what it published as the table's controller.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli import scoreboard
from mqtt_broker import Display, Recorder, needs_mosquitto, running_broker, unique_prefix, wait_for
from shoe_cable import Cable, Hand, audited, same_hand, steps

from scoreboard.game.events import (
    Burn,
    CardDealt,
    ControllerStatus,
    CoupReceived,
    Event,
    NewShoe,
    Snapshot,
)
from scoreboard.game.shoe import Dealer
from scoreboard.journal import JOURNAL_NAME
from scoreboard.journal._replay import apply_lines
from scoreboard.protocol import ProtocolError, Topics, parse_message
from scoreboard.shoes.emulate import Habits, angel_eye, bee_tek
from scoreboard.table.state import TableState

pytestmark = pytest.mark.slow

QUIET = Habits(overdraw_kept=0, overdraw_discarded=0, noise=b"", warning=0)


class Board(Cable):
    """``scoreboard run --headless --feed shoe`` on a pty, its journal read back."""

    def __init__(self, tmp_path: Path, shoe: str, *flags: str) -> None:
        super().__init__(tmp_path, shoe)
        self.tmp_path = tmp_path
        self.state = tmp_path / "state"
        self.argv = [
            sys.executable, "-m", "scoreboard", "run", "--headless", "--feed", "shoe",
            "--shoe", shoe, "--serial", str(self.device), "--state-dir", str(self.state),
            "--display-id", "d1", *flags,
        ]  # fmt: skip
        self.env = {k: v for k, v in os.environ.items() if k != "NOTIFY_SOCKET"}
        self.boots = 0

    def start(self) -> Board:
        """A boot; back once it has opened the line (bytes written before are a port's loss)."""
        opened = self.log_text().count("shoe line: reading")
        self.boots += 1
        with open(self.tmp_path / f"board-{self.boots}.log", "wb") as log:
            self.process = subprocess.Popen(self.argv, stderr=log, env=self.env)
        assert wait_for(lambda: self.log_text().count("shoe line: reading") > opened, 20)
        return self

    def log_text(self) -> str:
        logs = sorted(self.tmp_path.glob("board-*.log"))
        return "".join(path.read_text(errors="replace") for path in logs)

    def journaled(self) -> TableState:
        """The table as a restart would replay it from the journal (its complete lines)."""
        path = self.state / JOURNAL_NAME
        raw = path.read_bytes() if path.exists() else b""
        table = TableState()
        apply_lines(table, raw[: raw.rfind(b"\n") + 1], path)
        return table

    def until_games(self, count: int) -> TableState:
        assert wait_for(lambda: self.journaled().last_number >= count, 20), self.log_text()
        return self.journaled()


@pytest.fixture
def boards() -> list[Board]:
    made: list[Board] = []
    yield made
    for board in made:
        board.stop()


def board_on(boards: list[Board], tmp_path: Path, shoe: str, *flags: str) -> Board:
    board = Board(tmp_path, shoe, *flags)
    boards.append(board)
    return board.start()


def wire_of(hands: list[Hand]) -> bytes:
    return b"".join(hand.data for hand in hands)


def coups_of(hands: list[Hand]) -> list[CoupReceived]:
    return [event for hand in hands for event in hand.truth if isinstance(event, CoupReceived)]


def check_games(table: TableState, hands: list[Hand]) -> None:
    """``table`` holds the coups of ``hands`` (the opening first), each once, in order."""
    truths = coups_of(hands)
    assert [game.number for game in table.games] == list(range(1, len(truths) + 1))
    for game, truth in zip(table.games, truths, strict=True):
        assert same_hand(game.coup, truth.game.coup), (game, truth)


@pytest.mark.parametrize("shoe", ["angel-eye", "bee-tek"])
def test_a_display_reads_its_shoe_the_cable_pulled_and_a_kill_mid_hand(
    tmp_path: Path, boards: list[Board], shoe: str
) -> None:
    deal = angel_eye if shoe == "angel-eye" else bee_tek
    hands = steps(deal(Dealer(decks=8, seed=21), seed=21, habits=QUIET, shoes=1))
    board = board_on(boards, tmp_path, shoe)  # no broker: the games stay on this display
    board.write(wire_of(hands[:4]))
    table = board.until_games(3)
    check_games(table, hands[:4])
    assert table.shoe_id is not None and table.shoe_id.startswith("T1-S")
    # the loop logs the mark after the games reach the journal: wait for it, don't race it
    assert wait_for(lambda: "feed live" in board.log_text(), 10), board.log_text()

    board.pull()  # the mark leaves LIVE; the journal keeps the device's going
    assert wait_for(lambda: "feed controller offline" in board.log_text(), 10), board.log_text()
    assert board.journaled().shoe_watch.mark == "shoe_offline"
    board.plug()
    assert wait_for(lambda: board.log_text().count("feed live") == 2, 10), board.log_text()
    assert board.journaled().shoe_watch.mark is None
    board.write(wire_of(hands[4:6]))
    board.until_games(5)

    cut_in = hands[6]  # killed with the hand's first cards out of the shoe
    assert cut_in.draws
    board.write(cut_in.draws)
    time.sleep(0.5)  # read
    board.kill()
    board.start()
    board.write(cut_in.data[len(cut_in.draws) :] + wire_of(hands[7:9]))
    table = board.until_games(8)
    check_games(table, hands[:9])
    assert len({table.shoe_id}) == 1 and table.shoe_number == 1
    assert board.stop() == 0
    assert "device" in audited(board.state)  # the cable's going and coming is on the record


@needs_mosquitto
def test_with_a_broker_it_publishes_as_the_table_s_controller(
    tmp_path: Path, boards: list[Board]
) -> None:
    hands = steps(angel_eye(Dealer(decks=8, seed=4), seed=4, habits=QUIET, shoes=1))
    with running_broker(tmp_path / "broker") as broker:
        prefix = unique_prefix()
        topics = Topics(prefix)
        recorder = Recorder(broker.settings(), f"{prefix}/#").start()
        follower = Display(broker.settings(), prefix).start()
        try:
            board = board_on(boards, tmp_path, "angel-eye", "--mqtt", broker.address,
                             "--prefix", prefix)  # fmt: skip
            assert wait_for(lambda: online(decoded(recorder, topics)), 20), board.log_text()
            board.write(wire_of(hands[:5]))
            board.until_games(4)

            def published() -> list[CoupReceived]:
                return [e for e in decoded(recorder, topics) if isinstance(e, CoupReceived)]

            assert wait_for(lambda: len(published()) == 4, 20), board.log_text()
            for coup, truth in zip(published(), coups_of(hands[:5]), strict=True):
                assert same_hand(coup.game.coup, truth.game.coup)
            events = decoded(recorder, topics)
            assert sum(isinstance(e, NewShoe) for e in events) == 1
            assert [e.cards for e in events if isinstance(e, Burn)] == [
                next(e for e in hands[0].truth if isinstance(e, Burn)).cards
            ]
            deals = [e for e in events if isinstance(e, CardDealt)]
            assert deals and all(deal.card is None for deal in deals)  # face down, as dealt
            snapshots = [e for e in events if isinstance(e, Snapshot)]
            assert [game.number for game in snapshots[-1].games] == [1, 2, 3, 4]
            # another display of the table follows it as it follows any controller
            assert follower.until(lambda: follower.table.last_number == 4)
            assert follower.table.shoe_id == board.journaled().shoe_id
            late = Recorder(broker.settings(), topics.snapshot).start()  # retained
            assert wait_for(lambda: bool(late.messages), 10)
            late.stop()
            assert board.stop() == 0
            assert wait_for(lambda: isinstance(last_status(recorder, topics), ControllerStatus))
            status = last_status(recorder, topics)
            assert isinstance(status, ControllerStatus) and not status.online  # its goodbye
        finally:
            follower.stop()
            recorder.stop()


def decoded(recorder: Recorder, topics: Topics) -> list[Event]:
    events = []
    for message in list(recorder.messages):
        try:
            events.append(parse_message(topics, message.topic, bytes(message.payload)))
        except ProtocolError:
            continue
    return events


def online(events: list[Event]) -> bool:
    return any(isinstance(e, ControllerStatus) and e.online for e in events)


def last_status(recorder: Recorder, topics: Topics) -> Event | None:
    statuses = [e for e in decoded(recorder, topics) if isinstance(e, ControllerStatus)]
    return statuses[-1] if statuses else None


@pytest.mark.parametrize(
    ("section", "message"),
    [
        (
            "shoe: {model: angel-i, serial: /dev/ttyUSB0}",
            "shoe.model: expected angel-eye or bee-tek",
        ),
        (
            "shoe: {model: bee-tek, serial: /dev/ttyUSB0, baud: fast}",
            "shoe.baud: expected an integer",
        ),
        (
            "shoe: {model: angel-eye, serial: /dev/ttyUSB0, suits: DDSH}",
            "shoe.suits: expected S, H, D",
        ),
        (
            "shoe: {model: bee-tek, serial: /dev/ttyUSB0, suits: DCSH}",
            "shoe.suits: expected no suit",
        ),
        ("shoe: {model: angel-eye, port: /dev/ttyUSB0}", "shoe.port: expected one of the keys"),
        ("shoe: [angel-eye]", "shoe: expected a mapping"),
        ("shoe: {model: angel-eye}", "the shoe feed needs --shoe and --serial"),
    ],
)
def test_a_bad_shoe_section_is_refused_naming_file_and_key(
    tmp_path: Path, section: str, message: str
) -> None:
    config = tmp_path / "board.yaml"
    config.write_text(f"feed: shoe\n{section}\n")
    done = scoreboard("run", "--headless", "--config", str(config),
                      "--state-dir", str(tmp_path / "state"))  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert message in done.stderr
    assert "Traceback" not in done.stderr
    if "needs" not in message:
        assert f"{config}: shoe" in done.stderr
    assert not (tmp_path / "state" / JOURNAL_NAME).exists()  # refused before anything opened
