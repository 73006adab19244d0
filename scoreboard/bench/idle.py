"""What the display loop costs while nothing arrives: process CPU time over wall time.

A real loop (``Kiosk.run``) on the demo's own feed, a shoe half dealt as
history and the next coup an hour away: what the board does between coups and
all night long, blinking its newest mark if the theme says so, keeping its
clock, checking its theme file.  Whatever the loop spins or polls shows here.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import pygame

from scoreboard.feeds.simulated import SimulatedFeed, split_history
from scoreboard.game.shoe import Dealer
from scoreboard.table.state import TableState

from .kiosk import Board

SETTLE_SECONDS = 1.0
"""Run before the measured part: the first frame and its animations are a start, not idle."""


@dataclass(frozen=True, slots=True)
class IdleFigure:
    """Percent of one core the loop used over ``seconds`` of wall time."""

    percent: float
    seconds: float


def idle_feed(pace: float = 3600.0, history_coups: int = 40) -> SimulatedFeed:
    """The demo's feed with ``history_coups`` already dealt and a coup every ``pace`` seconds."""
    dealer = Dealer(seed=3)
    history, timed = split_history(dealer.timed(pace, 3 * pace), history_coups)
    return SimulatedFeed(dealer, pace=pace, history=history, timed=timed)


def idle_cpu(board: Board, seconds: float, *, pace: float = 3600.0) -> IdleFigure:
    """The loop's CPU share over ``seconds`` (``pace``: seconds between coups, an hour by default).

    The whole process is measured: run it where no other thread works.
    """
    if not pygame.display.get_init():
        pygame.display.init()
    kiosk = board.kiosk(idle_feed(pace), TableState(), real_clock=True)
    kiosk.run(run_for=SETTLE_SECONDS)
    cpu, wall = time.process_time(), time.monotonic()
    kiosk.run(run_for=seconds)
    cpu, wall = time.process_time() - cpu, time.monotonic() - wall
    pygame.event.clear()
    return IdleFigure(100.0 * cpu / wall, wall)
