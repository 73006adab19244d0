"""The answer watch: silence after a ping, a CONNECT or a SUBSCRIBE ends the link; a pause does not.

Driven through its public face (paho's log lines and a clock), on its real
thread; the CONNECT and SUBSCRIBE questions are given short timeouts here, the
link's own are seconds (``tests/test_link_hanging.py`` meets them for real).
The clock is the real monotonic clock plus an offset the test moves
forward: a jump is a pause of the whole process (a starved box), after which
the watch must give paho time to read the answer instead of cutting at once.
"""

from __future__ import annotations

import threading
import time
from dataclasses import replace

from scoreboard.link._ping import CONNECT, PING, PING_TIMEOUT, SUBSCRIBE, AnswerWatch, verdict

SHORT = 0.3  # the CONNECT and SUBSCRIBE timeouts of these tests
QUESTIONS = (PING, replace(CONNECT, timeout=SHORT), replace(SUBSCRIBE, timeout=SHORT))


class JumpClock:
    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.offset


def watching(
    clock: JumpClock | None = None, *, readable: int = 0
) -> tuple[AnswerWatch, list[str], threading.Event]:
    """A started watch whose cuts are recorded; the first ``readable`` find bytes to read."""
    cuts: list[str] = []
    cut = threading.Event()
    unread = [readable]

    def record(reason: str) -> bool:
        if unread[0] > 0:
            unread[0] -= 1
            return False
        cuts.append(reason)
        cut.set()
        return True

    watch = AnswerWatch(clock or JumpClock(), QUESTIONS)
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


CONNECT_LINE = "Sending CONNECT (u0, p0, wr0, wq0, wf0, c0, k30) client_id=d1"


def test_a_connect_without_a_connack_ends_the_link_naming_it():
    watch, cuts, cut = watching()
    try:
        sent = time.monotonic()
        watch.on_log(None, None, 0, CONNECT_LINE)
        assert cut.wait(5)
        assert time.monotonic() - sent >= SHORT
        assert cuts == [f"the broker did not answer the CONNECT within {SHORT:g} s"]
        assert watch.waiting == {}  # that connection is over: nothing else is due
    finally:
        watch.stop()


def test_a_connack_answers_the_connect():
    watch, cuts, cut = watching()
    try:
        watch.on_log(None, None, 0, CONNECT_LINE)
        watch.on_log(None, None, 0, "Received CONNACK (0, Success)")
        assert not cut.wait(3 * SHORT), cuts
    finally:
        watch.stop()


def test_answered_pings_do_not_answer_a_subscribe():
    """A node that answers the CONNECT and the pings, never the SUBSCRIBE, is left."""
    watch, cuts, cut = watching()
    try:
        watch.on_log(None, None, 0, "Sending SUBSCRIBE (d0, m1) [(b'T1/coup', 1)]")
        for _ in range(5):
            watch.on_log(None, None, 0, "Sending PINGREQ")
            watch.on_log(None, None, 0, "Received PINGRESP")
            if cut.wait(SHORT / 3):
                break
        assert cut.wait(5)
        assert cuts == [verdict(replace(SUBSCRIBE, timeout=SHORT))]
        assert "did not answer the subscriptions" in cuts[0]
    finally:
        watch.stop()


def test_a_suback_answers_the_subscribe_and_the_ping_still_counts():
    watch, cuts, cut = watching()
    try:
        watch.on_log(None, None, 0, "Sending SUBSCRIBE (d0, m1) [(b'T1/coup', 1)]")
        watch.on_log(None, None, 0, "Sending PINGREQ")
        watch.on_log(None, None, 0, "Received SUBACK")  # any packet answers the ping too
        assert not cut.wait(3 * SHORT), cuts
        watch.on_log(None, None, 0, "Sending PINGREQ")
        assert cut.wait(5)
        assert cuts == [verdict(PING)]
    finally:
        watch.stop()


def test_bytes_waiting_unread_delay_the_verdict_without_forgetting_the_question():
    """The link found something to read (maybe the answer): the watch looks again, and
    when paho's log shows no answer came after all, it cuts."""
    watch, cuts, cut = watching(readable=3)
    try:
        watch.on_log(None, None, 0, CONNECT_LINE)
        assert cut.wait(5)
        assert cuts == [verdict(replace(CONNECT, timeout=SHORT))]
    finally:
        watch.stop()


def test_a_pause_of_the_process_is_not_a_silent_connect():
    clock = JumpClock()
    watch, cuts, cut = watching(clock)
    try:
        watch.on_log(None, None, 0, CONNECT_LINE)
        clock.offset += 10.0  # the process stood still after sending the CONNECT
        time.sleep(SHORT * 1.5)  # the watch looks late first...
        watch.on_log(None, None, 0, "Received CONNACK (0, Success)")  # ...then paho reads it
        assert not cut.wait(3 * SHORT), cuts
    finally:
        watch.stop()


def test_a_cut_that_raises_does_not_end_the_watch(caplog):
    """Nothing else times a CONNECT: the watch tries again after the timeout."""
    cuts: list[str] = []
    cut = threading.Event()

    def flaky(reason: str) -> bool:
        cuts.append(reason)
        if len(cuts) == 1:
            raise RuntimeError("socket in a strange state")
        cut.set()
        return True

    watch = AnswerWatch(JumpClock(), QUESTIONS)
    watch.start(flaky)
    try:
        watch.on_log(None, None, 0, CONNECT_LINE)
        assert cut.wait(5)
        assert len(cuts) == 2
        assert "error while ending an unanswered connection" in caplog.text
    finally:
        watch.stop()
