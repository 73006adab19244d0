"""Tell the service manager how the board is: ready, alive, what it shows, stopping.

systemd's notify protocol is one datagram per message on the AF_UNIX socket named
by ``NOTIFY_SOCKET`` (``@name`` for the abstract namespace), so the kiosk speaks
it itself instead of depending on libsystemd.  ``WATCHDOG_USEC`` asks for a
``WATCHDOG=1`` at least that often; ``WATCHDOG_PID``, when set, names the one
process the watchdog watches.  The board runs as a child of cage or xinit inside a
logind session (``PAMName=``), whose processes systemd would not credit to the unit,
so the unit has ``NotifyAccess=main`` and its main process,
``kiosk/scoreboard-notify-relay.py``, hands the board its own socket and forwards what
the board says; the session script unsets ``WATCHDOG_PID`` before starting the board.

Nothing here decides *when* the board is alive: :mod:`scoreboard.kiosk.loop` pings only
after a step that polled the feed and produced a frame, so a hung loop stops the
pings and systemd restarts the board.  Sending never raises and never blocks: a
service manager that went away costs one log line, not the display.

>>> Notifier.from_environ({}).enabled
False
>>> notifier = Notifier.from_environ({"NOTIFY_SOCKET": "@sb", "WATCHDOG_USEC": "9000000"}, pid=7)
>>> notifier.address, notifier.watchdog_seconds, notifier.ping_seconds
(b'\\x00sb', 9.0, 3.0)
>>> Notifier.from_environ(
...     {"NOTIFY_SOCKET": "/run/n", "WATCHDOG_USEC": "9000000", "WATCHDOG_PID": "8"}, pid=7
... ).watchdog_seconds is None
True
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

#: Pings per watchdog period: a ping may be late by two thirds of it before systemd acts.
PINGS_PER_PERIOD = 3


@dataclass
class Notifier:
    """Where notifications go (None: nowhere) and how often the watchdog wants a ping."""

    address: str | bytes | None = None
    watchdog_seconds: float | None = None
    _socket: socket.socket | None = field(default=None, repr=False)
    _failed: set[str] = field(default_factory=set, repr=False)

    @classmethod
    def from_environ(
        cls, environ: Mapping[str, str] | None = None, *, pid: int | None = None
    ) -> Notifier:
        """The notifier the service manager asked for in ``environ`` (default: this process's)."""
        env = os.environ if environ is None else environ
        address = socket_address(env.get("NOTIFY_SOCKET", ""))
        seconds = watchdog_period(env, os.getpid() if pid is None else pid)
        return cls(address, seconds if address is not None else None)

    @property
    def enabled(self) -> bool:
        return self.address is not None

    @property
    def ping_seconds(self) -> float | None:
        """How often to ping the watchdog, or None when nobody watches."""
        if self.watchdog_seconds is None:
            return None
        return self.watchdog_seconds / PINGS_PER_PERIOD

    def ready(self, status: str = "") -> None:
        """Startup is over: the first frame is on the screen."""
        self.send("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def watchdog(self) -> None:
        """The loop is alive: it polled the feed and produced a frame since the last ping."""
        if self.watchdog_seconds is not None:
            self.send("WATCHDOG=1")

    def status(self, text: str) -> None:
        """A one-line summary for ``systemctl status`` (newlines would start new fields)."""
        self.send("STATUS=" + " ".join(text.split()))

    def stopping(self) -> None:
        self.send("STOPPING=1")

    def send(self, message: str) -> None:
        """One datagram to the service manager; a failure is logged once per kind, never raised."""
        if self.address is None:
            return
        try:
            if self._socket is None:
                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
                self._socket.setblocking(False)
            self._socket.sendto(message.encode("utf-8"), self.address)
        except OSError as error:
            kind = type(error).__name__ + str(error.errno)
            if kind not in self._failed:
                self._failed.add(kind)
                log.warning("cannot notify the service manager at %r: %s", self.address, error)

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None


def socket_address(value: str) -> str | bytes | None:
    """``NOTIFY_SOCKET`` as a socket address: a path, an abstract name, or None (unset or other).

    >>> socket_address("/run/systemd/notify"), socket_address("@x"), socket_address("")
    ('/run/systemd/notify', b'\\x00x', None)
    >>> socket_address("vsock:2:1234") is None
    True
    """
    if value.startswith("/"):
        return value
    if value.startswith("@") and len(value) > 1:
        return b"\0" + value[1:].encode("utf-8")
    if value:
        log.warning("NOTIFY_SOCKET=%r is not a socket path or @name; not notifying", value)
    return None


def watchdog_period(environ: Mapping[str, str], pid: int) -> float | None:
    """Seconds of ``WATCHDOG_USEC`` when it is meant for ``pid``, else None.

    >>> watchdog_period({"WATCHDOG_USEC": "10000000"}, 5)
    10.0
    >>> watchdog_period({"WATCHDOG_USEC": "ten"}, 5) is None
    True
    """
    usec = environ.get("WATCHDOG_USEC", "")
    if not usec:
        return None
    owner = environ.get("WATCHDOG_PID", "")
    if owner and owner != str(pid):
        return None
    try:
        value = int(usec)
    except ValueError:
        value = 0
    if value <= 0:
        log.warning("WATCHDOG_USEC=%r is not a positive number of microseconds; no watchdog", usec)
        return None
    return value / 1_000_000
