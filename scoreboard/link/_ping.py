"""The answer watch: a broker that leaves a ping, a CONNECT or a SUBSCRIBE unanswered is left.

paho waits a whole keepalive for the answer to its PINGREQ (a frozen broker went
unnoticed for 2 x keepalive), one keepalive for a CONNACK, and for ever for
a SUBACK: a stopping or starved cluster node that accepts TCP and never answers
the CONNECT, or answers it and never the SUBSCRIBE (a session queue on a dead
node) held a link for as long as paho's keepalive, or for good, while its pings
were answered.  :class:`AnswerWatch` gives each of these questions its own time
(:data:`PING`, :data:`CONNECT`, :data:`SUBSCRIBE`) and then has the link end the
connection as failed: the link then moves to the next broker of its list, or
paho reconnects to its only one.

paho reports what it sends and every packet it receives only through its log
(``on_log``: "Sending PINGREQ", "Received CONNACK ..."), so that is what is read.

Two things keep the watch from calling a live broker dead:

- it decides only when the question is overdue at two looks :data:`PING_CHECK`
  apart, so an answer paho is reading at that very moment is not silence;
- a look that runs late by more than :data:`LATE` decides nothing: the process
  itself was not running (a starved box, a floor of tables in one process), so
  paho could not have read the answer either.  Cutting then would turn a busy
  moment into a new controller session and a flapping mark.

With nothing outstanding the watch's thread sleeps; it costs nothing while the
link is idle (a floor process holds hundreds of links).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from scoreboard.settings.config import CONNECT_TIMEOUT, SUBSCRIBE_TIMEOUT

log = logging.getLogger("scoreboard.link.client")

#: How long a PINGREQ may go without any byte from the broker before the link is lost.
#: A broker on the table's network answers in milliseconds; paho alone would wait a
#: whole keepalive, so a frozen broker showed after 2 x keepalive instead of
#: keepalive + PING_TIMEOUT (+ one PING_CHECK).
PING_TIMEOUT = 0.5
#: CONNECT_TIMEOUT (``mqtt.connect_timeout``, 5 s by default) is how long a CONNECT
#: may go without its CONNACK.  Before it answers, a RabbitMQ node registers the
#: client id in its cluster-wide (Raft) tracker, a write a majority of the nodes must
#: take; on a loaded node that is a round of disk writes on several busy machines, not
#: milliseconds, so this is seconds.  paho's own limit, one keepalive (1 s by
#: default), is switched off while connecting (``link._Client``): it cut every
#: attempt at a node whose CONNACK took 1.5 s.
#: SUBSCRIBE_TIMEOUT (``mqtt.subscribe_timeout``, 5 s) is how long a SUBSCRIBE may go
#: without its SUBACK.  A RabbitMQ node declares the session's durable queue and binds
#: every topic before it answers: cluster-wide writes too, so the same few seconds.
#: paho alone waits for ever.
PING_CHECK = 0.05  # the second look, after the first found the question overdue
#: A look later than this decides nothing: the process itself stood still.
LATE = 0.5


@dataclass(frozen=True, slots=True)
class Question:
    """Something paho sends that the broker must answer in ``timeout`` seconds.

    ``sent`` starts the log line paho writes when sending it, ``answer`` the one
    that answers it; ``unanswered`` is what the link's loss is reported as.
    """

    sent: str
    answer: str
    timeout: float
    unanswered: str


#: Any byte from the broker shows it is alive, so any received packet answers a ping.
PING = Question("Sending PINGREQ", "Received ", PING_TIMEOUT, "a ping")
CONNECT = Question("Sending CONNECT", "Received CONNACK", CONNECT_TIMEOUT, "the CONNECT")
#: The link sends one SUBSCRIBE per connection, so one outstanding at a time is enough.
SUBSCRIBE = Question("Sending SUBSCRIBE", "Received SUBACK", SUBSCRIBE_TIMEOUT, "the subscriptions")


def questions(connect_timeout: float, subscribe_timeout: float) -> tuple[Question, ...]:
    """What the watch times, the CONNECT and the SUBSCRIBE given these timeouts (the config's).

    >>> [q.timeout for q in questions(2.0, 3.0)]
    [0.5, 2.0, 3.0]
    """
    return (
        PING,
        replace(CONNECT, timeout=connect_timeout),
        replace(SUBSCRIBE, timeout=subscribe_timeout),
    )


def verdict(question: Question) -> str:
    """Why the link was ended, for its Disconnected or Unreachable event.

    >>> verdict(CONNECT)
    'the broker did not answer the CONNECT within 5 s'
    """
    return f"the broker did not answer {question.unanswered} within {question.timeout:g} s"


class AnswerWatch:
    """Notices a question (ping, CONNECT, SUBSCRIBE) left unanswered for its timeout; calls ``cut``.

    ``cut(reason)`` returns False when it did not end the connection (the answer
    may be in the socket, unread): the watch then looks again shortly.

    >>> watch = AnswerWatch()
    >>> watch.on_log(None, None, 0, "Sending CONNECT (u0, p0, wr0, wq0, wf0, c1, k1) client_id=d1")
    >>> watch.on_log(None, None, 0, "Sending PINGREQ"); sorted(q.unanswered for q in watch.waiting)
    ['a ping', 'the CONNECT']
    >>> watch.on_log(None, None, 0, "Received CONNACK (0, Success)"); list(watch.waiting)
    []
    """

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        questions: Sequence[Question] = (PING, CONNECT, SUBSCRIBE),
    ) -> None:
        self.questions = tuple(questions)
        #: When each question now unanswered was sent (monotonic, the watch's clock).
        self.waiting: dict[Question, float] = {}
        self.cut_reason: str | None = None
        self._clock = clock
        self._stopping = False
        self._wake = threading.Event()  # a question was sent, or stop
        self._thread: threading.Thread | None = None

    def on_log(self, _client: object, _userdata: object, _level: int, line: str) -> None:
        """paho's ``on_log``: what it sent starts a clock, what it received may stop one."""
        for question in self.questions:
            if line.startswith(question.answer):
                self.waiting.pop(question, None)
            elif line.startswith(question.sent) and question not in self.waiting:
                self.waiting[question] = self._clock()
                self._wake.set()

    def reset(self) -> None:
        """A new connection (or none): nothing is outstanding."""
        self.waiting.clear()

    def start(self, cut: Callable[[str], bool]) -> None:
        self._stopping = False
        self._wake.clear()
        self._thread = threading.Thread(
            target=self._watch, args=(cut,), name="mqtt-answer-watch", daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        self._stopping = True
        self._wake.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=1.0)
        self._thread = None

    def _watch(self, cut: Callable[[str], bool]) -> None:
        looks: dict[Question, _Look] = {}
        while not self._stopping:
            waiting = dict(self.waiting)  # paho's thread changes it meanwhile
            looks = {  # a question answered is dropped, one asked anew starts over
                question: _Look.kept(looks.get(question), question, sent)
                for question, sent in waiting.items()
            }
            if not looks:  # nothing outstanding: sleep until paho sends a question
                self._wake.wait()
                self._wake.clear()
                continue
            self._wake.wait(max(0.0, min(look.at for look in looks.values()) - self._clock()))
            self._wake.clear()
            if self._stopping:
                return
            looks = self._look(looks, cut)

    def _look(
        self, looks: dict[Question, _Look], cut: Callable[[str], bool]
    ) -> dict[Question, _Look]:
        """One look at every question due: look again later, look twice, or give the verdict."""
        now = self._clock()
        for question, look in looks.items():
            if self.waiting.get(question) != look.sent or now < look.at:
                continue  # answered meanwhile, or not yet due
            if now - look.at > LATE:  # this process was not running: no verdict
                looks[question] = _Look(look.sent, now + LATE)
            elif not look.overdue:
                looks[question] = _Look(look.sent, now + PING_CHECK, overdue=True)
            else:
                log.debug("mqtt: no answer to %s in %.1f s", question.unanswered, question.timeout)
                try:
                    ended = cut(verdict(question))
                except Exception:  # the watch must live on: nothing else times a CONNECT
                    log.exception("mqtt: error while ending an unanswered connection (ignored)")
                    looks[question] = _Look(look.sent, now + question.timeout, overdue=True)
                    continue
                if ended:
                    self.waiting.clear()  # that connection is over: nothing it asked is due
                    return {}
                looks[question] = _Look(look.sent, now + PING_CHECK, overdue=True)  # unread bytes
        return looks


class _Look(NamedTuple):
    """The watch's next look at one question: sent when, look at, found overdue once."""

    sent: float
    at: float
    overdue: bool = False

    @staticmethod
    def kept(look: _Look | None, question: Question, sent: float) -> _Look:
        """The look at ``question`` sent at ``sent``: the one kept, else a first at its timeout."""
        if look is not None and look.sent == sent:
            return look
        return _Look(sent, sent + question.timeout)
