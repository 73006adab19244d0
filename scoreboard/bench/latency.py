"""Live feed latency: controller publish -> coup applied -> frame flipped, through a broker.

The simulated controller deals at a fixed pace (in a thread) into a private
broker (:mod:`.broker`); the kiosk reads the feed with its journal on, run by
its own loop (``Kiosk.run``: it sleeps until the feed's thread wakes it).  For
each coup the time is taken just before the controller's ``publish`` call,
when the display applied it (after validation and the fsync'd journal write)
and when the ``pygame.display.update`` (or ``flip``) of the frame that shows
it returned.  Publisher and display share one process and one clock.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame

from scoreboard.controller import Controller
from scoreboard.feeds.mqtt import MqttFeed
from scoreboard.game.events import CoupReceived, Event
from scoreboard.game.limits import Limits
from scoreboard.game.shoe import Dealer, timed
from scoreboard.game.variants import VARIANTS
from scoreboard.journal import Journal
from scoreboard.protocol import Topics
from scoreboard.settings.config import MqttConfig
from scoreboard.settings.endpoint import Endpoint
from scoreboard.table.state import TableState

from .broker import HOST
from .kiosk import Board, KioskLike

Key = tuple[str, int]
CONNECT_SECONDS = 30.0


class Stamps:
    """When each coup was published, applied by the display and flipped onto the screen."""

    def __init__(self, coups: int) -> None:
        self.coups = coups
        self.published: dict[Key, float] = {}
        self.applied: dict[Key, float] = {}
        self.flipped: dict[Key, float] = {}
        self.dealt = threading.Event()
        self.failure: str | None = None

    def on_applied(self, event: object, _received: float) -> None:
        if isinstance(event, CoupReceived):
            self.applied[(event.shoe, event.game.number)] = time.perf_counter()

    def on_flip(self) -> bool:
        """A frame reached the screen: it shows every coup applied before it; True when done."""
        now = time.perf_counter()
        for key in self.applied.keys() - self.flipped.keys():
            self.flipped[key] = now
        return self.dealt.is_set() and len(self.flipped) >= self.coups


@dataclass(frozen=True, slots=True)
class LatencySamples:
    """Milliseconds from publish for every coup shown, and how many were published."""

    published: int
    applied_ms: list[float]
    flipped_ms: list[float]
    failure: str | None = None


@contextlib.contextmanager
def watching_flips(stamps: Stamps, kiosk: KioskLike) -> Iterator[None]:
    """Meanwhile, note when ``pygame.display.update``/``flip`` return; stop once all are shown."""
    real_update, real_flip = pygame.display.update, pygame.display.flip

    def timed_call(real: Any) -> Any:
        def call(*args: object) -> object:
            result = real(*args)
            if stamps.on_flip():
                kiosk.running = False
            return result

        return call

    pygame.display.update = timed_call(real_update)
    pygame.display.flip = timed_call(real_flip)
    try:
        yield
    finally:
        pygame.display.update, pygame.display.flip = real_update, real_flip


def table_limits() -> Limits:
    """The controller's limits, built from public fields (no default the display might drop)."""
    bets = {"player": (25, 10000), "banker": (25, 10000), "tie": (5, 1000)}
    return Limits(currency="USD", bets=bets, pays=VARIANTS["commission"].pays())


def timed_controller(endpoint: Endpoint, stamps: Stamps) -> Controller:
    """A controller that notes the time just before each coup's publish call."""

    class TimedController(Controller):
        def publish(self, event: Event, *, retain: bool = False) -> None:
            if isinstance(event, CoupReceived):
                stamps.published[(event.shoe, event.game.number)] = time.perf_counter()
            super().publish(event, retain=retain)

    return TimedController(endpoint, limits=table_limits())


def deal(controller: Controller, feed: MqttFeed, kiosk: KioskLike, stamps: Stamps,
         pace: float) -> None:  # fmt: skip
    """Wait for the display to connect, deal the coups shoe after shoe, then flush.

    Any failure is noted in ``stamps`` and stops the kiosk instead of leaving it
    to wait for coups that never come.
    """
    try:
        deadline = time.monotonic() + CONNECT_SECONDS
        while not feed.session.connected and kiosk.running and time.monotonic() < deadline:
            time.sleep(0.01)
        if not kiosk.running:
            return  # the loop was stopped (the bench interrupted): nothing to deal
        if not feed.session.connected:
            raise RuntimeError(f"the display did not connect within {CONNECT_SECONDS:g} s")
        controller.start()
        count = 0
        for event in Dealer(seed=2026):
            if not kiosk.running:
                break
            controller.deal(timed([event], pace, 0.0))
            if isinstance(event, CoupReceived):
                count += 1
                if count >= stamps.coups:
                    break
        controller.flush(10)
    except Exception as error:  # the kiosk's loop is waiting: say why, stop it
        stamps.failure = f"{type(error).__name__}: {error}"
        kiosk.running = False
    finally:
        stamps.dealt.set()


def measure_latency(
    board: Board, *, port: int, state_dir: Path, coups: int, pace: float
) -> LatencySamples:
    """Deal ``coups`` coups every ``pace`` s through the broker on ``port``.

    The display journals into ``state_dir``, as a live board does.
    """
    endpoint = Endpoint(MqttConfig(host=HOST, port=port), Topics("bench/v1/T1"))
    stamps = Stamps(coups)
    controller = timed_controller(endpoint, stamps)
    table = TableState()
    with Journal(state_dir) as journal:
        journal.replay(table)
        feed = MqttFeed(endpoint, display_id="bench", journal=journal)
        feed.session.on_applied = stamps.on_applied
        kiosk = board.kiosk(feed, table, real_clock=True)
        dealer = threading.Thread(
            target=deal, args=(controller, feed, kiosk, stamps, pace), daemon=True
        )
        with watching_flips(stamps, kiosk):
            dealer.start()
            try:
                kiosk.run(run_for=coups * pace * 3 + CONNECT_SECONDS + 30)
            finally:
                controller.stop()
                dealer.join(5)
    keys = [key for key in stamps.published if key in stamps.flipped and key in stamps.applied]
    return LatencySamples(
        published=len(stamps.published),
        applied_ms=[(stamps.applied[k] - stamps.published[k]) * 1000 for k in keys],
        flipped_ms=[(stamps.flipped[k] - stamps.published[k]) * 1000 for k in keys],
        failure=stamps.failure,
    )
