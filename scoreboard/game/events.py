"""The one event vocabulary: what happens at a table, as frozen values.

Everything that changes a table is one of these, whoever produced it: the
simulated dealer yields them, the protocol decodes MQTT payloads into them, the
journal stores and replays them, the controller publishes them, and
:func:`scoreboard.table.state.apply_event` applies them.  ``Event`` is the union.

>>> from scoreboard.game.rules import Game, Winner, result_coup
>>> CoupReceived("S1", Game(1, result_coup(Winner.BANKER))).game.coup.winner.value
'B'
"""

from __future__ import annotations

from dataclasses import dataclass

from scoreboard.game.cards import Card
from scoreboard.game.limits import Limits
from scoreboard.game.rules import Game
from scoreboard.game.seats import Seat


@dataclass(frozen=True, slots=True, order=True)
class Origin:
    """Where in the controller's stream an event stands (protocol v2, like Sparkplug's bdSeq).

    ``session`` is new on every controller connection and only ever increases;
    ``seq`` increases with every payload of a session.  Origins order as
    (session, seq), so a display can tell a replay or a late copy (older than
    what it applied) from news.  Events that did not come from a controller
    (the demo's dealer, v1 payloads) have no origin (``None``).

    >>> Origin(5, 9) < Origin(5, 10) < Origin(6, 1)
    True
    """

    session: int
    seq: int


@dataclass(frozen=True, slots=True)
class CoupReceived:
    """A finished coup of shoe ``shoe``: ``(shoe, game.number)`` identifies it."""

    shoe: str
    game: Game
    ts: str | None = None
    origin: Origin | None = None


@dataclass(frozen=True, slots=True)
class NewShoe:
    """A new shoe starts: the current one is finished and archived.

    ``previous`` names the shoe that ended and ``previous_games`` its final game
    count (v2), so a display that missed the end of that shoe sees the gap.
    ``decks``: how many decks the new shoe holds (None: not said; the table's
    configured default applies), for the integrity checks.
    """

    shoe: str
    previous: str | None = None
    previous_games: int | None = None
    origin: Origin | None = None
    decks: int | None = None


@dataclass(frozen=True, slots=True)
class Shuffle:
    """The dealer is shuffling: shown until the burn, the first coup or a new shoe."""

    shoe: str | None = None
    origin: Origin | None = None


@dataclass(frozen=True, slots=True)
class Burn:
    """The burn: the face-up card, then the ones burned face down."""

    cards: tuple[Card, ...]
    shoe: str | None = None
    origin: Origin | None = None


@dataclass(frozen=True, slots=True)
class CutCard:
    """The cut card is out: the next coup is the last of the shoe."""

    shoe: str | None = None
    origin: Origin | None = None


@dataclass(frozen=True, slots=True)
class Void:
    """Game ``game`` of ``shoe`` was entered by mistake (a misdeal): remove it."""

    shoe: str
    game: int
    reason: str = ""
    origin: Origin | None = None


@dataclass(frozen=True, slots=True)
class Correct:
    """Pit staff replace (or supply) a game's coup."""

    shoe: str
    game: Game
    reason: str = ""
    origin: Origin | None = None


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The controller's whole current shoe, for catching up after a gap or a reconnect.

    In v2 its ``origin`` is that of the last event it includes.
    """

    shoe: str
    games: tuple[Game, ...]
    voided: tuple[int, ...] = ()
    ts: str | None = None
    origin: Origin | None = None


@dataclass(frozen=True, slots=True)
class LimitsReceived:
    """The table's limits and pay table, now or (``effective_at``) from a set time.

    ``effective_at`` is a Unix time: limits from then on, shown ahead of time and
    switched to by :meth:`~scoreboard.table.state.TableState.switch_limits`; a time
    already past applies at once.  A later scheduled message replaces an earlier
    schedule; an immediate one leaves a schedule alone unless ``cancel_scheduled``.
    """

    limits: Limits
    origin: Origin | None = None
    effective_at: float | None = None
    cancel_scheduled: bool = False


@dataclass(frozen=True, slots=True)
class ControllerStatus:
    """The shoe controller is online or offline (a feed-level event: no table change).

    In v2 the online status is the session's birth (its origin names the new
    session) and the offline one, the controller's last will, names the session
    it ends: a will of an older session is stale and ignored.  ``raised``: the
    shoe's conditions raised as of this status (a controller that reads a shoe
    republishes its retained status when one is raised or cleared), so a display
    that joins late shows SHOE OFFLINE too.  ``name``: the table's name as its
    controller knows it (``shoe --table-name``), shown by a display whose own
    config names none ("": not said).
    """

    online: bool
    origin: Origin | None = None
    raised: tuple[ShoeHealth, ...] = ()
    name: str = ""


@dataclass(frozen=True, slots=True)
class ResyncRequest:
    """A display asks the controller for its snapshot (a feed-level event)."""

    display: str | None = None
    shoe: str | None = None
    missing: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class CardDealt:
    """A card left the shoe for ``seat`` of game ``game``; ``card`` None while withheld.

    Shown face down whatever ``card`` holds: a squeezed hand is revealed by its
    coup, never by this (a Bee-Tek shoe reads every card as it is drawn).
    """

    shoe: str
    game: int
    seat: Seat
    card: Card | None = None
    origin: Origin | None = None


#: :attr:`ShoeHealth.state` values: a condition raised, cleared, or seen once.
HEALTH_STATES = ("raised", "cleared", "seen")


@dataclass(frozen=True, slots=True)
class ShoeHealth:
    """The card-reading shoe's health changed: staff's to see, never a result.

    ``condition`` is a stable key (``"error:2"``, ``"extra_card"``, ``"device"``,
    ``"bad_bytes"``, ``"unknown_message"``, ``"messages_lost"``, ``"powered_on"``,
    ``"hand_abandoned"``, ``"cards_disagree"``); ``state`` is ``"raised"`` or
    ``"cleared"`` for a condition that lasts (an error, an extra card held, the
    device gone) and ``"seen"`` for one that happens once; ``detail`` says it in
    words for staff (the bytes, the cards, the meaning of the code).
    """

    condition: str
    state: str
    detail: str = ""
    shoe: str | None = None
    game: int | None = None
    origin: Origin | None = None


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
    | CardDealt
    | ShoeHealth
)
