"""When the kiosk loop tells the service manager it is ready and alive.

A board that hangs while its last frame says LIVE is the worst failure a table can
have, because nobody sees it.  So the watchdog is fed by the loop itself, and only
for a step that did the two things a live board does: it **polled the feed** and
**produced a frame** (the renderer ran to the end and the changed rectangles went
to the screen, or there was nothing to change).  A step whose poll or frame raised
does not count: a board that only fails for the watchdog period is restarted by
systemd, which brings the shoe back from the journal.  A stuck call (a driver, a
disk, a lock) stops the loop, and with it the pings.

``READY=1`` goes out after the first good step (the first frame is on the screen),
``STATUS=`` whenever the one-line summary changes, ``STOPPING=1`` on the way out.
"""

from __future__ import annotations

from scoreboard.service.sdnotify import Notifier
from scoreboard.table.applied import FeedStatus


def summary(
    status: FeedStatus, shoe: int, game: int, failing: tuple[str, ...], journal_ok: bool
) -> str:
    """One line for ``systemctl status``: the feed mark, the shoe and game, any fault.

    >>> summary(FeedStatus.LIVE, 3, 42, ("counters",), False)
    'LIVE, shoe 3, game 42, DISPLAY FAULT: counters, JOURNAL FAILING'
    """
    parts = [status.value.upper(), f"shoe {shoe}", f"game {game}"]
    if failing:
        parts.append("DISPLAY FAULT: " + ", ".join(failing))
    if not journal_ok:
        parts.append("JOURNAL FAILING")
    return ", ".join(parts)


class Heartbeat:
    """The notifier plus what has been said: readiness, the last status, the next ping."""

    def __init__(self, notifier: Notifier) -> None:
        self.notifier = notifier
        self.ready = False
        self.pings = 0
        self._said = ""
        self._next_ping: float | None = None

    def good_step(self, now: float, summary: str) -> None:
        """A step polled the feed and produced a frame: ready once, a ping when due, any news."""
        if not self.ready:
            self.ready = True
            self._said = summary
            self.notifier.ready(summary)
        elif summary != self._said:
            self._said = summary
            self.notifier.status(summary)
        every = self.notifier.ping_seconds
        if every is None:
            return
        if self._next_ping is None or now >= self._next_ping:
            self.notifier.watchdog()
            self.pings += 1
            self._next_ping = now + every

    def due(self, now: float) -> bool:
        """A ping would go out at ``now``: the frame should prove the screen answers."""
        every = self.notifier.ping_seconds
        return every is not None and (self._next_ping is None or now >= self._next_ping)

    def deadline(self, now: float) -> float | None:
        """When the loop must wake to ping again (None: no watchdog, or no good step yet).

        Asked right after a step: a ping still due then means that step failed, so
        the next try is a ping period away rather than at once (no spinning).
        """
        every = self.notifier.ping_seconds
        if every is None or self._next_ping is None:
            return None
        return self._next_ping if self._next_ping > now else now + every

    def stopping(self) -> None:
        self.notifier.stopping()
        self.notifier.close()
