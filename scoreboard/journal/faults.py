"""Whether the disk takes the journal and, while it does not, why and when to try again.

A failing disk is logged once as an ERROR when the fault starts (a WARNING when
its reason changes, an INFO when it clears) and tried again after 1 s, then 2,
4 ... at most every minute, so a full or read-only disk costs the board nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from scoreboard.journal.disk import why
from scoreboard.table.health import JournalHealth, JournalState

log = logging.getLogger(__package__)  # the journal logs under one name: scoreboard.journal

#: A failing disk is tried again after 1 s, then 2, 4 ... at most every minute.
RETRY_FIRST_SECONDS = 1.0
RETRY_MAX_SECONDS = 60.0


class DiskFaults:
    """The journal's disk fault, if any, with its backoff.

    >>> now = [0.0]
    >>> faults = DiskFaults(Path("journal.jsonl"), clock=lambda: now[0])
    >>> faults.failed(OSError(28, "No space left on device"))
    >>> faults.health.reason, faults.retry_due()
    ('No space left on device', False)
    >>> now[0] = 1.0
    >>> faults.retry_due()
    True
    """

    def __init__(self, path: Path, clock: Callable[[], float]) -> None:
        self.path = path
        self._clock = clock
        self.reason: str | None = None
        self._backoff = 0.0
        self._retry_at = 0.0

    @property
    def failing(self) -> bool:
        return self.reason is not None

    @property
    def health(self) -> JournalHealth:
        if self.reason is None:
            return JournalHealth(JournalState.OK)
        return JournalHealth(JournalState.FAILING, self.reason)

    def retry_due(self) -> bool:
        return self._clock() >= self._retry_at

    def failed(self, error: OSError, lost: str | None = None) -> None:
        """Note a disk fault (``lost``: what went missing first): retry later and later."""
        reason = why(error) if lost is None else f"{lost}; {why(error)}"
        if self.reason is None:
            log.error(
                "journal %s: cannot write (%s); the board runs from memory and retries",
                self.path,
                reason,
            )
            self._backoff = RETRY_FIRST_SECONDS
        else:
            if reason != self.reason:
                log.warning("journal %s: still cannot write, now: %s", self.path, reason)
            self._backoff = min(2 * self._backoff, RETRY_MAX_SECONDS)
        self.reason = reason
        self._retry_at = self._clock() + self._backoff

    def recovered(self) -> None:
        if self.reason is not None:
            log.info("journal %s: writing again (it was: %s)", self.path, self.reason)
            self.reason = None
