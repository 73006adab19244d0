"""The kiosk loop: one window, any feed, redraw only what changed.

Entry point::

    run_kiosk(feed, table, theme, *, windowed=False, size=None, run_for=None,
              rotate=0, portrait=False, quit_keys=None, motion=True, stop=None) -> int

``feed`` is any object with the Feed protocol of ``docs/architecture.md``
(``start(wake)``, ``poll(table, now)``, ``status(now)``, ``next_deadline(now)``,
``report(render)``, ``journal_health()``, ``stop()``); ``theme`` is a
:class:`~scoreboard.screen.theme.loading.Theme`, a theme name or a YAML path.  The loop
sleeps (in ``pygame.event.wait`` where the video driver can wait natively, see
:meth:`Kiosk.sleep`) until the earliest of the feed's deadline, the next blink
step, the next clock minute or a ``wake()`` from the feed's thread; it never
spins.  Fullscreen by default at the desktop size (``size`` picks a mode); the
cursor is hidden; Esc or q quits in windowed mode and wherever ``quit_keys``
says (the demo), never on a live kiosk full screen.  With no display at all
(SDL fell back to its offscreen driver though nobody chose it with
``SDL_VIDEODRIVER``) the kiosk refuses to start (:class:`NoDisplayError`)
instead of drawing where nobody sees.  ``rotate`` turns the picture for a
monitor mounted on its side (both in :mod:`scoreboard.kiosk.monitor`): the renderer draws
the upright frame and each changed rectangle is copied onto the screen turned;
not turned, it draws on the display's own surface.  The theme file is watched:
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
import logging
import math
import os
import signal
import threading
import time
from collections.abc import Callable

import pygame

from scoreboard.kiosk._promo import load_promo
from scoreboard.kiosk.feed import Feed, KeyInput
from scoreboard.kiosk.monitor import (
    NoDisplayError,
    check_angle,
    check_display,
    copy_rotated,
    logical_size,
)
from scoreboard.kiosk.theme_watch import (
    RendererFactory,
    ThemeWatcher,
    give_back_memory,
    motion_renderer,
    renderer_on,
    use_theme_rows,
)
from scoreboard.roads.good_roads import GoodRoadRules
from scoreboard.screen.board.probe import require_drawable
from scoreboard.screen.theme.loading import load_theme
from scoreboard.screen.theme.values import Theme
from scoreboard.service.heartbeat import Heartbeat, summary
from scoreboard.service.sdnotify import Notifier
from scoreboard.service.stopping import Stop, routed
from scoreboard.settings.config import PromoConfig
from scoreboard.settings.translations import rotated
from scoreboard.table.applied import FeedStatus
from scoreboard.table.health import JournalHealth, RenderHealth
from scoreboard.table.state import TableState

__all__ = ["Kiosk", "run_kiosk"]

log = logging.getLogger(__name__)

THEME_CHECK_SECONDS = 2.0
WINDOWED_SIZE = (1280, 720)
INPUT_POLL_SECONDS = 0.1
MIN_SLEEP_SECONDS = 0.005  # a feed whose deadline stays in the past cannot spin the loop
#: A kiosk that takes keys, where SDL cannot wait for input (KMSDRM, dummy), looks
#: for key events this often while it sleeps and a key is in play (down, or its
#: release in doubt), else every ``KEY_IDLE_SECONDS``.  A key event is stamped when
#: taken (SDL gives it no time of its own), so these bound how late its stamp is;
#: the keypad's debounce judges gaps between a release and the next press
#: (:mod:`scoreboard.keypad._debounce`), both taken while in play.  Idle, the
#: looks cost a keypad kiosk 0.3-0.4 % of a core more than one every 0.1 s.
KEY_POLL_SECONDS = 0.005
KEY_IDLE_SECONDS = 0.02
REPEAT_LOG_SECONDS = 60.0
NATIVE_WAIT_DRIVERS = frozenset({"x11", "wayland", "windows", "cocoa"})
QUIT_KEYS = frozenset({pygame.K_ESCAPE, pygame.K_q})
KEY_EVENTS = (pygame.KEYDOWN, pygame.KEYUP)
FRAME = "frame"
"""The failing "panel" reported when the frame as a whole could not be drawn."""


def seconds_to_next_minute(wall: float) -> float:
    """Seconds from the wall-clock time ``wall`` until the displayed minute turns.

    >>> seconds_to_next_minute(1_700_000_040.0)  # hh:mm:00
    60.0
    >>> round(seconds_to_next_minute(1_700_000_099.8), 3)  # hh:mm:59.8
    0.2
    """
    return 60.0 - wall % 60.0


class Kiosk:
    """The window, the renderer and the feed, advanced one wake-up at a time."""

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
        by default :func:`motion_renderer` of ``motion``.  ``rotate`` (0, 90, 180,
        270) turns the picture clockwise on the screen; ``portrait`` on a landscape
        screen means ``rotate=90`` when no rotation is given.  ``quit_keys``: Esc
        and q quit (default: only windowed).  ``notifier`` tells the service
        manager (default: the one ``NOTIFY_SOCKET`` names, if any) that the board is
        ready and alive: see :mod:`scoreboard.service.heartbeat`.  ``stop``: when it is
        asked (SIGTERM, Ctrl-C: :mod:`scoreboard.service.stopping`) :meth:`run` wakes and
        returns through the feed's stop.  ``rotate_languages``: seconds each language
        after the main one is shown in turn beside it (0: all shown at once).
        """
        self.feed, self.table, self.windowed = feed, table, windowed
        self.rotate_languages = rotate_languages
        self.make_renderer = renderer or motion_renderer(motion)
        self.quit_keys = windowed if quit_keys is None else quit_keys
        self.clock, self.wall_clock = clock, wall_clock
        self.rotate = check_angle(rotate)
        self.watcher = ThemeWatcher(theme)
        use_theme_rows(table, theme)
        chosen = os.environ.get("SDL_VIDEODRIVER")  # read before SDL falls back
        if not pygame.display.get_init():
            pygame.display.init()
        check_display(pygame.display.get_driver(), chosen)
        pygame.font.init()
        flags = 0 if windowed else pygame.FULLSCREEN
        wanted = size or (WINDOWED_SIZE if windowed else (0, 0))
        self.screen = pygame.display.set_mode(wanted, flags)
        pygame.display.set_caption("scoreboard")
        pygame.mouse.set_visible(False)
        width, height = self.screen.get_size()
        if portrait and self.rotate == 0 and width > height:
            self.rotate = 90
            log.info(
                "portrait on a %dx%d screen: the picture is turned 90 degrees (as --rotate 90)",
                width,
                height,
            )
        self.renderer = renderer_on(self.screen, self.make_renderer, theme, self.rotate)
        self.keys = feed if isinstance(feed, KeyInput) else None
        #: Wall-clock time of the last frame that reached the screen (the screen showed
        #: the state as of then, whether or not anything had changed), None before.
        self.last_frame: float | None = None
        self.journal = JournalHealth()
        self._frame_failed = False
        self._past_failures = 0  # panel failures of the renderers a theme reload replaced
        self._frame_failures = 0
        self.wake_event = pygame.event.custom_type()
        self._woken = threading.Event()
        self.native_wait = pygame.display.get_driver() in NATIVE_WAIT_DRIVERS
        self.running = True
        self.reload_requested = threading.Event()
        self._next_theme_check = 0.0
        self._reported: dict[str, float] = {}
        self.heartbeat = Heartbeat(notifier or Notifier.from_environ())
        self.stopping = stop or Stop()
        self.stopping.on_stop(self.wake)

    @property
    def size(self) -> tuple[int, int]:
        """The upright frame's size: the screen's, turned by the rotation."""
        return logical_size(self.screen.get_size(), self.rotate)

    def wake(self) -> None:
        """Thread-safe: called by a feed's thread (or the signal watcher's) when input arrives."""
        self._woken.set()
        with contextlib.suppress(pygame.error):  # the display is closing
            pygame.event.post(pygame.event.Event(self.wake_event))

    def sleep(self, seconds: float) -> None:
        """Block until ``seconds`` pass, an event arrives or the feed wakes us.

        Drivers with a native event wait (X11, Wayland, ...) sleep in
        ``pygame.event.wait``.  Others (KMSDRM, dummy) would make SDL poll every
        millisecond there, so they sleep on a thread event instead and look at
        the keyboard every ``INPUT_POLL_SECONDS``; with a feed that takes keys
        they look for a key more often meanwhile (``KEY_POLL_SECONDS``).
        """
        if self.native_wait:
            event = pygame.event.wait(max(1, round(seconds * 1000)))
            if event.type != pygame.NOEVENT:
                self.handle(event)
            return
        seconds = min(seconds, INPUT_POLL_SECONDS)
        if self.keys is None:
            self._woken.wait(seconds)
        else:
            self._look_for_keys(self.keys, seconds)
        self._woken.clear()

    def _look_for_keys(self, keys: KeyInput, seconds: float) -> None:
        """Sleep ``seconds`` in slices, until a wake or a key event; a key is stamped when
        taken, so within a slice of when it happened (``KEY_POLL_SECONDS``)."""
        look = KEY_POLL_SECONDS if keys.keys_in_play(self.clock()) else KEY_IDLE_SECONDS
        for _ in range(max(1, math.ceil(seconds / look - 1e-9))):
            if self._woken.wait(min(seconds, look)) or pygame.event.peek(KEY_EVENTS):
                return

    def request_reload(self, *_: object) -> None:
        self.reload_requested.set()
        self.wake()

    def handle(self, event: pygame.event.Event) -> None:
        quit_key = event.type == pygame.KEYDOWN and event.key in QUIT_KEYS
        if self.keys is not None:
            self.hand_key(self.keys, event)
        if event.type == pygame.QUIT or (quit_key and self.quit_keys):
            self.running = False
        elif event.type in (pygame.VIDEOEXPOSE, pygame.WINDOWEXPOSED, pygame.WINDOWRESTORED):
            self.renderer.invalidate()

    def hand_key(self, keys: KeyInput, event: pygame.event.Event) -> None:
        """A key event to the feed that takes keys, by pygame's name for the key.

        Stamped now, as it is taken: pygame-ce's key events carry no time of their
        own (SDL 2 stamps an event when it is pumped, which is no earlier), so the
        loop looks for keys often while it sleeps (``KEY_POLL_SECONDS``).
        """
        if event.type in (pygame.KEYDOWN, pygame.KEYUP):
            keys.key(pygame.key.name(event.key), event.type == pygame.KEYDOWN, self.clock())
        elif event.type == pygame.WINDOWFOCUSLOST:
            keys.release_all()

    def take_input(self) -> None:
        """Handle every event pygame queued (keys, quit, expose): one turn of the loop's input."""
        for event in pygame.event.get():
            self.handle(event)

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
            self._report("feed poll failed; the board keeps its last state", now)
            status = FeedStatus.OFFLINE
            polled = False
        try:
            self.journal = self.feed.journal_health()
        except Exception:
            self._report("asking the feed for the journal's health failed", now)
        drew = self.draw(status, now)
        try:
            self.feed.report(self.render_health)
        except Exception:
            self._report("reporting the render health to the feed failed", now)
        if polled and drew:
            table, failing = self.table, self.render_health.failing
            line = summary(status, table.shoe_number, table.last_number, failing, self.journal.ok)
            self.heartbeat.good_step(self.clock(), line)

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
            if dirty:
                frame = self.renderer.frame
                if frame is not self.screen:  # turned: the renderer's own frame, copied
                    dirty = [copy_rotated(self.screen, frame, rect, self.rotate) for rect in dirty]
                pygame.display.update(dirty)
            elif self.heartbeat.due(self.clock()):
                # Nothing changed, but a ping is due: one pixel to the display, so a frozen
                # X server or compositor blocks here and stops the pings.  Never right after a
                # failed frame, half drawn on the display: the next one is full, so has dirty.
                pygame.display.update(pygame.Rect(0, 0, 1, 1))
        except Exception:
            self._report("drawing a frame failed; the last good frame stays on screen", now)
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

    def _report(self, what: str, now: float) -> None:
        """Log a failure with its traceback, but a repeating one only once a minute."""
        if self._reported.get(what, -REPEAT_LOG_SECONDS) + REPEAT_LOG_SECONDS <= now:
            self._reported[what] = now
            log.exception(what)

    def clock_text(self) -> str:
        """The header's clock (local time from the wall clock), or "" for a theme without one."""
        if not self.renderer.theme.style.clock:
            return ""
        return time.strftime("%H:%M", time.localtime(self.wall_clock()))

    def timeout(self, now: float) -> float:
        """Seconds to sleep: until the feed, a blink, the clock or a theme check is due.

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
        for candidate in (*candidates, self.scheduled_at(now), self.heartbeat.deadline(now)):
            if candidate is not None:
                deadlines.append(candidate)
        return max(MIN_SLEEP_SECONDS, min(deadlines) - now)

    def run(self, run_for: float | None = None) -> int:
        stop_at = None if run_for is None else self.clock() + run_for
        self.feed.start(self.wake)
        try:
            while self.running and not self.stopping.requested:
                now = self.clock()
                if stop_at is not None and now >= stop_at:
                    break
                self.step(now)
                now = self.clock()
                wait = self.timeout(now)
                if stop_at is not None:
                    wait = min(wait, max(0.0, stop_at - now))
                self.sleep(wait)
                self.take_input()
        finally:
            self.heartbeat.stopping()
            self.feed.stop()
        return 0


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
