"""Scheduled limits announced on the limits panel: "New limits from 22:00: 50 – 20,000"."""

from __future__ import annotations

import itertools

import pygame
import pytest
from test_notices_state import dealt

from scoreboard.game.limits import Limits, ScheduledLimits
from scoreboard.game.variants import VARIANTS
from scoreboard.screen.board._limits_panel import draw_limits, limits_shows
from scoreboard.screen.board.panels import DrawnText
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.board.text import CAP_FLOORS
from scoreboard.screen.theme.loading import available_themes, load_theme

SIZES = [(1920, 1080), (1080, 1920), (3840, 2160), (1280, 720)]
NEW = Limits(
    currency="USD", bets={"player": (50, 20_000), "banker": (50, 20_000), "tie": (5, 2_000)}
)

pytestmark = pytest.mark.usefixtures("pygame_display", "utc")


AT = 1_796_162_400.0  # 2026-12-01 22:00 UTC


def announced(log: list[DrawnText]) -> list[str]:
    """The texts drawn, an announcement broken after its time joined again."""
    texts = [d.text for d in log]
    for at, text in enumerate(texts[:-1]):
        if "New limits from" in text and " – " not in text:
            texts[at] = f"{text}: {texts[at + 1]}"
    return texts


def drawn(renderer: Renderer, scheduled, now: float) -> list[DrawnText]:
    log: list[DrawnText] = []
    renderer.panels.log = log
    current = Limits.default_for(VARIANTS["commission"])
    draw_limits(renderer.panels, renderer.static.copy(), current, scheduled=scheduled, now=now)
    renderer.panels.log = None
    return log


@pytest.mark.parametrize("name", available_themes())
@pytest.mark.parametrize("size", SIZES, ids=str)
def test_scheduled_limits_are_announced_readably_in_the_panel(name, size):
    renderer = Renderer(load_theme(name), size, motion=False)
    log = drawn(renderer, ScheduledLimits(AT, NEW), AT - 3600)
    texts = [d.text for d in log]
    shown = next(d for d in log if d.text.startswith("New limits from 22:00: 50 – 20,000"))
    assert renderer.layout.panels["limits"].body.contains(shown.rect)
    cap = renderer.text.cap_height(shown.size, bold=shown.bold)
    assert cap >= CAP_FLOORS["label"] * renderer.layout.unit * 0.95
    assert "25" in texts and "10,000" in texts  # the current limits still lead
    others = [d for d in log if d is not shown]
    assert not any(shown.rect.colliderect(d.rect) for d in others)


def test_the_date_is_said_when_the_change_is_not_today():
    renderer = Renderer(load_theme("classic"), (1920, 1080), motion=False)
    texts = announced(drawn(renderer, ScheduledLimits(AT, NEW), AT - 2 * 86400))
    assert "New limits from 2026-12-01 22:00: 50 – 20,000" in texts


def test_the_announcement_is_in_each_shown_language():
    renderer = Renderer(load_theme("midnight"), (1080, 1920), motion=False)
    texts = " | ".join(d.text for d in drawn(renderer, ScheduledLimits(AT, NEW), AT - 60))
    assert "New limits from 22:00: 50 – 20,000" in texts
    assert "22:00起新限紅: 50 – 20,000" in texts


def test_no_announcement_without_scheduled_limits():
    renderer = Renderer(load_theme("classic"), (1920, 1080), motion=False)
    assert not [d for d in drawn(renderer, None, AT) if "New limits" in d.text]


def test_the_panel_redraws_when_limits_are_scheduled_or_switched():
    table = dealt("BP")
    table.switch_limits(AT - 3600)
    before = limits_shows(table.limits, table.scheduled)
    table.set_limits(NEW, effective_at=AT)
    assert table.scheduled is not None and table.limits != NEW
    scheduled = limits_shows(table.limits, table.scheduled)
    assert scheduled != before
    table.switch_limits(AT)
    assert table.limits == NEW and limits_shows(table.limits, table.scheduled) not in (
        before,
        scheduled,
    )


def overlap(a: pygame.Rect, b: pygame.Rect) -> float:
    """The part of the smaller rectangle the two share."""
    shared = a.clip(b)
    return shared.width * shared.height / max(1, min(a.width * a.height, b.width * b.height))


@pytest.mark.parametrize("name", available_themes())
@pytest.mark.parametrize("size", SIZES, ids=str)
def test_a_dated_announcement_leaves_the_limit_table_readable(name, size):
    renderer = Renderer(load_theme(name), size, motion=False)
    log = drawn(renderer, ScheduledLimits(AT, NEW), AT - 2 * 86400)
    box = renderer.layout.panels["limits"]
    below = [d for d in log if d.rect.top >= box.body.top]  # the title's line box pokes up
    assert all(box.rect.contains(d.rect) for d in below)
    for a, b in itertools.combinations(log, 2):
        assert overlap(a.rect, b.rect) <= 0.2, (a.text, b.text)
    assert any(d.text == "B Pair" or d.text.startswith("B Pair") for d in log)
