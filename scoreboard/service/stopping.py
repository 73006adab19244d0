"""Stopping on a signal: the handler only records it, the loops look and stop in order.

A Python signal handler runs on the main thread between two bytecodes, wherever
that thread is: inside ``Event.set`` holding the Event's lock, in a ``finally``,
in paho's publish.  An exception raised there (SIGTERM turned into Ctrl-C, as it
was) can leave a lock held by no thread, and a handler that sets an Event can wait
for a lock its own thread holds: either hung ``scoreboard shoe`` for ever.  So the
handlers here do nothing.  ``signal.set_wakeup_fd`` has already written the
signal's number to a pipe, at C level, even while the main thread is blocked; a
watcher thread reads the pipe and does what each signal means (a :class:`Stop`
asked for, a theme reload) as any other thread would: it sets events and wakes
loops, and never raises into anyone.

The loops take a :class:`Stop`: they look at :attr:`Stop.requested` at every turn,
their waits wake on it (:meth:`Stop.on_stop`), and they leave through their normal
cleanup (the retained offline status, the journal closed).  Only the main thread
can set signal handlers; elsewhere (tests on a thread) nothing is routed.
"""

from __future__ import annotations

import contextlib
import faulthandler
import functools
import logging
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

log = logging.getLogger(__name__)

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
#: Exit status when the stop did not end in time and the process was ended without it.
STOP_OVERRAN = 1


class Stop:
    """A stop asked for (by a signal or by anyone): the loops look at it and leave in order."""

    def __init__(self) -> None:
        self._asked = threading.Event()
        self._lock = threading.Lock()
        self._wakers: list[Callable[[], None]] = []
        #: What asked first (``SIGTERM``...), None while nothing did.
        self.reason: str | None = None
        #: The stop signals received, in order (a second one is never lost).
        self.signals: list[int] = []
        #: The command has begun: from now on a stop signal is a stop in order.
        self.begun = False

    @property
    def requested(self) -> bool:
        return self._asked.is_set()

    def request(self, reason: str = "asked") -> bool:
        """Ask for the stop and wake every loop waiting (any thread but a signal handler).

        Returns True the first time.
        """
        with self._lock:
            first = self.reason is None
            if first:
                self.reason = reason
            wakers = list(self._wakers)
        self._asked.set()
        for wake in wakers:
            _call(wake)
        return first

    def on_stop(self, wake: Callable[[], None]) -> None:
        """Call ``wake()`` (on the asking thread) when the stop is asked; at once if it was."""
        with self._lock:
            self._wakers.append(wake)
            asked = self.reason is not None
        if asked:
            _call(wake)

    def begin(self) -> None:
        """The command begins: a stop signal now asks for the stop instead of ending the process."""
        with self._lock:
            self.begun = True

    def end_unless_begun(self, name: str, status: int) -> None:
        """A stop signal before :meth:`begin`: nothing to stop in order, so the process ends."""
        with self._lock:
            if not self.begun:
                os.write(2, f"scoreboard: {name} before the command began\n".encode())
                os._exit(status)


def _call(action: Callable[[], None]) -> None:
    try:
        action()
    except Exception:  # one waker's bug must not keep the others asleep
        log.exception("stop: waking a loop failed")


def _record(signum: int, frame: object) -> None:
    """The handler of every routed signal: nothing, so it can never raise or block.

    By the time it runs, ``set_wakeup_fd`` has written ``signum`` to the pipe the
    watcher thread reads (see :class:`_Router`).
    """


