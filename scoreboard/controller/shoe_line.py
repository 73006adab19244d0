"""The shoe's serial line: read with pyserial, reopened by itself when the device comes back.

A USB serial adapter pulled out makes reads fail (``SerialException``, ``OSError``)
or its path vanish; put back, it appears at the same path (a ``/dev/serial/by-id``
name) as a new device.  :class:`ShoeLine` reads with a timeout, notices either (a
failed read, the path gone or naming another device), closes the port and tries
the path again after a bounded wait (:data:`FIRST_RETRY` doubling to
:data:`MAX_RETRY`).  It reports the change once each way, :class:`LineDown` and
:class:`LineUp`, so the bridge can say SHOE OFFLINE meanwhile.  It never writes
to the shoe.

Opening a port discards what waited in its input buffer (pyserial's open does):
what the shoe sent while no one held the port is gone, as docs/shoes.md says.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass

import serial

log = logging.getLogger("scoreboard.controller")  # one name in the logs for the whole controller

#: Seconds before the first reopening attempt; each failure doubles it up to :data:`MAX_RETRY`.
FIRST_RETRY = 0.25
MAX_RETRY = 2.0
#: How often an open port's path is looked at (a pulled adapter's path vanishes).
PATH_CHECK_SECONDS = 0.5
#: The most one read takes off the line: a garbage storm is handled in bounded pieces.
MAX_READ = 4096


@dataclass(frozen=True, slots=True)
class LineDown:
    """The line is gone (or could not be opened): ``reason`` in words."""

    reason: str


@dataclass(frozen=True, slots=True)
class LineUp:
    """The line is open again after a :class:`LineDown`."""

    path: str


LineNews = bytes | LineDown | LineUp


class ShoeLine:
    """One serial device read in pieces of at most ``timeout`` seconds, reopened when lost.

    ``opener`` opens the port (pyserial's ``Serial`` by default); ``clock`` and
    ``sleep`` time the retries.
    """

    def __init__(
        self,
        path: str,
        baud: int,
        *,
        timeout: float = 0.1,
        opener: Callable[..., serial.Serial] = serial.Serial,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], object] = time.sleep,
    ) -> None:
        self.path = path
        self.baud = baud
        self.timeout = timeout
        self._opener = opener
        self._clock = clock
        self._sleep = sleep
        self.port: serial.Serial | None = None
        self.up: bool | None = None  # None: never opened yet
        self.opened = 0  # times the port was opened (the log and the tests read it)
        self._retry_at = 0.0
        self._wait = FIRST_RETRY
        self._checked_at = 0.0
        self._device: tuple[int, int] | None = None  # the open port's (st_rdev, st_ino)

    def read(self) -> list[LineNews]:
        """What the line gave within about ``timeout`` seconds: bytes, or its going or coming."""
        if self.port is None:
            return self._reopen()
        now = self._clock()
        if now - self._checked_at >= PATH_CHECK_SECONDS:
            self._checked_at = now
            gone = self._path_gone()
            if gone is not None:
                return self._lost(gone)
        try:
            data = self.port.read(1)
            waiting = self.port.in_waiting if data else 0
            if waiting:
                data += self.port.read(min(waiting, MAX_READ - 1))
        except (serial.SerialException, OSError) as error:
            return self._lost(f"reading {self.path} failed: {error}")
        return [bytes(data)] if data else []

    def _reopen(self) -> list[LineNews]:
        now = self._clock()
        if now < self._retry_at:
            self._sleep(min(self.timeout, self._retry_at - now))
            return []
        try:
            # Exclusive: a second reader of the same shoe would take half its bytes.
            port = self._opener(self.path, self.baud, timeout=self.timeout, exclusive=True)
            self._device = _device(os.fstat(port.fileno()))
        except (serial.SerialException, OSError, ValueError) as error:
            self._retry_at = self._clock() + self._wait
            self._wait = min(self._wait * 2, MAX_RETRY)
            if self.up is not False:
                self.up = False
                return [LineDown(f"cannot open {self.path}: {error}")]
            return []
        self.port, self._wait, self.opened = port, FIRST_RETRY, self.opened + 1
        self._checked_at = self._clock()
        was, self.up = self.up, True
        log.info("shoe line: reading %s at %d baud", self.path, self.baud)
        return [LineUp(self.path)] if was is False else []

    def _path_gone(self) -> str | None:
        """Why the open port is no longer the device at ``path``, or None if it still is."""
        try:
            seen = _device(os.stat(self.path))
        except OSError as error:
            return f"{self.path} is gone ({error.strerror})"
        if seen != self._device:
            return f"{self.path} is another device now"
        return None

    def _lost(self, reason: str) -> list[LineNews]:
        self.close()
        self.up = False
        self._retry_at = self._clock() + self._wait
        return [LineDown(reason)]

    def close(self) -> None:
        port, self.port = self.port, None
        if port is not None:
            try:
                port.close()
            except (serial.SerialException, OSError) as error:  # a vanished device may refuse
                log.debug("shoe line: closing %s: %s", self.path, error)


def _device(stat: os.stat_result) -> tuple[int, int]:
    return stat.st_rdev, stat.st_ino
