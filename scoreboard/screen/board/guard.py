"""Each panel drawn inside its own guard: a panel that raises is counted, named and logged.

The renderer shows a placeholder for a failed panel and tries it again on the
next update; this module only keeps the accounts (how many failures, which
panels fail now) and logs each panel's traceback at most once a minute, so a
panel that fails every frame does not flood the journal.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

log = logging.getLogger("scoreboard.screen.board.renderer")

REPEAT_LOG_SECONDS = 60.0


class SimulatedFault(RuntimeError):
    """Raised on purpose by a panel shown as failed (``screenshot --fault``).

    Logged as one line: the fault is a demonstration, and a traceback of it would
    read as a defect.
    """


class PanelGuard:
    """Runs draws, counting and naming the ones that raised."""

    def __init__(self) -> None:
        #: Failed draws since the guard was made.
        self.failures = 0
        self._failing: dict[str, None] = {}  # an ordered set: panels whose last draw failed
        self._logged: dict[str, float] = {}

    @property
    def failing(self) -> tuple[str, ...]:
        """The panels whose last draw raised, in the order they first failed."""
        return tuple(self._failing)

    def fault_shown(self) -> bool:
        """The header's mark says DISPLAY FAULT: a panel other than the header fails."""
        return any(name != "header" for name in self._failing)

    def run(self, name: str, now: float, draw: Callable[[], object]) -> bool:
        """Run ``draw()``; False when it raised: counted, named, logged once a minute."""
        try:
            draw()
        except Exception as error:
            self.failed(name, now, error)
            return False
        self._failing.pop(name, None)
        return True

    def failed(self, name: str, now: float, error: Exception) -> None:
        """Panel ``name`` raised ``error`` (called while it is handled): counted, named, logged."""
        self.failures += 1
        self._failing[name] = None
        if self._logged.get(name, -REPEAT_LOG_SECONDS) + REPEAT_LOG_SECONDS <= now:
            self._logged[name] = now
            if isinstance(error, SimulatedFault):
                log.warning("panel %s shows a placeholder: %s", name, error)
            else:
                log.exception("panel %s failed to draw; it shows a placeholder", name)
