"""An emulated card-reading shoe on a serial line: ``scoreboard shoe --emulate``.

:mod:`scoreboard.shoes.emulate` says what the shoe sends; this writes it, at a
dealer's pace, into a serial device (pyserial, as a USB adapter's other end) or
into a pseudo-terminal it creates, whose path a reader opens as it would the
shoe's.  Like a real shoe it sends whether anyone listens or not: bytes that do
not fit a full line are dropped and counted, never waited for.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import logging
import os
import termios
import time
import tty
from collections.abc import Callable, Iterable

import serial

from scoreboard.game.events import CoupReceived, NewShoe
from scoreboard.shoes.emulate import Chunk

log = logging.getLogger(__name__)

#: Each shoe's line speed (docs/shoes.md).
BAUDS = {"angel-eye": 4800, "bee-tek": 9600}


class LineError(Exception):
    """The serial line cannot be opened or written: the message says which and why."""


class PseudoTerminal:
    """A pty pair: the emulator writes the master; a reader opens :attr:`path`, the slave.

    The slave stays open here too, raw (no echo, no line editing), so the line
    exists between readers; what waits in it when a reader opens is discarded by
    that reader's open, as a real port's would be.
    """

    def __init__(self, baud: int) -> None:
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)
        attributes = termios.tcgetattr(self._slave)
        speed = getattr(termios, f"B{baud}", None)
        if speed is not None:
            attributes[4] = attributes[5] = speed
            termios.tcsetattr(self._slave, termios.TCSANOW, attributes)
        flags = fcntl.fcntl(self.master, fcntl.F_GETFL)
        fcntl.fcntl(self.master, fcntl.F_SETFL, flags | os.O_NONBLOCK)
        self.path = os.ttyname(self._slave)

    def write(self, data: bytes) -> int:
        """Write what fits; returns the bytes written (the rest is the shoe's loss)."""
        try:
            return os.write(self.master, data)
        except BlockingIOError:
            return 0
        except OSError as error:
            if error.errno == errno.EIO:
                return 0
            raise

    def close(self) -> None:
        for fd in (self.master, self._slave):
            with contextlib.suppress(OSError):
                os.close(fd)


class SerialDevice:
    """A real serial device (or a pty's slave someone made), opened 8N1 with pyserial."""

    def __init__(self, path: str, baud: int) -> None:
        try:
            self.port = serial.Serial(path, baud, timeout=0, write_timeout=0.5)
        except (serial.SerialException, OSError, ValueError) as error:
            raise LineError(f"cannot open {path}: {error}") from None
        self.path = path

    def write(self, data: bytes) -> int:
        try:
            return self.port.write(data) or 0
        except serial.SerialTimeoutException:
            return 0
        except (serial.SerialException, OSError) as error:
            raise LineError(f"writing {self.path}: {error}") from None

    def close(self) -> None:
        self.port.close()


def send(
    line: PseudoTerminal | SerialDevice,
    chunks: Iterable[Chunk],
    pace: float,
    *,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], object] = time.sleep,
    stopped: Callable[[], bool] = lambda: False,
) -> tuple[int, int]:
    """Write each chunk when it is due (``after`` paces after the previous one).

    Returns (bytes written, bytes dropped).  Deadlines follow one another, so a
    slow write never makes the dealer drift.
    """
    written = dropped = 0
    due = clock()
    for chunk in chunks:
        due += chunk.after * pace
        sleep(max(0.0, due - clock()))
        if stopped():
            break
        count = line.write(chunk.data) if chunk.data else 0
        written += count
        dropped += len(chunk.data) - count
        for event in chunk.truth:
            if isinstance(event, NewShoe):
                log.info(
                    "emulated shoe: new shoe %s (%d bytes dropped so far)", event.shoe, dropped
                )
            elif isinstance(event, CoupReceived):
                log.debug("emulated shoe: game %d %s", event.game.number, event.game.coup.winner)
    return written, dropped
