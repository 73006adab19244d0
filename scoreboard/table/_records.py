"""What the table knows about one game number, and the one rule that changes it.

A game number of the current shoe is either *recorded* (its coup is on the
board) or *voided* (removed by a void, or voided in a snapshot).  Beside that,
the record remembers whether a void or correct event set it (``amended``: no
snapshot, possibly older than the event, may undo it) and every coup that is
known **not** to be the game's truth (``retired``: a coup a void or correction
replaced, or one refused as a conflict), so a late copy of one (a QoS 1
redelivery, a stale retained snapshot) is old news, never a redeal.

Every way a game number can change goes through :func:`transition`: one pure
function of (record, change), so the rules of protocol.md are stated once.

Protocol v2 orders the controller's stream (``Origin``), so the table knows an
event is newer than everything it applied; two changes say so: :class:`Dealt`
(a newer coup: a voided game dealt again is a redeal, whatever it held) and
:class:`Restated` (a newer snapshot's word: the game becomes exactly that).
They need neither ``amended`` nor ``retired``: an older copy never reaches them.

>>> from scoreboard.game.rules import Winner, result_coup
>>> banker, player = result_coup(Winner.BANKER), result_coup(Winner.PLAYER)
>>> record, effect = transition(None, Arrived(banker))
>>> effect.name, record.recorded
('CHANGED', True)
>>> transition(record, Arrived(player))[1].name
'CONFLICT'
>>> record, effect = transition(record, Corrected(player))
>>> transition(record, Arrived(banker))[1].name   # the coup the correction replaced, late
'NONE'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from scoreboard.game.rules import Coup


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game number: its coup (or the voided coup), how it was set, what it retired.

    ``coup`` is the game's truth when recorded; when voided it is the coup that
    was voided (None when the void came before the coup did).
    """

    coup: Coup | None
    voided: bool = False
    amended: bool = False
    retired: frozenset[Coup] = frozenset()

    @property
    def recorded(self) -> bool:
        """On the board: a coup that is not voided."""
        return not self.voided

    def retiring(self, *coups: Coup | None) -> GameRecord:
        """This record, also remembering ``coups`` as not the game's truth."""
        extra = {coup for coup in coups if coup is not None} - self.retired
        return replace(self, retired=self.retired | extra) if extra else self


class Effect(enum.Enum):
    """What a change did to a game number."""

    NONE = enum.auto()  # nothing on the board changed (a repeat, a late copy)
    CHANGED = enum.auto()  # the board changes
    CONFLICT = enum.auto()  # refused: contradicts what an event or an earlier coup set
    OVERRIDE = enum.auto()  # a newer snapshot replaced a coup the display had (a missed event)


@dataclass(frozen=True, slots=True)
class Arrived:
    """A coup message for this game number."""

    coup: Coup


@dataclass(frozen=True, slots=True)
class Voided:
    """A void event for this game number."""


@dataclass(frozen=True, slots=True)
class Corrected:
    """A correct event giving this game number ``coup``."""

    coup: Coup


@dataclass(frozen=True, slots=True)
class Reported:
    """A snapshot's word on this game number: its coup, or None when voided there.

    ``newer`` is True when the snapshot holds every game number the display
    knows (so it has seen at least as much as the display: it may override).
    """

    coup: Coup | None
    newer: bool


@dataclass(frozen=True, slots=True)
class Dealt:
    """A coup newer than everything the table applied (protocol v2: its origin says so)."""

    coup: Coup


@dataclass(frozen=True, slots=True)
class Restated:
    """A snapshot newer than everything the table applied: the game is ``coup`` (None: voided)."""

    coup: Coup | None


Change = Arrived | Voided | Corrected | Reported | Dealt | Restated
Step = tuple[GameRecord, Effect]


def transition(record: GameRecord | None, change: Change) -> Step:
    """The record after ``change``, and what that did; the table's only rule for a game."""
    match change:
        case Arrived(coup=coup):
            return _arrived(record, coup)
        case Voided():
            return _voided(record)
        case Corrected(coup=coup):
            return _corrected(record, coup)
        case Reported(coup=coup, newer=newer):
            return _reported(record, coup, newer)
        case Dealt(coup=coup):
            return _dealt(record, coup)
        case Restated(coup=coup):
            return _restated(record, coup)
    raise TypeError(f"not a change: {change!r}")


