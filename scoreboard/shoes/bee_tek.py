"""Bee-Tek's text lines (docs/shoes.md section 2): one line per card, no result.

:class:`BeeTekReader` takes the line's bytes in reads of any size and returns
what each complete line says, or a :class:`~scoreboard.shoes.discards.BadBytes`
with the line's bytes and why it was refused.  A line longer than
:data:`LONGEST_LINE` is thrown away as it arrives, so the reader never holds more.

>>> BeeTekReader().feed(b"[Game]<Card:4S>\\r\\n[Manual Burn Cards]< Card : 10h >\\r\\n")
[CardRead(card=Card(rank='4', suit='S')), BurnRead(card=Card(rank='T', suit='H'))]
>>> BeeTekReader().feed(b"[GameAlarm]<Alarm:E3 Card Not Read>\\r\\n<W0x01>\\r\\n")
[Alarm(text='E3 Card Not Read'), WarningCode(code='W0x01')]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from scoreboard.game.cards import Card
from scoreboard.shoes.discards import BadBytes, Readout

__all__ = [
    "LONGEST_LINE",
    "Alarm",
    "BeeTekReader",
    "BurnRead",
    "CardNotRead",
    "CardRead",
    "Line",
    "WarningCode",
    "card_line",
]

#: Longer lines are not the shoe's (its longest alarm is well under this).
LONGEST_LINE = 120

_LINE = re.compile(rb"\s*(?:\[\s*([^\]]*?)\s*\])?\s*<\s*([^<>]*?)\s*>\s*")
_CARD = re.compile(r"card\s*:\s*(10|[2-9atjqk])\s*([cdhs])", re.IGNORECASE)
_WARNING = re.compile(r"w\s*0x[0-9a-f]+", re.IGNORECASE)
_BURN, _GAME = "manual burn cards", "game"


@dataclass(frozen=True, slots=True)
class CardRead:
    """``[Game]<Card:4S>``: a card of the hand left the shoe."""

    card: Card


@dataclass(frozen=True, slots=True)
class BurnRead:
    """``[Manual Burn Cards]<Card:...>``: a card of the burn."""

    card: Card


@dataclass(frozen=True, slots=True)
class CardNotRead:
    """``[Game]<Game>``: a card left the shoe unread."""


@dataclass(frozen=True, slots=True)
class Alarm:
    """``[Game]<Alarm:E3 Card Not Read>`` or ``[GameAlarm]<Alarm:...>``."""

    text: str


@dataclass(frozen=True, slots=True)
class WarningCode:
    """``<W0x01>`` and the like: meanings unknown, reported."""

    code: str


Line = CardRead | BurnRead | CardNotRead | Alarm | WarningCode


class BeeTekReader:
    """Lines ending in LF (a CR before it is dropped), each decoded or refused."""

    def __init__(self) -> None:
        self._line = bytearray()
        self._overlong = False  # the rest of a too-long line is being thrown away

    @property
    def buffered(self) -> int:
        return len(self._line)

    def feed(self, data: bytes) -> list[Line | BadBytes]:
        """What the lines ``data`` completes say, in order."""
        out: Readout[Line] = Readout()
        index = 0
        while index < len(data):
            end = data.find(b"\n", index)
            piece = data[index:] if end < 0 else data[index : end + 1]
            index += len(piece)
            if self._overlong or len(self._line) + len(piece) > LONGEST_LINE:
                self._throw(piece, out)
                continue
            self._line += piece
            if end >= 0:
                line, self._line = bytes(self._line), bytearray()
                self._decode(line, out)
        return out.take()

    def _throw(self, piece: bytes, out: Readout[Line]) -> None:
        """Part of a line too long to be the shoe's: dropped as it comes."""
        out.discard(self._line + piece, f"line longer than {LONGEST_LINE} bytes")
        self._line.clear()
        self._overlong = not piece.endswith(b"\n")

    @staticmethod
    def _decode(line: bytes, out: Readout[Line]) -> None:
        try:
            out.put(_meaning(line))
        except ValueError as error:
            out.discard(line, str(error))


def _meaning(line: bytes) -> Line:
    """One line (with its CR LF) -> what it says; ``ValueError`` names what is wrong."""
    text = line.rstrip(b"\r\n")
    if not text.strip():
        raise ValueError("empty line")
    match = _LINE.fullmatch(text)
    if match is None or any(byte >= 0x80 or byte < 0x20 for byte in text if byte != 0x09):
        raise ValueError("not a Bee-Tek line")
    operation = (match.group(1) or b"").decode()
    content = match.group(2).decode()
    if _WARNING.fullmatch(content):
        return WarningCode(content.replace(" ", ""))
    if content.lower().startswith("alarm") and content[5:].lstrip().startswith(":"):
        return Alarm(content[5:].lstrip()[1:].strip())
    if operation.lower() == _GAME and content.lower() == "game":
        return CardNotRead()
    card = _CARD.fullmatch(content)
    if card is None:
        raise ValueError(f"unknown content <{content}>")
    rank, suit = card.groups()
    read = Card("T" if rank == "10" else rank.upper(), suit.upper())
    if operation.lower() == _GAME:
        return CardRead(read)
    if operation.lower() == _BURN:
        return BurnRead(read)
    raise ValueError(f"a card under an unknown operation [{operation}]")


def card_line(card: Card, *, burn: bool = False) -> bytes:
    """The line the shoe writes for ``card`` (the emulator's; the tests vary the spelling).

    >>> card_line(Card("T", "H"), burn=True)
    b'[Manual Burn Cards]<Card:TH>\\r\\n'
    """
    operation = "Manual Burn Cards" if burn else "Game"
    return f"[{operation}]<Card:{card}>\r\n".encode()
