"""journal/history.py reading a state dir: chain order, shoes across files, what it skips."""

from __future__ import annotations

import logging

import pytest
from dealt import dealt_shoe

from scoreboard.game.events import CoupReceived, Event, LimitsReceived, NewShoe, Snapshot
from scoreboard.journal.history import ChangeKind, HistoryError, read_state
from scoreboard.protocol import canonical_json, encode
from scoreboard.table.state import TableState

GAMES = dealt_shoe(4).games


def lines(*records: tuple[float, Event] | bytes) -> bytes:
    out = b""
    for record in records:
        if isinstance(record, bytes):
            out += record
            continue
        at, event = record
        kind, data = encode(event)
        out += canonical_json({"at": at, "kind": kind, "data": data, "prev": "0" * 64}) + b"\n"
    return out


def test_a_late_snapshot_archived_apart_joins_its_shoe(tmp_path):
    shoes = tmp_path / "shoes"
    shoes.mkdir()
    (shoes / "20261201-100000-S1.jsonl").write_bytes(lines(
        (1.0, LimitsReceived(TableState().limits)),
        (2.0, NewShoe("S1")),
        (3.0, CoupReceived("S1", GAMES[0])),
        (4.0, CoupReceived("S1", GAMES[2])),
    ))  # fmt: skip
    (shoes / "20261201-110000-S2.jsonl").write_bytes(
        lines((5.0, NewShoe("S2")), (6.0, CoupReceived("S2", GAMES[0])))
    )
    (shoes / "20261201-120000-S1.jsonl").write_bytes(
        lines((7.0, Snapshot("S1", tuple(GAMES[:3]))))  # game 2, which the display missed
    )
    (tmp_path / "journal.jsonl").write_bytes(lines((8.0, NewShoe("S3"))))
    found = read_state(tmp_path)
    assert [(s.shoe, s.live, len(s.games)) for s in found] == [
        ("S1", False, 3),
        ("S2", False, 1),
        ("S3", True, 0),
    ]
    first = found[0]
    assert first.files == ("shoes/20261201-100000-S1.jsonl", "shoes/20261201-120000-S1.jsonl")
    filled = first.games[1].changes
    assert [(c.at, c.kind, c.source, c.file, c.line) for c in filled] == [
        (7.0, ChangeKind.DEALT, "snapshot", "shoes/20261201-120000-S1.jsonl", 1)
    ]
    assert first.missing == () and [g.coup for g in first.games] == [g.coup for g in GAMES[:3]]


def test_unknown_kinds_and_fields_pass_unsaid_and_garbage_is_warned(tmp_path, caplog):
    (tmp_path / "journal.jsonl").write_bytes(lines(
        b'{"at":1,"kind":"gap","data":{"from":0,"to":1},"mono":3.5,"prev":"ab"}\n',
        (2.0, NewShoe("S1")),
        b'{"at":3,"kind":"history","data":{"shoe_number":"two"}}\n',
        b'{"at":"soon","kind":"coup","data":{}}\n',
        (4.0, CoupReceived("S1", GAMES[0])),
        b'{"at":5,"kind":"alert","data":{"kind":"overcount"},"x":[1]}\n',
        b'{"at":6,"kind":"coup","data":{"v":1,"shoe":"S1","game":2,"result":"X"}}\n',
        b'{"at":7,"kind":"coup"',
    ))  # fmt: skip
    with caplog.at_level(logging.WARNING, logger="scoreboard.journal"):
        (shoe,) = read_state(tmp_path)
    assert [(s.line, s.file) for s in shoe.skipped] == [(n, "journal.jsonl") for n in (3, 4, 7, 8)]
    assert "torn" in shoe.skipped[-1].why and "key result" in shoe.skipped[2].why
    assert str(shoe.skipped[-1]) == "journal.jsonl:8: a torn last line (power cut?)"  # export's
    warned = [r.getMessage() for r in caplog.records]
    assert len(warned) == 4 and all(str(tmp_path / "journal.jsonl") in w or "journal.jsonl:" in w
                                    for w in warned)  # fmt: skip
    assert [g.number for g in shoe.games] == [1]
    assert (tmp_path / "journal.jsonl").read_bytes().endswith(b'"kind":"coup"')  # not cut


@pytest.mark.parametrize(
    ("setup", "words"),
    [(lambda _: None, "does not exist"), (lambda d: d.mkdir(), "holds no journal"),
     (lambda d: d.write_text("x"), "is not a directory")],
)  # fmt: skip
def test_no_state_dir_no_history(tmp_path, setup, words):
    state = tmp_path / "state"
    setup(state)
    with pytest.raises(HistoryError, match=words):
        read_state(state)


def test_what_is_not_on_the_chain_never_shows_as_games(tmp_path, caplog):
    shoes = tmp_path / "shoes"
    shoes.mkdir()
    (shoes / "20261201-100000-S1.jsonl").write_bytes(
        lines((1.0, NewShoe("S1")), (2.0, CoupReceived("S1", GAMES[0])))
    )
    (shoes / "20261201-110000-S2.jsonl").write_bytes(  # placed there: off the chain whole
        lines((3.0, NewShoe("S2")), (4.0, CoupReceived("S2", GAMES[0])))
    )
    (tmp_path / "journal.jsonl").write_bytes(lines(  # appended to after the chain broke
        (5.0, NewShoe("S3")), (6.0, CoupReceived("S3", GAMES[0])),
        (7.0, CoupReceived("S3", GAMES[1])),
    ))  # fmt: skip
    off = {"shoes/20261201-110000-S2.jsonl": (1, "not on the chain"),
           "journal.jsonl": (3, "after a broken link")}  # fmt: skip
    with caplog.at_level(logging.WARNING, logger="scoreboard.journal"):
        found = read_state(tmp_path, off)
    assert [(s.shoe, len(s.games)) for s in found] == [("S1", 1), ("S3", 1)]
    assert [(s.line, s.why) for s in found[1].skipped] == [(3, "after a broken link")]
    (warned,) = caplog.records  # the whole file is left out unread, not warned line by line
    assert "journal.jsonl:3" in warned.getMessage()


def test_every_line_that_cannot_be_read_is_kept_with_its_why(tmp_path):
    kind, data = encode(CoupReceived("S1", GAMES[1]))
    undated = canonical_json({"at": 0, "kind": kind, "data": data}).replace(b'"at":0', b'"at":NaN')
    (tmp_path / "journal.jsonl").write_bytes(lines(
        (1.0, NewShoe("S1")),
        b"not JSON at all\n",
        b"[1]\n",
        b'{"at":1,"data":{}}\n',
        undated + b"\n",
        undated.replace(b'"at":NaN', b'"at":true') + b"\n",
        b'{"at":4,"kind":"coup","data":[1]}\n',
        (5.0, CoupReceived("S1", GAMES[0])),
    ))  # fmt: skip
    (shoe,) = read_state(tmp_path)
    assert [g.number for g in shoe.games] == [1]
    whys = [(s.line, s.why.split(" (")[0]) for s in shoe.skipped]
    assert whys == [
        (2, "not JSON"),
        (3, "not a journal record"),
        (4, "not a journal record"),
        (5, "no valid time"),
        (6, "no valid time"),
        (7, "coup record without a payload"),
    ]
