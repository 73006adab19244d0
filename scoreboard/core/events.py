"""The one event vocabulary: what happens at a table, as frozen values.

Everything that changes a table is one of these, whoever produced it: the
simulated dealer yields them, the protocol decodes MQTT payloads into them, the
journal stores and replays them, the controller publishes them, and
:func:`scoreboard.core.table.apply_event` applies them.  ``Event`` is the union.

>>> from scoreboard.core.rules import Game, Winner, result_coup
>>> CoupReceived("S1", Game(1, result_coup(Winner.BANKER))).game.coup.winner.value
'B'
"""

from __future__ import annotations

from dataclasses import dataclass

from scoreboard.core.cards import Card
from scoreboard.core.limits import Limits
from scoreboard.core.rules import Game


@dataclass(frozen=True, slots=True)
class CoupReceived:
    """A finished coup of shoe ``shoe``: ``(shoe, game.number)`` identifies it."""

    shoe: str
    game: Game
    ts: str | None = None


@dataclass(frozen=True, slots=True)
class NewShoe:
    """A new shoe starts: the current one is finished and archived."""

    shoe: str


@dataclass(frozen=True, slots=True)
class Shuffle:
    """The dealer is shuffling: shown until the burn, the first coup or a new shoe."""


@dataclass(frozen=True, slots=True)
class Burn:
    """The burn: the face-up card, then the ones burned face down."""

    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class CutCard:
    """The cut card is out: the next coup is the last of the shoe."""


@dataclass(frozen=True, slots=True)
class Void:
    """Game ``game`` of ``shoe`` was entered by mistake (a misdeal): remove it."""

    shoe: str
    game: int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Correct:
    """Pit staff replace (or supply) a game's coup."""

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
    """The table's limits and pay table."""

    limits: Limits


@dataclass(frozen=True, slots=True)
class ControllerStatus:
    """The shoe controller is online or offline (a feed-level event: no table change)."""

    online: bool


@dataclass(frozen=True, slots=True)
class ResyncRequest:
    """A display asks the controller for its snapshot (a feed-level event)."""

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
