"""Coups at a dealer's pace: what the kiosk's incremental frames end on is the full picture.

The lab found beads missing from the bead plate (and marks from the big road)
when coups came about 2 s apart, the status saying LIVE: a coup arriving while
the previous coup's mark was still drawn in or blinking left that mark as it was
at that instant (blinked off).  Each test drives the renderer the way the kiosk
loop does (update, then blink, sleeping until the next deadline) and compares
the final frame pixel for pixel with a fresh full render of the same table.
"""

from __future__ import annotations

import pygame
import pytest
from changed_pixels import changed_points
from hypothesis import given, settings
from hypothesis import strategies as st
from shipped_themes import shipped_theme

from scoreboard.game.events import CoupReceived, NewShoe
from scoreboard.game.rules import Game, Winner, result_coup
from scoreboard.screen.board.renderer import Renderer
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState, apply_event

SIZE = (960, 540)
WINNERS = [Winner.BANKER, Winner.PLAYER, Winner.PLAYER, Winner.BANKER, Winner.TIE, Winner.BANKER]


def dealt_at_pace(
    theme, gaps: list[float], winners: list[Winner], motion: bool
) -> tuple[pygame.Surface, pygame.Surface]:
    """The kiosk loop's frames for coups ``gaps`` apart: the last frame, and a full render."""
    table = TableState()
    apply_event(table, NewShoe("S1"))
    renderer = Renderer(theme, SIZE, motion=motion)
    now = 0.0
    renderer.update(table, FeedStatus.LIVE, now=now)
    for number, (gap, winner) in enumerate(zip(gaps, winners, strict=True), 1):
        apply_event(table, CoupReceived("S1", Game(number, result_coup(winner))))
        end = now + gap
        while now < end:
            renderer.update(table, FeedStatus.LIVE, now=now)
            renderer.blink(now)
            due = renderer.next_blink(now)
            now = min(end, due if due is not None and due > now else now + 0.1)
    for _ in range(60):  # every animation ends
        renderer.update(table, FeedStatus.LIVE, now=now)
        renderer.blink(now)
        now += 0.25
    full = Renderer(theme, SIZE, motion=motion).render(table, FeedStatus.LIVE, now=now + 60)
    return renderer.frame, full


def differing(a: pygame.Surface, b: pygame.Surface) -> int:
    """How many of the pixels of every other row and column differ (alpha included)."""
    return len(changed_points(a, b, 2, "RGBA"))


@pytest.mark.parametrize("gap", [0.3, 1.0, 2.0, 2.4, 5.0])
@pytest.mark.parametrize("motion", [True, False])
def test_coups_at_a_dealers_pace_leave_every_mark_on_the_board(gap, motion):
    theme = shipped_theme("classic")
    live, full = dealt_at_pace(theme, [gap] * len(WINNERS), WINNERS, motion)
    assert differing(live, full) == 0


@settings(max_examples=20, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(0.05, 6.0), st.sampled_from(list(Winner))), min_size=1, max_size=8
    ),
    st.booleans(),
)
def test_any_pace_settles_on_the_full_picture(coups, motion):
    theme = shipped_theme("classic")
    gaps, winners = [gap for gap, _ in coups], [winner for _, winner in coups]
    live, full = dealt_at_pace(theme, gaps, winners, motion)
    assert differing(live, full) == 0
