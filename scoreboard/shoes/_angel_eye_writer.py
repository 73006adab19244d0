"""Angel Eye's frames written: the reader's inverse, for the emulator and the tests.

>>> Transmitter().send(PowerOn(), Standby())[:12].hex(" ").upper()
'05 30 53 03 36 30 05 30 53 03 36 30'
"""

from __future__ import annotations

from scoreboard.game.cards import RANKS, Card
from scoreboard.game.rules import Winner
from scoreboard.shoes.angel_eye import (
    ENQ,
    ETX,
    Drawn,
    ErrorCleared,
    ErrorRaised,
    ExtraDiscarded,
    ExtraDrawn,
    ExtraUsed,
    Identity,
    Message,
    Position,
    PowerOn,
    Result,
    SeqGap,
    Standby,
    SuitOrder,
    Unknown,
    bcc,
)

__all__ = ["Transmitter", "card_byte", "encode", "frame"]

_WINNER_CODES = {Winner.PLAYER: 1, Winner.TIE: 2, Winner.BANKER: 4}
_BANKER_SIX = 5


def frame(seq: int, command: str, data: bytes = b"") -> bytes:
    """One frame as the shoe writes it once (upper-case BCC).

    >>> frame(0, "S").hex(" ").upper()
    '05 30 53 03 36 30'
    """
    body = bytes((0x30 + seq, ord(command), *data, ETX))
    return bytes((ENQ, *body)) + f"{bcc(body):02X}".encode()


def encode(message: Message, suits: SuitOrder | None = None) -> tuple[str, bytes]:
    """The letter and data bytes of ``message``: the reader's inverse.

    >>> encode(Result(Winner.BANKER, True, False, False))
    ('G', b'\\xc2')
    """
    if isinstance(message, SeqGap):
        raise ValueError("a SEQ gap is the reader's finding, not a frame")
    if isinstance(message, Unknown):
        return message.letter, message.data
    letter = _LETTERS_OF[type(message)]
    if isinstance(message, Result):
        return letter, bytes((_result_byte(message),))
    if isinstance(message, ErrorRaised | ErrorCleared):
        return letter, bytes((0x80 | message.bit6 << 6 | message.code,))
    position: Position | None = getattr(message, "position", None)
    if position is None:
        return letter, b""
    card = getattr(message, "card", None)
    return letter, bytes((position.byte(), card_byte(card, suits or SuitOrder())))


_LETTERS_OF: dict[type, str] = {
    PowerOn: "S",
    Standby: "P",
    Drawn: "D",
    Identity: "I",
    Result: "G",
    ErrorRaised: "E",
    ErrorCleared: "e",
    ExtraDrawn: "d",
    ExtraUsed: "R",
    ExtraDiscarded: "i",
}


def card_byte(card: Card | None, suits: SuitOrder) -> int:
    """``80`` for a withheld identity, else suit and rank (a card without a suit cannot go)."""
    if card is None:
        return 0x80
    if card.suit is None:
        raise ValueError(f"card {card} has no suit: an Angel Eye card byte needs one")
    return 0x80 | suits.number(card.suit) << 4 | RANKS.index(card.rank) + 1


def _result_byte(result: Result) -> int:
    code = _WINNER_CODES[result.winner]
    if result.banker_six:
        code = _BANKER_SIX
    return 0x80 | code << 4 | result.banker_pair << 1 | result.player_pair


class Transmitter:
    """Angel Eye's framing: SEQ 0 on power-on, then 1 to 9 wrapping; each frame three times.

    >>> Transmitter().send(Standby()) == frame(1, "P") * 3
    True
    """

    def __init__(self, suits: SuitOrder | None = None) -> None:
        self.suits = suits or SuitOrder()
        self.seq = 0

    def send(self, *messages: Message) -> bytes:
        out = b""
        for message in messages:
            self.seq = 0 if isinstance(message, PowerOn) else self.seq % 9 + 1
            out += frame(self.seq, *encode(message, self.suits)) * 3
        return out
