"""10,000+ malformed and random payloads: the display survives and shows the same roads."""

from __future__ import annotations

import copy
import json
import logging
import random
import time
from typing import Any

from mqtt_broker import Display, needs_mosquitto, publisher, running_broker, unique_prefix

from scoreboard.game.shoe import Dealer
from scoreboard.link.client import Message
from scoreboard.protocol import (
    MAX_PAYLOAD,
    CoupReceived,
    ProtocolError,
    Snapshot,
    Topics,
    canonical_json,
    encode,
    parse_message,
)

pytestmark = needs_mosquitto

THROUGH_BROKER = 3000
THROUGH_SESSION = 7500


def junk(rng: random.Random) -> Any:
    return rng.choice(
        [None, True, False, -1, 0, 10**12, 1.5, "", "x" * rng.randint(1, 80), [], {}, [1, "a"],
         {"a": 1}, "9S", "ZZ", -0.0, "B", "P", "T", "b", 2**70]
    )  # fmt: skip


def mutate(rng: random.Random, data: Any, depth: int = 0) -> Any:
    """One random change somewhere in a JSON value: delete, retype, or corrupt."""
    data = copy.deepcopy(data)
    if isinstance(data, dict) and data and depth < 4:
        key = rng.choice(list(data))
        roll = rng.random()
        if roll < 0.25:
            del data[key]
        elif roll < 0.55:
            data[key] = junk(rng)
        else:
            data[key] = mutate(rng, data[key], depth + 1)
        return data
    if isinstance(data, list) and data and depth < 4:
        index = rng.randrange(len(data))
        roll = rng.random()
        if roll < 0.3:
            data.pop(index)
        elif roll < 0.5:
            data.append(rng.choice(["AS", "KD", "XX", 5, None]))
        else:
            data[index] = mutate(rng, data[index], depth + 1)
        return data
    return junk(rng)


def random_bytes(rng: random.Random, _kind: str, _valid: dict[str, list[dict]]) -> bytes:
    return rng.randbytes(rng.randint(1, 200))


def bad_utf8(rng: random.Random, _kind: str, _valid: dict[str, list[dict]]) -> bytes:
    return b"\xff\xfe" + rng.randbytes(rng.randint(0, 30))


def json_junk(rng: random.Random, _kind: str, _valid: dict[str, list[dict]]) -> bytes:
    return json.dumps(junk(rng)).encode()


def truncated(rng: random.Random, kind: str, valid: dict[str, list[dict]]) -> bytes:
    text = canonical_json(rng.choice(valid[kind]))
    return text[: rng.randrange(1, len(text))]


def deep_nesting(_rng: random.Random, _kind: str, _valid: dict[str, list[dict]]) -> bytes:
    return b"[" * 100_000


def not_a_number(_rng: random.Random, _kind: str, _valid: dict[str, list[dict]]) -> bytes:
    return b'{"v": 1, "shoe": "S", "game": NaN}'


def oversized(rng: random.Random, _kind: str, valid: dict[str, list[dict]]) -> bytes:
    return canonical_json({**rng.choice(valid["coup"]), "pad": "x" * (MAX_PAYLOAD + 10)})


def random_cards(rng: random.Random, _kind: str, valid: dict[str, list[dict]]) -> bytes:
    """Real cards dealt at random: mostly hands the tableau would not deal,
    or a result, totals or flags that disagree with them."""
    tokens = [rng.choice("A23456789TJQK") + rng.choice(["", "S", "H", "D", "C"])
              for _ in range(6)]  # fmt: skip
    data = {**rng.choice(valid["coup"]), "cards": {
        "player": tokens[: rng.choice((2, 3))], "banker": tokens[3 : 3 + rng.choice((2, 3))]
    }}  # fmt: skip
    extra = rng.choice(["result", "player_total", "natural", "banker_pair", None])
    if extra == "result":
        data["result"] = rng.choice("BPT")
    elif extra == "player_total":
        data["player_total"] = rng.randrange(10)
    elif extra is not None:
        data[extra] = rng.random() < 0.5
    return canonical_json(data)


def other_kind(rng: random.Random, _kind: str, valid: dict[str, list[dict]]) -> bytes:
    """A payload of one kind on another kind's topic."""
    return canonical_json(rng.choice(valid[rng.choice(list(valid))]))


def mutated(rng: random.Random, kind: str, valid: dict[str, list[dict]]) -> bytes:
    return canonical_json(mutate(rng, rng.choice(valid[kind])))


#: (cumulative probability, how to spoil a payload, whether it goes to the coup topic)
SPOILERS = (
    (0.08, random_bytes, False), (0.12, bad_utf8, False), (0.16, json_junk, False),
    (0.20, truncated, False), (0.21, deep_nesting, False), (0.22, not_a_number, False),
    (0.23, oversized, True), (0.42, random_cards, True), (0.48, other_kind, False),
    (1.00, mutated, False),
)  # fmt: skip


