"""The dealer keypad feed: results keyed in by hand, for a table whose shoe reads no cards.

Also the fallback when a card-reading shoe fails.  The kiosk hands every key
event over (:meth:`KeypadFeed.key`, a pygame key name, down or up, stamped when
the kiosk took it); :meth:`KeypadFeed.poll` turns them, through the debounce
(:mod:`~scoreboard.keypad._debounce`: a bouncing contact is one press) and
the :class:`~scoreboard.keypad._keys.KeypadInput` state machine, into events
of the one vocabulary: a results-only coup (``result_coup`` with the pairs,
natural and banker 6 pressed before the result key), a void of the last game,
a new shoe.  Each is applied with ``apply_event`` and journaled like any
feed's; with a broker configured it is also published as the table's
controller (:mod:`scoreboard.keypad.publish`), which also takes the pit's
commands (``scoreboard pit``: void or correct any game of the shoe, a new shoe,
limits), applied here like keyed entries.

:meth:`KeypadFeed.prompt` is the line the board shows the dealer: a question
waiting for its confirmation ("Void game 17? Press - again or hold it"), a
refusal ("Banker 6 is a Banker win: nothing entered") for a few seconds, or the
modifiers pressed so far ("Banker pair + Natural +").
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections import deque
from collections.abc import Callable

from scoreboard.game.events import CoupReceived, Event, NewShoe, Snapshot, Void
from scoreboard.game.rules import Game, ImpossibleHandError, Winner, result_coup
from scoreboard.journal import Journal
from scoreboard.keypad._debounce import KeyDebounce, KeyStroke
from scoreboard.keypad._keys import (
    MODIFIER_SECONDS,
    MODIFIERS,
    Ask,
    Cancel,
    Command,
    Confirm,
    Enter,
    KeypadInput,
    Toggle,
)
from scoreboard.keypad.publish import KeypadPublisher, shoe_snapshot
from scoreboard.protocol import MAX_GAME, MAX_SHOE_ID
from scoreboard.settings.keypad import KeypadAction, KeypadConfig
from scoreboard.table.applied import FeedStatus
from scoreboard.table.health import JournalHealth, RenderHealth
from scoreboard.table.state import TableState, apply_event

log = logging.getLogger(__name__)

#: How long a refusal or a cancellation stays on screen.
MESSAGE_SECONDS = 3.0
VOID_REASON = "voided on the dealer keypad"
LABELS = {
    KeypadAction.PLAYER_PAIR: "Player pair",
    KeypadAction.BANKER_PAIR: "Banker pair",
    KeypadAction.NATURAL: "Natural",
    KeypadAction.BANKER_SIX: "Banker 6",
}
QUESTIONS = {KeypadAction.VOID_LAST: "Void", KeypadAction.NEW_SHOE: "New shoe"}
WINNER_NAMES = {Winner.BANKER: "Banker", Winner.PLAYER: "Player", Winner.TIE: "Tie"}


def key_label(key: str) -> str:
    """How a prompt names a key: ``"[-]"`` -> ``"-"``, ``"page down"`` -> ``"Page Down"``.

    >>> key_label("[-]"), key_label("page down"), key_label("enter")
    ('-', 'Page Down', 'Enter')
    """
    if len(key) == 3 and key[0] == "[" and key[2] == "]":
        return key[1]
    return key.title()


def next_game(table: TableState) -> int:
    """The number the next coup gets: after every game recorded or voided in the shoe.

    >>> next_game(TableState())
    1
    """
    return max(table.last_number, *table.voided, 0) + 1


def new_shoe_id(table: TableState, wall: float, mark: str = "K") -> str:
    """A shoe id from the table and the wall clock, unlike the current and recent shoes.

    ``mark`` says who opened it: ``K`` the keypad, ``S`` a card-reading shoe's bridge.

    >>> new_shoe_id(TableState(table_id="T7"), 1_700_000_000.0)
    'T7-K20231114-221320'
    """
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(wall))
    base = f"{table.table_id[: MAX_SHOE_ID - 24]}-{mark}{stamp}"
    shoe, copy = base, 1
    while shoe == table.shoe_id or table.is_archived(shoe):
        copy += 1
        shoe = f"{base}-{copy}"
    return shoe


class KeypadFeed:
    """A :class:`~scoreboard.kiosk.feed.Feed` fed by the dealer's keys (see the module doc)."""

    def __init__(
        self,
        config: KeypadConfig | None = None,
        *,
        journal: Journal | None = None,
        publisher: KeypadPublisher | None = None,
        wall_clock: Callable[[], float] = time.time,
        decks: int | None = None,
    ) -> None:
        """``decks``: what a new shoe keyed in says it holds (config ``table.decks``)."""
        self.config = config or KeypadConfig()
        self.decks = decks
        self.input = KeypadInput(self.config)
        self.debounce = KeyDebounce(self.config.debounce_seconds)
        self.journal = journal
        self.publisher = publisher
        self.wall_clock = wall_clock
        self._strokes: deque[KeyStroke] = deque()
        self._wake: Callable[[], None] = lambda: None
        self._started = False
        self._question = ""  # the open question's text, while the input has one
        self._target: int | None = None  # the game the open void question names
        self._message: tuple[str, float] | None = None  # a refusal or cancellation, until
        self.render_health = RenderHealth()

    # -- the kiosk's side ----------------------------------------------------
    def key(self, key: str, down: bool, now: float) -> None:
        """A key event from the kiosk (any thread), ``now`` its stamp; applied at the next
        :meth:`poll`, through the debounce."""
        self._strokes.append(KeyStroke(key, down, now))
        self._wake()

    def release_all(self) -> None:
        """The window lost the keyboard: no key counts as held any more."""
        self.debounce.release_all()
        self.input.release_all()

    def keys_in_play(self, now: float) -> bool:
        """Whether a key is down or its release in doubt: the kiosk then looks for keys often."""
        return self.debounce.watching(now)

    def prompt(self, now: float) -> str | None:
        """The line for the dealer now: an open question, a message, or the modifiers."""
        if self.input.asking is not None:
            return self._question
        if self._message is not None and now < self._message[1]:
            return self._message[0]
        if self.input.modifiers:
            return " + ".join(LABELS[m] for m in MODIFIERS if m in self.input.modifiers) + " +"
        return None

    # -- the Feed protocol -----------------------------------------------------
    def start(self, wake: Callable[[], None]) -> None:
        self._wake = wake

    def poll(self, table: TableState, now: float) -> None:
        """Apply the keys pressed since the last poll, then what time decided."""
        if self.journal is not None:
            self.journal.heal()
        if self.publisher is not None:
            if not self._started:
                self.publisher.start(self._wake, table)
            self.publisher.service(table, now)
            self.publisher.serve_pit(table, lambda event: self._pit(event, table))
        self._started = True
        while self._strokes:
            self._take(self.debounce.stroke(self._strokes.popleft()), table)
        self._take(self.debounce.due(now), table)
        self._run(self.input.due(self.debounce.settled(now)), table, now)

    def _take(self, strokes: list[KeyStroke], table: TableState) -> None:
        """Clean strokes (bounce merged) into the key state machine, and what they command."""
        for stroke in strokes:
            if stroke.down:
                commands = self.input.press(stroke.key, stroke.at)
            else:
                commands = self.input.release(stroke.key, stroke.at)
            self._run(commands, table, stroke.at)

    def status(self, now: float) -> FeedStatus:  # noqa: ARG002 - the Feed protocol
        return FeedStatus.LIVE if self.publisher is None else self.publisher.status()

    def next_deadline(self, now: float) -> float | None:
        deadlines = [self.input.next_deadline()]
        if self._message is not None and now < self._message[1]:
            deadlines.append(self._message[1])
        return min((d for d in deadlines if d is not None), default=None)

    def report(self, render: RenderHealth) -> None:
        """Kept: the keypad publishes no display status of its own."""
        self.render_health = render

    def journal_health(self) -> JournalHealth:
        return JournalHealth() if self.journal is None else self.journal.health

    def stop(self) -> None:
        if self.publisher is not None:
            self.publisher.stop()

    # -- commands --------------------------------------------------------------
    def _run(self, commands: list[Command], table: TableState, now: float) -> None:
        for command in commands:
            match command:
                case Enter(winner=winner, modifiers=modifiers):
                    self._enter(table, winner, modifiers, now)
                case Ask(action=action, key=key):
                    self._ask(table, action, key, now)
                case Confirm(action=KeypadAction.VOID_LAST):
                    self._void(table, now)
                case Confirm(action=KeypadAction.NEW_SHOE):
                    self._new_shoe(table)
                case Cancel():
                    self._cancelled(command, now)
                case Toggle():
                    self._message = None

    def _cancelled(self, cancel: Cancel, now: float) -> None:
        """Say what was dropped and why, unless nothing was."""
        dropped = [QUESTIONS[cancel.action]] if cancel.action is not None else []
        dropped += [LABELS[m] for m in MODIFIERS if m in cancel.modifiers]
        if not dropped:
            return
        why = {
            "another key": "",
            "the clear key": "",
            "no confirmation": f": not confirmed within {self.config.confirm_seconds:g} s",
            "no result key": f": no result key within {MODIFIER_SECONDS:g} s",
        }.get(cancel.why, f": {cancel.why}")
        self._say(f"{', '.join(dropped)} cancelled{why}", now)

    def _say(self, text: str, now: float) -> None:
        log.info("keypad: %s", text)
        self._message = (text, now + MESSAGE_SECONDS)

    def _enter(
        self, table: TableState, winner: Winner, modifiers: frozenset[KeypadAction], now: float
    ) -> None:
        number = next_game(table)
        if number > MAX_GAME:
            self._say(f"Game {MAX_GAME} was the shoe's last: start a new shoe", now)
            return
        six = KeypadAction.BANKER_SIX in modifiers
        if six and winner is not Winner.BANKER:
            self._say("Banker 6 is a Banker win: nothing entered", now)
            return
        try:
            coup = result_coup(
                winner,
                player_pair=KeypadAction.PLAYER_PAIR in modifiers,
                banker_pair=KeypadAction.BANKER_PAIR in modifiers,
                natural=KeypadAction.NATURAL in modifiers,
                banker_total=6 if six else None,
            )
        except ImpossibleHandError as error:
            self._say(f"Nothing entered: {error}", now)
            return
        if table.shoe_id is None:
            self._new_shoe(table)
        shoe = table.shoe_id
        assert shoe is not None  # a new shoe was just started
        self._apply(CoupReceived(shoe, Game(number, coup)), table)
        self._message = None
        flags = [LABELS[m] for m in MODIFIERS if m in modifiers]
        log.info("keypad: game %d %s %s", number, WINNER_NAMES[winner], " ".join(flags))

    def _ask(self, table: TableState, action: KeypadAction, key: str, now: float) -> None:
        how = f"Press {key_label(key)} again or hold it"
        if action is KeypadAction.VOID_LAST:
            last = table.last_game
            if last is None:
                self.input.clear("nothing to void")
                self._say("Nothing to void in this shoe", now)
                return
            self._target = last.number
            self._question = f"Void game {last.number} ({WINNER_NAMES[last.coup.winner]})? {how}"
        elif table.shoe_id is None or not table.games:
            self._question = f"Start a new shoe? {how}"
        else:
            self._question = f"End this shoe ({len(table.games)} games), start a new one? {how}"

    def _void(self, table: TableState, now: float) -> None:
        number, self._target = self._target, None
        shoe = table.shoe_id
        if number is None or shoe is None or table.game(number) is None:
            self._say("Nothing to void in this shoe", now)
            return
        self._apply(Void(shoe, number, VOID_REASON), table)
        log.info("keypad: game %d voided", number)

    def _new_shoe(self, table: TableState) -> None:
        finished = shoe_snapshot(table)
        previous = None if finished is None else finished.shoe
        count = None if finished is None else max(table.last_number, *table.voided, 0)
        event = NewShoe(new_shoe_id(table, self.wall_clock()), previous, count, decks=self.decks)
        self._apply(event, table, finished=finished)
        log.info("keypad: new shoe %s (after %s, %s games)", event.shoe, previous, count)

    def _pit(self, event: Event, table: TableState) -> None:
        """An event of a pit command (void, correct, new shoe, limits), taken as a keyed one."""
        if isinstance(event, NewShoe):
            finished = shoe_snapshot(table)
            self._apply(dataclasses.replace(event, decks=self.decks), table, finished=finished)
        else:
            self._apply(event, table)

    def _apply(self, event: Event, table: TableState, *, finished: Snapshot | None = None) -> None:
        applied = apply_event(table, event)
        if self.journal is not None:
            self.journal.keep(event, table, applied)
        if self.publisher is not None and applied.changed:
            self.publisher.send(event, table, finished=finished)
