"""Bee-Tek's line reader against docs/shoes.md section 2."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoreboard.game.cards import Card
from scoreboard.shoes.bee_tek import (
    LONGEST_LINE,
    Alarm,
    BeeTekReader,
    BurnRead,
    CardNotRead,
    CardRead,
    WarningCode,
)
from scoreboard.shoes.discards import BadBytes


def read(*chunks: bytes) -> list:
    reader = BeeTekReader()
    return [item for chunk in chunks for item in reader.feed(chunk)]


@pytest.mark.parametrize(
    ("line", "meaning"),
    [
        (b"[Game]<Card:4S>", CardRead(Card("4", "S"))),
        (b"[Game]<Card:10d>", CardRead(Card("T", "D"))),
        (b"[Game]<Card:Th>", CardRead(Card("T", "H"))),
        (b"  [ Game ] < Card : a c >  ", CardRead(Card("A", "C"))),
        (b"[game]<card:kS>", CardRead(Card("K", "S"))),
        (b"[Game]<Card:QH>", CardRead(Card("Q", "H"))),
        (b"[Game]<Card:Jc>", CardRead(Card("J", "C"))),
        (b"[Manual Burn Cards]<Card:9D>", BurnRead(Card("9", "D"))),
        (b"[Game]<Game>", CardNotRead()),
        (b"[Game]<Alarm:E3 Card Not Read>", Alarm("E3 Card Not Read")),
        (b"[GameAlarm]<Alarm:E7 Something>", Alarm("E7 Something")),
        (b"<W0x01>", WarningCode("W0x01")),
        (b"< W0x1F >", WarningCode("W0x1F")),
        (b"<w 0x02>", WarningCode("w0x02")),
    ],
)
def test_each_kind_of_line_is_read(line: bytes, meaning) -> None:
    assert read(line + b"\r\n") == [meaning]
    assert read(line + b"\n") == [meaning]


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b"\r\n", "empty line"),
        (b"[Game]<Card:1S>\r\n", "unknown content <Card:1S>"),
        (b"[Game]<Card:4X>\r\n", "unknown content <Card:4X>"),
        (b"[Game]<Card:4S\r\n", "not a Bee-Tek line"),
        (b"[Deal]<Card:4S>\r\n", "a card under an unknown operation [Deal]"),
        (b"<Card:4S>\r\n", "a card under an unknown operation []"),
        (b"[Game]<Card:4S>\xff\r\n", "not a Bee-Tek line"),
        (b"[Game]<Alarm:E3 \x80>\r\n", "not a Bee-Tek line"),
        (b"[Game]<Card:\x014S>\r\n", "not a Bee-Tek line"),
        (b"hello\r\n", "not a Bee-Tek line"),
    ],
)
def test_anything_else_is_a_bad_line_with_its_bytes(line: bytes, reason: str) -> None:
    assert read(line + b"[Game]<Game>\r\n") == [BadBytes(line, reason, len(line)), CardNotRead()]


def test_a_line_too_long_is_dropped_as_it_comes_and_the_next_is_read() -> None:
    reader = BeeTekReader()
    found = []
    for _ in range(1000):
        found += reader.feed(b"x" * 100)
        assert reader.buffered <= LONGEST_LINE
    found += reader.feed(b"\r\n[Game]<Card:4S>\r\n")
    assert found[-1] == CardRead(Card("4", "S"))
    assert {item.reason for item in found[:-1]} == {f"line longer than {LONGEST_LINE} bytes"}
    assert sum(item.length for item in found[:-1]) == 100_002


def test_a_line_of_120_bytes_is_read_and_one_of_121_is_not() -> None:
    line = b"[Game]<Card:4S>" + b" " * (118 - 15) + b"\r\n"
    assert len(line) == 120 == LONGEST_LINE
    assert read(line, b" " + line) == [
        CardRead(Card("4", "S")),
        BadBytes(b" " + line[:31], "line longer than 120 bytes", 121),
    ]


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_lines_split_anywhere_read_the_same(data: st.DataObject) -> None:
    wire = b"[Manual Burn Cards]<Card:3C>\r\n[Game]<Card:4S>\r\n[Game]<Game>\r\njunk\r\n<W0x01>\r\n"
    cuts = sorted(data.draw(st.sets(st.integers(1, len(wire) - 1), max_size=20)))
    bounds = [0, *cuts, len(wire)]
    assert read(*(wire[a:b] for a, b in itertools.pairwise(bounds))) == read(wire)


@pytest.mark.slow
def test_ten_megabytes_of_garbage_keep_the_reader_bounded() -> None:
    rng = random.Random(23)
    reader, accounted = BeeTekReader(), 0
    for _ in range(2560):
        for item in reader.feed(rng.randbytes(4096)):
            assert isinstance(item, BadBytes) and len(item.data) <= 32
            accounted += item.length
        assert reader.buffered <= LONGEST_LINE
    assert accounted + reader.buffered == 2560 * 4096
