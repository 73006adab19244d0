"""The kiosk window: what every kiosk loop needs, written once for the board and the wall.

What a window shows is a :class:`Scene`: the table's board
(:class:`scoreboard.kiosk.loop.Kiosk`) or the lobby's wall (``scoreboard lobby``).
The scene says what to draw, when it must run again and what its feed delivers;
the :class:`Window` does the rest, the same for both:

- opens the display and refuses one nobody sees (:class:`NoDisplayError`),
  full screen at the desktop size by default or a window (``size`` picks the
  mode), the cursor hidden; ``portrait`` on a landscape screen turns the picture
  90 degrees;
- puts a frame's changed rectangles on the screen (:meth:`Window.show`), turned for
  a monitor mounted on its side, or one pixel when a watchdog ping is due and
  nothing changed, so a frozen display server stops the pings;
- sleeps until the scene's deadline or the heartbeat's, woken at once by the
  feed's thread or a stop (:meth:`Window.sleep`);
- takes input: Esc or q quit where ``quit_keys`` says (windowed by default), an
  uncovered window is drawn again whole, a keypad's keys go to its feed;
- tells the service manager it is alive (:meth:`Window.alive`), logs a repeating
  failure once a minute (:meth:`Window.report`), and on the way out says STOPPING
  and stops the scene.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import threading
import time
from collections.abc import Callable, Sequence
from typing import Protocol

import pygame

from scoreboard.kiosk.feed import KeyInput
from scoreboard.kiosk.monitor import check_angle, check_display, copy_rotated, logical_size
from scoreboard.service.heartbeat import Heartbeat
from scoreboard.service.sdnotify import Notifier
from scoreboard.service.stopping import Stop

__all__ = ["Scene", "Window", "clock_text", "seconds_to_next_minute"]

log = logging.getLogger(__name__)

WINDOWED_SIZE = (1280, 720)
INPUT_POLL_SECONDS = 0.1
MIN_SLEEP_SECONDS = 0.005  # a scene whose deadline stays in the past cannot spin the loop
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
EXPOSED = (pygame.VIDEOEXPOSE, pygame.WINDOWEXPOSED, pygame.WINDOWRESTORED)


def seconds_to_next_minute(wall: float) -> float:
    """Seconds from the wall-clock time ``wall`` until the displayed minute turns.

    >>> seconds_to_next_minute(1_700_000_040.0)  # hh:mm:00
    60.0
    >>> round(seconds_to_next_minute(1_700_000_099.8), 3)  # hh:mm:59.8
    0.2
    """
    return 60.0 - wall % 60.0


def clock_text(wall: float) -> str:
    """The header's clock, HH:MM in local time, at the wall-clock time ``wall``."""
    return time.strftime("%H:%M", time.localtime(wall))


class Scene(Protocol):
    """What differs between kiosk windows: what is drawn, when, from which feed.

    ``now`` is always the window's monotonic clock.  :meth:`step` draws through
    :meth:`Window.show` and, after a step that polled and drew, calls
    :meth:`Window.alive`; it contains its own failures (:meth:`Window.report`).
    """

    def start(self, wake: Callable[[], None]) -> None:
        """Start the feed; ``wake`` (thread-safe) ends the window's sleep when input arrives."""
        ...

    def step(self, now: float) -> None:
        """Poll the feed, draw what changed, publish or report what the scene reports."""
        ...

    def deadline(self, now: float) -> float:
        """When :meth:`step` must run again without input (the heartbeat's is the window's)."""
        ...

    def expose(self) -> None:
        """The window was uncovered: draw everything at the next step."""
        ...

    def stop(self) -> None:
        """Stop the feed (and say goodbye where the scene publishes)."""
        ...