def malformed_payloads(rng: random.Random, topics: Topics, valid: dict[str, list[dict]]):
    """Yield (topic, payload) pairs of every kind of bad input, forever."""
    topic_of = {
        "coup": topics.coup, "event": topics.event, "snapshot": topics.snapshot,
        "limits": topics.limits, "controller_status": topics.controller_status,
    }  # fmt: skip
    while True:
        kind = rng.choice(list(topic_of))
        roll = rng.random()
        spoil, on_coup = next((spoil, on_coup) for p, spoil, on_coup in SPOILERS if roll < p)
        yield topic_of["coup" if on_coup else kind], spoil(rng, kind, valid)


def rejected_only(topics: Topics, pairs, count: int, recorded: set[bytes]):
    """Keep the pairs the protocol must reject; anything else raising is a bug."""
    kept = []
    for topic, payload in pairs:
        if not payload or payload in recorded:
            continue
        try:
            parse_message(topics, topic, payload)
        except ProtocolError:
            kept.append((topic, payload))
            if len(kept) == count:
                return kept
        # payloads that happen to be valid are not malformed: skipped


def accounted(display) -> int:
    """Rejected, or dropped unread because a newer snapshot was queued behind it."""
    return display.session.rejected + display.session.ignored["superseded"]


def test_ten_thousand_malformed_payloads_change_nothing(tmp_path):
    rng = random.Random(20261129)
    events = list(Dealer(seed=77).shoe())
    dealt = [e for e in events if isinstance(e, CoupReceived)]
    shoe_id = dealt[0].shoe
    games = [e.game for e in dealt]
    with running_broker(tmp_path / "broker") as broker:
        prefix = unique_prefix()
        topics = Topics(prefix)
        display = Display(broker.settings(), prefix).start()
        client = publisher(broker.settings())
        quiet = logging.getLogger("scoreboard.feeds._session")
        level = quiet.level
        try:
            assert display.until(lambda: display.session.subscribed, 15)
            recorded = []
            for game in games[:10]:
                payload = canonical_json(encode(CoupReceived(shoe_id, game))[1])
                recorded.append(payload)
                client.publish(topics.coup, payload, qos=1).wait_for_publish(5)
            assert display.until(lambda: len(display.table.games) == 10)
            version, before = display.table.version, display.table.games
            valid = {
                "coup": [
                    encode(CoupReceived(shoe_id, g, "2026-11-29T14:03:11Z"))[1] for g in games
                ],
                "event": [
                    {"v": 1, "type": "void", "shoe": shoe_id, "game": 3, "reason": "misdeal"},
                    {"v": 1, "type": "new_shoe", "shoe": "next"},
                    {"v": 1, "type": "burn", "cards": ["7H", "2S"]},
                    {
                        "v": 1,
                        "type": "correct",
                        "shoe": shoe_id,
                        "game": 2,
                        "reason": "x",
                        "coup": encode(CoupReceived(shoe_id, games[5]))[1],
                    },
                ],
                "snapshot": [encode(Snapshot(shoe_id, tuple(games[:12]), (), None))[1]],
                "limits": [
                    {"v": 1, "currency": "USD", "bets": {"tie": [5, 1000]}, "pays": {"tie": "8:1"}}
                ],
                "controller_status": [{"v": 1, "online": True}],
            }
            pairs = malformed_payloads(rng, topics, valid)
            total = THROUGH_BROKER + THROUGH_SESSION
            bad = rejected_only(topics, pairs, total, set(recorded))
            assert len(bad) == total
            quiet.setLevel(logging.ERROR)
            # A good share through the real broker, in batches the broker queues whole.
            sent = 0
            for start in range(0, THROUGH_BROKER, 500):
                infos = [client.publish(t, p, qos=1) for t, p in bad[start : start + 500]]
                for info in infos:
                    info.wait_for_publish(10)
                sent += len(infos)
                assert display.until(lambda n=sent: accounted(display) == n, 60), (
                    accounted(display),
                    sent,
                )
            # The rest straight into the display's session, as the link hands messages over.
            now = time.monotonic()
            rest = [Message(topic, payload, now) for topic, payload in bad[THROUGH_BROKER:]]
            actions = display.session.step(rest, display.table, now)
            while display.session.backlog:  # a time slice per step, as the kiosk polls
                actions += display.session.step([], display.table, now)
            assert {action.topic for action in actions} == {display.session.status_topic}
            rejected = display.session.rejected
            assert f'"rejected":{rejected}'.encode() in actions[-1].payload  # no resync asked
            assert accounted(display) == total
            assert display.table.version == version
            assert display.table.games == before
            # Still alive and listening: the next real coup is shown.
            client.publish(
                topics.coup, canonical_json(encode(CoupReceived(shoe_id, games[10]))[1]), qos=1
            ).wait_for_publish(5)
            assert display.until(lambda: len(display.table.games) == 11)
            assert display.feed.link.connected
        finally:
            quiet.setLevel(level)
            client.loop_stop()
            display.stop()
