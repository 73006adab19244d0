"""Angel Eye's reader against docs/shoes.md section 1: every example, every bad byte, any split."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shoes_md import EXAMPLES, P1, SESSION_WIRE

from scoreboard.game.cards import Card
from scoreboard.game.rules import Winner
from scoreboard.shoes._angel_eye_writer import encode, frame
from scoreboard.shoes.angel_eye import (
    LONGEST_FRAME,
    AngelEyeReader,
    Drawn,
    ErrorRaised,
    Position,
    PowerOn,
    Result,
    SeqGap,
    Standby,
    SuitOrder,
    Unknown,
)
from scoreboard.shoes.discards import KEPT, BadBytes


def read(*chunks: bytes, suits: SuitOrder | None = None) -> list:
    reader = AngelEyeReader(suits)
    return [item for chunk in chunks for item in reader.feed(chunk)]


def messages(items: list) -> list:
    return [item for item in items if not isinstance(item, BadBytes)]


def discards(items: list) -> list[BadBytes]:
    return [item for item in items if isinstance(item, BadBytes)]


@pytest.mark.parametrize(("wire", "meaning"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_every_example_of_the_table_decodes_once_from_its_three_copies(wire, meaning) -> None:
    assert read(bytes.fromhex(wire) * 3) == [meaning]


@pytest.mark.parametrize(("wire", "meaning"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_every_example_is_written_back_byte_for_byte(wire, meaning) -> None:
    raw = bytes.fromhex(wire)
    assert frame(raw[1] - 0x30, *encode(meaning)) == raw


def test_the_whole_session_reads_as_the_spec_says() -> None:
    found = read(SESSION_WIRE)
    assert found[0] == PowerOn()
    burn = [item.card for item in found[1:5]]
    assert [str(card) for card in burn] == ["3C", "9S", "KD", "4H"]
    assert [item.position.seat.number for item in found[1:5]] == [0, 2, 1, 0]
    assert all(item.position.burn for item in found[1:5])
    dealt = found[5:11]
    assert [str(item.position.seat) for item in dealt] == ["P1", "B1", "P2", "B2", "P3", "B3"]
    assert all(isinstance(item, Drawn) and item.card is None for item in dealt)
    shown = found[11:17]
    assert [f"{item.position.seat}={item.card}" for item in shown] == [
        "P1=4C", "B1=7S", "P2=AH", "B2=7D", "P3=5S", "B3=4C"
    ]  # fmt: skip
    assert found[17:] == [Result(Winner.BANKER, True, False, False), Standby()]
    assert discards(found) == []


def test_a_report_reads_as_its_reason_and_bytes() -> None:
    assert str(BadBytes(b"\xff\xc5", "outside a frame", 2)) == "outside a frame: FF C5"
    assert str(BadBytes(b"\x05" * 32, "x", 40)).endswith("05 05 ... (40 bytes)")


def test_a_lower_case_bcc_is_accepted() -> None:
    assert read(bytes.fromhex("05 37 47 D1 03 61 32")) == [Result(Winner.BANKER, False, True, True)]


def test_only_a_repeat_of_the_frame_just_accepted_is_dropped() -> None:
    """The same bytes recur legitimately once SEQ has wrapped: only the one before is a copy."""
    a = frame(1, "P")
    wrapped = a * 3 + b"".join(frame(seq, "P") * 3 for seq in range(2, 10)) + a * 3
    assert read(wrapped) == [Standby()] * 10
    reader = AngelEyeReader()
    reader.feed(a * 3)
    assert reader.repeats == 2


def test_a_jump_of_seq_says_messages_were_lost() -> None:
    found = read(frame(8, "P"), frame(9, "P"), frame(3, "P"), frame(0, "S"), frame(1, "P"))
    assert found == [Standby(), Standby(), SeqGap(1, 3), Standby(), PowerOn(), Standby()]
    lower = bytes.fromhex("05 37 47 D1 03 61 32")  # the same frame with a lower-case BCC
    assert len(read(bytes.fromhex("05 37 47 D1 03 41 32") + lower)) == 1


def test_a_copy_after_noise_is_still_a_copy_but_a_bad_frame_is_not_accepted() -> None:
    a = frame(3, "D", bytes((0x81, 0x80)))
    assert messages(read(a + b"\xff" + a)) == [Drawn(Position(P1), None)]
    bad = bytearray(a)
    bad[-1] ^= 1  # its BCC broken: refused, so the next good copy is news
    assert messages(read(bytes(bad) + a)) == [Drawn(Position(P1), None)]


@pytest.mark.parametrize(
    ("wire", "reason"),
    [
        ("FF FF C5 FC", "outside a frame"),
        ("05 30 53 03 36 31", "BCC mismatch: expected 60, got 61"),
        ("05 30 53 03 47 30", "BCC not hex digits: 47 30"),
        ("05 41 53 03 31 31", "bad SEQ 41: not an ASCII digit"),
        ("05 30 33 03 30 30", "bad CMD 33: not an ASCII letter"),
        (frame(1, "D", b"\x01\x80").hex(" "), "data byte 01 without its top bit"),
        ("05 03 30 30", "frame too short: no SEQ or CMD"),
        ("05 31 44 81 80 99", f"no ETX within {LONGEST_FRAME} bytes of an ENQ"),
        ("05 31 44", "frame cut short by the next ENQ"),
    ],
)  # fmt: skip
def test_every_bad_run_is_reported_with_its_bytes_and_reason(wire: str, reason: str) -> None:
    raw = bytes.fromhex(wire)
    found = read(raw + bytes.fromhex("05 30 53 03 36 30"))
    assert found == [BadBytes(raw, reason, len(raw)), PowerOn()]


@pytest.mark.parametrize(
    ("letter", "data", "reason"),
    [
        ("G", b"\xb0", "result byte B0: unknown winner code 3, hand refused"),
        ("G", b"\x80", "result byte 80: unknown winner code 0, hand refused"),
        ("D", b"\x81", "D frame with 1 data bytes, expected 2"),
        ("S", b"\x81", "S frame with 1 data bytes, expected 0"),
        ("I", b"\x81\x80", "I frame without the card's identity (80)"),
        ("I", b"\x81\x8e", "card byte 8E: suit 0 rank 14 (1-4, 1-13)"),
        ("D", b"\x81\xd1", "card byte D1: suit 5 rank 1 (1-4, 1-13)"),
    ],
)
def test_a_well_formed_frame_the_spec_refuses_is_reported_once(letter, data, reason) -> None:
    raw = frame(5, letter, data)
    assert read(raw * 3) == [BadBytes(raw, reason, len(raw))]


@pytest.mark.parametrize("letter", ["L", "M", "Z", "x"])
@pytest.mark.parametrize("data", [b"", b"\x81", b"\x81\xfe"])
def test_unknown_letters_are_accepted_and_reported(letter: str, data: bytes) -> None:
    assert read(frame(4, letter, data) * 3) == [Unknown(letter, data)]


def test_error_codes_keep_their_code_and_say_their_meaning() -> None:
    found = read(frame(1, "E", b"\xc7"), frame(2, "E", b"\x82"), frame(3, "E", b"\xbf"))
    assert found == [ErrorRaised(7, bit6=True), ErrorRaised(2), ErrorRaised(63)]
    meanings = ["drawing timed out", "over-draw", "unknown error 63"]
    assert [item.meaning for item in found] == meanings


def test_the_suit_numbering_is_one_setting() -> None:
    raw = bytes.fromhex("05 36 49 93 BD 03 35 32")
    assert read(raw)[0].card == Card("K", "S")
    assert read(raw, suits=SuitOrder("HSCD"))[0].card == Card("K", "C")
    with pytest.raises(ValueError, match="each of S H D C once"):
        SuitOrder("SSHD")


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_the_session_split_anywhere_decodes_the_same(data: st.DataObject) -> None:
    cuts = sorted(data.draw(st.sets(st.integers(1, len(SESSION_WIRE) - 1), max_size=40)))
    bounds = [0, *cuts, len(SESSION_WIRE)]
    chunks = [SESSION_WIRE[a:b] for a, b in itertools.pairwise(bounds)]
    assert read(*chunks) == read(SESSION_WIRE)


def test_the_session_byte_by_byte_decodes_the_same() -> None:
    assert read(*(bytes((byte,)) for byte in SESSION_WIRE)) == read(SESSION_WIRE)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=64), st.binary(max_size=64))
def test_noise_around_a_frame_never_hides_it(before: bytes, after: bytes) -> None:
    """Whatever came before, the next ENQ resynchronises; the noise is reported, never raised."""
    raw = frame(6, "G", b"\xc2")
    found = read(before, raw, after)
    assert Result(Winner.BANKER, True, False, False) in found or raw in before


NOISE = st.sampled_from(
    [
        *(b"\x05", b"\x03", b"\x05\x05\x05", b"\x03\x03", b"0", b"6", b"D", b"S", b"A", b"\x81"),
        *(b"\xc2", b"\xff", frame(6, "G", b"\xc2"), frame(1, "D", b"\x81\x80")),
        frame(1, "D", b"\x81\x80")[:-1],
    ]
)


def merged(items: list) -> list:
    """``items`` with each run of discards for one reason joined, as one read reports it."""
    out: list = []
    for item in items:
        last = out[-1] if out else None
        if isinstance(item, BadBytes) and isinstance(last, BadBytes) and last.reason == item.reason:
            data = (last.data + item.data)[:KEPT]
            out[-1] = BadBytes(data, item.reason, last.length + item.length)
        else:
            out.append(item)
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(NOISE, max_size=40).map(b"".join))
def test_noise_read_at_once_reads_as_byte_by_byte(stream: bytes) -> None:
    """The reader takes runs of bytes at a time; one byte per read is the rule it must keep."""
    assert read(stream) == merged(read(*(bytes((byte,)) for byte in stream)))


def _bounded(stream: bytes, rng: random.Random) -> tuple[int, int]:
    """Feed ``stream`` in reads of 1 to 16 bytes, then 4 kB: the largest buffer seen between
    reads and the bytes the reports account for."""
    reader, largest, reported, at = AngelEyeReader(), 0, 0, 0
    while at < len(stream):
        size = rng.randint(1, 16) if at < 65536 else 4096
        for item in reader.feed(stream[at : at + size]):
            if isinstance(item, BadBytes):
                assert len(item.data) <= 32
                reported += item.length
        largest = max(largest, reader.buffered)
        at += size
    return largest, reported + reader.buffered


MEGABYTES = 10 * 1024 * 1024


@pytest.mark.slow
@pytest.mark.parametrize(
    "pattern",
    ["random", "enq flood", "never-ending frame", "almost frames", "etx flood"],
)
def test_ten_megabytes_of_garbage_keep_the_reader_bounded(pattern: str) -> None:
    rng = random.Random(23)
    stream = {
        "random": lambda: rng.randbytes(MEGABYTES),
        "enq flood": lambda: b"\x05" * MEGABYTES,
        "never-ending frame": lambda: b"\x05" + b"\x31\x44" + b"\x81" * (MEGABYTES - 3),
        "almost frames": lambda: frame(1, "D", b"\x81\x80")[:-1] * (MEGABYTES // 7),
        "etx flood": lambda: (b"\x05\x31" + b"\x03" * 97) * (MEGABYTES // 99),
    }[pattern]()
    largest, accounted = _bounded(stream, rng)
    assert largest <= LONGEST_FRAME
    assert accounted == len(stream)  # every byte reported (or still held), none lost
