"""What pit staff ask a table's controller, and its answer: values, nothing else.

The pit tool writes a :class:`PitCommand`, the protocol carries it on
``PREFIX/cmd/pit``, the controller's pit desk (:mod:`scoreboard.controller._pit_desk`)
decides it against the table's current shoe and answers a :class:`PitAnswer` on
``PREFIX/cmd/pit/answer``.  The events a command makes are the ordinary ones
(``Void``, ``Correct``, ``NewShoe``, ``LimitsReceived``): the boards never see a
command, only what the controller published because of it.

>>> from scoreboard.game.rules import Game, Winner, result_coup
>>> PitCommand("c1", VoidGame(17, "misdeal"), "anna", 0.0).action.game
17
"""

from __future__ import annotations

from dataclasses import dataclass

from scoreboard.game.limits import Limits
from scoreboard.game.rules import Game


@dataclass(frozen=True, slots=True)
class VoidGame:
    """Remove game ``game`` (of ``shoe``; None: the current shoe) entered by mistake."""

    game: int
    reason: str
    shoe: str | None = None


@dataclass(frozen=True, slots=True)
class CorrectGame:
    """Replace the coup of ``game.number`` (of ``shoe``; None: the current shoe)."""

    game: Game
    reason: str
    shoe: str | None = None


@dataclass(frozen=True, slots=True)
class StartShoe:
    """End the current shoe and start ``shoe`` (the pit names it, so a retry is the same shoe)."""

    shoe: str
    reason: str = ""


@dataclass(frozen=True, slots=True)
class ChangeLimits:
    """The table's limits and pays from now, or from ``effective_at`` (a Unix time)."""

    limits: Limits
    effective_at: float | None = None


PitAction = VoidGame | CorrectGame | StartShoe | ChangeLimits

#: The ``action`` word of each command on the wire and in the tool.
ACTION_NAMES: dict[type, str] = {
    VoidGame: "void",
    CorrectGame: "correct",
    StartShoe: "new_shoe",
    ChangeLimits: "limits",
}


@dataclass(frozen=True, slots=True)
class PitCommand:
    """One command: ``id`` unique per command (a replay is refused), ``by`` who sent it,
    ``at`` when (a Unix time: a command much older or newer than the controller's
    clock is refused as stale)."""

    id: str
    action: PitAction
    by: str
    at: float


@dataclass(frozen=True, slots=True)
class PitAnswer:
    """The controller's answer to command ``id``: applied or not, and in words what or why."""

    id: str
    applied: bool
    detail: str = ""
