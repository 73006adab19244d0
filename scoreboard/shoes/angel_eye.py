"""Angel Eye's frames (docs/shoes.md section 1): bytes in, messages out, at any split.

A frame is ``05 SEQ CMD DATA(0-2) 03 BCC-high BCC-low``; the shoe sends each one
three times.  :class:`AngelEyeReader` takes the line's bytes as they arrive, in
reads of any size, and returns the messages in order, each once, with a
:class:`~scoreboard.shoes.discards.BadBytes` for every run of bytes it threw away
and why.  It holds at most one frame's bytes between reads, whatever the line
carries.  :mod:`scoreboard.shoes._angel_eye_writer` writes frames, for the emulator
and the tests.

>>> reader = AngelEyeReader()
>>> reader.feed(bytes.fromhex("05 36 49 93 BD 03 35 32") * 3)
[Identity(position=Position(seat=Seat(side=<Side.BANKER: 'B'>, number=3), burn=False, \
extra=False), card=Card(rank='K', suit='S'))]
>>> reader.feed(bytes.fromhex("FF FF C5 FC 05 30 53 03 36 31"))
[BadBytes(data=b'\\xff\\xff\\xc5\\xfc', reason='outside a frame', length=4), \
BadBytes(data=b'\\x050S\\x0361', reason='BCC mismatch: expected 60, got 61', length=6)]
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass

from scoreboard.game.cards import RANKS, Card
from scoreboard.game.rules import Winner
from scoreboard.game.seats import Seat, Side
from scoreboard.shoes.discards import BadBytes, Readout

__all__ = [
    "ENQ",
    "ERRORS",
    "ETX",
    "LONGEST_FRAME",
    "AngelEyeReader",
    "Drawn",
    "ErrorCleared",
    "ErrorRaised",
    "ExtraDiscarded",
    "ExtraDrawn",
    "ExtraUsed",
    "Identity",
    "Message",
    "Position",
    "PowerOn",
    "Result",
    "SeqGap",
    "Standby",
    "SuitOrder",
    "Unknown",
    "bcc",
]

ENQ, ETX = 0x05, 0x03
#: ENQ, SEQ, CMD, two data bytes, ETX, two BCC digits.
LONGEST_FRAME = 8
_LONGEST_BODY = LONGEST_FRAME - 3  # SEQ through ETX
_ENQS = re.compile(b"\x05+")
_HEX = frozenset(b"0123456789ABCDEFabcdef")
_LETTERS = frozenset(string.ascii_letters.encode())

#: The error codes of an ``E``/``e`` frame's low six bits, in words.
ERRORS = {
    1: "card not read",
    2: "over-draw",
    3: "result button misused",
    4: "card pushed back at the exit",
    5: "card pushed back inside the shoe",
    6: "card code error",
    7: "drawing timed out",
}

_WINNERS = {1: Winner.PLAYER, 2: Winner.TIE, 4: Winner.BANKER, 5: Winner.BANKER}
_BANKER_SIX = 5


@dataclass(frozen=True, slots=True)
class SuitOrder:
    """Which suit each of the card byte's suit numbers 1 to 4 names: a site's one setting.

    The numbering is not documented; the default is the one public decoder's
    reading (1 diamonds, 2 clubs, 3 spades, 4 hearts).

    >>> SuitOrder().suit(3), SuitOrder("SHDC").number("D")
    ('S', 3)
    """

    suits: str = "DCSH"

    def __post_init__(self) -> None:
        if sorted(self.suits) != sorted("SHDC"):
            raise ValueError(f"suit order {self.suits!r}: each of S H D C once, for numbers 1-4")

    def suit(self, number: int) -> str:
        return self.suits[number - 1]

    def number(self, suit: str) -> int:
        return self.suits.index(suit) + 1


@dataclass(frozen=True, slots=True)
class Position:
    """A position byte: the seat (card 0 is the shoe's face-up first card), burn and extra bits.

    A burned card's number counts down to 0 (its side is Banker).
    """

    seat: Seat
    burn: bool = False
    extra: bool = False

    def byte(self) -> int:
        side = 0x10 if self.seat.side is Side.BANKER else 0
        return 0x80 | self.burn << 6 | self.extra << 5 | side | self.seat.number

    @classmethod
    def from_byte(cls, value: int) -> Position:
        side = Side.BANKER if value & 0x10 else Side.PLAYER
        return cls(Seat(side, value & 0x0F), bool(value & 0x40), bool(value & 0x20))


@dataclass(frozen=True, slots=True)
class PowerOn:
    """``S``: the shoe powered on; whatever hand was open is abandoned."""


@dataclass(frozen=True, slots=True)
class Standby:
    """``P``: standby.  Its trigger is unknown: never read it as the end of a hand."""


@dataclass(frozen=True, slots=True)
class Drawn:
    """``D``: a card left the shoe; ``card`` is None while its identity is withheld."""

    position: Position
    card: Card | None


@dataclass(frozen=True, slots=True)
class Identity:
    """``I``: one card of the hand, disclosed at the reveal."""

    position: Position
    card: Card


@dataclass(frozen=True, slots=True)
class Result:
    """``G``: the hand's result as the shoe computed it."""

    winner: Winner
    banker_pair: bool
    player_pair: bool
    banker_six: bool


@dataclass(frozen=True, slots=True)
class _Error:
    code: int
    bit6: bool = False  # meaning unknown ("E C7" is seen beside an over-draw's "E 82")

    @property
    def meaning(self) -> str:
        """The code in words (:data:`ERRORS`), or that it is unknown."""
        return ERRORS.get(self.code, f"unknown error {self.code}")


@dataclass(frozen=True, slots=True)
class ErrorRaised(_Error):
    """``E``: an error was raised (``code`` in :data:`ERRORS`, or unknown)."""


@dataclass(frozen=True, slots=True)
class ErrorCleared(_Error):
    """``e``: that error was cleared."""


@dataclass(frozen=True, slots=True)
class ExtraDrawn:
    """``d``: an extra card was pulled (an over-draw), identity withheld."""

    position: Position


@dataclass(frozen=True, slots=True)
class ExtraUsed:
    """``R``: the held extra card is the next hand's card at ``position`` (Player card 1)."""

    position: Position


@dataclass(frozen=True, slots=True)
class ExtraDiscarded:
    """``i``: the held extra card is discarded; here is what it was."""

    position: Position
    card: Card


@dataclass(frozen=True, slots=True)
class Unknown:
    """A letter this reader does not know (``L``, ``M``, others): reported, never acted on."""

    letter: str
    data: bytes


@dataclass(frozen=True, slots=True)
class SeqGap:
    """The SEQ jumped: ``got`` where ``expected`` was due, so messages were lost between.

    The SEQ moves on with every new message (1 to 9, then 1 again; 0 on power-on),
    so this counts lost messages modulo 9: a hand that lost one is caught by its
    cards anyway; this says why.
    """

    expected: int
    got: int


Message = (
    PowerOn
    | Standby
    | Drawn
    | Identity
    | Result
    | ErrorRaised
    | ErrorCleared
    | ExtraDrawn
    | ExtraUsed
    | ExtraDiscarded
    | Unknown
    | SeqGap
)

_DATA_BYTES = {"S": 0, "P": 0, "D": 2, "I": 2, "G": 1, "E": 1, "e": 1, "d": 2, "R": 2, "i": 2}


class BadFrame(ValueError):
    """A well-formed frame whose content this reader refuses (the reason is the message)."""


def bcc(body: bytes) -> int:
    """XOR of every byte from SEQ through ETX.

    >>> f"{bcc(bytes.fromhex('30 53 03')):02X}"
    '60'
    """
    value = 0
    for byte in body:
        value ^= byte
    return value


class AngelEyeReader:
    """Frames from a byte stream, resynchronising on ENQ, each message once.

    ``suits`` maps the card byte's suit numbers.  ``buffered`` is what the
    reader holds between reads: at most :data:`LONGEST_FRAME` bytes.
    """

    def __init__(self, suits: SuitOrder | None = None) -> None:
        self.suits = suits or SuitOrder()
        self._frame = bytearray()  # from an ENQ on; empty outside a frame
        self._last = b""  # the frame accepted last: its repeats are dropped
        self._seq: int | None = None  # its SEQ: the next message's is one more
        self.repeats = 0

    @property
    def buffered(self) -> int:
        return len(self._frame)

    def feed(self, data: bytes) -> list[Message | BadBytes]:
        """The messages and discards ``data`` completes, in order.

        Bytes are taken a run at a time (up to the next ENQ, ETX or the frame's
        limit), not one by one: a line of noise costs a few steps per frame.
        """
        out: Readout[Message] = Readout()
        index, end = 0, len(data)
        while index < end:
            if not self._frame:
                start = data.find(ENQ, index)
                if start < 0:
                    out.discard(data[index:], "outside a frame")
                    break
                out.discard(data[index:start], "outside a frame")
                self._frame.append(ENQ)
                index = start + 1
            elif data[index] == ENQ:
                index = self._cut(data, index, out)
            else:
                stop = data.find(ENQ, index)
                index = self._extend(data, index, end if stop < 0 else stop, out)
        return out.take()

    def _cut(self, data: bytes, index: int, out: Readout[Message]) -> int:
        """A run of ENQs inside a frame: each cuts the frame short, the last one opens the next."""
        run = _ENQS.match(data, index)
        stop = index + 1 if run is None else run.end()
        self._frame += data[index : stop - 1]
        out.discard(self._frame, "frame cut short by the next ENQ")
        self._frame[:] = b"\x05"
        return stop

    def _extend(self, data: bytes, index: int, stop: int, out: Readout[Message]) -> int:
        """Bytes of ``data[index:stop]`` (no ENQ among them) join the open frame, up to its
        end (accepted) or its limit (discarded); the index reading goes on from."""
        frame = self._frame
        etx = frame.find(ETX)
        if etx < 0:
            room = 1 + _LONGEST_BODY - len(frame)  # the ETX must come within these bytes
            found = data.find(ETX, index, min(stop, index + room))
            if found < 0:
                if stop - index < room:
                    frame += data[index:stop]
                    return stop
                frame += data[index : index + room]
                out.discard(frame, f"no ETX within {LONGEST_FRAME} bytes of an ENQ")
                frame.clear()
                return index + room
            etx = len(frame) + found - index
        taken = min(stop, index + etx + 3 - len(frame))  # the two BCC digits after the ETX
        frame += data[index:taken]
        if len(frame) == etx + 3:
            self._accept(bytes(frame), out)
            frame.clear()
        return taken

    def _accept(self, raw: bytes, out: Readout[Message]) -> None:
        try:
            self._check(raw)
        except BadFrame as error:
            out.discard(raw, str(error))
            return
        copy = raw[:-2] + raw[-2:].upper()  # a BCC in either case is the same frame
        if copy == self._last:
            self.repeats += 1
            return
        self._last = copy
        seq, letter = raw[1] - 0x30, chr(raw[2])
        if letter != "S" and self._seq is not None and seq != self._seq % 9 + 1:
            out.put(SeqGap(self._seq % 9 + 1, seq))
        self._seq = seq
        try:
            out.put(self._decode(letter, raw[3:-3]))
        except BadFrame as error:
            out.discard(raw, str(error))

    @staticmethod
    def _check(raw: bytes) -> None:
        """The frame's structure: length, BCC, SEQ, CMD and data bytes."""
        body, check = raw[1:-2], raw[-2:]
        if len(body) < 3:
            raise BadFrame("frame too short: no SEQ or CMD")
        if not set(check) <= _HEX:
            raise BadFrame(f"BCC not hex digits: {check.hex(' ').upper()}")
        expected, got = f"{bcc(body):02X}", check.decode().upper()
        if expected != got:
            raise BadFrame(f"BCC mismatch: expected {expected}, got {got}")
        if not 0x30 <= raw[1] <= 0x39:
            raise BadFrame(f"bad SEQ {raw[1]:02X}: not an ASCII digit")
        if raw[2] not in _LETTERS:
            raise BadFrame(f"bad CMD {raw[2]:02X}: not an ASCII letter")
        for byte in raw[3:-3]:
            if byte < 0x80:
                raise BadFrame(f"data byte {byte:02X} without its top bit")

    def _decode(self, letter: str, data: bytes) -> Message:
        wanted = _DATA_BYTES.get(letter)
        if wanted is None:
            return Unknown(letter, data)
        if len(data) != wanted:
            raise BadFrame(f"{letter} frame with {len(data)} data bytes, expected {wanted}")
        if letter in "SP":
            return PowerOn() if letter == "S" else Standby()
        if letter in "Ee":
            code, bit6 = data[0] & 0x3F, bool(data[0] & 0x40)
            return ErrorRaised(code, bit6) if letter == "E" else ErrorCleared(code, bit6)
        if letter == "G":
            return _result(data[0])
        position = Position.from_byte(data[0])
        card = self._card(data[1])
        if letter == "D":
            return Drawn(position, card)
        if letter == "d":
            return ExtraDrawn(position)
        if letter == "R":
            return ExtraUsed(position)
        if card is None:
            raise BadFrame(f"{letter} frame without the card's identity (80)")
        return Identity(position, card) if letter == "I" else ExtraDiscarded(position, card)

    def _card(self, value: int) -> Card | None:
        if value == 0x80:
            return None
        suit, rank = value >> 4 & 0x07, value & 0x0F
        if not 1 <= suit <= 4 or not 1 <= rank <= 13:
            raise BadFrame(f"card byte {value:02X}: suit {suit} rank {rank} (1-4, 1-13)")
        return Card(RANKS[rank - 1], self.suits.suit(suit))


def _result(value: int) -> Result:
    code = value >> 4 & 0x07
    winner = _WINNERS.get(code)
    if winner is None:
        raise BadFrame(f"result byte {value:02X}: unknown winner code {code}, hand refused")
    return Result(winner, bool(value & 0x02), bool(value & 0x01), code == _BANKER_SIX)
