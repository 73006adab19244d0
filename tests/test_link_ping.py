"""The ping watch: silence after a ping ends the link; the process's own pause does not.

Driven through its public face (paho's log lines and a clock), on its real
thread.  The clock is the real monotonic clock plus an offset the test moves
forward: a jump is a pause of the whole process (a starved box), after which
the watch must give paho time to read the answer instead of cutting at once.
"""

from __future__ import annotations

import threading
import time

from scoreboard.link_ping import PING_TIMEOUT, PingWatch


class JumpClock:
    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.offset


def watching(clock: JumpClock | None = None) -> tuple[PingWatch, list[str], threading.Event]:
    cuts: list[str] = []
    cut = threading.Event()

    def record(reason: str) -> None:
        cuts.append(reason)
        cut.set()

    watch = PingWatch(clock or JumpClock())
    watch.start(record)
    return watch, cuts, cut


def test_an_unanswered_ping_ends_the_link_after_the_timeout():
    watch, cuts, cut = watching()
    try:
        sent = time.monotonic()
        watch.on_log(None, None, 0, "Sending PINGREQ")
        assert cut.wait(5)
        assert time.monotonic() - sent >= PING_TIMEOUT
        assert cuts == [f"the broker did not answer a ping within {PING_TIMEOUT:g} s"]
    finally:
        watch.stop()


def test_an_answered_ping_never_ends_the_link():
    watch, _cuts, cut = watching()
    try:
        for _ in range(3):
            watch.on_log(None, None, 0, "Sending PINGREQ")
            time.sleep(PING_TIMEOUT / 5)
            watch.on_log(None, None, 0, "Received PINGRESP")
        assert not cut.wait(2 * PING_TIMEOUT)
    finally:
        watch.stop()


def test_a_pause_of_the_process_is_not_a_silent_broker():
    clock = JumpClock()
    watch, cuts, cut = watching(clock)
    try:
        watch.on_log(None, None, 0, "Sending PINGREQ")
        clock.offset += 5.0  # the whole process stood still for 5 s after sending the ping
        time.sleep(PING_TIMEOUT / 5)  # the watch runs first after the pause...
        watch.on_log(None, None, 0, "Received PINGRESP")  # ...then paho reads the answer
        assert not cut.wait(2 * PING_TIMEOUT), cuts
    finally:
        watch.stop()


def test_after_a_pause_a_broker_that_still_does_not_answer_is_cut():
    clock = JumpClock()
    watch, cuts, cut = watching(clock)
    try:
        watch.on_log(None, None, 0, "Sending PINGREQ")
        clock.offset += 5.0
        resumed = time.monotonic()
        assert cut.wait(5)
        assert time.monotonic() - resumed >= PING_TIMEOUT * 0.9  # a running half second first
        assert len(cuts) == 1
    finally:
        watch.stop()


def test_an_idle_watch_stops_promptly():
    watch, _cuts, _cut = watching()
    started = time.monotonic()
    watch.stop()
    assert time.monotonic() - started < 1.0
