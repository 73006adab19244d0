"""Forward the board's systemd notifications as the unit's main process, and own its children.

``scoreboard.service`` opens a logind session (``PAMName=``) so that cage or a rootless
X server can take the seat.  systemd then moves the unit's main process into the
session's scope, and every process it starts belongs to that scope only, so the
board's ``READY=1`` and ``WATCHDOG=1`` would be credited to the scope instead of the
unit (systemd.exec(5), ``PAMName=``).  This relay is the unit's main process: it runs
the display stack with ``NOTIFY_SOCKET`` pointing at a socket of its own and sends what
the board says on to systemd under its own pid, which ``NotifyAccess=main`` accepts.
It forwards, never invents: a hung board sends nothing, so nothing reaches systemd.

The session scope is out of reach of the unit's own stop, so the relay is the
children's subreaper and, when it is stopped (or the watchdog's SIGABRT arrives), it
ends every descendant: TERM, then KILL after a grace period (``--grace``, 5 s; keep
it below the unit's ``TimeoutStopSec``).  It exits as its child did, or dies by the
signal it was stopped with.

Usage: ``python scoreboard-notify-relay.py [--grace SECONDS] -- COMMAND [ARG...]``
"""

from __future__ import annotations

import contextlib
import ctypes
import math
import os
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable

from scoreboard.service.sdnotify import socket_address

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
#: Seconds the descendants get between TERM and KILL by default (``--grace``): below
#: the units' TimeoutStopSec (15 s), so the relay, not systemd, has the last word.
GRACE_SECONDS = 5.0
#: The longest ``--grace`` taken.
MOST_GRACE = 3600.0
USAGE = "usage: scoreboard-notify-relay [--grace SECONDS] -- COMMAND [ARG...]"
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGABRT)


def prctl(option: int, value: int) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(option, value, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), f"prctl({option}) failed")


def die_with_parent() -> None:
    """In the child before exec: killed if the relay itself is killed outright."""
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def descendants(root: int) -> list[int]:
    """Every live process below ``root``, read from /proc (children before grandchildren)."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        parents.setdefault(int(fields[1]), []).append(int(entry))
    found: list[int] = []
    queue = [root]
    while queue:
        children = parents.get(queue.pop(0), [])
        found += children
        queue += children
    return found


def signal_all(pids: Iterable[int], signum: int) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signum)


def reap() -> None:
    """Collect every exited child (orphans come to us as the subreaper)."""
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass


def end_descendants(grace: float) -> None:
    """TERM to every descendant, KILL to those still there ``grace`` seconds later."""
    signal_all(descendants(os.getpid()), signal.SIGTERM)
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        reap()
        if not descendants(os.getpid()):
            return
        time.sleep(0.05)
    signal_all(descendants(os.getpid()), signal.SIGKILL)
    reap()


#: What the board may tell systemd through the relay; anything else (MAINPID=, a
#: WATCHDOG_USEC= change, WATCHDOG=trigger, EXTEND_TIMEOUT_USEC=) is dropped.
FORWARDED = (b"READY=", b"STATUS=", b"WATCHDOG=1", b"STOPPING=", b"ERRNO=", b"RELOADING=")


def forwarded(datagram: bytes) -> bytes:
    """The message's lines the board may send (not MAINPID=: it is not the main process).

    >>> forwarded(b"READY=1\\nMAINPID=42\\nSTATUS=LIVE")
    b'READY=1\\nSTATUS=LIVE'
    >>> forwarded(b"WATCHDOG=trigger\\nWATCHDOG_USEC=1")
    b''
    """
    lines = datagram.split(b"\n")
    return b"\n".join(
        line
        for line in lines
        if line == b"WATCHDOG=1"
        or (line.startswith(FORWARDED) and not line.startswith(b"WATCHDOG="))
    )


class Relay:
    """One private notify socket in, the service manager's socket out."""

    def __init__(self, target: str | bytes) -> None:
        self.target = target
        self.directory = tempfile.mkdtemp(prefix="scoreboard-notify-", dir=runtime_dir())
        self.path = os.path.join(self.directory, "notify")
        self.inbox = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.inbox.bind(self.path)
        self.inbox.setblocking(False)
        self.outbox = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        # Never block on the service manager (a busy PID 1): a relay stuck in sendto
        # would miss its child's exit and its own stop. A dropped ping is a late ping.
        self.outbox.setblocking(False)
        self.warned = False

    def pump(self) -> None:
        while True:
            try:
                datagram = self.inbox.recv(65536)
            except BlockingIOError:
                return
            message = forwarded(datagram)
            if not message:
                continue
            try:
                self.outbox.sendto(message, self.target)
            except OSError as error:
                if not self.warned:
                    self.warned = True
                    print(f"scoreboard-notify-relay: cannot notify {self.target!r}: {error}",
                          file=sys.stderr)  # fmt: skip

    def close(self) -> None:
        self.inbox.close()
        self.outbox.close()
        with contextlib.suppress(OSError):
            os.unlink(self.path)
        with contextlib.suppress(OSError):
            os.rmdir(self.directory)


