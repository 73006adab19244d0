"""The shoe's desk and line without a broker: what reaches the table, and when."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
import serial

from scoreboard.bridge._desk import SEEN_EVERY, ShoeDesk
from scoreboard.controller.open_hand import HandFile, OpenHand
from scoreboard.controller.shoe_line import (
    FIRST_RETRY,
    MAX_RETRY,
    PATH_CHECK_SECONDS,
    LineDown,
    LineUp,
    ShoeLine,
)
from scoreboard.game.cards import parse_cards
from scoreboard.game.events import Burn, CardDealt, ShoeHealth
from scoreboard.game.seats import Seat, Side
from scoreboard.shoes import SuitOrder
from scoreboard.shoes._angel_eye_writer import Transmitter
from scoreboard.shoes.angel_eye import Drawn, ErrorCleared, ErrorRaised, Position, PowerOn
from scoreboard.shoes.bee_tek import card_line
from scoreboard.shoes.emulate import Emulated


def desk(kind: Emulated = Emulated.ANGEL_EYE) -> ShoeDesk:
    return ShoeDesk(kind, next_shoe=iter(["S1", "S2"]).__next__)


def health(events: list) -> list[tuple[str, str]]:
    return [(e.condition, e.state) for e in events if isinstance(e, ShoeHealth)]


def test_noise_is_reported_once_a_second_and_counted_whole() -> None:
    shoe = desk()
    told = [shoe.feed(b"\xff\xfe", at) for at in (0.0, 0.2, 0.4)]
    assert [health(events) for events in told] == [[("bad_bytes", "seen")], [], []]
    (later,) = shoe.feed(b"\xff", SEEN_EVERY + 0.1)
    assert isinstance(later, ShoeHealth) and "(2 more since the last report)" in later.detail
    assert "FF" in later.detail and shoe.tally.bad_runs == 4 and shoe.tally.bad_bytes == 7


def test_an_error_is_raised_and_cleared_once_each() -> None:
    wire, shoe = Transmitter(), desk()
    raised = wire.send(PowerOn(), ErrorRaised(1))
    again = wire.send(ErrorRaised(1))
    cleared = wire.send(ErrorCleared(1))
    assert health(shoe.feed(raised, 0)) == [("powered_on", "seen"), ("error:1", "raised")]
    assert health(shoe.feed(again, 0)) == []
    assert shoe.raised["error:1"].detail == "card not read"
    assert health(shoe.feed(cleared, 0)) == [("error:1", "cleared")]
    assert shoe.raised == {}


def test_an_error_the_shoe_never_clears_is_seen_never_left_raised() -> None:
    wire, shoe = Transmitter(), desk()
    told = shoe.feed(wire.send(PowerOn(), ErrorRaised(7, bit6=True)), 0)
    assert health(told) == [("powered_on", "seen"), ("error:7", "seen")]
    assert shoe.raised == {}


def test_a_bee_tek_alarm_is_seen_never_left_raised() -> None:
    shoe = desk(Emulated.BEE_TEK)
    assert health(shoe.feed(b"[GameAlarm]<Alarm:E3 Card Not Read>\r\n", 0)) == [
        ("error:E3", "seen")
    ]
    assert shoe.raised == {}


def test_the_device_goes_and_comes_back_once_each() -> None:
    shoe = desk()
    assert health(shoe.line_down("gone")) == [("device", "raised")]
    assert shoe.line_down("still gone") == []
    assert health(shoe.line_up("/dev/x")) == [("device", "cleared")]
    assert shoe.line_up("/dev/x") == []


def test_an_abandoned_bee_tek_hand_names_its_cards() -> None:
    shoe = desk(Emulated.BEE_TEK)
    lines = b"".join(card_line(card) for card in parse_cards(["4S", "2H"])) + b"[Game]<Game>\r\n"
    shoe.feed(lines, 0)
    (abandoned,) = [
        e for e in shoe.feed(card_line(parse_cards(["9D"])[0]) * 3, 0) if isinstance(e, ShoeHealth)
    ]
    assert abandoned.condition == "hand_abandoned" and "4S 2H ? 9D" in abandoned.detail


def test_a_kept_bee_tek_hand_resumes_only_as_the_next_game(tmp_path: Path) -> None:
    shoe = desk(Emulated.BEE_TEK)
    dealt = shoe.feed(b"".join(card_line(c) for c in parse_cards(["4S", "2H"])), 0)
    assert [e.seat.number for e in dealt if isinstance(e, CardDealt)] == [1, 1]
    kept = HandFile(tmp_path)
    kept.keep(shoe.open_hand)
    hand = HandFile(tmp_path).load()
    assert hand == OpenHand("S1", 1, tuple(parse_cards(["4S", "2H"])))
    again = ShoeDesk(Emulated.BEE_TEK, next_shoe=iter(["S9"]).__next__, shoe="S1", games=0)
    assert again.resume(hand)
    (card,) = [
        e for e in again.feed(card_line(parse_cards(["KD"])[0]), 0) if isinstance(e, CardDealt)
    ]
    assert str(card.seat) == "P2"
    done = ShoeDesk(Emulated.BEE_TEK, next_shoe=iter(["S9"]).__next__, shoe="S1", games=1)
    assert not done.resume(hand)  # its coup was journaled before the kill: not dealt twice
    kept.keep(OpenHand("S1", 1))
    assert not (tmp_path / "shoe_hand.json").exists()


@pytest.mark.parametrize("kind", list(Emulated))
def test_a_burn_cut_by_a_restart_is_finished_as_the_same_shoe_s(
    tmp_path: Path, kind: Emulated
) -> None:
    cards = parse_cards(["3C", "9S", "2D", "KH"])
    if kind is Emulated.ANGEL_EYE:
        seats = [Seat(Side.PLAYER, 0), *(Seat(Side.BANKER, left) for left in (2, 1, 0))]
        wire = Transmitter()
        pieces = [
            wire.send(Drawn(Position(s, burn=True), c)) for s, c in zip(seats, cards, strict=True)
        ]
    else:
        pieces = [card_line(card, burn=True) for card in cards]
    shoe = desk(kind)
    opened = shoe.feed(b"".join(pieces[:2]), 0)
    assert [type(e).__name__ for e in opened] == ["NewShoe"]
    HandFile(tmp_path).keep(shoe.open_hand)
    again = ShoeDesk(kind, next_shoe=iter(["S9"]).__next__, shoe="S1", games=0)
    kept = HandFile(tmp_path).load()
    assert kept is not None and again.resume(kept)
    (burn,) = again.feed(b"".join(pieces[2:]), 0)
    assert burn == Burn(tuple(cards), "S1")


def test_an_unreadable_kept_hand_is_forgotten(tmp_path: Path) -> None:
    (tmp_path / "shoe_hand.json").write_text('{"shoe": "S1", "game": 1, "cards": ["ZZ"]}')
    assert HandFile(tmp_path).load() is None


def test_a_line_that_cannot_open_is_tried_again_with_a_bounded_wait() -> None:
    now = [0.0]
    waits: list[float] = []

    def refuse(*_args, **_kwargs) -> serial.Serial:
        raise serial.SerialException("no such device")

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        now[0] += seconds

    line = ShoeLine(
        "/dev/none", 4800, timeout=10.0, opener=refuse, clock=lambda: now[0], sleep=sleep
    )
    first = line.read()
    assert len(first) == 1 and isinstance(first[0], LineDown)
    for _ in range(12):
        assert line.read() == []
    assert waits[0] == FIRST_RETRY and max(waits) == MAX_RETRY


def read_until(line: ShoeLine, news: type, reads: int) -> list:
    """What ``line`` gave, read after read, until ``news`` came (at most ``reads`` reads)."""
    items: list = []
    for _ in range(reads):
        items += line.read()
        if any(isinstance(item, news) for item in items):
            break
    return items


def test_a_pty_pulled_and_put_back_is_read_again(tmp_path: Path) -> None:
    master, slave = os.openpty()
    device = tmp_path / "shoe"
    device.symlink_to(os.ttyname(slave))
    line = ShoeLine(str(device), 9600, timeout=0.05)
    assert line.read() == [] and line.up
    os.write(master, b"abc")
    assert b"".join(x for x in line.read() if isinstance(x, bytes)) == b"abc"
    for fd in (master, slave):
        os.close(fd)
    device.unlink()
    gone = read_until(line, LineDown, reads=40)
    # Gone long enough for two reopenings to fail: FIRST_RETRY after the loss, then again.
    end = time.monotonic() + 3 * FIRST_RETRY
    while time.monotonic() < end:
        gone += line.read()
    assert [type(item) for item in gone if not isinstance(item, bytes)] == [LineDown]
    master, slave = os.openpty()
    device.symlink_to(os.ttyname(slave))
    back = read_until(line, LineUp, reads=80)
    # Up, it stays up: two looks at the path find the same device.
    back += [item for _ in range(round(2 * PATH_CHECK_SECONDS / 0.05)) for item in line.read()]
    assert [type(item) for item in back if not isinstance(item, bytes)] == [LineUp]
    os.write(master, b"xyz")
    assert b"".join(x for _ in range(5) for x in line.read() if isinstance(x, bytes)) == b"xyz"
    line.close()
    for fd in (master, slave):
        os.close(fd)


def burn_of(shoe: ShoeDesk, wire: Transmitter) -> tuple:
    """The burn ``shoe`` reads from a new shoe: the face-up 3 of clubs and three cards."""
    cards = parse_cards(["3C", "9S", "2D", "KH"])
    seats = [Seat(Side.PLAYER, 0), *(Seat(Side.BANKER, left) for left in (2, 1, 0))]
    data = wire.send(
        PowerOn(), *(Drawn(Position(s, burn=True), c) for s, c in zip(seats, cards, strict=True))
    )
    (burn,) = [event for event in shoe.feed(data, 0) if isinstance(event, Burn)]
    return burn.cards


@pytest.mark.parametrize("order", ["SHDC", "HSCD"])
def test_the_suit_numbering_is_the_site_s_setting(order: str) -> None:
    suits = SuitOrder(order)
    site = ShoeDesk(Emulated.ANGEL_EYE, next_shoe=iter(["S1"]).__next__, suits=suits)
    assert burn_of(site, Transmitter(suits)) == tuple(parse_cards(["3C", "9S", "2D", "KH"]))
    assert burn_of(desk(), Transmitter(suits)) != tuple(parse_cards(["3C", "9S", "2D", "KH"]))


def test_a_second_reader_of_the_same_line_is_refused() -> None:
    master, slave = os.openpty()
    first = ShoeLine(os.ttyname(slave), 9600, timeout=0.05)
    second = ShoeLine(os.ttyname(slave), 9600, timeout=0.05)
    try:
        assert first.read() == [] and first.up
        (refused,) = second.read()
        assert isinstance(refused, LineDown) and "lock" in refused.reason
    finally:
        first.close()
        second.close()
        for fd in (master, slave):
            os.close(fd)
