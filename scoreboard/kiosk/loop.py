"""The table's board: the kiosk window's scene for one table, any feed.

Entry point::

    run_kiosk(feed, table, theme, *, windowed=False, size=None, run_for=None,
              rotate=0, portrait=False, quit_keys=None, motion=True, stop=None) -> int

``feed`` is any object with the Feed protocol of ``docs/architecture.md``
(``start(wake)``, ``poll(table, now)``, ``status(now)``, ``next_deadline(now)``,
``report(render)``, ``journal_health()``, ``stop()``); ``theme`` is a
:class:`~scoreboard.screen.theme.loading.Theme`, a theme name or a YAML path.
:class:`Kiosk` is the board; the loop itself is the one every kiosk window runs
(:class:`~scoreboard.kiosk.window.Window`, shared with the lobby's wall): it
opens the display (full screen by default, refused where nobody sees it), sleeps
until the earliest of the board's deadline (the feed's, the next blink step, the
next clock minute, a theme check) and the heartbeat's or a ``wake()`` from the
feed's thread, never spinning, takes the quit keys and the keypad's keys, and
copies each changed rectangle onto a screen turned by ``rotate`` (not turned,
the renderer draws on the display's own surface).  The theme file is watched:
on a change or SIGHUP it is reloaded, and a bad edit keeps the last good theme
and logs every error.

The screen and the status never disagree silently: a panel that fails to draw
shows a placeholder while the others go on updating (see
:mod:`scoreboard.screen.board.renderer`); a failure of the frame itself keeps the last
good frame and counts as the failing panel ``"frame"``.  After every frame
attempt the kiosk hands the feed a :class:`~scoreboard.table.health.RenderHealth`
(``feed.report``), which the MQTT feed publishes in the display status, and
each step it asks ``feed.journal_health()`` to show the JOURNAL warning while the
journal fails.  ``run_for`` stops after that many seconds (tests, soak runs),
``stop`` (a :class:`~scoreboard.service.stopping.Stop`: SIGTERM, Ctrl-C) when it is asked;
returns the exit status.

Time comes from two injected clocks: ``clock`` (monotonic) for every deadline,
so a wall-clock step never stalls or spins the loop, and ``wall_clock`` only for
the time shown in the header and for when its minute turns.  The theme owns the
roads' row count: the kiosk hands ``theme.roads.rows`` to the table at start and
on every reload (:func:`use_theme_rows`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import signal
import threading
import time
from collections.abc import Callable

import pygame

from scoreboard.kiosk._promo import load_promo
from scoreboard.kiosk.feed import Feed, KeyInput
from scoreboard.kiosk.monitor import NoDisplayError
from scoreboard.kiosk.theme_watch import (
    RendererFactory,
    ThemeWatcher,
    give_back_memory,
    motion_renderer,
    renderer_on,
    use_theme_rows,
)
from scoreboard.kiosk.window import (
    KEY_IDLE_SECONDS,
    KEY_POLL_SECONDS,
    Window,
    clock_text,
    seconds_to_next_minute,
)
from scoreboard.roads.good_roads import GoodRoadRules
from scoreboard.screen.board.probe import require_drawable
from scoreboard.screen.theme.loading import load_theme
from scoreboard.screen.theme.values import Theme
from scoreboard.service.heartbeat import summary
from scoreboard.service.sdnotify import Notifier
from scoreboard.service.stopping import Stop, routed
from scoreboard.settings.config import PromoConfig
from scoreboard.settings.translations import rotated
from scoreboard.table.applied import FeedStatus
from scoreboard.table.health import JournalHealth, RenderHealth
from scoreboard.table.state import TableState

__all__ = ["KEY_IDLE_SECONDS", "KEY_POLL_SECONDS", "Kiosk", "run_kiosk", "seconds_to_next_minute"]

THEME_CHECK_SECONDS = 2.0
FRAME = "frame"
"""The failing "panel" reported when the frame as a whole could not be drawn."""


class Kiosk:
    """The table's board: a :class:`~scoreboard.kiosk.window.Scene` and its window.

    The window (:attr:`window`) opens the display, sleeps, takes input and keeps
    the heartbeat; the board polls its feed, keeps the theme and the languages,
    draws what changed and reports how drawing goes.
    """

    def __init__(
        self,
        feed: Feed,
        table: TableState,
        theme: Theme,
        *,
        windowed: bool = False,
        size: tuple[int, int] | None = None,
        clock: Callable[[], float] = time.monotonic,
        wall_clock: Callable[[], float] = time.time,
        renderer: RendererFactory | None = None,
        rotate: int = 0,
        portrait: bool = False,
        quit_keys: bool | None = None,
        motion: bool = True,
        notifier: Notifier | None = None,
        stop: Stop | None = None,
        rotate_languages: float = 0.0,
    ) -> None:
        """``renderer`` builds the renderer at start and on every theme reload.

        It is where a test or a tool hands in a :class:`Renderer` with its own
        panel drawers (``lambda theme, size: Renderer(theme, size, drawers=...)``);
        by default :func:`motion_renderer` of ``motion``.  ``windowed``, ``size``,
        ``rotate``, ``portrait``, ``quit_keys``, ``notifier`` and ``stop`` are the
        :class:`~scoreboard.kiosk.window.Window`'s.  ``rotate_languages``: seconds
        each language after the main one is shown in turn beside it (0: all shown
        at once).
        """
        self.feed, self.table = feed, table
        self.rotate_languages = rotate_languages
        self.make_renderer = renderer or motion_renderer(motion)
        self.wall_clock = wall_clock
        self.watcher = ThemeWatcher(theme)
        use_theme_rows(table, theme)
        self.keys = feed if isinstance(feed, KeyInput) else None
        self.window = Window(
            self,
            windowed=windowed,
            size=size,
            rotate=rotate,
            portrait=portrait,
            quit_keys=quit_keys,
            keys=self.keys,
            clock=clock,
            notifier=notifier,
            stop=stop,
        )
        self.renderer = renderer_on(self.screen, self.make_renderer, theme, self.rotate)
        #: Wall-clock time of the last frame that reached the screen (the screen showed
        #: the state as of then, whether or not anything had changed), None before.
        self.last_frame: float | None = None
        self.journal = JournalHealth()
        self._frame_failed = False
        self._past_failures = 0  # panel failures of the renderers a theme reload replaced
        self._frame_failures = 0
        self.reload_requested = threading.Event()
        self._next_theme_check = 0.0

    # The window's, named here as the board's callers know them.
    @property
    def screen(self) -> pygame.Surface:
        return self.window.screen

    @property
    def rotate(self) -> int:
        return self.window.rotate

    @property
    def size(self) -> tuple[int, int]:
        """The upright frame's size: the screen's, turned by the rotation."""
        return self.window.size

    @property
    def native_wait(self) -> bool:
        return self.window.native_wait

    @property
    def clock(self) -> Callable[[], float]:
        """The monotonic clock of every deadline (the window's)."""
        return self.window.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self.window.clock = clock

    @property
    def running(self) -> bool:
        """False once quit (a quit key, the window closed): the loop ends after this turn."""
        return self.window.running

    @running.setter
    def running(self, running: bool) -> None:
        self.window.running = running

    def wake(self) -> None:
        """Thread-safe: called by a feed's thread (or the signal watcher's) when input arrives."""
        self.window.wake()

    def sleep(self, seconds: float) -> None:
        self.window.sleep(seconds)

    def handle(self, event: pygame.event.Event) -> None:
        self.window.handle(event)

    def take_input(self) -> None:
        self.window.take_input()

    def start(self, wake: Callable[[], None]) -> None:
        self.feed.start(wake)

    def stop(self) -> None:
        self.feed.stop()

    def expose(self) -> None:
        self.renderer.invalidate()

    def request_reload(self, *_: object) -> None:
        self.reload_requested.set()
        self.wake()

    def reload_theme(self, now: float, *, force: bool = False) -> bool:
        """Swap in a changed theme; returns True when the renderer was rebuilt."""
        self._next_theme_check = now + THEME_CHECK_SECONDS
        theme = self.watcher.check(force=force)
        if theme is None:
            return False
        use_theme_rows(self.table, theme)
        self._past_failures += self.renderer.failures
        self.renderer = renderer_on(self.screen, self.make_renderer, theme, self.rotate)
        give_back_memory()  # the old renderer is freed by now: nothing refers to it
        return True

    def rotate_language(self, now: float) -> None:
        """Show the main language beside the next of the others when their turn came."""
        theme = self.watcher.theme
        wanted = rotated(theme.languages, self.rotate_languages, now)
        if wanted != self.renderer.theme.languages:
            shown = dataclasses.replace(theme, languages=wanted)
            self._past_failures += self.renderer.failures
            self.renderer = renderer_on(self.screen, self.make_renderer, shown, self.rotate)

    def step(self, now: float) -> None:
        """Poll the feed, put whatever changed on the screen, report how drawing went."""
        if self.reload_requested.is_set() or now >= self._next_theme_check:
            force = self.reload_requested.is_set()
            self.reload_requested.clear()
            self.reload_theme(now, force=force)
        self.rotate_language(now)
        self.table.switch_limits(self.wall_clock())  # scheduled limits, once their time came
        polled = True
        try:
            self.feed.poll(self.table, now)
            status = self.feed.status(now)
        except Exception:
            self.window.report("feed poll failed; the board keeps its last state", now)
            status = FeedStatus.OFFLINE
            polled = False
        try:
            self.journal = self.feed.journal_health()
        except Exception:
            self.window.report("asking the feed for the journal's health failed", now)
        drew = self.draw(status, now)
        try:
            self.feed.report(self.render_health)
        except Exception:
            self.window.report("reporting the render health to the feed failed", now)
        if polled and drew:
            table, failing = self.table, self.render_health.failing
            line = summary(status, table.shoe_number, table.last_number, failing, self.journal.ok)
            self.window.alive(line)

    def scheduled_at(self, now: float) -> float | None:
        """When scheduled limits are due, on the monotonic axis (None: none scheduled)."""
        scheduled = self.table.scheduled
        if scheduled is None:
            return None
        return now + scheduled.at - (self.wall_clock() - (self.clock() - now))

    def notice(self, now: float) -> str | None:
        """The feed's prompt line (the keypad's question or pending modifiers), if any."""
        return None if self.keys is None else self.keys.prompt(now)

    def draw(self, status: FeedStatus, now: float) -> bool:
        """One frame attempt: the changed panels onto the screen, or the last good frame kept.

        Returns whether the frame was produced (False: it raised and was logged).
        """
        try:
            dirty = self.renderer.update(
                self.table,
                status,
                clock=self.clock_text(),
                now=now,
                journal_failing=not self.journal.ok,
                notice=self.notice(now),
            )
            dirty += self.renderer.blink(now)
            self.window.show(self.renderer.frame, dirty)
        except Exception:
            self.window.report("drawing a frame failed; the last good frame stays on screen", now)
            self.renderer.invalidate()
            self._frame_failed = True
            self._frame_failures += 1
            return False
        self._frame_failed = False
        self.last_frame = self.wall_clock()
        return True

    @property
    def render_health(self) -> RenderHealth:
        """How drawing goes now: what the feed reports in the display status."""
        failing = self.renderer.failing + ((FRAME,) if self._frame_failed else ())
        failures = self._past_failures + self.renderer.failures + self._frame_failures
        return RenderHealth(failing=failing, failures=failures, last_frame=self.last_frame)

    def clock_text(self) -> str:
        """The header's clock (local time from the wall clock), or "" for a theme without one."""
        if not self.renderer.theme.style.clock:
            return ""
        return clock_text(self.wall_clock())

    def deadline(self, now: float) -> float:
        """When the board must step again: the feed, a blink, the clock or a theme check.

        ``now`` is on the monotonic axis; the clock's minute is found on the wall
        clock and moved onto that axis (the wall time at ``now`` is the wall
        clock's reading less the monotonic time elapsed since ``now``).
        """
        deadlines = [self._next_theme_check]
        if self.rotate_languages > 0:  # the next language's turn
            deadlines.append((now // self.rotate_languages + 1) * self.rotate_languages)
        if self.renderer.theme.style.clock:
            wall_at_now = self.wall_clock() - (self.clock() - now)
            deadlines.append(now + seconds_to_next_minute(wall_at_now))
        candidates = (self.feed.next_deadline(now), self.renderer.next_blink(now))
        for candidate in (*candidates, self.scheduled_at(now)):
            if candidate is not None:
                deadlines.append(candidate)
        return min(deadlines)

    def timeout(self, now: float) -> float:
        """Seconds the loop sleeps at ``now``: until the board's deadline or the heartbeat's."""
        return self.window.timeout(self.deadline(now), now)

    def run(self, run_for: float | None = None) -> int:
        return self.window.run(run_for)


def run_kiosk(
    feed: Feed,
    table: TableState,
    theme: Theme | str | os.PathLike[str],
    *,
    windowed: bool = False,
    size: tuple[int, int] | None = None,
    run_for: float | None = None,
    rotate: int = 0,
    portrait: bool = False,
    quit_keys: bool | None = None,
    motion: bool = True,
    good_roads: GoodRoadRules | None = None,
    promo: PromoConfig | None = None,
    stop: Stop | None = None,
    rotate_languages: float = 0.0,
) -> int:
    """Show ``table`` fed by ``feed`` until quit or ``stop``; raises ThemeError for a bad theme.

    ``good_roads``: the thresholds of the good-road plate, shown only when given.
    ``promo``: the venue's images for the shuffle screen, checked and loaded here.
    SIGHUP reloads the theme (handled on the signal watcher's thread, never in the handler).

    Raises :class:`NoDisplayError` when there is no screen (see :class:`Kiosk`).
    """
    if not isinstance(theme, Theme):
        theme = load_theme(theme)
    stop = stop or Stop()
    if stop.requested:  # stopped while starting: nothing shown, nothing connected yet
        return 0
    require_drawable(theme)  # what check-theme refuses, the kiosk does not show either
    if stop.requested:
        return 0
    images = load_promo(promo) if promo is not None else None
    try:
        kiosk = Kiosk(
            feed,
            table,
            theme,
            windowed=windowed,
            size=size,
            rotate=rotate,
            portrait=portrait,
            quit_keys=quit_keys,
            renderer=motion_renderer(motion, good_roads=good_roads, promo=images),
            stop=stop,
            rotate_languages=rotate_languages,
        )
    except NoDisplayError:
        pygame.display.quit()
        raise
    try:
        with contextlib.ExitStack() as stack:
            if hasattr(signal, "SIGHUP"):
                stack.enter_context(routed(signal.SIGHUP, lambda _signum: kiosk.request_reload()))
            return kiosk.run(run_for)
    finally:
        pygame.display.quit()
