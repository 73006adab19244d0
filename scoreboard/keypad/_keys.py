"""What the dealer's key presses mean: modifiers, results, and confirmed destructive keys.

A pure state machine fed key names (pygame's, as the kiosk hands them over)
with the loop's monotonic time; it knows nothing of the table.  It answers
each press, release or tick with the commands the dealer gave, which the
keypad feed turns into table events.

- One physical press is one command: a key already down (key repeat, a stuck
  key, a second KEYDOWN with no KEYUP between) is ignored until released.  A
  bouncing contact was made one press before it gets here
  (:mod:`scoreboard.keypad._debounce`).
- Modifiers (pairs, natural, banker 6) toggle, are taken by the next result
  key, and lapse after :data:`MODIFIER_SECONDS` without one.
- A destructive key (void last, new shoe) first asks; a second press of it
  within ``confirm_seconds``, or holding it ``hold_seconds``, confirms; any
  other key, the clear key or the window running out cancels.

>>> keys = KeypadInput(KeypadConfig())
>>> keys.press("[6]", 0.0)
[Toggle(modifier=<KeypadAction.BANKER_PAIR: 'banker_pair'>, on=True)]
>>> [enter] = keys.press("[3]", 0.5); enter.winner.name, sorted(enter.modifiers)
('BANKER', [<KeypadAction.BANKER_PAIR: 'banker_pair'>])
>>> keys.press("[-]", 1.0), keys.release("[-]", 1.1), keys.press("[-]", 2.0)
([Ask(action=<KeypadAction.VOID_LAST: 'void_last'>, key='[-]')], [], \
[Confirm(action=<KeypadAction.VOID_LAST: 'void_last'>)])
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from scoreboard.game.rules import Winner
from scoreboard.settings.keypad import KeypadAction, KeypadConfig

#: Pending modifiers lapse after this long without a result key (a forgotten pair
#: must not land on a coup minutes later).
MODIFIER_SECONDS = 60.0
WINNERS = {
    KeypadAction.PLAYER: Winner.PLAYER,
    KeypadAction.TIE: Winner.TIE,
    KeypadAction.BANKER: Winner.BANKER,
}
MODIFIERS = (
    KeypadAction.PLAYER_PAIR,
    KeypadAction.BANKER_PAIR,
    KeypadAction.NATURAL,
    KeypadAction.BANKER_SIX,
)
DESTRUCTIVE = (KeypadAction.VOID_LAST, KeypadAction.NEW_SHOE)


@dataclass(frozen=True, slots=True)
class Enter:
    """A result key: enter a coup with the modifiers pressed before it."""

    winner: Winner
    modifiers: frozenset[KeypadAction]


@dataclass(frozen=True, slots=True)
class Toggle:
    """A modifier switched on or off for the next coup."""

    modifier: KeypadAction
    on: bool


@dataclass(frozen=True, slots=True)
class Ask:
    """A destructive key's first press: the feed shows what it would do, and how to confirm."""

    action: KeypadAction
    key: str


@dataclass(frozen=True, slots=True)
class Confirm:
    """A destructive key confirmed (second press or hold): do it."""

    action: KeypadAction


@dataclass(frozen=True, slots=True)
class Cancel:
    """A question dropped (``action``, else None) and/or modifiers cleared: why says how."""

    action: KeypadAction | None
    modifiers: frozenset[KeypadAction]
    why: str


Command = Enter | Toggle | Ask | Confirm | Cancel


@dataclass(frozen=True, slots=True)
class _Question:
    """A destructive key waiting for its confirmation."""

    action: KeypadAction
    key: str
    asked: float
    held: bool = True


class KeypadInput:
    """The keypad's state between key events: keys down, modifiers, the open question."""

    def __init__(self, config: KeypadConfig) -> None:
        self.config = config
        self.actions = config.action_of()
        self._down: set[str] = set()
        self._question: _Question | None = None
        self._modifiers: frozenset[KeypadAction] = frozenset()
        self._touched = 0.0

    @property
    def modifiers(self) -> frozenset[KeypadAction]:
        """The modifiers the next result key takes."""
        return self._modifiers

    @property
    def asking(self) -> KeypadAction | None:
        """The destructive action waiting for its confirmation, if any."""
        return None if self._question is None else self._question.action

    def press(self, key: str, now: float) -> list[Command]:
        """A key went down; a key already down (repeat, stuck) does nothing."""
        if key in self._down:
            return []
        self._down.add(key)
        action = self.actions.get(key)
        if action is None:
            return []
        commands: list[Command] = []
        question = self._question
        if question is not None and question.action is not action:
            self._question = None
            commands.append(Cancel(question.action, frozenset(), "another key"))
        if action in DESTRUCTIVE:
            commands.append(self._destructive(action, key, now))
        elif action in MODIFIERS:
            commands.append(self._toggle(action, now))
        elif action is KeypadAction.CLEAR:
            commands.append(self.clear("the clear key"))
        else:
            modifiers, self._modifiers = self._modifiers, frozenset()
            commands.append(Enter(WINNERS[action], modifiers))
        return commands

    def release(self, key: str, now: float) -> list[Command]:  # noqa: ARG002 - symmetry
        """A key came up: it may be pressed again; a destructive key stops counting its hold."""
        self._down.discard(key)
        question = self._question
        if question is not None and question.key == key and question.held:
            self._question = replace(question, held=False)
        return []

    def release_all(self) -> None:
        """The window lost the keyboard: no key is down any more (SDL sends no KEYUP then)."""
        for key in list(self._down):
            self.release(key, 0.0)

    def clear(self, why: str) -> Cancel:
        """Drop the open question and the modifiers."""
        question, self._question = self._question, None
        modifiers, self._modifiers = self._modifiers, frozenset()
        return Cancel(None if question is None else question.action, modifiers, why)

    def due(self, now: float) -> list[Command]:
        """What time decides: a held destructive key confirmed, a question or modifiers lapsed."""
        commands: list[Command] = []
        question = self._question
        if question is not None:
            if question.held and now >= question.asked + self.config.hold_seconds:
                self._question = None
                commands.append(Confirm(question.action))
            elif not question.held and now >= question.asked + self.config.confirm_seconds:
                self._question = None
                commands.append(Cancel(question.action, frozenset(), "no confirmation"))
        if self._modifiers and now >= self._touched + MODIFIER_SECONDS:
            modifiers, self._modifiers = self._modifiers, frozenset()
            commands.append(Cancel(None, modifiers, "no result key"))
        return commands

    def next_deadline(self) -> float | None:
        """When :meth:`due` has something to decide, without a key."""
        deadlines = []
        question = self._question
        if question is not None:
            wait = self.config.hold_seconds if question.held else self.config.confirm_seconds
            deadlines.append(question.asked + wait)
        if self._modifiers:
            deadlines.append(self._touched + MODIFIER_SECONDS)
        return min(deadlines, default=None)

    def _destructive(self, action: KeypadAction, key: str, now: float) -> Command:
        question = self._question
        if question is not None and question.action is action:
            self._question = None
            return Confirm(action)
        self._question = _Question(action, key, now)
        return Ask(action, key)

    def _toggle(self, modifier: KeypadAction, now: float) -> Toggle:
        self._touched = now
        on = modifier not in self._modifiers
        self._modifiers = self._modifiers | {modifier} if on else self._modifiers - {modifier}
        return Toggle(modifier, on)
