"""How fast a display refuses hostile input, in process (issue 9's fuzz, timed).

``tests/test_fuzz_hostile.py`` sends 10,000 hostile payloads through a real
mosquitto into a ``scoreboard run --headless`` process and checks that nothing
moves; what it prints is the publisher's rate into the broker.  This times the
display's side alone, on the same payloads (the test's own generators,
imported from tests/, over documents the simulated controller published for
one shoe of a seeded dealer):

- ``parse_message`` refusing each payload (the protocol boundary);
- a ``DisplaySession`` with a real journal working through all of them as link
  messages, slice by slice as the kiosk loop would, on a table holding that
  shoe: payloads per second, and a check that the board did not move and every
  payload was rejected or superseded unread.

Run: ``.venv/bin/python benchmarks/bench_fuzz.py [--payloads N]``
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from bench_burst import controller_messages
from one_core import pin_to_one_core
from test_fuzz_hostile import hostile_payloads  # the test's own generators
from test_mqtt_fuzz import malformed_payloads

from scoreboard.feeds._session import DisplaySession
from scoreboard.journal import Journal
from scoreboard.link.client import Connected, Message, Subscribed
from scoreboard.protocol import MAX_PAYLOAD, ProtocolError, Topics, parse_message
from scoreboard.settings.config import MqttConfig
from scoreboard.settings.endpoint import Endpoint
from scoreboard.table.state import TableState


class Lines(logging.Handler):
    """What the display logged: formatted like a real handler would, counted, then dropped."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.count, self.longest = 0, 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1
        self.longest = max(self.longest, len(self.format(record)))


def refused(topics: Topics, topic: str, payload: bytes) -> bool:
    try:
        parse_message(topics, topic, payload)
    except ProtocolError:
        return True
    return False


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--payloads", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=9_2026)
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, {pin_to_one_core()}")

    topics = Topics("bench/v2/T1")
    messages, shoe, games = controller_messages(topics, shoes=1, seed=4242)
    valid: dict[str, list[dict]] = {}
    for message in messages:
        valid.setdefault(str(topics.kind_of(message.topic)), []).append(json.loads(message.payload))
    topic_of = {str(topics.kind_of(topic)): topic for topic in topics.display_subscriptions}

    rng = random.Random(args.seed)
    hostile, malformed = hostile_payloads(rng, valid), malformed_payloads(rng, topics, valid)
    pairs: list[tuple[str, bytes]] = []
    while len(pairs) < args.payloads:
        if rng.random() < 0.6:
            kind, payload = next(hostile)
            topic = topic_of[kind]
        else:
            topic, payload = next(malformed)
        if payload and refused(topics, topic, payload):
            pairs.append((topic, payload))
    size = sum(len(p) for _, p in pairs)
    huge = sum(len(p) > MAX_PAYLOAD for _, p in pairs)
    print(f"{len(pairs):,} hostile payloads, {size / 2**20:.1f} MiB, {huge} over MAX_PAYLOAD")

    lines = Lines()
    logger = logging.getLogger("scoreboard")
    logger.addHandler(lines)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    started = time.perf_counter()
    for topic, payload in pairs:
        refused(topics, topic, payload)
    took = time.perf_counter() - started
    print(f"parse_message refusing them: {took:.2f} s, {len(pairs) / took:,.0f} payloads/s, "
          f"{took / len(pairs) * 1e6:.0f} µs each")  # fmt: skip

    with tempfile.TemporaryDirectory(prefix="bench-fuzz-") as work, Journal(Path(work)) as journal:
        table = TableState()
        session = DisplaySession(Endpoint(MqttConfig(), topics), "bench", journal=journal)
        now = time.monotonic()
        good = [Message(m.topic, m.payload, now) for m in messages]
        session.step([Connected(False), Subscribed(), *good], table, now)
        while session.backlog:
            session.step([], table, time.monotonic())
        assert (table.shoe_id, table.games) == (shoe, games)
        lines.count = lines.longest = 0
        version, accounted = table.version, session.rejected + session.ignored["superseded"]
        hostile_messages = [Message(t, p, time.monotonic()) for t, p in pairs]
        started = time.perf_counter()
        steps = 0
        session.queue(hostile_messages)
        while session.backlog:
            session.step([], table, time.monotonic())
            steps += 1
        took = time.perf_counter() - started
    moved = session.rejected + session.ignored["superseded"] - accounted
    assert (table.version, table.games) == (version, games), "the board moved"
    assert moved == len(pairs), (moved, len(pairs))
    assert session.rejected_by_reason["internal error"] == 0
    print(f"DisplaySession (journal on) refusing them: {took:.2f} s in {steps} slices, "
          f"{len(pairs) / took:,.0f} payloads/s; board unchanged, {moved:,} rejected or "
          f"superseded, 0 internal errors; {lines.count:,} log lines at INFO and above, the "
          f"longest {lines.longest:,} characters")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
