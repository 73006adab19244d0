"""A controller's sessions and its memory of the last shoe, kept across restarts.

Contract v2 makes every connection a new *session*, greater than every earlier
one of that controller, so a display can tell a stale retained payload from a
fresh one.  The wall clock in milliseconds orders runs; a small file in the
state dir (and, within one process, the last session handed out) keeps the
order when the clock goes back.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from scoreboard.protocol import MAX_GAME, MAX_SEQ, MAX_SHOE_ID
from scoreboard.regular_file import read_regular

log = logging.getLogger("scoreboard.controller")  # one name in the logs for the whole controller

#: The file in the controller's state dir that keeps its last session and shoe.
STATE_NAME = "controller.json"
#: The most of it read: it holds a session, a shoe id and a game count.
MAX_STATE_BYTES = 4096

_issued_lock = threading.Lock()
_last_issued = 0  # the last session handed out in this process, whatever its store


def next_session(now_ms: int, last: int | None) -> int:
    """A session greater than ``last``: the clock in milliseconds, or ``last + 1`` if it went back.

    >>> next_session(1_700_000_000_000, None), next_session(1_700_000_000_000, 1_800_000_000_000)
    (1700000000000, 1800000000001)
    """
    return now_ms if last is None or now_ms > last else last + 1


@dataclass(frozen=True, slots=True)
class ShoeMark:
    """A shoe the controller dealt and how many games it published: a new shoe's ``previous``."""

    shoe: str
    games: int


class SessionStore:
    """Where a controller's sessions come from: strictly increasing, across restarts too.

    With a state dir the last session (and the last shoe dealt, for the next
    ``new_shoe``'s ``previous``) is kept in a small file, so a clock set back
    between two runs cannot give a session a display already saw.  Without one
    the wall clock alone orders runs.

    >>> store = SessionStore(None, clock=lambda: 5.0)
    >>> first = store.new_session(); first < store.new_session()
    True
    """

    def __init__(self, state_dir: Path | None, *, clock: Callable[[], float] = time.time) -> None:
        self.path = None if state_dir is None else state_dir / STATE_NAME
        self._clock = clock
        saved = self._load()
        self._last: int | None = saved.get("session")
        self.last_shoe: ShoeMark | None = saved.get("shoe")

    def _load(self) -> dict:
        if self.path is None or not self.path.exists():
            return {}
        try:
            data = json.loads(read_regular(self.path, MAX_STATE_BYTES))  # a FIFO: not waited on
            session, shoe, games = data["session"], data.get("shoe"), data.get("games")
        except (OSError, ValueError, TypeError, KeyError) as error:
            log.warning("controller: ignoring %s (%s)", self.path, error)
            return {}
        saved: dict = {}
        if isinstance(session, int) and 1 <= session <= MAX_SEQ:
            saved["session"] = session
        if isinstance(shoe, str) and 0 < len(shoe) <= MAX_SHOE_ID and isinstance(games, int):
            saved["shoe"] = ShoeMark(shoe, max(0, min(games, MAX_GAME)))
        return saved

    def new_session(self) -> int:
        """The next session, noted before any payload of it is published."""
        global _last_issued
        with _issued_lock:
            last = max(self._last or 0, _last_issued) or None
            session = next_session(int(self._clock() * 1000), last)
            if session > MAX_SEQ:
                raise RuntimeError(f"controller session {session} is past 2^53-1")
            _last_issued = self._last = session
        self._save()
        return session

    def remember_shoe(self, shoe: str, games: int) -> None:
        self.last_shoe = ShoeMark(shoe, games)
        self._save()

    def _save(self) -> None:
        if self.path is None:
            return
        data: dict = {"session": self._last}
        if self.last_shoe is not None:
            data |= {"shoe": self.last_shoe.shoe, "games": self.last_shoe.games}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_suffix(".tmp")
            temporary.write_text(json.dumps(data), encoding="utf-8")
            os.replace(temporary, self.path)
        except OSError as error:  # the clock still orders sessions; say so and go on
            log.warning("controller: cannot keep the session in %s (%s)", self.path, error)
