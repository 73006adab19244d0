"""``scoreboard lobby``: a lobby wall of every table on the floor, fed by the tables' own feed.

Settings come from ``--config`` (a display's ``display:`` and ``mqtt:`` sections
plus ``lobby:``; see docs/lobby.md) and are overridden by flags.  The window
loop is the kiosk's in small: it wakes when the feed has news, when a tile's
age or a page is due, or at least once a second; polls the feed; draws only
the tiles that changed; publishes the lobby's retained status; and tells
systemd it is alive (:mod:`scoreboard.heartbeat`) when run as a service.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import threading
import time
from dataclasses import replace

from scoreboard.cli import CommandError, UsageError
from scoreboard.cli.options import apply_mqtt_arguments, endpoint_from, languages_from, parse_size
from scoreboard.config import ConfigError
from scoreboard.lobby.arrange import SortKey, arrange, page_at, paged
from scoreboard.lobby.feed import LobbyFeed, status_topic
from scoreboard.lobby.floor import Floor
from scoreboard.lobby.settings import (
    LobbySettings,
    check_lobby_id,
    load_lobby_settings,
)
from scoreboard.lobby.status import LOBBY_OFFLINE, REFRESH_SECONDS, StatusSchedule, lobby_status
from scoreboard.stopping import Stop, stop_on_signals
from scoreboard.theme import Theme

log = logging.getLogger(__name__)

WINDOWED_SIZE = (1280, 720)
INPUT_POLL_SECONDS = 0.1  # how often the keyboard is looked at while asleep
LONGEST_SLEEP = 1.0
FAILURE_LOG_SECONDS = 60.0  # a frame failing again and again is logged once a minute


def settings_from_args(args: argparse.Namespace) -> LobbySettings:
    """The config file, then the flags over it; every mistake a one-line usage error."""
    if args.table:
        raise UsageError("--table: a lobby shows every table; list them under lobby.tables")
    try:
        settings = load_lobby_settings(args.config) if args.config else LobbySettings()
    except ConfigError as error:
        raise UsageError(str(error)) from None
    base = apply_mqtt_arguments(settings.base, args)
    flags = {
        "theme": args.theme or None,
        "windowed": True if args.windowed else None,
        "size": parse_size(args.size) if args.size else None,
        "rotate": args.rotate,
        "languages": languages_from(args) or None,
    }
    base = replace(base, **{name: value for name, value in flags.items() if value is not None})
    if args.lobby_id is not None:
        try:
            check_lobby_id(args.lobby_id)
        except ConfigError as error:
            raise UsageError(str(error)) from None
    changes = {
        "base": base,
        "lobby_id": args.lobby_id,
        "sort": SortKey(args.sort) if args.sort else None,
        "filter_pit": tuple(args.filter_pit) if args.filter_pit else None,
        "per_page": args.per_page,
        "page_seconds": args.page_seconds,
        "stale_seconds": args.stale_seconds,
    }
    return replace(settings, **{key: value for key, value in changes.items() if value is not None})


def run(args: argparse.Namespace) -> int:
    with stop_on_signals() as stop, no_display_is_an_error():
        wall = build_wall(args)
        try:
            return wall.run(args.duration, stop)
        finally:
            import pygame

            pygame.display.quit()


def build_wall(args: argparse.Namespace) -> LobbyWall:
    """The lobby the flags ask for, its feed not started yet (``run`` starts it)."""
    from scoreboard.link import Publish
    from scoreboard.theme import ThemeError, load_theme

    settings = settings_from_args(args)
    try:
        theme = load_theme(settings.base.theme, settings.base.languages)
    except ThemeError as error:
        raise UsageError(str(error)) from None
    base = settings.base
    endpoint = endpoint_from(replace(base, mqtt=replace(base.mqtt, prefix=settings.root)))
    try:
        keys = settings.keys()
    except ConfigError as error:
        raise UsageError(str(error)) from None
    topic = status_topic(settings.root, settings.lobby_id)
    feed = LobbyFeed(
        endpoint,
        root=settings.root,
        lobby_id=settings.lobby_id,
        keys=keys,
        will=Publish(topic, LOBBY_OFFLINE, qos=1, retain=True),
    )
    floor = Floor(settings.tables, discover=settings.discover, rules=settings.good_roads)
    return LobbyWall(settings, feed, floor, theme, args.status_refresh)


@contextlib.contextmanager
def no_display_is_an_error():
    from scoreboard.monitor import NoDisplayError

    try:
        yield
    except NoDisplayError as error:
        raise CommandError(str(error)) from None


class LobbyWall:
    """The window, the renderer, the feed and the status, advanced one wake-up at a time."""

    def __init__(
        self,
        settings: LobbySettings,
        feed: LobbyFeed,
        floor: Floor,
        theme: Theme,
        status_refresh: float = REFRESH_SECONDS,
    ):
        import pygame

        from scoreboard.heartbeat import Heartbeat
        from scoreboard.monitor import check_angle, check_display, logical_size
        from scoreboard.render.lobby_screen import LobbyRenderer
        from scoreboard.sdnotify import Notifier

        self.settings, self.feed, self.floor = settings, feed, floor
        base = settings.base
        self.rotate = check_angle(base.rotate)
        chosen = os.environ.get("SDL_VIDEODRIVER")
        if not pygame.display.get_init():
            pygame.display.init()
        check_display(pygame.display.get_driver(), chosen)
        pygame.font.init()
        flags = 0 if base.windowed else pygame.FULLSCREEN
        wanted = base.size or (WINDOWED_SIZE if base.windowed else (0, 0))
        self.screen = pygame.display.set_mode(wanted, flags)
        pygame.display.set_caption("scoreboard lobby")
        pygame.mouse.set_visible(False)
        self.renderer = LobbyRenderer(theme, logical_size(self.screen.get_size(), self.rotate))
        self.status = StatusSchedule(status_refresh)
        self.status_topic = status_topic(settings.root, settings.lobby_id)
        self.heartbeat = Heartbeat(Notifier.from_environ())
        self.started = time.monotonic()
        self.woken = threading.Event()
        self.running = True
        self.was_connected = False
        self._drawn: tuple[object, ...] | None = None
        self._time_change: float | None = None
        self._limits_due: float | None = None  # the next scheduled limits, monotonic
        self._pages = 1
        self._clock = ""  # the header's HH:MM, as last drawn
        self._next_minute = 0.0  # when the clock changes, monotonic
        self._failed_at = float("-inf")

    def page(self, now: float) -> tuple[list, int, int, list]:
        """The tables shown (all pages, arranged), this page's index, the page count, its tiles."""
        settings = self.settings
        views = arrange(
            self.floor.views(now, settings.stale_seconds), settings.sort, settings.filter_pit
        )
        pages = paged(views, settings.per_page)
        index = page_at(now - self.started, settings.page_seconds, len(pages))
        return views, index, len(pages), pages[index]

    def step(self, now: float, wall_now: float) -> None:
        """Poll, then draw and publish what changed; the watchdog is fed only after a frame.

        A frame that fails (a bug) is logged, at most once a minute, and the last good
        one stays on screen; the next step draws the whole page again.
        """
        self.feed.poll(self.floor, now, wall_now)
        self.floor.switch_limits(wall_now)  # scheduled limits, once their time came
        limits_at = self.floor.next_limits()
        self._limits_due = None if limits_at is None else now + max(0.0, limits_at - wall_now)
        index = page_at(now - self.started, self.settings.page_seconds, self._pages)
        from scoreboard.app import seconds_to_next_minute

        self._clock = time.strftime("%H:%M", time.localtime(wall_now))
        self._next_minute = now + seconds_to_next_minute(wall_now)
        key = (self.floor.version, index, self.feed.connected, self._clock)
        due = self._time_change is not None and now >= self._time_change
        if key != self._drawn or due:
            try:
                views, index, pages = self.draw(now)
            except Exception:
                if now - self._failed_at >= FAILURE_LOG_SECONDS:
                    self._failed_at = now
                    log.exception("lobby: drawing a frame failed; the last good one stays")
                self.renderer.layout = None  # the whole page next time
                self._drawn = None
                return
            self._drawn = key
            self._time_change = self.floor.next_change(now, self.settings.stale_seconds)
            self._publish(views, (index + 1, pages), now, wall_now)
        elif self.feed.connected and self.status.due(now):
            # A change held back by the pacing, or the refresh: whether or not a frame is due.
            views, index, pages, _tiles = self.page(now)
            self._publish(views, (index + 1, pages), now, wall_now)
        self.heartbeat.good_step(now, f"lobby: {len(self.floor)} tables")

    def draw(self, now: float) -> tuple[list, int, int]:
        """This page's changed tiles onto the screen (turned as the monitor is mounted)."""
        import pygame

        from scoreboard.monitor import copy_rotated

        views, index, pages, tiles = self.page(now)
        self._pages = pages
        dirty = self.renderer.draw(
            tiles, page=index, pages=pages, connected=self.feed.connected, clock=self._clock
        )
        if dirty:
            frame = self.renderer.frame
            shown = [copy_rotated(self.screen, frame, rect, self.rotate) for rect in dirty]
            pygame.display.update(shown)
        return views, index, pages

    def _publish(self, views: list, page: tuple[int, int], now: float, wall_now: float) -> None:
        """The lobby's status, when the schedule says (again at once after a reconnect)."""
        from scoreboard.link import Publish

        connected = self.feed.connected
        if connected and not self.was_connected:
            self.status.reconnected()
        self.was_connected = connected
        if not connected:
            return
        status = lobby_status(
            self.settings.lobby_id,
            views,
            rejected=self.feed.rejected,
            page=page,
            now=now,
            wall=wall_now,
        )
        payload = self.status.offer(status, now)
        if payload is not None:
            self.feed.publish(Publish(self.status_topic, payload, qos=1, retain=True))

    def timeout(self, now: float) -> float:
        deadlines = [now + LONGEST_SLEEP, self._next_minute]  # the clock's next minute
        deadlines += [t for t in (self._time_change, self._limits_due) if t is not None]
        beat = self.heartbeat.deadline(now)
        if beat is not None:
            deadlines.append(beat)
        if self.feed.connected:
            deadlines.append(self.status.next_due())
        return max(0.01, min(deadlines) - now)

    def take_input(self) -> None:
        import pygame

        for event in pygame.event.get():
            if event.type == pygame.QUIT or (
                event.type == pygame.KEYDOWN
                and self.settings.base.windowed
                and event.key in (pygame.K_ESCAPE, pygame.K_q)
            ):
                self.running = False

    def run(self, duration: float | None = None, stop: Stop | None = None) -> int:
        """Until quit, ``duration`` or ``stop``; the lobby's offline status goes out on the way."""
        from scoreboard.link import Publish

        stop = stop or Stop()
        stop.on_stop(self.woken.set)
        stop_at = None if duration is None else time.monotonic() + duration
        self.feed.start(self.woken.set)
        try:
            while self.running and not stop.requested:
                now = time.monotonic()
                if stop_at is not None and now >= stop_at:
                    break
                self.step(now, time.time())
                wait = self.timeout(time.monotonic())
                if stop_at is not None:
                    wait = min(wait, max(0.0, stop_at - time.monotonic()))
                end = time.monotonic() + wait
                while self.running and not self.woken.is_set() and time.monotonic() < end:
                    self.woken.wait(min(INPUT_POLL_SECONDS, max(0.0, end - time.monotonic())))
                    self.take_input()
                self.woken.clear()
        finally:
            self.heartbeat.stopping()
            self.feed.stop(Publish(self.status_topic, LOBBY_OFFLINE, qos=1, retain=True))
        return 0
