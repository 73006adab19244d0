"""The shoe bridge: a card-reading shoe on a serial line, published as the table's controller.

One thread, one loop: read the line for at most its timeout
(:class:`~scoreboard.controller.shoe_line.ShoeLine`), turn what came into events
(:class:`~scoreboard.bridge._desk.ShoeDesk`), then service the broker.
A new shoe, its burn and each coup change the bridge's own table: applied,
journaled (fsync'd) and only then published, each followed by the shoe's
retained snapshot, so a bridge killed at any point comes back on the same state
dir with the same shoe and game numbers, and the snapshot of its first connect
carries every coup it ever took.  A card dealt (face down) and the shoe's health
change no shoe: they are published as they come (lost while the broker is away),
the health logged too; the conditions raised now (the device gone, an error, an
extra card held) ride on the retained controller status, said again when they
change, so a display that joins late shows SHOE OFFLINE too.

The broker side is the keypad's publisher
(:class:`~scoreboard.keypad.publish.KeypadPublisher`): sessions and seq,
the will, the retained status, limits (only configured ones) and snapshot,
answers to ``cmd/resync``, signatures when the table has a key, and the
pit's commands (``cmd/pit``: void, correct, new shoe, limits) ruled on against
the bridge's table, applied, journaled and published like the shoe's own events.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable
from typing import Protocol

from scoreboard.bridge._desk import DeskEvent, ShoeDesk
from scoreboard.controller.dealing import utc_now
from scoreboard.controller.open_hand import HandFile
from scoreboard.controller.shoe_line import LineDown, LineNews, LineUp
from scoreboard.game.events import Burn, CoupReceived, Event, NewShoe, ShoeHealth
from scoreboard.journal import Journal
from scoreboard.keypad.feed import new_shoe_id, next_game
from scoreboard.keypad.publish import KeypadPublisher, shoe_snapshot
from scoreboard.shoes import SuitOrder
from scoreboard.shoes.emulate import Emulated
from scoreboard.table.state import TableState, apply_event

__all__ = ["Bridge", "Line", "desk_for"]

log = logging.getLogger("scoreboard.controller")  # one name in the logs for the whole controller


class Line(Protocol):
    """What the bridge reads: :class:`~scoreboard.controller.shoe_line.ShoeLine`."""

    path: str
    #: None until first opened (or failed to open); then whether it is open.
    up: bool | None

    def read(self) -> list[LineNews]: ...

    def close(self) -> None: ...


def desk_for(
    kind: Emulated, table: TableState, *, decks: int | None, suits: SuitOrder | None
) -> ShoeDesk:
    """A desk going on with ``table``'s shoe (the journal's) after its last game; the shoes it
    opens itself are named from the table and the wall clock (``S``: a shoe's)."""
    return ShoeDesk(
        kind,
        next_shoe=lambda: new_shoe_id(table, time.time(), mark="S"),
        shoe=table.shoe_id,
        games=next_game(table) - 1,
        decks=decks,
        suits=suits,
    )


class Stopping(Protocol):
    @property
    def requested(self) -> bool: ...


class Bridge:
    """The loop of ``scoreboard bridge`` (see the module docstring)."""

    def __init__(
        self,
        *,
        line: Line,
        desk: ShoeDesk,
        table: TableState,
        publisher: KeypadPublisher | None,
        journal: Journal | None = None,
        hand_file: HandFile | None = None,
        clock: Callable[[], float] = time.monotonic,
        name: str = "bridge",
    ) -> None:
        """``publisher`` None: nothing published (a display reading its own shoe with no
        broker); ``hand_file``: where a hand or a burn being dealt survives a restart;
        ``name``: who reads the shoe, in the log (``shoe`` for a display)."""
        self.line = line
        self.desk = desk
        self.table = table
        self.publisher = publisher
        self.journal = journal
        self.hand_file = hand_file
        self.clock = clock
        self.name = name
        self.coups = 0  # coups taken since start (the log reads it)

    def run(self, stop: Stopping, step: Callable[[float, str], None] = lambda *_: None) -> None:
        """Read and publish until ``stop`` is requested; ``step`` hears of every good turn
        (the heartbeat: ready, then the watchdog's pings) with a one-line summary."""
        self.begin(lambda: None)
        try:
            while not stop.requested:
                self.turn()
                step(self.clock(), self.summary())
        finally:
            self.end()

    def begin(self, wake: Callable[[], None]) -> None:
        """Go on where the last run stopped, then connect (``wake``: the broker has news)."""
        self.resume()
        if self.publisher is not None:
            self.publisher.start(wake, self.table)

    def end(self) -> None:
        """Close the line, say goodbye as the controller."""
        self.line.close()
        if self.publisher is not None:
            self.publisher.stop()
        log.info("%s: stopped after %d coups this run", self.name, self.coups)

    def turn(self) -> None:
        """One piece of the line (at most its timeout), then the broker's news."""
        for item in self.line.read():
            self.take(item)
        self.serve(self.clock())

    def serve(self, now: float) -> None:
        """The broker's news (resyncs, the pit's commands), and a failing journal retried."""
        if self.publisher is not None:
            self.publisher.service(self.table, now)
            self.publisher.serve_pit(self.table, self._pit)
        if self.journal is not None:
            self.journal.heal()

    def take(self, item: LineNews) -> None:
        if isinstance(item, LineDown):
            log.error("%s: the shoe's line is down (%s); reopening it", self.name, item.reason)
            events = self.desk.line_down(item.reason)
        elif isinstance(item, LineUp):
            log.info("%s: the shoe's line %s is back", self.name, item.path)
            events = self.desk.line_up(item.path)
        else:
            events = self.desk.feed(item, self.clock())
        for event in events:
            self.deliver(event)
        if self.hand_file is not None:  # after the coup is journaled: never dealt twice
            self.hand_file.keep(self.desk.open_hand)

    def resume(self) -> None:
        """Go on with the hand the last run was dealing, if the shoe still waits for it."""
        kept = None if self.hand_file is None else self.hand_file.load()
        if kept is not None and self.desk.resume(kept):
            burning = "" if kept.burn is None else f", {len(kept.burn)} cards burned"
            log.info(
                "%s: going on with shoe %s game %d, %d cards dealt%s",
                self.name,
                kept.shoe,
                kept.game,
                len(kept.cards),
                burning,
            )

    def deliver(self, event: DeskEvent) -> None:
        """A shoe's event: the table's applied, journaled then published; the rest told."""
        if isinstance(event, NewShoe | Burn | CoupReceived):
            self._record(event)
        elif isinstance(event, ShoeHealth):
            _log_health(self.name, event)
            applied = apply_event(self.table, event)  # the table's rules decide what it keeps
            if self.journal is not None:
                self.journal.keep(event, self.table, applied)
            if self.publisher is not None:
                self.publisher.tell(event)
                if event.state != "seen":
                    self.publisher.conditions(tuple(self.desk.raised.values()))
        else:
            log.debug("%s: game %d %s dealt", self.name, event.game, event.seat)
            apply_event(self.table, event)  # face down in the hand forming (never journaled)
            if self.publisher is not None:
                self.publisher.tell(event)

    def _pit(self, event: Event) -> None:
        """A pit command's event (void, correct, new shoe, limits), taken like the shoe's own.

        A new shoe the pit starts is the one the shoe's next hands belong to, until
        the shoe itself starts another (its face-up card and burn).
        """
        if isinstance(event, NewShoe):
            event = dataclasses.replace(event, decks=self.desk.book.decks)
            self.desk.follow(event.shoe)
        self._record(event)

    def _record(self, event: Event) -> None:
        finished = shoe_snapshot(self.table) if isinstance(event, NewShoe) else None
        if isinstance(event, CoupReceived):
            event = CoupReceived(event.shoe, event.game, utc_now())
        applied = apply_event(self.table, event)
        if self.journal is not None:
            self.journal.keep(event, self.table, applied)
        if not applied.changed:
            log.warning("%s: the table refused %s", self.name, event)
            return
        if isinstance(event, CoupReceived):
            self.coups += 1
            log.info(
                "%s: shoe %s game %d %s",
                self.name,
                event.shoe,
                event.game.number,
                event.game.coup.winner,
            )
        elif isinstance(event, NewShoe):
            log.info("%s: new shoe %s (after %s)", self.name, event.shoe, event.previous)
        if self.publisher is not None:
            self.publisher.send(event, self.table, finished=finished)

    def summary(self) -> str:
        """One line for ``systemctl status``."""
        tally = self.desk.tally
        parts = [
            "SHOE OFFLINE" if "device" in self.desk.raised else "shoe line up",
            "no broker" if self.publisher is None else f"broker {self.publisher.status().value}",
            f"shoe {self.table.shoe_id or '-'}",
            f"game {self.table.last_number}",
        ]
        if tally.bad_runs or tally.unknown:
            parts.append(f"{tally.bad_bytes} bad bytes, {tally.unknown} unknown messages")
        if self.journal is not None and not self.journal.health.ok:
            parts.append("JOURNAL FAILING")
        return ", ".join(parts)


def _log_health(name: str, health: ShoeHealth) -> None:
    where = f" (shoe {health.shoe} game {health.game})" if health.game is not None else ""
    level = logging.INFO if health.state == "cleared" else logging.WARNING
    log.log(
        level, "%s: shoe %s %s: %s%s", name, health.condition, health.state, health.detail, where
    )
