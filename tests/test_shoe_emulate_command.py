"""``scoreboard shoe --emulate``, from the outside: the real command, a real pty, pyserial reading.

The command creates a pseudo-terminal and names it on stdout; the test opens that
path with pyserial at the shoe's baud, as the bridge will open a USB adapter, reads
for a few seconds and decodes what came with the project's readers.
"""

from __future__ import annotations

import itertools
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import pytest
import serial
from cli import scoreboard

from scoreboard.game.events import CoupReceived
from scoreboard.game.rules import record_coup
from scoreboard.shoes.angel_eye import ENQ, AngelEyeReader, bcc
from scoreboard.shoes.angel_eye_hands import AngelEyeHands
from scoreboard.shoes.bee_tek import BeeTekReader
from scoreboard.shoes.bee_tek_hands import BeeTekHands
from scoreboard.shoes.discards import BadBytes
from scoreboard.shoes.news import CardsDisagree, HandAbandoned

pytestmark = pytest.mark.slow

READ_SECONDS = 4.0


def emulating(*flags: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "scoreboard", "shoe", "--emulate", *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def read_for(port: serial.Serial, seconds: float) -> bytes:
    data = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        data += port.read(4096)
    return data


def finish(process: subprocess.Popen) -> str:
    """SIGTERM, as a service stop: it leaves cleanly; its stderr."""
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=10)
    assert process.returncode in (0, 130), err
    assert "Traceback" not in err
    return err


@dataclass(frozen=True)
class Heard:
    """One emulation read from the outside: the line it named, what came, its stderr."""

    path: str
    data: bytes
    err: str


def on_its_pty(flags: tuple[str, ...], baud: int, seconds: float) -> Heard:
    """The emulator names its pty; pyserial opens it at ``baud`` and reads ``seconds``."""
    process = emulating(*flags)
    try:
        path = process.stdout.readline().strip()
        assert path.startswith("/dev/"), path
        with serial.Serial(path, baud, timeout=0.1) as port:
            data = read_for(port, seconds)
        return Heard(path, data, finish(process))
    finally:
        stopped(process)


def into_a_device(flags: tuple[str, ...], seconds: float) -> Heard:
    """--serial PATH: the command opens the device itself (a pty made here)."""
    master, slave = os.openpty()
    try:
        process = emulating(*flags, "--serial", os.ttyname(slave))
        try:
            os.set_blocking(master, False)
            data, end = b"", time.monotonic() + seconds
            while time.monotonic() < end:
                try:
                    data += os.read(master, 4096)
                except BlockingIOError:
                    time.sleep(0.05)
            return Heard(os.ttyname(slave), data, finish(process))
        finally:
            stopped(process)
    finally:
        os.close(master)
        os.close(slave)


