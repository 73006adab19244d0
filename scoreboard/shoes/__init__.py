"""Card-reading shoes: what they send, and what the table must hear of it (docs/shoes.md).

Pure, like the core: bytes in, values out, no serial port, disk, clock or log, so
every flow is tested by feeding bytes.  Two steps per shoe:

- a reader turns the line's bytes into the shoe's messages, in reads of any size,
  each message once, with a :class:`BadBytes` for every run it throws away
  (:class:`AngelEyeReader`, :class:`BeeTekReader`);
- its hands turn messages into the table's news: core events (new shoe, burn, coup)
  and the shoe's own (a card dealt face down, health, an integrity alert)
  (:class:`AngelEyeHands`, :class:`BeeTekHands`).

:mod:`scoreboard.shoes.emulate` is the inverse, for ``shoe --emulate`` and the tests.
Inside: ``angel_eye``, ``bee_tek`` (the readers and the messages), ``discards``,
``seats`` (where the tableau deals each card), ``news`` (the news values,
``ShoeBook``, ``LineFaults``), ``angel_eye_hands``, ``bee_tek_hands``, ``emulate``.

>>> reader, hands = AngelEyeReader(), AngelEyeHands(ShoeBook(lambda: "S1"))
>>> news = hands.hear_all(reader.feed(bytes.fromhex("05 30 53 03 36 30") * 3))
>>> news, hands.tally.bad_runs
([PoweredOn(mid_hand=False)], 0)
"""

from __future__ import annotations

from scoreboard.game.events import CardDealt
from scoreboard.game.seats import Seat, Side
from scoreboard.shoes.angel_eye import AngelEyeReader, SuitOrder
from scoreboard.shoes.angel_eye_hands import AngelEyeHands
from scoreboard.shoes.bee_tek import BeeTekReader
from scoreboard.shoes.bee_tek_hands import BeeTekHands
from scoreboard.shoes.discards import BadBytes
from scoreboard.shoes.news import (
    CardsDisagree,
    ExtraCard,
    ExtraFate,
    HandAbandoned,
    LineFaults,
    MessagesLost,
    News,
    PoweredOn,
    ShoeAlarm,
    ShoeBook,
    UnknownMessage,
)

__all__ = [
    "AngelEyeHands",
    "AngelEyeReader",
    "BadBytes",
    "BeeTekHands",
    "BeeTekReader",
    "CardDealt",
    "CardsDisagree",
    "ExtraCard",
    "ExtraFate",
    "HandAbandoned",
    "LineFaults",
    "MessagesLost",
    "News",
    "PoweredOn",
    "Seat",
    "ShoeAlarm",
    "ShoeBook",
    "Side",
    "SuitOrder",
    "UnknownMessage",
]