class Window:
    """The display, its input, its sleep and its heartbeat, run for one :class:`Scene`."""

    def __init__(
        self,
        scene: Scene,
        *,
        caption: str = "scoreboard",
        windowed: bool = False,
        size: tuple[int, int] | None = None,
        rotate: int = 0,
        portrait: bool = False,
        quit_keys: bool | None = None,
        keys: KeyInput | None = None,
        clock: Callable[[], float] = time.monotonic,
        notifier: Notifier | None = None,
        stop: Stop | None = None,
    ) -> None:
        """Open the display (raises :class:`NoDisplayError` where nobody sees it).

        ``rotate`` (0, 90, 180, 270) turns the picture clockwise on the screen;
        ``portrait`` on a landscape screen means ``rotate=90`` when none is given.
        ``quit_keys``: Esc and q quit (default: only windowed).  ``keys``: the
        scene's feed that takes the keyboard (the dealer keypad).  ``notifier``:
        the service manager's (default: the one ``NOTIFY_SOCKET`` names, if any).
        ``stop``: when it is asked (SIGTERM, Ctrl-C) the sleep wakes and :meth:`run`
        returns through the scene's stop.
        """
        self.scene, self.keys, self.clock = scene, keys, clock
        self.quit_keys = windowed if quit_keys is None else quit_keys
        self.rotate = check_angle(rotate)
        chosen = os.environ.get("SDL_VIDEODRIVER")  # read before SDL falls back
        if not pygame.display.get_init():
            pygame.display.init()
        check_display(pygame.display.get_driver(), chosen)
        pygame.font.init()
        flags = 0 if windowed else pygame.FULLSCREEN
        wanted = size or (WINDOWED_SIZE if windowed else (0, 0))
        self.screen = pygame.display.set_mode(wanted, flags)
        pygame.display.set_caption(caption)
        pygame.mouse.set_visible(False)
        width, height = self.screen.get_size()
        if portrait and self.rotate == 0 and width > height:
            self.rotate = 90
            log.info(
                "portrait on a %dx%d screen: the picture is turned 90 degrees (as --rotate 90)",
                width,
                height,
            )
        self.wake_event = pygame.event.custom_type()
        self._woken = threading.Event()
        self.native_wait = pygame.display.get_driver() in NATIVE_WAIT_DRIVERS
        self.running = True
        self._reported: dict[str, float] = {}
        self.heartbeat = Heartbeat(notifier or Notifier.from_environ())
        self.stopping = stop or Stop()
        self.stopping.on_stop(self.wake)

    @property
    def size(self) -> tuple[int, int]:
        """The upright frame's size: the screen's, turned by the rotation."""
        return logical_size(self.screen.get_size(), self.rotate)

    def show(self, frame: pygame.Surface, dirty: Sequence[pygame.Rect]) -> None:
        """Put ``dirty`` of the upright ``frame`` on the screen, turned where the monitor is.

        A frame drawn on the screen itself (not turned) is only flipped.  Nothing
        changed but a watchdog ping due: one pixel goes to the display, so a frozen X
        server or compositor blocks here and stops the pings.  A scene whose frame
        failed half drawn does not call this: its next frame is whole, so has dirty.
        """
        if dirty:
            if frame is not self.screen:
                dirty = [copy_rotated(self.screen, frame, rect, self.rotate) for rect in dirty]
            pygame.display.update(dirty)
        elif self.heartbeat.due(self.clock()):
            pygame.display.update(pygame.Rect(0, 0, 1, 1))

    def alive(self, summary: str) -> None:
        """A step polled its feed and produced a frame: ready once, a ping when due."""
        self.heartbeat.good_step(self.clock(), summary)

    def report(self, what: str, now: float) -> None:
        """Log a failure with its traceback, but a repeating one only once a minute."""
        if self._reported.get(what, -REPEAT_LOG_SECONDS) + REPEAT_LOG_SECONDS <= now:
            self._reported[what] = now
            log.exception(what)

    def wake(self) -> None:
        """Thread-safe: called by a feed's thread (or the signal watcher's) when input arrives."""
        self._woken.set()
        with contextlib.suppress(pygame.error):  # the display is closing
            pygame.event.post(pygame.event.Event(self.wake_event))

    def timeout(self, deadline: float, now: float) -> float:
        """Seconds to sleep at ``now``: until the scene's ``deadline`` or the heartbeat's."""
        beat = self.heartbeat.deadline(now)
        due = deadline if beat is None else min(deadline, beat)
        return max(MIN_SLEEP_SECONDS, due - now)

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

    def handle(self, event: pygame.event.Event) -> None:
        quit_key = event.type == pygame.KEYDOWN and event.key in QUIT_KEYS
        if self.keys is not None:
            self.hand_key(self.keys, event)
        if event.type == pygame.QUIT or (quit_key and self.quit_keys):
            self.running = False
        elif event.type in EXPOSED:
            self.scene.expose()

    def hand_key(self, keys: KeyInput, event: pygame.event.Event) -> None:
        """A key event to the feed that takes keys, by pygame's name for the key.

        Stamped now, as it is taken: pygame-ce's key events carry no time of their
        own (SDL 2 stamps an event when it is pumped, which is no earlier), so the
        loop looks for keys often while it sleeps (``KEY_POLL_SECONDS``).
        """
        if event.type in KEY_EVENTS:
            keys.key(pygame.key.name(event.key), event.type == pygame.KEYDOWN, self.clock())
        elif event.type == pygame.WINDOWFOCUSLOST:
            keys.release_all()

    def take_input(self) -> None:
        """Handle every event pygame queued (keys, quit, expose): one turn of the loop's input."""
        for event in pygame.event.get():
            self.handle(event)

    def run(self, run_for: float | None = None) -> int:
        """Step the scene, sleep, take input, until quit, ``run_for`` seconds or a stop.

        Returns the exit status; the heartbeat says STOPPING and the scene stops
        on the way out, whatever ended the loop.
        """
        stop_at = None if run_for is None else self.clock() + run_for
        self.scene.start(self.wake)
        try:
            while self.running and not self.stopping.requested:
                now = self.clock()
                if stop_at is not None and now >= stop_at:
                    break
                self.scene.step(now)
                now = self.clock()
                wait = self.timeout(self.scene.deadline(now), now)
                if stop_at is not None:
                    wait = min(wait, max(0.0, stop_at - now))
                self.sleep(wait)
                self.take_input()
        finally:
            self.heartbeat.stopping()
            self.scene.stop()
        return 0