def stopped(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.kill()
        process.wait()


@pytest.fixture(scope="module")
def heard() -> Iterator[dict[str, Future[Heard]]]:
    """The file's three emulations run side by side, each read for its own seconds.

    Each one's process, line and reading are its own, as when they ran one after the
    other; only the waiting overlaps (about 4 s instead of 11).  A failure in one is
    raised in the test that asks for its result.
    """
    with ThreadPoolExecutor(max_workers=3) as pool:
        yield {
            "angel-eye": pool.submit(
                on_its_pty, ("angel-eye", "--pace", "0.4", "--seed", "23"), 4800, READ_SECONDS
            ),
            "bee-tek": pool.submit(
                on_its_pty, ("bee-tek", "--pace", "0.3", "--seed", "5"), 9600, 3.0
            ),
            "serial": pool.submit(into_a_device, ("angel-eye", "--pace", "0.3"), READ_SECONDS),
        }


def frames(data: bytes) -> list[bytes]:
    """Every complete frame from the first ENQ on (the port opened mid-stream)."""
    pieces = data[data.index(ENQ) :].split(bytes((ENQ,)))[1:]
    return [bytes((ENQ,)) + piece for piece in pieces[:-1]]


def test_an_emulated_angel_eye_on_a_pty_reads_as_a_real_one(heard) -> None:
    angel_eye = heard["angel-eye"].result()
    data = angel_eye.data
    assert f"emulating angel-eye on {angel_eye.path} at 4800 baud" in angel_eye.err
    sent = frames(data)[1:]  # the first may be a copy cut by the open
    assert len(sent) > 60
    for raw in sent:
        assert raw[-3] == 0x03 and raw[-2:].decode() == f"{bcc(raw[1:-2]):02X}", raw.hex(" ")
    runs = [len(list(g)) for _, g in itertools.groupby(sent)]
    assert set(runs[1:-1]) == {3}, "every frame three times, byte for byte"
    news = AngelEyeHands().hear_all(AngelEyeReader().feed(data))
    coups = [n.game.coup for n in news if isinstance(n, CoupReceived)]
    assert len(coups) >= 4
    for coup in coups:
        assert coup.has_cards and coup == record_coup(coup.player, coup.banker)
    assert [n for n in news if isinstance(n, CardsDisagree)] == []
    assert all(n.reason == "outside a frame" for n in news if isinstance(n, BadBytes))
    assert len([n for n in news if isinstance(n, HandAbandoned)]) <= 1  # the hand cut by the open


def test_an_emulated_bee_tek_writes_lines_at_9600(heard) -> None:
    bee_tek = heard["bee-tek"].result()
    assert "at 9600 baud" in bee_tek.err
    lines = bee_tek.data[bee_tek.data.index(b"\n") + 1 :]  # from the first whole line
    news = BeeTekHands().hear_all(BeeTekReader().feed(lines))
    coups = [n.game.coup for n in news if isinstance(n, CoupReceived)]
    assert len(coups) >= 4
    assert [n for n in news if isinstance(n, BadBytes)] == []


def test_into_a_serial_device_it_opens_with_pyserial(heard) -> None:
    """--serial PATH: the command opens the device itself (here a pty the test made)."""
    data = heard["serial"].result().data
    news = AngelEyeHands().hear_all(AngelEyeReader().feed(data))
    assert any(isinstance(n, CoupReceived) for n in news)


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--pace", "0"], "--pace must be a number of seconds above 0, got 0.0"),
        (["--pace", "nan"], "argument --pace: expected seconds, 0 to 86400, got 'nan'"),
        (["--pace", "inf"], "argument --pace: expected seconds, 0 to 86400, got 'inf'"),
        (["--pace", "-2"], "argument --pace: expected seconds, 0 to 86400, got '-2'"),
        (["--shoes", "0"], "argument --shoes: expected a whole number, 1 to"),
        (["--shuffle-seconds", "nan"], "argument --shuffle-seconds: expected seconds, 0 to"),
        (["--shuffle-seconds", "-1"], "argument --shuffle-seconds: expected seconds, 0 to"),
        (["--baud", "0"], "argument --baud: expected a whole number, 50 to"),
        (["--tables", "3"], "--tables is for the MQTT controller"),
        (["--limits", "25-10000"], "--limits is for the MQTT controller"),
        (["--currency", "EUR"], "--currency is for the MQTT controller"),
        (["--limit-tiers"], "--limit-tiers is for the MQTT controller"),
        (["--decks", "9"], "argument --decks: expected a whole number, 1 to 8, got '9'"),
    ],
)
def test_bad_flags_are_refused_in_one_line(flags: list[str], message: str) -> None:
    result = scoreboard("shoe", "--emulate", "angel-eye", *flags)
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_serial_without_emulate_is_refused() -> None:
    result = scoreboard("shoe", "--serial", "/dev/ttyUSB0")
    assert result.returncode == 2
    assert "--serial goes with --emulate angel-eye|bee-tek" in result.stderr


def test_a_device_that_cannot_be_opened_is_named() -> None:
    result = scoreboard("shoe", "--emulate", "bee-tek", "--serial", "/nonexistent/ttyUSB9")
    assert result.returncode == 1
    assert "cannot open /nonexistent/ttyUSB9" in result.stderr
    assert "Traceback" not in result.stderr
