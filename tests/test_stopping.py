"""The stop signals in process: the handler only records, the watcher thread acts.

The processes themselves, stopped at random moments, are in test_stop_signals.py.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from scoreboard import cli
from scoreboard.service import stopping
from scoreboard.service.stopping import Stop, routed, stop_on_signals
from tests.mqtt_broker import wait_for


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_the_handler_itself_does_nothing_that_could_raise(signum):
    with routed(signum, lambda _signum: None):
        handler = signal.getsignal(signum)
        assert handler is stopping._record
        assert handler(signum, sys._getframe()) is None
        assert handler(signum, None) is None


def test_signals_landing_anywhere_in_event_code_never_raise_and_ask_the_stop():
    """The old handler raised KeyboardInterrupt wherever the main thread was, Event locks too."""
    event = threading.Event()
    sent = 0
    with stop_on_signals() as stop:
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:  # the main thread in and out of an Event's lock
            event.set()
            event.clear()
            event.wait(0.0001)
            if sent < 200:
                os.kill(os.getpid(), signal.SIGTERM)  # lands somewhere in the lines above
                sent += 1
        assert wait_for(lambda: stop.requested, 5)
        time.sleep(0.2)  # every signal handled before the default action comes back
        assert stop.reason == "SIGTERM"
        assert stop.signals and set(stop.signals) == {signal.SIGTERM}


def test_a_second_signal_is_recorded_not_lost_and_wakes_again():
    woken = []
    with stop_on_signals() as stop:
        stop.on_stop(lambda: woken.append(threading.current_thread().name))
        os.kill(os.getpid(), signal.SIGTERM)
        assert wait_for(lambda: len(stop.signals) == 1, 5)
        os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C during the stop: no KeyboardInterrupt
        assert wait_for(lambda: len(stop.signals) == 2, 5)
    assert stop.signals == [signal.SIGTERM, signal.SIGINT]
    assert stop.reason == "SIGTERM"
    assert woken == ["scoreboard-signals"] * 2  # on the watcher's thread, never the handler


def test_a_loop_registered_after_the_stop_is_woken_at_once():
    stop = Stop()
    assert stop.request("test") and not stop.request("again")
    woken = []
    stop.on_stop(lambda: woken.append(True))
    assert woken == [True] and stop.requested


def test_nested_contexts_share_one_stop_and_the_handlers_come_back_after():
    before = {signum: signal.getsignal(signum) for signum in stopping.STOP_SIGNALS}
    with stop_on_signals() as outer, stop_on_signals() as inner:
        assert inner is outer
        os.kill(os.getpid(), signal.SIGTERM)
        assert wait_for(lambda: outer.requested, 5)
    assert {signum: signal.getsignal(signum) for signum in stopping.STOP_SIGNALS} == before
    assert signal.set_wakeup_fd(-1) == -1  # the wakeup fd is given back too


def test_off_the_main_thread_nothing_is_routed():
    found = []

    def elsewhere():
        with stop_on_signals() as stop:
            found.append((stop, signal.getsignal(signal.SIGTERM)))

    thread = threading.Thread(target=elsewhere)
    thread.start()
    thread.join()
    ((stop, handler),) = found
    assert not stop.requested and handler is not stopping._record


def test_sighup_runs_its_action_on_the_watcher_thread():
    ran = []
    with routed(signal.SIGHUP, lambda signum: ran.append((signum, threading.current_thread()))):
        os.kill(os.getpid(), signal.SIGHUP)
        assert wait_for(lambda: ran, 5)
    assert ran[0][0] == signal.SIGHUP and ran[0][1] is not threading.main_thread()


def test_a_signal_the_watcher_reads_after_its_route_went_still_gets_its_action():
    """The wakeup byte of a signal that came while routed may reach the watcher late.

    The watcher waits for the GIL while the main thread goes on and removes the route
    (``cli.main`` does for a command that takes no part in stopping): the signal's
    action runs all the same, or a Ctrl-C in those few milliseconds was lost and the
    command ran on (seen: ``simulate`` still running 20 s after it).
    """
    got: list[int] = []
    with routed(signal.SIGUSR2, lambda _signum: None):  # keeps the watcher running
        with routed(signal.SIGUSR1, got.append):
            pass
        # As the wakeup fd writes it, read after the route above was removed.
        os.write(stopping._ROUTER.write_fd, bytes([signal.SIGUSR1]))
        assert wait_for(lambda: got == [signal.SIGUSR1], timeout=5)
        with routed(signal.SIGUSR1, lambda _signum: None):  # routed again: the new route's
            os.write(stopping._ROUTER.write_fd, bytes([signal.SIGUSR1]))
            time.sleep(0.2)
    assert got == [signal.SIGUSR1]


def test_a_stop_that_outlasts_its_limit_ends_the_process_with_the_stacks():
    code = (
        "import os, signal, time\n"
        "from scoreboard.service.stopping import stop_on_signals\n"
        "with stop_on_signals(limit=0.5) as stop:\n"
        "    os.kill(os.getpid(), signal.SIGTERM)\n"
        "    time.sleep(30)  # a stop stuck somewhere\n"
    )
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=20, check=False
    )
    assert done.returncode == stopping.STOP_OVERRAN
    assert "still stopping" in done.stderr
    assert 'File "<string>", line 5' in done.stderr  # where it stuck: the main thread's stack
    assert time.monotonic() - started < 15


def test_a_command_that_takes_no_part_gets_pythons_handling_back(capsys):
    before = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    assert cli.main(["themes"]) == 0
    assert (signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)) == before
    capsys.readouterr()


def cpu_seconds(pid: int) -> float:
    """User and system CPU the process has spent so far (``/proc/PID/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def ignored(pid: int, signum: int) -> bool:
    """Whether the process ignores ``signum`` (``SigIgn`` in ``/proc/PID/status``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigIgn:"):
            return bool(int(line.split()[1], 16) >> (signum - 1) & 1)
    return False


def test_ctrl_c_in_a_command_that_takes_no_part_interrupts_it_as_before():
    """``simulate`` has no loop to stop in order: Ctrl-C ends it at once, exit 130."""
    # Started as a shell starts it, Ctrl-C not ignored: an ignored signal is inherited, and
    # Python (and so simulate) keeps ignoring it.  Seen in a test worker: SIGINT and SIGQUIT
    # ignored for a moment, as C's system() does while it waits.
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "scoreboard", "simulate", "--shoes", "1000000"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONFAULTHANDLER": "1"},
        )
    finally:
        signal.signal(signal.SIGINT, inherited)
    try:
        # In simulate's own loop: once the process has spent a CPU-second (its start takes
        # about a third of one). A fixed 2 s on a loaded box could land in the start-up,
        # whose signals test_stop_signals and the router's tests above take on.
        assert wait_for(lambda: cpu_seconds(process.pid) >= 1.0, timeout=60)
        assert not ignored(process.pid, signal.SIGINT)
        process.send_signal(signal.SIGINT)
        try:
            _, err = process.communicate(timeout=20)
        except subprocess.TimeoutExpired:  # where it was, for the failure: signals, stacks
            status = Path(f"/proc/{process.pid}/status").read_text()
            signals = [line for line in status.splitlines() if line.startswith("Sig")]
            process.send_signal(signal.SIGABRT)
            _, err = process.communicate(timeout=20)
            pytest.fail(f"still running 20 s after SIGINT: {signals}\n{err}")
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    assert "Traceback" not in err
