"""A kiosk driven by real pygame key events, for the keypad tests.

Events are posted to pygame's queue (``pygame.event.post``, SDL_VIDEODRIVER=dummy)
and taken by the kiosk's own input handling and step, exactly as its loop does
between two sleeps, at times the test sets on the kiosk's injected clock.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field

import pygame

from scoreboard.keypad.feed import KeypadFeed
from scoreboard.kiosk.loop import Kiosk
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.loading import load_theme
from scoreboard.table.state import TableState

SIZE = (960, 540)
WALL = 1_780_000_000.0  # the wall clock at the kiosk's time 0

KEYS = {
    "[0]": pygame.K_KP0,
    "[1]": pygame.K_KP1,
    "[2]": pygame.K_KP2,
    "[3]": pygame.K_KP3,
    "[4]": pygame.K_KP4,
    "[5]": pygame.K_KP5,
    "[6]": pygame.K_KP6,
    "[9]": pygame.K_KP9,
    "[-]": pygame.K_KP_MINUS,
    "[*]": pygame.K_KP_MULTIPLY,
    "end": pygame.K_END,
    "pgdn": pygame.K_PAGEDOWN,
    "left": pygame.K_LEFT,
    "x": pygame.K_x,
}


class PromptRenderer(Renderer):
    """The kiosk's renderer, also keeping every ``notice`` (the keypad's prompt) it was given."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.given: list[str | None] = []

    def update(self, table, status, *, notice: str | None = None, **kwargs):
        self.given.append(notice)
        return super().update(table, status, notice=notice, **kwargs)


@dataclass
class Clock:
    now: float = 0.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Driver:
    kiosk: Kiosk
    clock: Clock
    feed: KeypadFeed
    table: TableState
    posted: list[str] = field(default_factory=list)

    def at(self, t: float) -> None:
        """One turn of the loop at time ``t``: the queued events, then a step."""
        self.clock.now = t
        self.kiosk.take_input()
        self.kiosk.step(t)

    def post(self, key: str, down: bool, t: float) -> None:
        self.queue(key, down)
        self.at(t)

    def queue(self, key: str, down: bool) -> None:
        """Post a key event without a turn of the loop."""
        kind = pygame.KEYDOWN if down else pygame.KEYUP
        pygame.event.post(pygame.event.Event(kind, key=KEYS[key]))

    def take(self, key: str, down: bool, t: float) -> None:
        """The kiosk takes a key event at ``t`` but does not step: its feed polls later."""
        self.queue(key, down)
        self.clock.now = t
        self.kiosk.take_input()

    def down(self, key: str, t: float) -> None:
        self.post(key, True, t)

    def up(self, key: str, t: float) -> None:
        self.post(key, False, t)

    def tap(self, key: str, t: float) -> float:
        """Press and release ``key`` (0.1 s); returns when it came up."""
        self.down(key, t)
        self.up(key, t + 0.1)
        return t + 0.1

    def type(self, keys: str, t: float = 0.0, gap: float = 0.5) -> float:
        """Tap each space-separated key ``gap`` apart from ``t``; returns the last one's time."""
        for key in keys.split():
            t = self.tap(key, t) + gap
        return t

    @property
    def prompt(self) -> str | None:
        """The notice the kiosk handed the renderer with its last frame."""
        renderer = self.kiosk.renderer
        assert isinstance(renderer, PromptRenderer)
        return renderer.given[-1]


@contextlib.contextmanager
def keypad_kiosk(
    feed: KeypadFeed | None = None,
    table: TableState | None = None,
    *,
    prompts: bool = True,
) -> Iterator[Driver]:
    """A windowed kiosk without motion (so a coup is drawn at once) fed by ``feed``."""
    feed = feed or KeypadFeed(wall_clock=lambda: WALL)
    table = table if table is not None else TableState()
    clock = Clock()

    def factory(theme, size):
        return PromptRenderer(theme, size, motion=False)

    kiosk = Kiosk(
        feed,
        table,
        load_theme("classic"),
        windowed=True,
        size=SIZE,
        clock=clock,
        wall_clock=lambda: WALL + clock.now,
        renderer=factory if prompts else None,
        motion=False,
    )
    feed.start(kiosk.wake)
    pygame.event.clear()
    try:
        yield Driver(kiosk, clock, feed, table)
    finally:
        feed.stop()
        pygame.display.quit()
