"""docs/shoes.md's bytes, as the spec prints them: the examples table and the whole session."""

from __future__ import annotations

from scoreboard.game.cards import Card
from scoreboard.game.rules import Winner
from scoreboard.game.seats import Seat, Side
from scoreboard.shoes.angel_eye import (
    Drawn,
    ErrorCleared,
    ErrorRaised,
    ExtraDiscarded,
    ExtraDrawn,
    ExtraUsed,
    Identity,
    Position,
    PowerOn,
    Result,
    Standby,
)

P1, B3, P2 = Seat(Side.PLAYER, 1), Seat(Side.BANKER, 3), Seat(Side.PLAYER, 2)

#: shoes.md's table of examples: bytes as they go on the wire once, and what they mean.
EXAMPLES = [
    ("05 30 53 03 36 30", PowerOn()),
    ("05 34 50 03 36 37", Standby()),
    ("05 31 44 81 80 03 37 37", Drawn(Position(P1), None)),
    (
        "05 31 44 C0 C5 03 37 33",
        Drawn(Position(Seat(Side.PLAYER, 0), burn=True), Card("5", "H")),
    ),
    ("05 36 49 93 BD 03 35 32", Identity(Position(B3), Card("K", "S"))),
    ("05 33 49 82 9A 03 36 31", Identity(Position(P2), Card("T", "D"))),
    ("05 37 47 D1 03 41 32", Result(Winner.BANKER, False, True, True)),
    ("05 32 47 A3 03 44 35", Result(Winner.TIE, True, True, False)),
    ("05 35 47 90 03 45 31", Result(Winner.PLAYER, False, False, False)),
    ("05 38 45 81 03 46 46", ErrorRaised(1)),
    ("05 39 65 81 03 44 45", ErrorCleared(1)),
    ("05 32 64 A0 80 03 37 35", ExtraDrawn(Position(Seat(Side.PLAYER, 0), extra=True))),
    ("05 33 52 81 80 03 36 33", ExtraUsed(Position(P1))),
    ("05 34 69 81 A4 03 37 42", ExtraDiscarded(Position(P1), Card("4", "C"))),
]

#: shoes.md's whole session, once per frame.
SESSION = """
05 30 53 03 36 30
05 31 44 C0 A3 03 31 35
05 32 44 D2 B9 03 31 45
05 33 44 D1 9D 03 33 38
05 34 44 D0 C4 03 36 37
05 35 44 81 80 03 37 33
05 36 44 91 80 03 36 30
05 37 44 82 80 03 37 32
05 38 44 92 80 03 36 44
05 39 44 83 80 03 37 44
05 31 44 93 80 03 36 35
05 32 49 81 A4 03 35 44
05 33 49 91 B7 03 35 46
05 34 49 82 C1 03 33 44
05 35 49 92 97 03 37 41
05 36 49 83 B5 03 34 41
05 37 49 93 A4 03 34 41
05 38 47 C2 03 42 45
05 39 50 03 36 41
"""
SESSION_FRAMES = [bytes.fromhex(line) for line in SESSION.split("\n") if line]
#: The session as the shoe sends it: each frame three times.
SESSION_WIRE = b"".join(raw * 3 for raw in SESSION_FRAMES)
