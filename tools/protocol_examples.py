"""Print the JSON examples of docs/protocol.md, written by the project's own encoder.

Each example is stated here as the fields a controller (or the pit, or a
display) means to send; the protocol's reader turns them into an event and its
writer gives the payload back, so what the page shows is exactly what
``scoreboard.protocol`` publishes and reads.  The display status comes from
``display_status`` over a table those events built.  The signing vector is
``scoreboard.protocol.signing`` over one of them.  Paste the output into
docs/protocol.md; ``tests/test_protocol_examples.py`` checks every block there.

    .venv/bin/python tools/protocol_examples.py            # every example
    .venv/bin/python tools/protocol_examples.py limits     # those whose name starts so
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

from scoreboard.game.shoe import Dealer
from scoreboard.protocol import (
    CoupReceived,
    Event,
    Origin,
    Topics,
    apply_event,
    display_status,
    encode,
    parse_dict,
    signature,
)
from scoreboard.protocol.messages import parse_pit, pit_wire
from scoreboard.protocol.signing import canonical_json, encode_payload, signed_bytes
from scoreboard.table.state import TableState

TOPICS = Topics("baccarat/v2/T1")
SESSION = 1796162400123
SHOE = "T1-7e3-003"
WIDTH = 88
#: Keys shown first when a payload has them (the envelope, then what the message is).
FIRST = ("v", "session", "seq", "type", "online", "id", "by", "at", "action")
#: The signing vector's key: the key file's text without its newline, as bytes.
VECTOR_KEY = b"T1-example-key-do-not-use"

CARDS = {"player": ["9S", "KH"], "banker": ["4D", "3C"]}
BETS = {"player": [25, 10000], "banker": [25, 10000], "tie": [5, 1000],
        "player_pair": [5, 500], "banker_pair": [5, 500]}  # fmt: skip
PAYS = {"player": "1:1", "banker": "0.95:1", "tie": "8:1",
        "player_pair": "11:1", "banker_pair": "11:1"}  # fmt: skip


def env(seq: int | None, **fields: Any) -> dict[str, Any]:
    """A controller payload's fields with the v2 envelope (no ``seq``: the will)."""
    head: dict[str, Any] = {"v": 2, "session": SESSION}
    if seq is not None:
        head["seq"] = seq
    return head | fields


def event(seq: int, kind: str, **fields: Any) -> dict[str, Any]:
    return env(seq, type=kind, **fields)


#: (name, topic suffix, the fields meant): the examples in the order the page shows them.
PAYLOADS: list[tuple[str, str, dict[str, Any]]] = [
    ("coup", "coup", env(58, shoe=SHOE, game=17, cards=CARDS, ts="2026-12-01T22:03:11.120Z")),
    ("coup-result", "coup", env(59, shoe=SHOE, game=18, result="B", banker_pair=True,
                                natural=True, player_total=6, banker_total=9)),
    ("new_shoe", "event", event(3, "new_shoe", shoe=SHOE, decks=8,
                                previous={"shoe": "T1-7e3-002", "games": 71})),
    ("burn", "event", event(4, "burn", shoe=SHOE, cards=["7H", "QC", "2S", "9D", "4C", "KS",
                                                           "8H"])),
    ("deal", "event", event(61, "deal", shoe=SHOE, game=19, side="player", card_number=1,
                            card=None)),
    ("shoe_health", "event", event(62, "shoe_health", condition="device", state="raised",
                                   detail="/dev/ttyUSB0 is gone", shoe=None, game=None)),
    ("cut_card", "event", event(140, "cut_card", shoe=SHOE)),
    ("shuffle", "event", event(171, "shuffle", shoe=SHOE)),
    ("void", "event", event(64, "void", shoe=SHOE, game=18, reason="misdeal")),
    ("correct", "event", event(65, "correct", shoe=SHOE, game=17, reason="card misread",
                               coup={"cards": {"player": ["5S", "KH", "3D"],
                                               "banker": ["4D", "3C"]}})),
    ("snapshot", "snapshot", env(65, shoe=SHOE, ts="2026-12-01T22:05:40.006Z", voided=[18],
                                 coups=[{"game": 1, "cards": CARDS},
                                        {"game": 2, "result": "P", "player_total": 8,
                                         "banker_total": 7},
                                        {"game": 17, "cards": {"player": ["5S", "KH", "3D"],
                                                               "banker": ["4D", "3C"]}}])),
    ("limits", "limits", env(2, currency="USD", bets=BETS, pays=PAYS)),
    ("limits-side-bets", "limits", env(
        2, currency="MOP",
        bets={"player": [100, 50000], "banker": [100, 50000], "tie": [20, 5000],
              "small_6": [20, 2500], "lucky_7": [20, 2500]},
        pays={"player": "1:1", "banker": "0.95:1", "tie": "8:1", "small_6": "22:1",
              "lucky_7": "6/15:1"},
        side_bets={"small_6": {"small_6": 22}, "lucky_7": {"lucky_7_2": 6, "lucky_7_3": 15}})),
    ("limits-scheduled", "limits", env(
        90, currency="USD", effective_at="2026-12-01T23:00:00Z",
        bets={"player": [50, 20000], "banker": [50, 20000], "tie": [10, 2000]},
        pays={"player": "1:1", "banker": "0.95:1", "tie": "8:1"})),
    ("status-birth", "controller/status", env(1, online=True, name="Salon Privé 8")),
    ("status-raised", "controller/status", env(63, online=True, name="Salon Privé 8",
                                               raised=[{"condition": "device",
                                                        "detail": "/dev/ttyUSB0 is gone"}])),
    ("status-will", "controller/status", env(None, online=False)),
    ("status-stop", "controller/status", env(172, online=False)),
    ("resync", "cmd/resync", {"v": 2, "display": "T1-a", "shoe": SHOE, "missing": [18]}),
]  # fmt: skip

