"""The pit desk: is a pit command valid against the table's shoe now, and what events it makes.

Pure and shared by every controller (the simulated shoe, the keypad feed, the
shoe bridge): it is handed the command, the controller's current shoe as a
:class:`~scoreboard.game.events.Snapshot` (its games and voided numbers) and the
wall time, and gives a :class:`Ruling`: the answer to publish and the events
(without origin) the controller applies to its own state and publishes, followed
by a fresh retained snapshot.  No MQTT, no clock, no disk: the controller's
adapter (:mod:`scoreboard.controller.pit_counter`) does the rest.

Replays: each command id is answered once; a command issued more than
:data:`WINDOW` seconds before or after the controller's clock is refused as
stale, so a copy captured earlier cannot be replayed once its id is forgotten
(the desk remembers :data:`REMEMBERED` ids, in memory: a controller restarted
within the window forgets them).

>>> from scoreboard.game.rules import Game, Winner, result_coup
>>> desk = PitDesk()
>>> shoe = Snapshot("S1", (Game(1, result_coup(Winner.BANKER)),))
>>> ruling = desk.rule(PitCommand("c1", VoidGame(1, "misdeal"), "anna", 100.0), shoe, 100.0)
>>> ruling.answer
PitAnswer(id='c1', applied=True, detail='game 1 of shoe S1 voided')
>>> ruling.events
(Void(shoe='S1', game=1, reason='misdeal (pit: anna)', origin=None),)
>>> desk.rule(PitCommand("c1", VoidGame(1, "misdeal"), "anna", 100.0), shoe, 101.0).answer.detail
'command c1 was already received: not applied again'
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, replace

from scoreboard.game.events import Correct, Event, LimitsReceived, NewShoe, Snapshot, Void
from scoreboard.game.rules import Game
from scoreboard.protocol.contract import MAX_REASON
from scoreboard.table.pit import (
    ChangeLimits,
    CorrectGame,
    PitAnswer,
    PitCommand,
    StartShoe,
    VoidGame,
)

#: Seconds a command's ``at`` may lie before or after the controller's clock.
WINDOW = 300.0
#: How many command ids the desk remembers (more than a window's worth of pit work).
REMEMBERED = 4096

WINNERS = {"B": "Banker", "P": "Player", "T": "Tie"}


@dataclass(frozen=True, slots=True)
class Ruling:
    """What to answer, and the events (no origin yet) the controller applies and publishes."""

    answer: PitAnswer
    events: tuple[Event, ...] = ()


def refused(command_id: str, why: str) -> Ruling:
    """The ruling on a command refused before it could be read (bad signature, bad cards)."""
    return Ruling(PitAnswer(command_id, False, why))


class PitDesk:
    """Rules on pit commands for one table; remembers the ids it answered."""

    def __init__(self, *, window: float = WINDOW, remembered: int = REMEMBERED) -> None:
        self.window = window
        self.remembered = remembered
        self._seen: OrderedDict[str, None] = OrderedDict()
        #: The shoes this desk saw as the current one: a board ignores a shoe id used before.
        self._shoes: OrderedDict[str, None] = OrderedDict()

    def seen(self, command_id: str) -> bool:
        """Whether the desk answered ``command_id`` already (and remembers it)."""
        return command_id in self._seen

    def note(self, command_id: str) -> None:
        """Remember ``command_id`` as answered, forgetting the oldest beyond ``remembered``."""
        _remember(self._seen, command_id, self.remembered)

    def rule(self, command: PitCommand, shoe: Snapshot | None, now: float) -> Ruling:
        """Decide ``command`` against ``shoe`` (the current one; None: no shoe yet) at ``now``."""
        if self.seen(command.id):
            return refused(
                command.id, f"command {command.id} was already received: not applied again"
            )
        if abs(command.at - now) > self.window:
            lag = now - command.at
            when = (
                f"{lag:.0f} s ago" if lag > 0 else f"{-lag:.0f} s ahead of the controller's clock"
            )
            return refused(
                command.id,
                f"stale: issued {when} (at most {self.window:.0f} s either way; check the clocks)",
            )
        self.note(command.id)
        if shoe is not None:
            _remember(self._shoes, shoe.shoe, self.remembered)
        why, events, done = _decide(command, shoe, now)
        if not why and isinstance(command.action, StartShoe) and command.action.shoe in self._shoes:
            why = f"shoe {command.action.shoe} was dealt at this table before: name a new shoe"
        if why:
            return refused(command.id, why)
        return Ruling(PitAnswer(command.id, True, done), events)


def _remember(kept: OrderedDict[str, None], key: str, most: int) -> None:
    kept[key] = None
    kept.move_to_end(key)
    while len(kept) > most:
        kept.popitem(last=False)


#: ``(why refused, events, what was done)``: ``why`` is empty when the command applies.
Decision = tuple[str, tuple[Event, ...], str]


def _decide(command: PitCommand, shoe: Snapshot | None, now: float) -> Decision:
    match command.action:
        case VoidGame() as void:
            return _void(replace(void, reason=signed_reason(void.reason, command.by)), shoe)
        case CorrectGame() as correct:
            reason = signed_reason(correct.reason, command.by)
            return _correct(replace(correct, reason=reason), shoe)
        case StartShoe(shoe=new):
            return _start(new, shoe)
        case ChangeLimits(limits=limits, effective_at=at):
            if at is not None and at > now:
                return "", (LimitsReceived(limits, effective_at=at),), "limits scheduled"
            return "", (LimitsReceived(limits),), "limits changed"
    raise TypeError(f"not a pit action: {command.action!r}")  # pragma: no cover


def signed_reason(reason: str, by: str) -> str:
    """The reason the event carries, naming who asked, so the boards' journals and the audit
    keep it (cut to the protocol's 200 characters, the name kept whole).

    >>> signed_reason("misdeal", "anna"), signed_reason("misdeal", "")
    ('misdeal (pit: anna)', 'misdeal')
    """
    if not by:
        return reason
    tail = f" (pit: {by})"
    return reason[: max(0, MAX_REASON - len(tail))] + tail


def _void(void: VoidGame, shoe: Snapshot | None) -> Decision:
    why, current = _game_of(shoe, void.shoe, void.game)
    if why:
        return why, (), ""
    done = f"game {void.game} of shoe {current} voided"
    return "", (Void(current, void.game, void.reason),), done


def _correct(correct: CorrectGame, shoe: Snapshot | None) -> Decision:
    game = correct.game
    why, current = _game_of(shoe, correct.shoe, game.number)
    if why or shoe is None:
        return why, (), ""
    before = next(g for g in shoe.games if g.number == game.number)
    if before.coup == game.coup:
        return f"game {game.number} already shows that coup: nothing to correct", (), ""
    done = f"game {game.number} of shoe {current} corrected: {_said(before)} -> {_said(game)}"
    return "", (Correct(current, game, correct.reason),), done


def _start(new: str, shoe: Snapshot | None) -> Decision:
    if shoe is None:
        return "", (NewShoe(new),), f"shoe {new} started"
    if new == shoe.shoe:
        return f"shoe {new} is already the current shoe", (), ""
    dealt = max((*(g.number for g in shoe.games), *shoe.voided), default=0)
    done = f"shoe {shoe.shoe} ended after {dealt} games; shoe {new} started"
    return "", (NewShoe(new, shoe.shoe, dealt),), done


def _game_of(shoe: Snapshot | None, named: str | None, number: int) -> tuple[str, str]:
    """``(why not, current shoe id)``: the game must be a recorded game of the current shoe."""
    if shoe is None:
        return "this table has no shoe yet", ""
    if named is not None and named != shoe.shoe:
        return (
            f"shoe {named} is not the current shoe ({shoe.shoe}): only its games can be changed",
            "",
        )
    if number in shoe.voided:
        return f"game {number} of shoe {shoe.shoe} is already voided", ""
    if all(game.number != number for game in shoe.games):
        last = max((game.number for game in shoe.games), default=0)
        dealt = f"games 1-{last}" if last else "no games yet"
        return f"game {number} does not exist in shoe {shoe.shoe} ({dealt})", ""
    return "", shoe.shoe


def _said(game: Game) -> str:
    """A coup in a few words for the answer: ``Banker 7-5`` or ``Banker``."""
    coup = game.coup
    text = WINNERS[coup.winner.value]
    if coup.player_total is not None and coup.banker_total is not None:
        text += f" {coup.player_total}-{coup.banker_total}"
    pairs = [
        name for name, on in (("P pair", coup.player_pair), ("B pair", coup.banker_pair)) if on
    ]
    return " ".join([text, *pairs])


def after(shoe: Snapshot | None, events: tuple[Event, ...]) -> Snapshot | None:
    """The controller's shoe once ``events`` are applied: what its next snapshot carries.

    >>> from scoreboard.game.rules import Game, Winner, result_coup
    >>> one = Snapshot("S1", (Game(1, result_coup(Winner.BANKER)),))
    >>> after(one, (Void("S1", 1),))
    Snapshot(shoe='S1', games=(), voided=(1,), ts=None, origin=None)
    """
    for event in events:
        match event:
            case Void(game=number) if shoe is not None:
                games = tuple(g for g in shoe.games if g.number != number)
                shoe = replace(shoe, games=games, voided=tuple(sorted({*shoe.voided, number})))
            case Correct(game=game) if shoe is not None:
                games = tuple(game if g.number == game.number else g for g in shoe.games)
                shoe = replace(shoe, games=games)
            case NewShoe(shoe=new):
                shoe = Snapshot(new, ())
    return shoe
