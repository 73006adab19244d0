"""10,000+ hostile payloads against a real display process through a real mosquitto.

A ``scoreboard run --headless`` subprocess is fed a known good shoe by the real
controller, then random bytes, truncated JSON, huge numbers, deep nesting,
1 MB payloads, valid-looking messages with NUL, lone surrogates or huge
strings in every text field, wrong types, every message kind, and replays of
the controller's own messages of an earlier shoe.  The process must not crash
or log a traceback, its retained status (shoe, games, counts, last game) must
not move, every payload must be counted as rejected, and its memory must stay
bounded.  Replays of a shoe the display saw end change nothing either (a shoe it
never saw is protocol v2's case).  The figures are printed (``-s``).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mqtt_broker import (
    DisplayProcess,
    Recorder,
    needs_mosquitto,
    publisher,
    running_broker,
    unique_prefix,
    wait_for,
)
from test_mqtt_fuzz import malformed_payloads

from scoreboard.controller import Controller
from scoreboard.game.limits import Limits
from scoreboard.game.shoe import Dealer, timed
from scoreboard.game.variants import VARIANTS
from scoreboard.protocol import MAX_PAYLOAD, ProtocolError, Topics, parse_message

pytestmark = [needs_mosquitto, pytest.mark.slow]

PAYLOADS = 10_000
RSS_BOUND = 40 * 1024 * 1024  # bytes the display may grow by over the whole fuzz
BOARD = ("shoe", "games", "counts", "last_game", "missing")
HOSTILE_TEXT = ("\u0000", "\ud800", "a\udfffb", "\x07bell", "x" * 60_000, "\u202e\u0000")
HUGE_NUMBERS = (b"1e308", b"-1e308", b"1" + b"0" * 400, b"9" * 5000, b"1e999", b"-0")


def rss(pid: int) -> int:
    """Resident memory of ``pid`` in bytes (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no VmRSS for {pid}")


def text_paths(data: Any, path: tuple = ()) -> Iterator[tuple]:
    """The path of every string value in a JSON document."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from text_paths(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from text_paths(value, (*path, index))
    elif isinstance(data, str):
        yield path


def replaced(data: Any, path: tuple, value: Any) -> Any:
    copy = json.loads(json.dumps(data))
    target = copy
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return copy


def number_paths(data: Any, path: tuple = ()) -> Iterator[tuple]:
    if isinstance(data, dict):
        for key, value in data.items():
            yield from number_paths(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from number_paths(value, (*path, index))
    elif isinstance(data, int | float) and not isinstance(data, bool):
        yield path


def hostile_payloads(
    rng: random.Random, captured: dict[str, list[dict]]
) -> Iterator[tuple[str, bytes]]:
    """``(kind, payload)``: valid-looking documents made hostile (text, numbers, depth, size)."""
    kinds = list(captured)
    while True:
        kind = rng.choice(kinds)
        data = rng.choice(captured[kind])
        roll = rng.random()
        texts, numbers = list(text_paths(data)), list(number_paths(data))
        if roll < 0.45 and texts:
            document = replaced(data, rng.choice(texts), rng.choice(HOSTILE_TEXT))
            yield kind, json.dumps(document).encode()  # lone surrogates as \\ud800 escapes
        elif roll < 0.7 and numbers:
            marker = "\u2603NUMBER\u2603"
            text = json.dumps(replaced(data, rng.choice(numbers), marker), ensure_ascii=False)
            yield kind, text.replace(f'"{marker}"', rng.choice(HUGE_NUMBERS).decode()).encode()
        elif roll < 0.8:
            depth = rng.randint(50, 20_000)
            yield kind, b'{"v":1,"shoe":' + b'{"a":' * depth + b"1" + b"}" * (depth + 1)
        elif roll < 0.803:
            yield kind, json.dumps({**data, "pad": "x" * (1024 * 1024)}).encode()  # 1 MB
        elif roll < 0.9:
            yield kind, json.dumps({**data, "v": rng.choice([2.5, "1", None, [], 10**30])}).encode()
        else:
            yield kind, json.dumps([data]).encode()


def refused(topics: Topics, topic: str, payload: bytes) -> bool:
    """True when the protocol refuses it; anything else it raises is a bug (the test fails)."""
    try:
        parse_message(topics, topic, payload)
    except ProtocolError:
        return True
    return False


@pytest.fixture
def table(tmp_path):
    """A broker, a display process fed two shoes by the real controller, the messages seen."""
    with running_broker(tmp_path / "broker") as broker:
        prefix = unique_prefix()
        topics = Topics(prefix)
        display = DisplayProcess(tmp_path, broker, prefix)
        capture = Recorder(broker.settings(), f"{prefix}/#").start()
        controller = Controller(
            broker.endpoint(prefix), limits=Limits.default_for(VARIANTS["commission"])
        )
        try:
            display.start()
            assert wait_for(lambda: display.status().get("online") is True, 30), display.log_text()
            dealer = Dealer(decks=1, seed=4242)
            earlier, current = list(dealer.shoe()), list(dealer.shoe())
            controller.start()
            controller.deal(timed(earlier + current[:9], 0.0, 0.0))
            assert controller.flush(10)
            current_id = current[0].shoe
            assert wait_for(lambda: display.status().get("shoe") == current_id, 20)
            assert wait_for(lambda: display.status().get("games") == 7, 20), display.status()
            time.sleep(0.5)  # the last status lands
            yield broker, topics, display, capture, current_id
        finally:
            controller.stop()
            capture.stop()
            display.stop()


def captured_by_kind(capture: Recorder, topics: Topics) -> dict[str, list[dict]]:
    kinds: dict[str, list[dict]] = {}
    for message in capture.messages:
        kind = topics.kind_of(message.topic)
        if kind is not None and bytes(message.payload).startswith(b"{"):
            kinds.setdefault(str(kind), []).append(json.loads(message.payload))
    return kinds


def send(broker, pairs: list[tuple[str, bytes]]) -> float:
    """Publish at QoS 1 in batches; seconds taken."""
    client = publisher(broker.settings())
    started = time.monotonic()
    try:
        for start in range(0, len(pairs), 500):
            infos = [client.publish(t, p, qos=1) for t, p in pairs[start : start + 500]]
            for info in infos:
                info.wait_for_publish(30)
    finally:
        client.loop_stop()
        client.disconnect()
    return time.monotonic() - started


def board(status: dict) -> dict:
    return {key: status.get(key) for key in BOARD}


def test_ten_thousand_hostile_payloads_move_nothing(table):
    broker, topics, display, capture, _shoe = table
    rng = random.Random(9_2026)
    kinds = captured_by_kind(capture, topics)
    assert {"coup", "event", "snapshot", "limits", "controller_status"} <= set(kinds), kinds.keys()
    topic_of = {str(topics.kind_of(topic)): topic for topic in topics.display_subscriptions}
    valid = {kind: kinds[kind] for kind in topic_of}
    pairs: list[tuple[str, bytes]] = []
    hostile = hostile_payloads(rng, valid)
    malformed = malformed_payloads(rng, topics, valid)
    while len(pairs) < PAYLOADS:
        if rng.random() < 0.6:
            kind, payload = next(hostile)
            topic = topic_of[kind]
        else:
            topic, payload = next(malformed)
        if payload and refused(topics, topic, payload):
            pairs.append((topic, payload))
    assert sum(len(p) > MAX_PAYLOAD for _, p in pairs) >= 10  # some 1 MB ones among them

    def accounted(status: dict) -> int:
        """Rejected, or dropped unread because a newer snapshot was queued behind it."""
        return status.get("rejected", 0) + status.get("ignored", {}).get("superseded", 0)

    before = display.status()
    rejected = accounted(before)
    assert display.process is not None
    rss_before = rss(display.process.pid)
    seconds = send(broker, pairs)
    counted = wait_for(lambda: accounted(display.status()) == rejected + len(pairs), 60)
    rss_after = rss(display.process.pid)
    figures = (
        f"{len(pairs)} payloads in {seconds:.1f} s to the broker "
        f"({len(pairs) / seconds:.0f}/s), RSS {rss_before / 2**20:.1f} -> "
        f"{rss_after / 2**20:.1f} MiB\n"
    )
    print(figures)
    assert counted, (accounted(display.status()), rejected + len(pairs))
    assert board(display.status()) == board(before)
    assert display.process.poll() is None
    assert "Traceback" not in display.log_text()
    assert rss_after <= rss_before + RSS_BOUND, figures


def replays(capture: Recorder, topics: Topics, earlier: str) -> list[tuple[str, bytes]]:
    """The controller's own messages of the earlier shoe, as captured, oldest first."""
    pairs = []
    for message in capture.messages:
        payload = bytes(message.payload)
        if topics.kind_of(message.topic) is None or not payload.startswith(b"{"):
            continue
        document = json.loads(payload)
        if document.get("shoe") in (earlier, None):
            pairs.append((message.topic, payload))
    return pairs


def test_replayed_controller_messages_of_an_earlier_shoe_move_nothing(table):
    broker, topics, display, capture, current = table
    earlier = next(
        json.loads(m.payload)["shoe"]
        for m in capture.messages
        if m.topic == topics.coup and json.loads(m.payload)["shoe"] != current
    )
    before = display.status()
    pairs = replays(capture, topics, earlier)
    assert sum(topic == topics.coup for topic, _ in pairs) >= 5
    statuses = display.statuses()
    send(broker, pairs * 3)
    # Nothing to count on: wait for the display to have read it all (a status or 3 s).
    wait_for(lambda: display.statuses() > statuses, 3)
    time.sleep(1.0)
    assert board(display.status()) == board(before), (board(before), display.log_text()[-2000:])
    assert "Traceback" not in display.log_text()