PIT: list[tuple[str, dict[str, Any]]] = [
    ("pit-void", {"v": 2, "id": "5b0c1e8a9f3d4e21", "by": "anna", "at": "2026-12-01T22:00:00Z",
                  "action": "void", "shoe": SHOE, "game": 18, "reason": "misdeal"}),
    ("pit-correct-result", {"v": 2, "id": "5b0c1e8a9f3d4e22", "by": "anna",
                            "at": "2026-12-01T22:01:00Z", "action": "correct", "game": 16,
                            "reason": "keyed Banker, was Player",
                            "coup": {"result": "P", "player_pair": True}}),
    ("pit-correct-cards", {"v": 2, "id": "5b0c1e8a9f3d4e23", "by": "anna",
                           "at": "2026-12-01T22:02:00Z", "action": "correct", "game": 17,
                           "reason": "card misread",
                           "coup": {"cards": {"player": ["5S", "KH", "3D"],
                                              "banker": ["4D", "3C"]}}}),
    ("pit-new_shoe", {"v": 2, "id": "5b0c1e8a9f3d4e24", "by": "anna",
                      "at": "2026-12-01T22:03:00Z", "action": "new_shoe",
                      "shoe": "T1-P20261201-220300", "reason": "cards damaged"}),
    ("pit-limits", {"v": 2, "id": "5b0c1e8a9f3d4e25", "by": "anna", "at": "2026-12-01T22:04:00Z",
                    "action": "limits", "effective_at": "2026-12-01T23:00:00Z",
                    "limits": {"currency": "EUR",
                               "bets": {"player": [50, 20000], "banker": [50, 20000]},
                               "pays": {"player": "1:1", "banker": "0.95:1"}}}),
    ("pit-answer", {"v": 2, "id": "5b0c1e8a9f3d4e21", "applied": True,
                    "detail": f"game 18 of shoe {SHOE} voided"}),
    ("pit-refused", {"v": 2, "id": "5b0c1e8a9f3d4e26", "applied": False,
                     "detail": f"game 40 does not exist in shoe {SHOE} (games 1-38)"}),
]  # fmt: skip


def read(suffix: str, fields: dict[str, Any]) -> Event:
    """The event the protocol's reader makes of ``fields`` on ``PREFIX/suffix``."""
    where = f"{TOPICS.prefix}/{suffix}"
    kind = TOPICS.kind_of(where)
    assert kind is not None, where
    return parse_dict(kind, fields, where)


def written(suffix: str, fields: dict[str, Any]) -> dict[str, Any]:
    """The payload the encoder writes for the event the reader makes of ``fields``."""
    return encode(read(suffix, fields))[1]


def pit_written(fields: dict[str, Any]) -> dict[str, Any]:
    """A pit command or answer as the encoder writes it (read back from its bytes)."""
    kind = "cmd/pit/answer" if "applied" in fields else "cmd/pit"
    topic = f"{TOPICS.prefix}/{kind}"
    message = parse_pit(TOPICS, topic, canonical_json(fields))
    payload: dict[str, Any] = json.loads(pit_wire(TOPICS, message)[1])
    return payload