def runtime_dir() -> str | None:
    path = os.environ.get("XDG_RUNTIME_DIR", "")
    return path if path and os.path.isdir(path) else None


def child_environ(relay: Relay) -> dict[str, str]:
    env = dict(os.environ)
    env["NOTIFY_SOCKET"] = relay.path
    env.pop("WATCHDOG_PID", None)  # the board, a descendant, feeds the watchdog
    return env


def exit_as(status: int) -> None:
    """Exit with the child's code, or die by the signal that ended it."""
    if status < 0:
        signal.signal(-status, signal.SIG_DFL)
        os.kill(os.getpid(), -status)
    sys.exit(status)


def run(command: list[str], grace: float = GRACE_SECONDS) -> None:
    target = socket_address(os.environ.get("NOTIFY_SOCKET", ""))
    if target is None:
        os.execvp(command[0], command)
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    relay = Relay(target)
    wake_in, wake_out = socket.socketpair()
    wake_in.setblocking(False)
    wake_out.setblocking(False)
    signal.set_wakeup_fd(wake_out.fileno())
    stop: list[int] = []
    for signum in STOP_SIGNALS:
        signal.signal(signum, lambda number, _frame: stop.append(number))
    signal.signal(signal.SIGCHLD, lambda *_: None)
    try:
        child = subprocess.Popen(command, env=child_environ(relay), preexec_fn=die_with_parent)
    except OSError as error:
        relay.close()
        sys.exit(f"scoreboard-notify-relay: cannot start {command[0]}: {error}")
    selector = selectors.DefaultSelector()
    selector.register(relay.inbox, selectors.EVENT_READ)
    selector.register(wake_in, selectors.EVENT_READ)
    status: int | None = None
    while not stop and status is None:
        selector.select(timeout=1.0)
        with contextlib.suppress(BlockingIOError):
            wake_in.recv(4096)
        relay.pump()
        status = child.poll()
    relay.pump()
    end_descendants(grace)
    relay.close()
    if stop:
        exit_as(-stop[0])
    exit_as(status if status is not None else 1)


def parse(argv: list[str]) -> tuple[float, list[str]]:
    """``[--grace SECONDS] [--] COMMAND [ARG...]`` -> (the grace before KILL, the command).

    >>> parse(["relay", "--", "cage", "-s"])
    (5.0, ['cage', '-s'])
    >>> parse(["relay", "--grace", "0.5", "--", "cage"])
    (0.5, ['cage'])
    """
    args = argv[1:]
    grace = GRACE_SECONDS
    if args[:1] == ["--grace"]:
        grace = grace_seconds(args[1] if len(args) > 1 else "")
        args = args[2:]
    if args[:1] == ["--"]:
        args = args[1:]
    if not args:
        sys.exit(USAGE)
    return grace, args


def grace_seconds(text: str) -> float:
    """``--grace``'s value, or the exit naming the option, the range and what was given."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not 0 <= seconds <= MOST_GRACE:  # nan fails both
        sys.exit(
            f"scoreboard-notify-relay: --grace expects seconds, 0 to {MOST_GRACE:g}, "
            f"got {text!r}\n{USAGE}"
        )
    return seconds


def main(argv: list[str]) -> None:
    grace, command = parse(argv)
    run(command, grace)


if __name__ == "__main__":
    main(sys.argv)
