"""The notices and marks on the kiosk's own frames: Renderer.update as the app calls it.

These need the renderer wired to the notices (``Renderer.notices``, ``update(...,
notice=...)``: the lead's integration lines in screen/board/renderer.py); until then
they are skipped.
"""

from __future__ import annotations

import time

import pygame
import pytest
from test_notices_state import dealt, with_alert

from scoreboard.game.limits import Limits
from scoreboard.game.rules import Game, Winner, result_coup
from scoreboard.screen.board.panels import DrawnText
from scoreboard.screen.board.renderer import Renderer
from scoreboard.table.applied import FeedStatus

SIZE = (1920, 1080)

pytestmark = pytest.mark.usefixtures("pygame_display")


def pixels(surface: pygame.Surface, area: pygame.Rect) -> bytes:
    return pygame.image.tobytes(surface.subsurface(area), "RGB")


@pytest.mark.parametrize("motion", [True, False], ids=["motion", "motion off"])
def test_a_void_shows_its_notice_on_the_frame_until_it_ends(classic, motion):
    renderer, table = Renderer(classic, SIZE, motion=motion), dealt("BPBP")
    renderer.update(table, FeedStatus.LIVE, now=0.0)
    table.void(4)
    renderer.update(table, FeedStatus.LIVE, now=10.0)
    painted = renderer.notices.banner.painted(10.0)
    assert painted is not None and painted.drawn[0].text == "Game 4 voided"
    area = painted.plate
    assert pixels(renderer.frame, area) != pixels(renderer.base, area)
    end = 10.0 + classic.motion.notice_seconds
    due = renderer.next_blink(end - 0.5)
    assert due is not None and due <= end  # the loop wakes up to take it down
    renderer.blink(end - 0.5)
    assert pixels(renderer.frame, area) != pixels(renderer.base, area)
    renderer.blink(end)
    assert pixels(renderer.frame, area) == pixels(renderer.base, area)


def test_the_keypad_prompt_shows_while_given(classic):
    renderer, table = Renderer(classic, SIZE), dealt("BP")
    renderer.update(table, FeedStatus.LIVE, now=0.0)
    renderer.update(table, FeedStatus.LIVE, now=1.0, notice="Void game 2? Press - again")
    painted = renderer.notices.prompt.painted(1.0)
    assert painted is not None
    assert pixels(renderer.frame, painted.plate) != pixels(renderer.base, painted.plate)
    renderer.update(table, FeedStatus.LIVE, now=2.0)
    assert pixels(renderer.frame, painted.plate) == pixels(renderer.base, painted.plate)


def test_a_correction_redraws_the_bead_plate_with_its_mark(classic):
    renderer, table = Renderer(classic, SIZE, motion=False), dealt("BPBP")
    renderer.update(table, FeedStatus.LIVE, now=0.0)
    table.correct(Game(2, result_coup(Winner.BANKER)))
    renderer.update(table, FeedStatus.LIVE, now=1.0)
    cell = renderer.layout.grids["bead_plate"].cell(0, 1)
    notch = (cell.right - 3, cell.top + 2)
    assert tuple(renderer.base.get_at(notch))[:3] == renderer.roads.natural_color
    banker = renderer.theme.colors.banker
    bead = [
        tuple(renderer.base.get_at((cell.centerx, y)))[:3] for y in range(cell.top, cell.bottom)
    ]
    assert banker in bead  # the corrected result, not the old Player bead


def test_an_alert_puts_the_staff_mark_in_the_footer(classic):
    renderer = Renderer(classic, SIZE, motion=False)
    table = dealt("BP")
    renderer.update(table, FeedStatus.LIVE, now=0.0)
    alerted = with_alert()
    log: list[DrawnText] = []
    renderer.panels.log = log
    renderer.update(alerted, FeedStatus.LIVE, now=1.0)
    renderer.panels.log = None
    assert "ALERTS 1" in [d.text for d in log]


def test_scheduled_limits_show_on_the_limits_panel(classic):
    renderer, table = Renderer(classic, SIZE, motion=False), dealt("BP")
    renderer.update(table, FeedStatus.LIVE, now=0.0)
    at = float((int(time.time()) // 60 + 60) * 60)  # a whole minute, an hour or so ahead
    new = Limits(currency="USD", bets={"player": (50, 20_000), "banker": (50, 20_000)})
    table.set_limits(new, effective_at=at)
    log: list[DrawnText] = []
    renderer.panels.log = log
    renderer.update(table, FeedStatus.LIVE, now=1.0)
    renderer.panels.log = None
    same_day = time.localtime(at)[:3] == time.localtime()[:3]  # near midnight, at is tomorrow
    when = time.strftime("%H:%M" if same_day else "%Y-%m-%d %H:%M", time.localtime(at))
    texts = [d.text for d in log]
    assert f"New limits from {when}: 50 – 20,000" in texts or f"New limits from {when}" in texts
