"""A kiosk driven step by step: a scripted feed, a synthetic clock, every step timed.

Every timed call is the kiosk's own: ``step`` polls the feed, lets the renderer
update, copies the dirty rectangles to the display surface and calls
``pygame.display.update``; ``draw`` is the same without the poll.  Time is
synthetic (``now`` is handed in), so an animation never waits on the wall clock
and its frames are timed apart from the coup that started them.

Only public names that exist before and after issue 10 are used (the
benchmarks' ``--compare`` runs this against older trees); where newer code
adds a keyword (``Renderer(..., motion=False)``) it is used when present.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

import pygame

from scoreboard.game.events import CoupReceived, NewShoe
from scoreboard.game.rules import Game
from scoreboard.game.shoe import Dealer
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.loading import load_theme
from scoreboard.screen.theme.values import Theme
from scoreboard.table.applied import FeedStatus
from scoreboard.table.health import JournalHealth
from scoreboard.table.state import TableState, apply_event

from .stats import Stopwatch

WALL = 1_700_000_010.0  # a fixed wall clock: the header's minute never turns mid-run
PACE = 4.0  # synthetic seconds between coups, as the demo deals
SETTLE_LIMIT = 600  # animation frames followed after one coup at most

Samples = dict[str, dict[str, list[float]]]
"""Per case: ``{"wall": [ms, ...], "cpu": [ms, ...]}`` (the process's CPU time alike)."""


class KioskLike(Protocol):
    """What the benchmarks use of :class:`scoreboard.kiosk.loop.Kiosk`."""

    renderer: Renderer
    table: TableState
    running: bool

    # What they return is not used: ``object`` lets the kiosk say more (draw: was a frame made).
    def step(self, now: float) -> object: ...

    def draw(self, status: FeedStatus, now: float) -> object: ...

    def run(self, run_for: float | None = None) -> object: ...

    def request_reload(self) -> object: ...


KioskClass = Callable[..., KioskLike]
""":class:`scoreboard.kiosk.loop.Kiosk` (or an older tree's), handed in by the caller."""


class ScriptedFeed:
    """A feed (the kiosk's Feed protocol) that applies what it is given at the next poll."""

    def __init__(self) -> None:
        self.pending: list[object] = []
        self.health: object = None

    def give(self, *events: object) -> None:
        self.pending.extend(events)

    def start(self, wake: Callable[[], None]) -> None:
        """Nothing to start: the benchmark drives every step."""

    def poll(self, table: TableState, now: float) -> None:  # noqa: ARG002 - the protocol
        for event in self.pending:
            apply_event(table, event)  # type: ignore[arg-type]
        self.pending.clear()

    def status(self, now: float) -> FeedStatus:  # noqa: ARG002 - the protocol
        return FeedStatus.DEMO

    def next_deadline(self, now: float) -> float | None:  # noqa: ARG002 - the protocol
        return None

    def report(self, render: object) -> None:
        self.health = render

    def journal_health(self) -> JournalHealth:
        return JournalHealth()

    def stop(self) -> None:
        """Nothing to release."""


def shoe_games(seed: int, coups: int) -> list[Game]:
    """``coups`` games numbered 1..coups from the simulated dealer (crossing its shoes)."""
    games: list[Game] = []
    for event in Dealer(seed=seed):
        if isinstance(event, CoupReceived):
            games.append(Game(len(games) + 1, event.game.coup))
            if len(games) >= coups:
                return games
    raise AssertionError("the dealer never stops")


def shoe_events(shoe_id: str, games: list[Game]) -> Iterator[object]:
    yield NewShoe(shoe_id)
    for game in games:
        yield CoupReceived(shoe_id, game)


def takes_keyword(function: Callable[..., object], name: str) -> bool:
    try:
        return name in inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False


def renderer_factory(motion: bool | None) -> Callable[..., Renderer]:
    """Renderers with motion off (or on); ``None``: the renderer's own default."""
    if motion is None or not takes_keyword(Renderer, "motion"):
        return Renderer
    return lambda theme, size: Renderer(theme, size, motion=motion)


def make_kiosk(
    kiosk_class: KioskClass,
    feed: object,
    table: TableState,
    theme: Theme | str,
    size: tuple[int, int],
    motion: bool | None,
    *,
    real_clock: bool = False,
    **extra: object,
) -> KioskLike:
    """A windowed kiosk of ``size``; ``motion`` None: as shipped.

    Its wall clock is fixed (the header's minute never turns mid-run) unless
    ``real_clock``: a loop run in real time keeps its real clock.
    """
    keywords: dict[str, Any] = {"windowed": True, "size": size, **extra}
    if not real_clock and takes_keyword(kiosk_class, "wall_clock"):
        keywords["wall_clock"] = lambda: WALL
    if motion is not None and takes_keyword(kiosk_class, "renderer"):
        keywords["renderer"] = renderer_factory(motion)
    if motion is not None and takes_keyword(kiosk_class, "motion"):
        keywords["motion"] = motion
    shown = load_theme(theme) if isinstance(theme, str) else theme
    return kiosk_class(feed, table, shown, **keywords)


@dataclass(frozen=True, slots=True)
class Board:
    """What is measured: the kiosk class under test (handed in), its theme, screen and motion.

    ``size`` is the screen's, ``rotate`` the picture's turn on it; ``motion``
    None is the kiosk as shipped (the theme decides), False motion off.
    """

    kiosk_class: KioskClass
    theme: Theme | str = "classic"
    size: tuple[int, int] = (1920, 1080)
    rotate: int = 0
    motion: bool | None = None

    def kiosk(self, feed: object, table: TableState, *, real_clock: bool = False) -> KioskLike:
        extra = {"rotate": self.rotate} if self.rotate else {}
        return make_kiosk(
            self.kiosk_class,
            feed,
            table,
            self.theme,
            self.size,
            self.motion,
            real_clock=real_clock,
            **extra,
        )

    def bench(self) -> Bench:
        """A new kiosk on an empty table with a scripted feed, ready to be stepped."""
        if not pygame.display.get_init():
            pygame.display.init()
        pygame.font.init()
        feed = ScriptedFeed()
        return Bench(self.kiosk(feed, TableState()), feed)


def note(samples: Samples, case: str, watch: Stopwatch) -> None:
    entry = samples.setdefault(case, {"wall": [], "cpu": []})
    entry["wall"].append(watch.wall)
    entry["cpu"].append(watch.cpu)


@dataclass
class Bench:
    """One kiosk, a synthetic clock, and the samples taken so far (milliseconds)."""

    kiosk: KioskLike
    feed: ScriptedFeed
    now: float = 1000.0
    samples: Samples = field(default_factory=dict)

    def step(self, *events: object) -> Stopwatch:
        """One loop step that sees ``events``; what it cost (the settling not counted)."""
        self.feed.give(*events)
        with Stopwatch() as watch:
            self.kiosk.step(self.now)
        return watch

    def settle(self, case: str | None = "animation frame") -> None:
        """Draw every animation frame the renderer asks for, each timed as ``case``."""
        for _ in range(SETTLE_LIMIT):
            due = self.kiosk.renderer.next_blink(self.now)
            if due is None:
                break
            self.now = max(due, self.now + 0.001)
            with Stopwatch() as watch:
                self.kiosk.draw(FeedStatus.DEMO, self.now)
            if case is not None:
                note(self.samples, case, watch)
        self.now += PACE

    def shoe(self, shoe_id: str, games: list[Game], case: Callable[[int], str | None]) -> None:
        """Deal ``games`` coup by coup; coup ``n``'s step is noted as ``case(n)``."""
        self.step(NewShoe(shoe_id))
        self.settle(None)
        for game in games:
            cost = self.step(CoupReceived(shoe_id, game))
            name = case(game.number)
            if name is not None:
                note(self.samples, name, cost)
            self.settle()

    def full_frames(self, repeat: int, case: str = "full frame") -> None:
        """``invalidate()`` then a step: everything redrawn and copied to the display."""
        for _ in range(repeat):
            self.kiosk.renderer.invalidate()
            note(self.samples, case, self.step())
            self.settle(None)