class _Router:
    """The process's one wakeup pipe, its watcher thread and what each signal does.

    Installed by the first :func:`routed` on the main thread, removed by the last;
    the handlers and the wakeup fd found before come back then.
    """

    def __init__(self) -> None:
        self.routes: dict[int, list[Callable[[int], None]]] = {}
        # A signal's last actions, kept after its route went until the router closes: its
        # byte may reach the watcher after the main thread removed the route (the watcher
        # waits for the GIL), and a signal that came while routed must not be lost.
        self.retired: dict[int, list[Callable[[int], None]]] = {}
        self.lock = threading.Lock()  # routes: the main thread writes, the watcher reads
        self.previous: dict[int, Any] = {}
        self.read_fd = self.write_fd = -1
        self.previous_fd = -1
        self.thread: threading.Thread | None = None

    def add(self, signum: int, action: Callable[[int], None]) -> None:
        if self.thread is None:
            self._open()
        with self.lock:
            self.routes.setdefault(signum, []).append(action)
            self.retired.pop(signum, None)
        if signum not in self.previous:
            self.previous[signum] = signal.signal(signum, _record)

    def remove(self, signum: int, action: Callable[[int], None]) -> None:
        with self.lock:
            actions = self.routes.get(signum, [])
            if action in actions:
                actions.remove(action)
                if not actions:
                    self.retired[signum] = [action]
            if not actions:
                self.routes.pop(signum, None)
        if signum not in self.routes and signum in self.previous:
            previous = self.previous.pop(signum)
            signal.signal(signum, signal.SIG_DFL if previous is None else previous)
        if not self.routes:
            self._close()

    def _open(self) -> None:
        self.read_fd, self.write_fd = os.pipe2(os.O_CLOEXEC)
        os.set_blocking(self.write_fd, False)  # set_wakeup_fd's requirement
        self.previous_fd = signal.set_wakeup_fd(self.write_fd, warn_on_full_buffer=False)
        self.thread = threading.Thread(
            target=self._watch, args=(self.read_fd,), name="scoreboard-signals", daemon=True
        )
        self.thread.start()

    def _close(self) -> None:
        signal.set_wakeup_fd(self.previous_fd)
        os.close(self.write_fd)  # the watcher reads the end of the pipe and returns
        if self.thread is not None:
            self.thread.join(1.0)
        os.close(self.read_fd)
        self.thread, self.read_fd, self.write_fd = None, -1, -1
        with self.lock:
            self.retired.clear()

    def _watch(self, read_fd: int) -> None:
        while True:
            try:
                received = os.read(read_fd, 64)
            except OSError:
                return
            if not received:
                return
            for signum in received:
                with self.lock:
                    actions = list(self.routes.get(signum) or self.retired.get(signum) or ())
                for action in actions:
                    _call(functools.partial(action, signum))


_ROUTER = _Router()


def ignore_stop_signals() -> None:
    """The command is over and the interpreter exits: a late stop signal changes nothing.

    Python puts the default action back on every signal it handled as it finalizes,
    so a second SIGTERM then would end the process by the signal, not with its status.
    """
    for signum in STOP_SIGNALS:
        signal.signal(signum, signal.SIG_IGN)


@contextlib.contextmanager
def routed(signum: int, action: Callable[[int], None]) -> Iterator[bool]:
    """Meanwhile, ``signum`` makes the watcher thread call ``action(signum)``.

    Yields False, routing nothing, off the main thread (only it may set handlers).
    """
    if threading.current_thread() is not threading.main_thread():
        yield False
        return
    _ROUTER.add(signum, action)
    try:
        yield True
    finally:
        _ROUTER.remove(signum, action)


_shared: Stop | None = None  # the stop of the outermost stop_on_signals, shared by the inner ones


@contextlib.contextmanager
def stop_on_signals(*, limit: float | None = None, begun: bool = True) -> Iterator[Stop]:
    """Meanwhile, SIGTERM and SIGINT ask for the :class:`Stop` yielded, and nothing else.

    Off the main thread it yields a stop only :meth:`Stop.request` asks for.
    Nested, it yields the outer one's stop.  ``limit``: seconds the stop may take
    from the first signal; past them the process leaves at once with every
    thread's stack on stderr and exit status :data:`STOP_OVERRAN` (a bug, never a
    hang left to the service manager's SIGKILL).  ``begun`` False (``cli.main``,
    from its first line): until :meth:`Stop.begin`, nothing has started that a stop
    must end in order, so a stop signal ends the process at once, with status
    128 + the signal's number, as the shell says of a process a signal ended.
    """
    global _shared
    if threading.current_thread() is not threading.main_thread():
        yield Stop()  # nothing routed: its owner asks for it
        return
    if _shared is not None:
        yield _shared
        return
    stop = Stop()
    if begun:
        stop.begin()
    done = threading.Event()
    overrun = _Overrun(stop, limit, done) if limit is not None else None

    def asked(signum: int) -> None:
        name = signal.Signals(signum).name
        stop.signals.append(signum)
        stop.end_unless_begun(name, 128 + signum)
        if stop.request(name):
            log.info("%s: stopping", name)
            if overrun is not None:
                overrun.start()
        else:
            log.info("%s again: the stop is under way", name)

    with contextlib.ExitStack() as stack:
        for signum in STOP_SIGNALS:
            stack.enter_context(routed(signum, asked))
        _shared = stop
        try:
            yield stop
        finally:
            done.set()
            _shared = None


class _Overrun:
    """Ends the process when a stop outlasts its limit: the stacks say where it stuck."""

    def __init__(self, stop: Stop, limit: float, done: threading.Event) -> None:
        self.stop, self.limit, self.done = stop, limit, done

    def start(self) -> None:
        threading.Thread(target=self._watch, name="scoreboard-stop-limit", daemon=True).start()

    def _watch(self) -> None:
        if self.done.wait(self.limit):
            return
        log.error(
            "stop: still stopping %.0f s after %s; leaving now (every thread's stack follows)",
            self.limit,
            self.stop.reason,
        )
        with contextlib.suppress(Exception):
            faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
        os._exit(STOP_OVERRAN)
