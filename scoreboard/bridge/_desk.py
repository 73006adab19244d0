"""The shoe's desk: the line's bytes in, what the table's controller says out.

Between the serial line (:mod:`~scoreboard.controller.shoe_line`) and whoever
publishes or shows the table (the bridge; a display reading its own shoe), and
independent of both: it holds the shoe's reader and hands
(:mod:`scoreboard.shoes`), turns their news into core events (new shoe, burn,
coup, a card dealt face down, the shoe's health) and keeps what staff are shown:
the conditions raised now and the tally of what went wrong on the line.

The line's noise (bad bytes, an unknown message, a lost message) goes out at
most once per :data:`SEEN_EVERY` seconds per condition, the next one counting
those held back, so ten megabytes of noise cost a few events and log lines; the
tally counts them all.

>>> desk = ShoeDesk(Emulated.ANGEL_EYE, next_shoe=iter(["S1"]).__next__)
>>> [type(event).__name__ for event in desk.feed(bytes.fromhex("05 30 53 03 36 30"), 0.0)]
['ShoeHealth']
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from scoreboard.controller.open_hand import OpenHand
from scoreboard.game.cards import Card
from scoreboard.game.events import Burn, CardDealt, CoupReceived, NewShoe, ShoeHealth
from scoreboard.protocol.contract import MAX_DETAIL
from scoreboard.shoes import (
    AngelEyeHands,
    AngelEyeReader,
    BadBytes,
    BeeTekHands,
    BeeTekReader,
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
    SuitOrder,
    UnknownMessage,
)
from scoreboard.shoes.emulate import Emulated

__all__ = ["SEEN_EVERY", "DeskEvent", "ShoeDesk", "cards_text"]

#: A shoe's own code that can name a condition (``error:E3``, ``error:W0x01``); others: ``alarm``.
_CODE = re.compile(r"[0-9A-Za-z_.-]{1,16}")
#: Seconds between two published reports of the same noise condition.
SEEN_EVERY = 1.0
#: The conditions a noisy line repeats: paced.  An abandoned hand or a disagreement never is.
PACED = frozenset({"bad_bytes", "unknown_message", "messages_lost"})

DeskEvent = NewShoe | Burn | CoupReceived | CardDealt | ShoeHealth


@dataclass(slots=True)
class _Held:
    """Once-seen reports of one condition held back since the last one that went out."""

    last: float
    count: int = 0


class ShoeDesk:
    """One shoe's bytes in, the table's events out (see the module docstring).

    ``shoe`` and ``games`` continue a shoe after a restart; ``next_shoe`` names
    each new one; ``suits`` is Angel Eye's suit numbering (a site's setting).
    """

    def __init__(
        self,
        kind: Emulated,
        *,
        next_shoe: Callable[[], str],
        shoe: str | None = None,
        games: int = 0,
        decks: int | None = None,
        suits: SuitOrder | None = None,
    ) -> None:
        self.kind = kind
        self.book = ShoeBook(next_shoe, shoe=shoe, games=games, decks=decks)
        self.hands: AngelEyeHands | BeeTekHands
        if kind is Emulated.ANGEL_EYE:
            angel_eye, reader = AngelEyeHands(self.book), AngelEyeReader(suits)
            self.hands, self._hear = angel_eye, lambda data: angel_eye.hear_all(reader.feed(data))
        else:
            bee_tek, lines = BeeTekHands(self.book), BeeTekReader()
            self.hands, self._hear = bee_tek, lambda data: bee_tek.hear_all(lines.feed(data))
        #: The lasting conditions raised now, by condition: what a late display must see.
        self.raised: dict[str, ShoeHealth] = {}
        self._held: dict[str, _Held] = {}

    @property
    def tally(self) -> LineFaults:
        return self.hands.tally

    @property
    def open_hand(self) -> OpenHand | None:
        """What the shoe is in the middle of (a burn; a Bee-Tek hand): a restart's to go on with."""
        if self.book.shoe is None:
            return None
        hands = self.hands
        burn = None if hands.burn is None else tuple(hands.burn)
        if isinstance(hands, AngelEyeHands):
            return OpenHand(self.book.shoe, self.book.game, (), burn)
        return OpenHand(self.book.shoe, self.book.game, tuple(hands.cards), burn, hands.burn_wanted)

    def resume(self, hand: OpenHand) -> bool:
        """Go on with ``hand`` if it is the next game of the current shoe (else it was done)."""
        if (hand.shoe, hand.game) != (self.book.shoe, self.book.game):
            return False
        self.hands.burn = None if hand.burn is None else list(hand.burn)
        if isinstance(self.hands, BeeTekHands):
            self.hands.cards = list(hand.cards)
            self.hands.burn_wanted = hand.wanted
        return True

    def follow(self, shoe: str) -> None:
        """The pit started shoe ``shoe``: the next hands are its games, from 1."""
        self.book.shoe, self.book.games = shoe, 0

    def feed(self, data: bytes, now: float) -> list[DeskEvent]:
        """The events ``data`` completes, in order (``now``: a monotonic time, for the pacing)."""
        news = self._hear(data)
        return [event for item in news for event in self._told(item, now)]

    def line_down(self, reason: str) -> list[DeskEvent]:
        """The serial device is gone (or never opened): a lasting condition, raised once."""
        return self._lasting(ShoeHealth("device", "raised", _clipped(reason)))

    def line_up(self, path: str) -> list[DeskEvent]:
        return self._lasting(ShoeHealth("device", "cleared", f"{path} is back"))

    def _told(self, item: News, now: float) -> list[DeskEvent]:
        if isinstance(item, NewShoe | Burn | CoupReceived | CardDealt):
            return [item]
        if isinstance(item, ShoeAlarm):
            return self._alarm(item)
        if isinstance(item, ExtraCard):
            if item.fate is ExtraFate.HELD:
                return self._lasting(self._health("extra_card", "raised", "held"))
            return self._lasting(self._health("extra_card", "cleared", item.fate.value))
        return self._seen(_condition(item), _detail(item), now, item)

    def _alarm(self, alarm: ShoeAlarm) -> list[DeskEvent]:
        code = alarm.code if _CODE.fullmatch(alarm.code) else "alarm"
        condition = f"error:{code}"
        if self.kind is Emulated.BEE_TEK or alarm.once:  # never cleared: each one seen once
            return [self._health(condition, "seen", alarm.meaning)]
        state = "raised" if alarm.raised else "cleared"
        return self._lasting(self._health(condition, state, alarm.meaning))

    def _lasting(self, health: ShoeHealth) -> list[DeskEvent]:
        """A condition raised or cleared, told only when that changes what is raised."""
        if health.state == "raised":
            if health.condition in self.raised:
                return []
            self.raised[health.condition] = health
            return [health]
        if self.raised.pop(health.condition, None) is None:
            return []
        return [health]

    def _seen(self, condition: str, detail: str, now: float, item: News) -> list[DeskEvent]:
        shoe, game = _place(item)
        if condition not in PACED:
            return [ShoeHealth(condition, "seen", _clipped(detail), shoe, game)]
        held = self._held.get(condition)
        if held is not None and now - held.last < SEEN_EVERY:
            held.count += 1
            return []
        if held is not None and held.count:
            detail = f"{detail} ({held.count} more since the last report)"
        self._held[condition] = _Held(now)
        return [ShoeHealth(condition, "seen", _clipped(detail), shoe, game)]

    def _health(self, condition: str, state: str, detail: str) -> ShoeHealth:
        return ShoeHealth(condition, state, _clipped(detail), self.book.shoe, self.book.game)