def status_example() -> dict[str, Any]:
    """A display's status in the examples' shoe: 18 games, one corrected, game 19 dealing."""
    table = TableState()
    by_name = {name: (suffix, fields) for name, suffix, fields in PAYLOADS}
    for name in ("limits", "new_shoe"):
        apply_event(table, read(*by_name[name]))
    dealt = [e for e in Dealer(seed=2026).shoe() if isinstance(e, CoupReceived)]
    for n, coup in enumerate(dealt[:16], start=1):  # games 1-16 as a dealer deals them
        apply_event(table, CoupReceived(SHOE, coup.game, origin=Origin(SESSION, 4 + 3 * n)))
    for name in ("coup", "coup-result", "deal", "shoe_health", "correct"):
        apply_event(table, read(*by_name[name]))
    status = display_status(
        "T1-a", table, rejected=1, feed="connected",
        journal=SimpleNamespace(state="ok", reason=""),
        render=SimpleNamespace(ok=True, failing=[], failures=0, last_frame=1796163940.125),
        ignored={"replay": 3, "stale": 0, "superseded": 12, "unchanged": 0}, limits_heard=True,
    )  # fmt: skip
    status["broker"] = "10.0.0.2:1883"  # the MQTT feed adds the broker it is on
    return status


def ordered(data: dict[str, Any]) -> dict[str, Any]:
    """The envelope first, then the fields as the encoder wrote them (JSON keys have no order)."""
    first = [
        k
        for k in ("v", "session", "seq", "type", "online", "id", "by", "at", "action")
        if k in data
    ]
    return {k: data[k] for k in first} | {k: v for k, v in data.items() if k not in first}


def pretty(value: Any, col: int = 0) -> str:
    """JSON that fits in ``WIDTH`` columns when its first line starts at column ``col``.

    Items are packed per line; an item too long for a line of its own is broken
    inside, its continuation lines aligned one past its opening bracket.
    """
    flat = json.dumps(value, ensure_ascii=False)
    if col + len(flat) <= WIDTH or not isinstance(value, dict | list) or not value:
        return flat
    if isinstance(value, dict):
        items = [(json.dumps(k, ensure_ascii=False) + ": ", v) for k, v in value.items()]
        opening, closing = "{", "}"
    else:
        items = [("", v) for v in value]
        opening, closing = "[", "]"
    pad = " " * (col + 1)
    lines: list[str] = []
    line, at = opening, col + 1  # ``at``: the column where ``line`` ends
    for n, (head, item) in enumerate(items):
        tail = "," if n < len(items) - 1 else closing
        piece = head + json.dumps(item, ensure_ascii=False) + tail
        sep = "" if n == 0 else " "
        if at + len(sep) + len(piece) <= WIDTH:
            line, at = line + sep + piece, at + len(sep) + len(piece)
            continue
        if n > 0:
            lines.append(line)
            line, at = pad, col + 1
        if at + len(piece) <= WIDTH:
            line, at = line + piece, at + len(piece)
            continue
        first, *rest = pretty(item, at + len(head)).split("\n")
        line += head + first
        if rest:
            lines.append(line)
            lines.extend(rest[:-1])
            line = rest[-1]
        line += tail
        at = len(line) if rest else at + len(head) + len(first) + len(tail)
    lines.append(line)
    return "\n".join(lines)


def examples() -> Iterator[tuple[str, dict[str, Any]]]:
    for name, suffix, fields in PAYLOADS:
        yield name, ordered(written(suffix, fields))
    for name, fields in PIT:
        yield name, ordered(pit_written(fields))
    yield "display-status", ordered(status_example())


def vector() -> str:
    """The signing test vector: the coup example on ``baccarat/v2/T1/coup`` under ``VECTOR_KEY``."""
    topic = f"{TOPICS.prefix}/coup"
    payload = written("coup", PAYLOADS[0][2])
    assert signed_bytes(payload, topic) == topic.encode() + b"\n" + canonical_json(payload)
    return "\n".join(
        (
            f"key:       {VECTOR_KEY.decode()}",
            f"topic:     {topic}",
            f"canonical: {canonical_json(payload).decode()}",
            f"sig:       {signature(payload, VECTOR_KEY, topic)}",
        )
    )


def signed_example() -> dict[str, Any]:
    """The vector's payload as published: the coup example with its ``sig``."""
    topic = f"{TOPICS.prefix}/coup"
    return ordered(json.loads(encode_payload(written("coup", PAYLOADS[0][2]), VECTOR_KEY, topic)))


def main(argv: list[str]) -> int:
    wanted = argv[0] if argv else ""
    for name, payload in examples():
        if name.startswith(wanted):
            print(f"-- {name}\n```json\n{pretty(payload)}\n```")
    if "vector".startswith(wanted):
        print(f"-- vector\n```text\n{vector()}\n```")
        print(f"-- signed\n```json\n{pretty(signed_example())}\n```")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
