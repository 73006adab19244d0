"""Storage faults under a real ``scoreboard run --headless`` fed by a real mosquitto.

The display runs as a process; the test fills its disk, makes it read-only or
deletes its journal while a publisher keeps dealing, then checks that the
process lives on, logs one ERROR per fault, writes everything once the fault
clears, and that a restart shows the same shoe.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli import scoreboard
from dealt import dealt_shoe, raw_message
from mqtt_broker import Recorder, needs_mosquitto, publisher, unique_prefix
from mqtt_broker import wait_for as wait_until
from test_storage_faults import Disk, archives, coups_in, mounted_tmpfs, replayed

from scoreboard.journal import JOURNAL_NAME
from scoreboard.protocol import CoupReceived, NewShoe, Topics

pytestmark = [needs_mosquitto, pytest.mark.slow]

GAMES = list(dealt_shoe(7).games)


@pytest.fixture
def disk(tmp_path) -> Iterator[Disk]:
    with mounted_tmpfs(tmp_path / "disk", "256k") as disk:
        yield disk


class Board:
    """``scoreboard run --headless`` as a process, its log in a file, its status recorded."""

    def __init__(self, broker, prefix: str, state: Path, log: Path) -> None:
        self.command = [
            sys.executable, "-m", "scoreboard", "run", "--headless", "--mqtt", broker.address,
            "--prefix", prefix, "--display-id", "d1", "--state-dir", str(state),
        ]  # fmt: skip
        self.log_path = log
        self.topic = f"{prefix}/display/d1/status"
        self.recorder = Recorder(broker.settings(), self.topic).start()
        self.process: subprocess.Popen | None = None

    def start(self) -> Board:
        """Start the display and wait until it says it is online (so it hears what is dealt)."""
        seen = len(self.recorder.on(self.topic))
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(self.command, stderr=log, stdout=log)
        assert wait_until(lambda: len(self.recorder.on(self.topic)) > seen, 20), self.log()
        return self

    def status(self) -> dict:
        payloads = self.recorder.on(self.topic)
        return json.loads(payloads[-1]) if payloads else {}

    def shows(self, shoe: str, games: int, timeout: float = 20) -> bool:
        return wait_until(lambda: self.status().get("shoe") == shoe
                          and self.status().get("games") == games, timeout)  # fmt: skip

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def logged(self, text: str, timeout: float) -> bool:
        return wait_until(lambda: text in self.log(), timeout, step=0.2)

    def errors(self) -> list[str]:
        return [line for line in self.log().splitlines() if " ERROR " in line]

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def close(self) -> None:
        self.stop()
        self.recorder.stop()


@pytest.fixture
def prefix() -> str:
    return unique_prefix()


@pytest.fixture
def dealer(broker, prefix):
    client = publisher(broker.settings())
    topics = Topics(prefix)

    def deal(*events) -> None:
        for event in events:
            client.publish(*raw_message(topics, event), qos=1).wait_for_publish(5)

    yield deal
    client.disconnect()
    client.loop_stop()


def shoe(name: str, count: int = len(GAMES)) -> list:
    return [NewShoe(name), *(CoupReceived(name, game) for game in GAMES[:count])]


def test_a_full_disk_across_shoes_keeps_the_board_and_loses_no_shoe(
    broker, prefix, dealer, disk, tmp_path
):
    state = disk.path / "state"
    board = Board(broker, prefix, state, tmp_path / "board.log").start()
    try:
        dealer(*shoe("S1", 10))
        assert board.shows("S1", 10)
        disk.fill()
        dealer(*shoe("S2"), *shoe("S3", 20))
        assert board.shows("S3", 20) and board.alive()
        errors = board.errors()
        assert len(errors) == 1 and "No space left on device" in errors[0], errors
        disk.free()
        assert board.logged("writing again", 40)  # retried without another event
        board.stop()
        assert board.errors() == errors  # one ERROR for the whole fault
        kept = archives(state)
        assert [coups_in(records) for records in kept.values()] == [10, len(GAMES)]
        audited = scoreboard("audit", str(state))  # the full stretch is on the record
        assert audited.returncode == 0, audited.stdout
        assert "could not be written (No space left on device)" in audited.stdout
        again = replayed(state)
        assert (again.shoe_id, again.shoe_number, len(again.games)) == ("S3", 3, 20)
        board.start()  # a restart shows the same shoe, before the controller says a word
        assert board.shows("S3", 20)
    finally:
        board.close()


def test_a_journal_deleted_while_running_is_rewritten_and_a_restart_keeps_the_shoe(
    broker, prefix, dealer, tmp_path
):
    state = tmp_path / "state"
    board = Board(broker, prefix, state, tmp_path / "board.log").start()
    try:
        dealer(*shoe("S1", 4), *shoe("S2", 5))
        assert board.shows("S2", 5)
        (state / JOURNAL_NAME).unlink()
        dealer(CoupReceived("S2", GAMES[5]))
        assert board.shows("S2", 6)
        assert board.logged("journal.jsonl was deleted; rewriting it from memory", 10)
        board.stop()
        assert board.errors() == []
        again = replayed(state)
        assert (again.shoe_id, again.shoe_number, again.games) == ("S2", 2, tuple(GAMES[:6]))
        assert again.is_archived("S1")  # a late S1 message still cannot restart it
        board.start()
        assert board.shows("S2", 6)
    finally:
        board.close()


def test_a_read_only_state_dir_at_start_still_shows_the_board(
    broker, prefix, dealer, disk, tmp_path
):
    state = disk.path / "state"
    board = Board(broker, prefix, state, tmp_path / "board.log").start()
    try:
        dealer(*shoe("S1", 5))
        assert board.shows("S1", 5)
        board.stop()
        disk.read_only()
        board.start()  # it used to exit 2: no board at all
        assert board.shows("S1", 5)  # what it could read
        dealer(*(CoupReceived("S1", game) for game in GAMES[5:8]))
        assert board.shows("S1", 8) and board.alive()
        errors = board.errors()
        assert len(errors) == 1 and "Read-only file system" in errors[0], errors
        disk.writable()
        assert board.logged("writing again", 40)
        board.stop()
        assert replayed(state).games == tuple(GAMES[:8])
    finally:
        board.close()
