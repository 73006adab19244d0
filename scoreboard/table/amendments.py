"""Voids and corrections as the board keeps them: what a game showed, what it shows now.

Pit staff correct a dealer's mistake with a ``void`` or ``correct`` event; a newer
snapshot may also change a game the board had (a void or correction the display
missed).  Nothing may change the roads silently, so each such change that the
board can see is an :class:`Amendment`: the game, what it showed before (None:
nothing), what it shows after (None: voided), the reason given, and whether a
snapshot did it.  The table keeps the current shoe's amendments in the order
applied (:attr:`~scoreboard.table.state.TableState.amendments`); the renderer
marks corrected games and shows a short banner, the status counts them.

>>> from scoreboard.table._records import GameRecord, Corrected, Effect
>>> from scoreboard.game.rules import Winner, result_coup
>>> banker, player = result_coup(Winner.BANKER), result_coup(Winner.PLAYER)
>>> made = amendment("S1", 17, Corrected(player), GameRecord(banker),
...                  GameRecord(player, amended=True), Effect.CHANGED, "misread")
>>> made.kind.value, made.before.winner.value, made.after.winner.value, describe(made)
('correct', 'B', 'P', 'game 17 corrected: B -> P (misread)')
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from scoreboard.game.rules import Coup
from scoreboard.table._records import Change, Corrected, Effect, GameRecord, Voided
from scoreboard.table.visible import escaped

__all__ = ["AmendKind", "Amendment", "AmendmentLog", "amendment", "describe", "dropped"]


class AmendKind(enum.Enum):
    """What an amendment did to its game."""

    VOID = "void"
    CORRECT = "correct"


@dataclass(frozen=True, slots=True)
class Amendment:
    """One visible change of a recorded game by a void, a correction or a newer snapshot.

    ``before``: the coup the board showed for the game (None: nothing, the game had
    not arrived or was voided); ``after``: the coup it shows now (None for a void);
    ``by_snapshot``: a newer snapshot overrode the board (the display had missed
    the void or correction that did it).
    """

    shoe: str
    game: int
    kind: AmendKind
    before: Coup | None
    after: Coup | None
    reason: str = ""
    by_snapshot: bool = False


class AmendmentLog:
    """One shoe's amendments in the order applied, and which games a correction set.

    A correction storm must not cost more per event as it grows: an amendment is
    appended, the tuple readers ask for is rebuilt only when they ask after a change.

    >>> from scoreboard.game.rules import Winner, result_coup
    >>> log = AmendmentLog()
    >>> log.add([Amendment("S1", 3, AmendKind.CORRECT, None, result_coup(Winner.TIE))])
    >>> len(log.amendments), log.corrected(3), log.corrected(4)
    (1, True, False)
    """

    def __init__(self) -> None:
        self._made: list[Amendment] = []
        self._shown: tuple[Amendment, ...] = ()
        self._corrected: set[int] = set()

    @property
    def amendments(self) -> tuple[Amendment, ...]:
        if len(self._shown) != len(self._made):
            self._shown = tuple(self._made)
        return self._shown

    def corrected(self, number: int) -> bool:
        """True when the last amendment of game ``number`` was a correction."""
        return number in self._corrected

    def add(self, made: Iterable[Amendment]) -> None:
        for change in made:
            self._made.append(change)
            if change.kind is AmendKind.CORRECT:
                self._corrected.add(change.game)
            else:
                self._corrected.discard(change.game)


def _shown(record: GameRecord | None) -> Coup | None:
    """The coup the board shows for a record (None: nothing)."""
    return record.coup if record is not None and record.recorded else None


def amendment(
    shoe: str,
    number: int,
    change: Change,
    before: GameRecord | None,
    after: GameRecord,
    effect: Effect,
    reason: str,
) -> Amendment | None:
    """The amendment one transition of game ``number`` made, None when it made none.

    A void adds one when it removed a game or kept out one not yet arrived (not
    when the game was voided already); a correction when the board's coup changed;
    a snapshot when it overrode the board (:attr:`Effect.OVERRIDE`).  Coups
    arriving (even a redeal of a voided game) are deals, not amendments.
    """
    shown_before, shown_after = _shown(before), _shown(after)
    if isinstance(change, Voided):
        if effect is not Effect.CHANGED or (before is not None and before.voided):
            return None
        return Amendment(shoe, number, AmendKind.VOID, shown_before, None, reason)
    if isinstance(change, Corrected):
        if effect is not Effect.CHANGED or shown_before == shown_after:
            return None
        return Amendment(shoe, number, AmendKind.CORRECT, shown_before, shown_after, reason)
    if effect is Effect.OVERRIDE:
        kind = AmendKind.VOID if shown_after is None else AmendKind.CORRECT
        return Amendment(shoe, number, kind, shown_before, shown_after, by_snapshot=True)
    return None


def dropped(shoe: str, number: int, before: GameRecord) -> Amendment | None:
    """A recorded game a newer (v2) snapshot does not list: a void the display missed."""
    if not before.recorded:
        return None
    return Amendment(shoe, number, AmendKind.VOID, before.coup, None, by_snapshot=True)


def _side(coup: Coup | None) -> str:
    return "nothing" if coup is None else coup.winner.value


def describe(change: Amendment) -> str:
    """One log line for staff: ``game 17 corrected: B -> P (reason)``.

    >>> from scoreboard.game.rules import Winner, result_coup
    >>> describe(Amendment("S1", 4, AmendKind.VOID, result_coup(Winner.TIE), None, "misdeal"))
    'game 4 voided: T (misdeal)'
    >>> describe(Amendment("S1", 4, AmendKind.VOID, None, None, by_snapshot=True))
    'game 4 voided by a newer snapshot: nothing'
    """
    how = " by a newer snapshot" if change.by_snapshot else ""
    reason = f" ({escaped(change.reason)})" if change.reason else ""
    if change.kind is AmendKind.VOID:
        return f"game {change.game} voided{how}: {_side(change.before)}{reason}"
    return (
        f"game {change.game} corrected{how}: {_side(change.before)} -> "
        f"{_side(change.after)}{reason}"
    )