def _clipped(detail: str) -> str:
    """``detail`` within what the protocol carries (:data:`MAX_DETAIL` characters)."""
    return detail if len(detail) <= MAX_DETAIL else detail[: MAX_DETAIL - 3] + "..."


def cards_text(cards: tuple[Card | None, ...]) -> str:
    """Cards for staff, an unread or withheld one as ``?``.

    >>> cards_text((Card("9", "H"), None))
    '9H ?'
    """
    return " ".join("?" if card is None else str(card) for card in cards) or "none"


_CONDITIONS: dict[type, str] = {
    BadBytes: "bad_bytes",
    UnknownMessage: "unknown_message",
    MessagesLost: "messages_lost",
    PoweredOn: "powered_on",
    HandAbandoned: "hand_abandoned",
    CardsDisagree: "cards_disagree",
}


def _condition(item: News) -> str:
    return _CONDITIONS[type(item)]


def _detail(item: News) -> str:
    """The news in words for staff: the bytes, the cards, why."""
    if isinstance(item, BadBytes):
        return str(item)
    if isinstance(item, UnknownMessage):
        data = item.data.hex(" ").upper() or "no data"
        return f"unknown message {item.letter!r}: {data}"
    if isinstance(item, MessagesLost):
        return f"SEQ {item.got} came where {item.expected} was due: messages lost"
    if isinstance(item, PoweredOn):
        return "in the middle of a hand" if item.mid_hand else "between hands"
    if isinstance(item, HandAbandoned):
        return f"game {item.game} abandoned ({item.reason}); cards {cards_text(item.cards)}"
    if isinstance(item, CardsDisagree):
        return (
            f"game {item.game}: Player {cards_text(item.player)}, "
            f"Banker {cards_text(item.banker)}, the shoe said {item.winner.name.title()}: "
            f"{item.detail}; published as the shoe's result alone"
        )
    raise TypeError(f"no words for {item!r}")


def _place(item: News) -> tuple[str | None, int | None]:
    if isinstance(item, HandAbandoned | CardsDisagree):
        return item.shoe, item.game
    return None, None
