"""``scoreboard lobby``: a lobby wall of every table on the floor, fed by the tables' own feed.

Settings come from ``--config`` (a display's ``display:`` and ``mqtt:`` sections
plus ``lobby:``; see docs/lobby.md) and are overridden by flags.  The window
loop is the kiosk's own (:class:`scoreboard.kiosk.window.Window`: the display,
the rotation, the sleep, the quit keys, the heartbeat, the stop); the wall
(:class:`LobbyWall`) is the scene it runs: it is due again when a tile's age, a
page, the clock's minute or the status is, or at least once a second; it polls
the feed, draws only the tiles that changed and publishes the lobby's retained
status.
"""

from __future__ import annotations

import argparse
import logging
import time
from collections.abc import Callable
from dataclasses import replace

from scoreboard.cli import UsageError
from scoreboard.cli.commands._shared import kiosk_or_refusal
from scoreboard.cli.options import apply_mqtt_arguments, endpoint_from, languages_from, parse_size
from scoreboard.lobby.arrange import SortKey, arrange, page_at, paged
from scoreboard.lobby.feed import LobbyFeed, status_topic
from scoreboard.lobby.floor import Floor
from scoreboard.lobby.settings import (
    LobbySettings,
    check_lobby_id,
    load_lobby_settings,
)
from scoreboard.lobby.status import LOBBY_OFFLINE, REFRESH_SECONDS, StatusSchedule, lobby_status
from scoreboard.screen.theme.values import Theme
from scoreboard.service.stopping import Stop, stop_on_signals
from scoreboard.settings.reader import ConfigError

log = logging.getLogger(__name__)

LONGEST_SLEEP = 1.0


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
    with stop_on_signals() as stop, kiosk_or_refusal():
        wall = build_wall(args, stop)
        try:
            return wall.run(args.duration)
        finally:
            import pygame

            pygame.display.quit()


def build_wall(args: argparse.Namespace, stop: Stop | None = None) -> LobbyWall:
    """The lobby the flags ask for, its feed not started yet (``run`` starts it).

    ``stop``: when it is asked (SIGTERM, Ctrl-C) the wall's loop ends.
    """
    from scoreboard.link.client import Publish
    from scoreboard.screen.theme.loading import load_theme
    from scoreboard.screen.theme.values import ThemeError

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
    return LobbyWall(settings, feed, floor, theme, stop, status_refresh=args.status_refresh)


class LobbyWall:
    """The lobby's wall: a :class:`~scoreboard.kiosk.window.Scene` and its window.

    The window (:attr:`window`) opens the display, sleeps, takes input and keeps
    the heartbeat; the wall polls the lobby feed, pages the floor, draws the tiles
    that changed and publishes the lobby's retained status.
    """

    def __init__(
        self,
        settings: LobbySettings,
        feed: LobbyFeed,
        floor: Floor,
        theme: Theme,
        stop: Stop | None = None,
        status_refresh: float = REFRESH_SECONDS,
    ):
        from scoreboard.kiosk.window import Window
        from scoreboard.screen.wall.renderer import LobbyRenderer

        self.settings, self.feed, self.floor = settings, feed, floor
        base = settings.base
        self.window = Window(
            self,
            caption="scoreboard lobby",
            windowed=base.windowed,
            size=base.size,
            rotate=base.rotate,
            stop=stop,
        )
        self.renderer = LobbyRenderer(theme, self.window.size)
        self.status = StatusSchedule(status_refresh)
        self.status_topic = status_topic(settings.root, settings.lobby_id)
        self.started = time.monotonic()
        self.was_connected = False
        self._drawn: tuple[object, ...] | None = None
        self._time_change: float | None = None
        self._limits_due: float | None = None  # the next scheduled limits, monotonic
        self._pages = 1
        self._clock = ""  # the header's HH:MM, as last drawn
        self._next_minute = 0.0  # when the clock changes, monotonic

    def page(self, now: float) -> tuple[list, int, int, list]:
        """The tables shown (all pages, arranged), this page's index, the page count, its tiles."""
        settings = self.settings
        views = arrange(
            self.floor.views(now, settings.stale_seconds), settings.sort, settings.filter_pit
        )
        pages = paged(views, settings.per_page)
        index = page_at(now - self.started, settings.page_seconds, len(pages))
        return views, index, len(pages), pages[index]

    def start(self, wake: Callable[[], None]) -> None:
        self.feed.start(wake)

    def step(self, now: float, wall_now: float | None = None) -> None:
        """Poll, then draw and publish what changed; the watchdog is fed only after a frame.

        ``wall_now``: Unix time (default: now).  A frame that fails (a bug) is logged,
        at most once a minute, and the last good one stays on screen; the next step
        draws the whole page again.
        """
        from scoreboard.kiosk.window import clock_text, seconds_to_next_minute

        wall_now = time.time() if wall_now is None else wall_now
        self.feed.poll(self.floor, now, wall_now)
        self.floor.switch_limits(wall_now)  # scheduled limits, once their time came
        limits_at = self.floor.next_limits()
        self._limits_due = None if limits_at is None else now + max(0.0, limits_at - wall_now)
        index = page_at(now - self.started, self.settings.page_seconds, self._pages)
        self._clock = clock_text(wall_now)
        self._next_minute = now + seconds_to_next_minute(wall_now)
        key = (self.floor.version, index, self.feed.connected, self._clock)
        due = self._time_change is not None and now >= self._time_change
        if key != self._drawn or due:
            try:
                views, index, pages = self.draw(now)
            except Exception:
                self.window.report("lobby: drawing a frame failed; the last good one stays", now)
                self.expose()  # the whole page next time
                return
            self._drawn = key
            self._time_change = self.floor.next_change(now, self.settings.stale_seconds)
            self._publish(views, (index + 1, pages), now, wall_now)
        else:
            self.window.show(self.renderer.frame, [])  # the watchdog's pixel, when a ping is due
            if self.feed.connected and self.status.due(now):
                # A change held back by the pacing, or the refresh: whether or not a frame is due.
                views, index, pages, _tiles = self.page(now)
                self._publish(views, (index + 1, pages), now, wall_now)
        self.window.alive(f"lobby: {len(self.floor)} tables")

    def draw(self, now: float) -> tuple[list, int, int]:
        """This page's changed tiles onto the screen (turned as the monitor is mounted)."""
        views, index, pages, tiles = self.page(now)
        self._pages = pages
        dirty = self.renderer.draw(
            tiles, page=index, pages=pages, connected=self.feed.connected, clock=self._clock
        )
        self.window.show(self.renderer.frame, dirty)
        return views, index, pages

    def expose(self) -> None:
        self.renderer.layout = None
        self._drawn = None

    def _publish(self, views: list, page: tuple[int, int], now: float, wall_now: float) -> None:
        """The lobby's status, when the schedule says (again at once after a reconnect)."""
        from scoreboard.link.client import Publish

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

    def deadline(self, now: float) -> float:
        """A tile's age or state, scheduled limits, the clock's minute, the status, or 1 s."""
        deadlines = [now + LONGEST_SLEEP, self._next_minute]
        deadlines += [t for t in (self._time_change, self._limits_due) if t is not None]
        if self.feed.connected:
            deadlines.append(self.status.next_due())
        return min(deadlines)

    def stop(self) -> None:
        """The lobby's offline status goes out on the way."""
        from scoreboard.link.client import Publish

        self.feed.stop(Publish(self.status_topic, LOBBY_OFFLINE, qos=1, retain=True))

    def run(self, duration: float | None = None) -> int:
        """Until quit, ``duration`` or the stop it was given."""
        return self.window.run(duration)
