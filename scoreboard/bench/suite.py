"""Every figure of ``scoreboard bench``, measured in order, with a line of progress for each.

The order matters: memory goes first (so the process's peak is a board's at
the screen's size, before anything else ran), then publish -> flip (its
broker and threads stopped before anything else is timed), the road engine,
the idle loop (no other thread left in the process), and the frames at the
screen's size and at the reference sizes.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pygame

from .broker import BrokerError, find_mosquitto, private_broker
from .frames import FramePlan, measure_frames
from .idle import idle_cpu
from .kiosk import Board
from .latency import measure_latency
from .machine import display, load_average, machine
from .memory import measure_memory
from .results import Latency, Results, size_text
from .roads import road_append_us
from .stats import Spread

REFERENCE_SIZES = ((1920, 1080), (3840, 2160))
Progress = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class Plan:
    """How much each figure measures; the defaults are the full run (1-2 minutes, 2 cores)."""

    road_shoes: int = 2000
    frames: FramePlan = field(default_factory=FramePlan)
    idle_seconds: float = 10.0
    memory_shoes: int = 20
    latency_coups: int = 100
    latency_pace: float = 0.1


QUICK = Plan(
    road_shoes=200,
    frames=FramePlan(shoes=1, coups=12, full=3),
    idle_seconds=2.0,
    memory_shoes=3,
    latency_coups=20,
    latency_pace=0.1,
)
"""A first look (and the tests): few frames, a short idle run, few shoes."""


def run_suite(
    board: Board,
    plan: Plan,
    work: Path,
    progress: Progress,
    between: Callable[[], object] = lambda: None,
) -> Results:
    """Measure everything; ``work`` is an empty directory for the broker and the journal.

    ``board.size`` is the screen's: the verdict judges the frames there.  ``between``
    is called between two pieces of work that no frame divides (the road engine's
    shoes): where the command's stop raises.
    """
    started, before, screen = time.monotonic(), machine(), size_text(board.size)
    if not pygame.display.get_init():
        pygame.display.init()
    progress(f"memory: dealing {plan.memory_shoes} shoes at {screen}")
    memory = measure_memory(board, plan.memory_shoes)
    latency = latency_step(board, plan, work, progress)
    progress(f"road append: {plan.road_shoes} shoes of 80 coups")
    roads = road_append_us(plan.road_shoes, between)
    progress(f"idle CPU: the display loop for {plan.idle_seconds:g} s with nothing arriving")
    if threading.active_count() > 1:
        progress(f"  (note: {threading.active_count() - 1} other threads still running)")
    idle = idle_cpu(board, plan.idle_seconds)
    frames, failed = [], {}
    for size in dict.fromkeys((board.size, *REFERENCE_SIZES)):
        progress(f"frames at {size_text(size)}")
        at = board if size == board.size else dataclasses.replace(board, size=size, rotate=0)
        try:
            frames.append(measure_frames(at, plan.frames))
        except pygame.error as error:  # a screen without that mode (KMSDRM)
            progress(f"frames at {size_text(size)}: failed: {error}")
            failed[size_text(size)] = f"the display cannot show {size_text(size)}: {error}"
    shown = display()
    pygame.display.quit()
    theme = board.theme if isinstance(board.theme, str) else board.theme.name
    return Results(
        screen=board.size,
        road_append_us=roads,
        frames=tuple(frames),
        frames_failed=failed,
        idle=idle,
        memory=memory,
        latency=latency,
        rotate=board.rotate,
        theme=theme,
        quick=plan == QUICK,
        seconds=time.monotonic() - started,
        machine={**before, "load_average_after": load_average()},
        display=shown,
    )


def latency_step(board: Board, plan: Plan, work: Path, progress: Progress) -> Latency:
    """Publish -> flip through a private mosquitto, or why it was not measured."""
    binary = find_mosquitto()
    if binary is None:
        progress("publish→flip: skipped: mosquitto not installed")
        return Latency.not_measured("mosquitto not installed")
    coups, pace = plan.latency_coups, plan.latency_pace
    progress(f"publish→flip: {coups} coups every {pace:g} s through {binary} on loopback")
    try:
        with private_broker(work / "broker", binary) as broker:
            samples = measure_latency(
                board, port=broker.port, state_dir=work / "journal", coups=coups, pace=pace
            )
    except BrokerError as error:
        progress(f"publish→flip: skipped: {error}")
        return Latency.not_measured(f"mosquitto would not start: {error}")
    shown = len(samples.flipped_ms)
    failed = samples.failure
    if failed is None and shown < coups:
        failed = f"{coups - shown} of {coups} coups never shown"
    return Latency(
        flip=Spread.of(samples.flipped_ms) if shown else None,
        applied=Spread.of(samples.applied_ms) if shown else None,
        published=samples.published,
        shown=shown,
        failed=failed,
    )
