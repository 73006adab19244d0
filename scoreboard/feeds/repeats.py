"""What the display session does about a thing that keeps happening: say it once.

A flood of identical refusals, of stale or replayed messages or of failed
connections must not become a flood of log lines (nor of journal lines), and
must not hide that it happens.  :class:`RepeatLog` logs the first of a kind at
once and then how many more came, at most once a minute; :class:`OnceLog` logs
each cause of failed connections once until the next success; :class:`Refusals`
is the session's use of both for one shoe, and how many refused coups of a game
are journaled.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass

from scoreboard.game.events import CoupReceived, Event, Snapshot
from scoreboard.table.amendments import describe
from scoreboard.table.applied import Applied
from scoreboard.table.integrity import BURN_GAME, IntegrityAlert
from scoreboard.table.state import TableState

log = logging.getLogger("scoreboard.feeds._session")  # the display session logs under one name

#: A repeated refusal is logged the first time, then summarised at most this often.
SUMMARY_INTERVAL = 60.0
#: Refused coups of one game journaled at most (each teaches the table one retired coup).
JOURNALED_REFUSALS_PER_GAME = 4
#: Amendments logged one by one in a minute; more are counted in one line.
AMENDMENTS_LOGGED = 50


def game_ranges(numbers: Iterable[int]) -> str:
    """Game numbers for a log line, runs folded.

    >>> game_ranges((3, 4, 5, 9, 11, 12)), game_ranges(())
    ('3-5, 9, 11-12', '')
    """
    runs: list[list[int]] = []
    for number in numbers:
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ", ".join(f"{run[0]}-{run[-1]}" if len(run) > 1 else f"{run[0]}" for run in runs)


@dataclass(slots=True)
class _Tally:
    logged_at: float
    unreported: int = 0


class RepeatLog:
    """Log the first of a kind at once, then how many more at most once per ``interval``.

    A flood of identical refusals must not become a flood of log lines: each is
    counted, and the log says how many more came.

    >>> lines = []
    >>> repeats = RepeatLog(lines.append, lambda key, n: f"{key}: {n:,} more", interval=60)
    >>> for now in (0, 1, 2, 3):
    ...     repeats.note(["game 12"], now, lambda: "game 12 refused")
    >>> repeats.flush(30), repeats.flush(61), lines
    (None, None, ['game 12 refused', 'game 12: 3 more'])
    """

    def __init__(
        self,
        emit: Callable[[str], None],
        summary: Callable[[Hashable, int], str],
        *,
        interval: float = SUMMARY_INTERVAL,
    ) -> None:
        self._emit, self._summary, self.interval = emit, summary, interval
        self._tallies: dict[Hashable, _Tally] = {}

    def note(self, keys: Iterable[Hashable], now: float, first: Callable[[], str]) -> None:
        """One more of each of ``keys``: logged in full (``first()``) if one is new."""
        new = False
        for key in keys:
            tally = self._tallies.get(key)
            if tally is None:
                self._tallies[key] = _Tally(now)
                new = True
            else:
                tally.unreported += 1
        if new:
            self._emit(first())

    def flush(self, now: float) -> None:
        """Log the summaries that are due."""
        for key, tally in self._tallies.items():
            if tally.unreported and now - tally.logged_at >= self.interval:
                self._emit(self._summary(key, tally.unreported))
                tally.logged_at, tally.unreported = now, 0

    def next_due(self) -> float | None:
        """When the next summary is due, if any is waiting."""
        due = [t.logged_at + self.interval for t in self._tallies.values() if t.unreported]
        return min(due) if due else None

    def forget(self) -> None:
        """Start afresh (a new shoe), the summaries still owed logged first."""
        self.flush(float("inf"))
        self._tallies = {}


def alert_line(alert: IntegrityAlert) -> str:
    """An integrity alert as its WARNING says it: the shoe, the game (or the burn), the card.

    >>> from scoreboard.table.integrity import AlertKind
    >>> alert_line(IntegrityAlert("S1", 23, AlertKind.OVERCOUNT, "A♠ seen 9 times in 8 decks"))
    'integrity alert (overcount): shoe S1, game 23: A♠ seen 9 times in 8 decks'
    """
    where = "the burn" if alert.game == BURN_GAME else f"game {alert.game}"
    return f"integrity alert ({alert.kind.value}): shoe {alert.shoe}, {where}: {alert.detail}"


class Announcements:
    """Say what an applied event did that staff must hear of: its amendments and alerts.

    Each integrity alert is raised once by the table, so each is logged once, at
    WARNING.  Each amendment is logged at INFO ("game 17 corrected: B -> P
    (misread)"); a correction storm is held to :data:`AMENDMENTS_LOGGED` full lines
    a minute and a count of the rest, so a flood cannot fill the disk unseen.

    >>> lines = []
    >>> from scoreboard.table.amendments import AmendKind, Amendment
    >>> announce = Announcements(lambda level, line: lines.append(line), "mqtt: ")
    >>> announce(Applied(amendments=(Amendment("S1", 4, AmendKind.VOID, None, None),)), 0.0)
    >>> lines
    ['mqtt: game 4 voided: nothing']
    """

    def __init__(self, emit: Callable[[int, str], None], prefix: str = "") -> None:
        self._emit, self._prefix = emit, prefix
        self._amendments = RateLog(
            lambda line: emit(logging.INFO, line),
            prefix + "{}: {:,} more in the last minute (not logged one by one)",
            burst=AMENDMENTS_LOGGED,
        )

    def __call__(self, applied: Applied, now: float) -> None:
        for change in applied.amendments:
            self._amendments.note("amendments", now, self._prefix + describe(change))
        for alert in applied.alerts:
            self._emit(logging.WARNING, self._prefix + alert_line(alert))

    def flush(self, now: float) -> None:
        """Log how many amendments were held back in a minute that is over."""
        self._amendments.flush(now)

    def next_due(self) -> float | None:
        return self._amendments.next_due()


class RateLog:
    """At most ``burst`` full lines per key in each ``interval``; then how many were held back.

    Rejected payloads are worth reading one by one when they are few, and a count
    when they are a flood (the lab sent 10,000): a fuzzer must not fill the disk
    with log lines.

    >>> lines = []
    >>> rate = RateLog(lines.append, "rejected ({}): {:,} more in the last minute", burst=2)
    >>> for now in range(5):
    ...     rate.note("bad json", now, f"payload {now}")
    >>> rate.flush(59), rate.flush(60), lines
    (None, None, ['payload 0', 'payload 1', 'rejected (bad json): 3 more in the last minute'])
    """

    def __init__(
        self,
        emit: Callable[[str], None],
        summary: str,
        *,
        burst: int = 10,
        interval: float = SUMMARY_INTERVAL,
    ) -> None:
        self._emit, self._summary = emit, summary
        self.burst, self.interval = burst, interval
        self._windows: dict[Hashable, list[float | int]] = {}  # key -> [start, shown, held]

    def note(self, key: Hashable, now: float, line: str) -> None:
        """One more of ``key``: logged in full while the window's budget lasts."""
        window = self._windows.get(key)
        if window is None or now - window[0] >= self.interval:
            if window is not None:
                self._report(key, window)
            window = self._windows[key] = [now, 0, 0]
        if window[1] < self.burst:
            window[1] += 1
            self._emit(line)
        else:
            window[2] += 1

    def flush(self, now: float) -> None:
        """Log what was held back in windows that are over."""
        for key, window in list(self._windows.items()):
            if now - window[0] >= self.interval:
                self._report(key, window)
                del self._windows[key]

    def next_due(self) -> float | None:
        """When a held-back count is due to be logged, if any."""
        due = [w[0] + self.interval for w in self._windows.values() if w[2]]
        return min(due) if due else None

    def _report(self, key: Hashable, window: list[float | int]) -> None:
        if window[2]:
            self._emit(self._summary.format(key, window[2]))


class OnceLog:
    """Log each line once until :meth:`clear` (paho retries a failed connection for ever).

    >>> lines = []
    >>> once = OnceLog(lambda level, line: lines.append(line))
    >>> for _ in range(3):
    ...     once.report(logging.WARNING, "broker %s:%d unreachable", "pit", 1883)
    >>> once.clear()
    >>> once.report(logging.WARNING, "broker %s:%d unreachable", "pit", 1883)
    >>> lines
    ['broker pit:1883 unreachable', 'broker pit:1883 unreachable']
    """

    def __init__(self, emit: Callable[[int, str], None]) -> None:
        self._emit = emit
        self._reported: set[str] = set()

    def report(self, level: int, message: str, *args: object) -> None:
        """Log ``message % args`` at ``level`` unless it was logged since the last clear."""
        line = message % args
        if line not in self._reported:
            self._emit(level, line)
            self._reported.add(line)

    def clear(self) -> None:
        """Log every line again (a success came)."""
        self._reported.clear()


class Refusals:
    """The session's repeated refusals of one shoe, in the log and the journal.

    Conflicts are logged by game and stale or replayed messages by reason, each
    the first time and then in a summary a minute; refused coups of one game are
    journaled at most :data:`JOURNALED_REFUSALS_PER_GAME` times.  A new shoe
    starts afresh, the summaries still owed logged first.
    """

    def __init__(self) -> None:
        self._shoe: str | None = None
        self._journaled: Counter[int] = Counter()
        self._conflicts = RepeatLog(
            lambda line: log.warning("%s", line),
            lambda game, n: f"mqtt: game {game}: {n:,} more conflicting copies refused",
        )
        self._stale = RepeatLog(
            lambda line: log.info("%s", line),
            lambda key, n: f"mqtt: {n:,} more {key} messages ignored",
        )

    def conflict(
        self, event: Event, applied: Applied, topic: str, table: TableState, now: float
    ) -> None:
        """One more conflict of each game ``event`` contradicted: logged if one is new."""
        self._conflicts.note(
            applied.conflicts,
            now,
            lambda: f"mqtt: rejected (conflict): {_conflict_text(event, applied, topic, table)}",
        )

    def ignored(self, reason: str, now: float) -> None:
        """One more message ignored as ``stale`` (an older session) or a ``replay``."""
        why = "a replay of what the display applied" if reason == "replay" else "an older session"
        self._stale.note([reason], now, lambda: f"mqtt: ignored a {reason} message ({why})")

    def summarise(self, shoe_id: str | None, now: float) -> None:
        """Log the summaries due; forget the tallies of a shoe no longer shown."""
        if shoe_id != self._shoe:
            self._shoe = shoe_id
            self._conflicts.forget()
            self._journaled.clear()
        self._conflicts.flush(now)
        self._stale.flush(now)

    def next_due(self) -> float | None:
        """When the next summary is due, if any is waiting."""
        due = [d for d in (self._conflicts.next_due(), self._stale.next_due()) if d is not None]
        return min(due) if due else None

    def worth_a_line(self, event: Event, applied: Applied) -> bool:
        """False for one more refused coup of a game whose refusals were journaled enough.

        Each refused coup teaches the table one retired coup, which the journal
        keeps; a flood of different ones must not become a line each.
        """
        if applied.changed or not applied.retired:
            return True  # the journal decides (it keeps what changed or retired)
        games = applied.conflicts
        if not games and isinstance(event, CoupReceived):
            games = (event.game.number,)
        if games and all(
            self._journaled[number] >= JOURNALED_REFUSALS_PER_GAME for number in games
        ):
            return False
        self._journaled.update(games)
        return True


def _conflict_text(event: Event, applied: Applied, topic: str, table: TableState) -> str:
    """Why a coup or snapshot was refused, for the log."""
    if isinstance(event, Snapshot):
        return (
            f"{topic}: games {game_ranges(applied.conflicts)} differ from what a void"
            " or correct event (or an earlier coup) set; the display keeps its own"
        )
    number = applied.conflicts[0]
    game = table.game(number)
    kept = f" as {game.coup.winner.value}" if game is not None else ""
    return (
        f"{topic}: game {number} is already recorded{kept} with different content;"
        " only a correct event may change it"
    )
