"""The validated events a payload decodes to: frozen values, one class per message.

They are the only thing the rest of the kiosk sees of the network: the feed
applies them to the table, the journal stores them and the controller publishes
them.  ``Event`` is the union of all of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoreboard.core.cards import Card
from scoreboard.core.rules import Game
from scoreboard.core.table import Limits


@dataclass(frozen=True, slots=True)
class CoupReceived:
    shoe: str
    game: Game
    ts: str | None = None


@dataclass(frozen=True, slots=True)
class NewShoe:
    shoe: str


@dataclass(frozen=True, slots=True)
class Shuffle:
    pass


@dataclass(frozen=True, slots=True)
class Burn:
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CutCard:
    """The cut card is out: the next coup is the last of the shoe."""


@dataclass(frozen=True, slots=True)
class Void:
    shoe: str
    game: int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Correct:
    shoe: str
    game: Game
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The controller's whole current shoe, for catching up after a gap or a reconnect."""

    shoe: str
    games: tuple[Game, ...]
    voided: tuple[int, ...] = ()
    ts: str | None = None


@dataclass(frozen=True, slots=True)
class LimitsReceived:
    limits: Limits


@dataclass(frozen=True, slots=True)
class ControllerStatus:
    online: bool


@dataclass(frozen=True, slots=True)
class ResyncRequest:
    display: str | None = None
    shoe: str | None = None
    missing: tuple[int, ...] = ()


Event = (
    CoupReceived
    | NewShoe
    | Shuffle
    | Burn
    | CutCard
    | Void
    | Correct
    | Snapshot
    | LimitsReceived
    | ControllerStatus
    | ResyncRequest
)
