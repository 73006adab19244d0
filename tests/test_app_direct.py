"""Drawing straight onto the display: what reaches the screen, turned or not.

On a screen not turned the renderer's frame is the display's own surface; the
overlays are drawn on it in place.  What ``pygame.display.update`` shows is
compared pixel for pixel with a renderer that never showed an overlay, and with
a frame that failed half-way.
"""

from __future__ import annotations

import itertools

import pygame
import pytest
from dealt import dealt_games, table_with
from test_compose import banner, pixels, stand_in, under_the_banner
from test_rotate import OneCoupAPoll

from scoreboard.kiosk.loop import Kiosk
from scoreboard.service.sdnotify import Notifier
from scoreboard.table.applied import FeedStatus

SIZE = (1280, 720)

pytestmark = pytest.mark.usefixtures("pygame_display")


def feeding(games) -> OneCoupAPoll:
    """The feed: each poll adds the next of ``games`` to the table."""
    feed = OneCoupAPoll("")
    feed.games = list(games)
    return feed


def turned(frame: pygame.Surface, angle: int) -> bytes:
    return pixels(pygame.transform.rotate(frame, -angle))


@pytest.mark.parametrize("angle", [0, 90])
def test_the_screen_after_a_coup_under_the_banner_and_its_end_is_the_board(classic, angle):
    games = dealt_games(seed=3, coups=26)
    table = table_with(games[:24])
    screen = SIZE if angle == 0 else SIZE[::-1]
    feed = feeding([])  # no coup until the banner is up
    kiosk = Kiosk(
        feed,
        table,
        classic,
        windowed=True,
        size=screen,
        rotate=angle,
        renderer=stand_in,
    )
    never = stand_in(classic, SIZE)
    kiosk.step(0.0)
    assert (kiosk.renderer.frame is kiosk.screen) == (angle == 0)
    motion = banner(kiosk.renderer)
    motion.banner.rect = under_the_banner(kiosk.renderer, "bead_plate").union(
        kiosk.renderer.layout.panels["big_road"].rect
    )
    kiosk.step(1.0)
    never.render(table, FeedStatus.LIVE, clock=kiosk.clock_text())
    assert pixels(kiosk.screen) != turned(never.frame, angle)
    feed.games = list(games[24:])
    for now in (2.0, 3.0):  # two coups under the banner
        kiosk.step(now)
    motion.banner.rect = None
    kiosk.step(4.0)
    assert table.last_number == games[25].number
    never.render(table, FeedStatus.LIVE, clock=kiosk.clock_text())
    assert pixels(kiosk.screen) == turned(never.frame, angle)


class Shown:
    """Every ``pygame.display.update``: the screen's pixels in the rectangles it showed."""

    def __init__(self, screen: pygame.Surface) -> None:
        self.screen = screen
        self.updates: list[list[tuple[pygame.Rect, bytes]]] = []

    def update(self, rects=None) -> None:
        if rects is None:
            rects = [self.screen.get_rect()]
        elif isinstance(rects, pygame.Rect):
            rects = [rects]
        shown = [pygame.Rect(rect).clip(self.screen.get_rect()) for rect in rects]
        self.updates.append([(rect, pixels(self.screen.subsurface(rect))) for rect in shown])


def test_a_frame_that_failed_half_drawn_on_the_display_never_reaches_the_screen(
    classic, monkeypatch
):
    table = table_with(dealt_games(seed=9, coups=10))
    feed = feeding([])
    watchdog = Notifier(None, watchdog_seconds=0.3)  # a ping due at every step
    kiosk = Kiosk(
        feed, table, classic, windowed=True, size=SIZE, notifier=watchdog, renderer=stand_in
    )
    kiosk.step(0.0)
    assert kiosk.renderer.frame is kiosk.screen
    shown = Shown(kiosk.screen)
    monkeypatch.setattr(pygame.display, "update", shown.update)
    drawn = kiosk.renderer.update

    def half_drawn(*args, **kwargs):
        drawn(*args, **kwargs)
        kiosk.screen.fill((255, 0, 255), pygame.Rect(0, 0, 200, 120))
        raise RuntimeError("the frame broke half-way")

    monkeypatch.setattr(kiosk.renderer, "update", half_drawn)
    kiosk.step(1.0)
    assert shown.updates == []  # nothing of it shown, not even the watchdog's pixel
    monkeypatch.undo()
    monkeypatch.setattr(pygame.display, "update", shown.update)
    ticks = itertools.count(kiosk.clock() + 60)  # a second a reading: a ping due at each step
    kiosk.clock = lambda: next(ticks)
    for now in (2.0, 3.0):
        kiosk.step(now)
    never = stand_in(classic, SIZE)
    never.render(table, FeedStatus.LIVE, clock=kiosk.clock_text())
    assert len(shown.updates) == 2 and shown.updates[1] == [
        (pygame.Rect(0, 0, 1, 1), pixels(never.frame.subsurface(pygame.Rect(0, 0, 1, 1))))
    ]  # the full frame, then the watchdog's pixel of it
    for rect, seen in (push for update in shown.updates for push in update):
        assert seen == pixels(never.frame.subsurface(rect))


def test_a_theme_reload_s_new_renderer_draws_on_the_display_too(classic):
    table = table_with(dealt_games(seed=2, coups=6))
    kiosk = Kiosk(feeding([]), table, classic, windowed=True, size=SIZE, renderer=stand_in)
    kiosk.step(0.0)
    old = kiosk.renderer
    assert kiosk.reload_theme(1.0, force=True)
    assert kiosk.renderer is not old and kiosk.renderer.frame is kiosk.screen
    kiosk.step(2.0)
    never = stand_in(classic, SIZE)
    never.render(table, FeedStatus.LIVE, clock=kiosk.clock_text())
    assert pixels(kiosk.screen) == pixels(never.frame)
