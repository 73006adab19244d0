"""The kiosk loop switches scheduled limits at their time, by its own wall clock."""

from __future__ import annotations

import pygame
import pytest
from keypad_kiosk import SIZE, WALL, Clock

from scoreboard.game.events import LimitsReceived
from scoreboard.game.limits import limits_from_spec
from scoreboard.game.variants import VARIANTS
from scoreboard.keypad.feed import KeypadFeed
from scoreboard.kiosk.loop import Kiosk
from scoreboard.screen.theme.loading import load_theme
from scoreboard.table.state import TableState, apply_event

COMMISSION = VARIANTS["commission"]
NOW = limits_from_spec("25-10000", COMMISSION)
LATER = limits_from_spec("50-20000", COMMISSION)


@pytest.fixture
def scheduled():
    """A kiosk (clock at 0 = WALL) whose table shows NOW, with LATER due at WALL + 30 s."""
    table = TableState(limits=NOW)
    apply_event(table, LimitsReceived(LATER, effective_at=WALL + 30.0))
    assert table.limits == NOW and table.scheduled is not None
    clock = Clock()
    kiosk = Kiosk(
        KeypadFeed(),  # quiet: no deadline of its own
        table,
        load_theme("classic"),
        windowed=True,
        size=SIZE,
        clock=clock,
        wall_clock=lambda: WALL + clock.now,
        motion=False,
    )
    try:
        yield kiosk, clock, table
    finally:
        pygame.display.quit()


def test_the_scheduled_limits_go_on_the_board_at_their_time(scheduled):
    kiosk, clock, table = scheduled
    clock.now = 29.9
    kiosk.step(29.9)
    assert table.limits == NOW
    version = table.version
    clock.now = 30.0
    kiosk.step(30.0)
    assert table.limits == LATER and table.scheduled is None and table.version > version
