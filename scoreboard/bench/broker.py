"""A private mosquitto for one measurement: a free loopback port, its own config, gone after.

mosquitto cannot be asked for port 0, so a free port is picked first (bound
and released) and mosquitto started on it; if another process takes the port
in between, mosquitto exits with "Address already in use" and a new port is
tried.  It counts as up only when its log says it is running *and* the port
answers, so a stranger that grabbed the port is never mistaken for it.  It is
stopped on the way out whatever happens (an exception, Ctrl-C), and on Linux
it dies with the process that started it even when that one is killed.
Everything it writes (config, log) stays in the directory it is given.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

FALLBACK = Path("/usr/sbin/mosquitto")
"""Where Debian puts it: not on a normal user's PATH."""
HOST = "127.0.0.1"
ATTEMPTS = 5
START_SECONDS = 15.0
RUNNING = re.compile(r"mosquitto version \S+ running")
PR_SET_PDEATHSIG = 1


class BrokerError(RuntimeError):
    """mosquitto would not start; the message ends with the last line it logged."""


def find_mosquitto() -> str | None:
    """``mosquitto`` on PATH, else Debian's /usr/sbin/mosquitto, else None (not installed)."""
    found = shutil.which("mosquitto")
    if found:
        return found
    return str(FALLBACK) if os.access(FALLBACK, os.X_OK) and FALLBACK.is_file() else None


def free_port() -> int:
    """A loopback port nobody listened on a moment ago."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


def die_with_parent() -> None:
    """In the child before exec: SIGTERM when the parent dies (Linux), so none is left over."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


@dataclass
class Broker:
    """One mosquitto process listening on ``HOST:port`` with the config in ``directory``."""

    directory: Path
    binary: str
    extra: tuple[str, ...] = ()
    port: int = 0
    process: subprocess.Popen[bytes] | None = None
    _log: IO[bytes] | None = field(default=None, repr=False)

    @property
    def log_path(self) -> Path:
        return self.directory / "mosquitto.log"

    def config_text(self) -> str:
        lines = [f"listener {self.port} {HOST}", "persistence false", "allow_anonymous true"]
        lines += ["log_dest stderr", *(f"log_type {kind}" for kind in LOG_TYPES)]
        if os.geteuid() == 0:
            lines.append("user root")  # dropping to the mosquitto user would undo die_with_parent
        return "\n".join([*lines, *self.extra]) + "\n"

    def start(self) -> None:
        """Start on a free port, trying another when the chosen one was taken meanwhile."""
        for _ in range(ATTEMPTS):
            self.port = free_port()
            if self._launch():
                return
        raise BrokerError(f"mosquitto found no free port in {ATTEMPTS} tries: {self.last_line()}")

    def restart(self, down: float) -> None:
        """Stop, stay down ``down`` seconds, start again on the same port (a broker restart)."""
        self.stop()
        time.sleep(down)
        if not self._launch():
            raise BrokerError(f"mosquitto could not listen on {self.port} again: taken meanwhile")

    def _launch(self) -> bool:
        """True once listening; False when the port was taken (stopped, try again)."""
        config = self.directory / "mosquitto.conf"
        config.write_text(self.config_text())
        self._log = self.log_path.open("wb")
        self.process = subprocess.Popen(
            [self.binary, "-c", str(config)],
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # Ctrl-C reaches us, and we stop it
            preexec_fn=die_with_parent if sys.platform.startswith("linux") else None,
        )
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self.stop()
                if "Address already in use" in self.log_text():
                    return False
                raise BrokerError(f"mosquitto exited at start: {self.last_line()}")
            if RUNNING.search(self.log_text()) and answers(self.port):
                return True
            time.sleep(0.05)
        self.stop()
        raise BrokerError(
            f"mosquitto did not listen within {START_SECONDS:g} s: {self.last_line()}"
        )

    def stop(self) -> None:
        """Terminate (kill after 5 s) and wait; harmless when already stopped."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        if self._log is not None:
            self._log.close()
            self._log = None

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def last_line(self) -> str:
        lines = self.log_text().strip().splitlines()
        return lines[-1] if lines else "(nothing logged)"


LOG_TYPES = ("error", "warning", "notice", "information")
"""Enough to see it start and fail; not every message (that would cost what is measured)."""


def answers(port: int) -> bool:
    try:
        with socket.create_connection((HOST, port), timeout=0.5):
            return True
    except OSError:
        return False


@contextlib.contextmanager
def private_broker(
    directory: Path, binary: str | None = None, extra: Sequence[str] = ()
) -> Iterator[Broker]:
    """A running :class:`Broker` (``binary`` default: :func:`find_mosquitto`), stopped after."""
    binary = binary or find_mosquitto()
    if binary is None:
        raise BrokerError("mosquitto not installed")
    directory.mkdir(parents=True, exist_ok=True)
    broker = Broker(directory, binary, tuple(extra))
    try:
        broker.start()
        yield broker
    finally:
        broker.stop()