def _arrived(record: GameRecord | None, coup: Coup) -> Step:
    if record is None:
        return GameRecord(coup), Effect.CHANGED
    if record.recorded:
        if record.coup == coup:
            return record, Effect.NONE  # an identical redelivery
        # Only a correct event changes a recorded game: this coup is not its truth.
        effect = Effect.NONE if record.amended else Effect.CONFLICT
        return record.retiring(coup), effect
    if coup in record.retired:
        return record, Effect.NONE  # the voided coup (or a replaced one), late
    if record.coup is None:
        return record.retiring(coup), Effect.NONE  # the game voided before it arrived
    return GameRecord(coup, retired=record.retired), Effect.CHANGED  # a redeal


def _voided(record: GameRecord | None) -> Step:
    if record is None:
        return GameRecord(None, voided=True, amended=True), Effect.CHANGED
    if record.voided:
        if record.amended:
            return record, Effect.NONE  # a repeated void
        # Voided by a snapshot: the event makes it a void no older snapshot undoes.
        return replace(record, amended=True), Effect.CHANGED
    voided = replace(record, voided=True, amended=True).retiring(record.coup)
    return voided, Effect.CHANGED


def _corrected(record: GameRecord | None, coup: Coup) -> Step:
    if record is None:
        return GameRecord(coup, amended=True), Effect.CHANGED
    if record.recorded and record.coup == coup and record.amended:
        return record, Effect.NONE  # the same correction again
    retired = record.retiring(record.coup).retired - {coup}
    return GameRecord(coup, amended=True, retired=retired), Effect.CHANGED


def _reported(record: GameRecord | None, coup: Coup | None, newer: bool) -> Step:
    if record is None:  # a game the display knows nothing about: fill it in
        return GameRecord(coup, voided=coup is None), Effect.CHANGED
    if record.voided:
        if coup is None:
            return record, Effect.NONE
        if record.coup is not None and coup not in record.retired:
            return GameRecord(coup, retired=record.retired), Effect.CHANGED  # a redeal
        return record.retiring(coup), Effect.NONE  # the voided coup, from an old snapshot
    if coup == record.coup:
        return record, Effect.NONE
    if newer and not record.amended and coup not in record.retired:
        # A newer snapshot caught up a void or correction the display missed.
        retired = record.retiring(record.coup).retired
        if coup is None:
            return GameRecord(record.coup, voided=True, retired=retired), Effect.OVERRIDE
        return GameRecord(coup, retired=retired), Effect.OVERRIDE
    return record.retiring(coup), Effect.CONFLICT


def _dealt(record: GameRecord | None, coup: Coup) -> Step:
    """A newer coup: a voided game dealt again is a redeal, even with the voided coup's result.

    >>> from scoreboard.game.rules import Winner, result_coup
    >>> banker = result_coup(Winner.BANKER)
    >>> voided = GameRecord(banker, voided=True, amended=True, retired=frozenset({banker}))
    >>> transition(voided, Dealt(banker))[1].name   # v1 could not tell this from a late copy
    'CHANGED'
    """
    if record is None or record.voided:
        retired = record.retired - {coup} if record else frozenset()
        return GameRecord(coup, retired=retired), Effect.CHANGED
    if record.coup == coup:
        return record, Effect.NONE  # the controller sent the same coup again (a new payload)
    # Only a correct event changes a recorded game, however new the coup.  Not
    # retired: ordered events never ask, and a conflict must not be journaled.
    return record, Effect.CONFLICT


def _restated(record: GameRecord | None, coup: Coup | None) -> Step:
    """A newer snapshot's word wins, even over a correct or void event (it has seen them)."""
    if record is None:
        return GameRecord(coup, voided=coup is None), Effect.CHANGED
    if record.voided:
        if coup is None:
            return record, Effect.NONE
        return GameRecord(coup, retired=record.retired - {coup}), Effect.CHANGED  # a missed redeal
    if coup == record.coup:
        return record, Effect.NONE
    retired = record.retiring(record.coup).retired - {coup}
    if coup is None:  # a void the display missed
        return GameRecord(record.coup, voided=True, retired=retired), Effect.OVERRIDE
    return GameRecord(coup, retired=retired), Effect.OVERRIDE  # a (second) correction it missed
