"""The staff's mark for integrity alerts: a small triangle and count in the footer."""

from __future__ import annotations

import re
from pathlib import Path

import pygame
import pytest
from test_notices_state import dealt, with_alert

from scoreboard.screen.board._chrome import draw_footer, draw_header
from scoreboard.screen.board._notices import alert_count
from scoreboard.screen.board.panels import DrawnText
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.board.text import CAP_FLOORS
from scoreboard.screen.theme.loading import available_themes, load_theme, parse_theme
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState

pytestmark = pytest.mark.usefixtures("pygame_display")


def footer(renderer: Renderer, alerts: int) -> tuple[pygame.Surface, list[DrawnText]]:
    surface = renderer.static.copy()
    log: list[DrawnText] = []
    renderer.panels.log = log
    draw_footer(renderer.panels, surface, alerts=alerts)
    renderer.panels.log = None
    return surface, log


def warning_pixels(surface: pygame.Surface, area: pygame.Rect, color) -> int:
    mask = pygame.mask.from_threshold(surface.subsurface(area), color, (8, 8, 8, 255))
    return mask.count()


@pytest.mark.parametrize("name", available_themes())
@pytest.mark.parametrize("size", [(1920, 1080), (1080, 1920), (3840, 2160)], ids=str)
def test_alerts_put_a_small_warning_mark_at_the_footers_right_end(name, size):
    renderer = Renderer(load_theme(name), size, motion=False)
    box = renderer.layout.panels["footer"].rect
    right = pygame.Rect(
        box.centerx + box.width // 4, box.y, box.right - box.centerx - box.width // 4, box.h
    )
    warning = renderer.theme.colors.warning
    quiet, quiet_log = footer(renderer, 0)
    marked, log = footer(renderer, 2)
    assert warning_pixels(quiet, right, warning) == 0
    assert warning_pixels(marked, right, warning) > 40  # the triangle and the words
    mark = next(d for d in log if d.text == "ALERTS 2")
    assert right.contains(mark.rect) and mark.color == warning
    cap = renderer.text.cap_height(mark.size, bold=True)
    unit = renderer.layout.unit
    assert CAP_FLOORS["text"] * unit * 0.95 <= cap <= 0.03 * unit  # readable, not a banner
    disclaimer = next(d for d in log if d is not mark)
    assert not disclaimer.rect.colliderect(mark.rect.inflate(mark.rect.height * 2, 0))
    assert [d.text for d in quiet_log] == [disclaimer.text] or disclaimer.text.endswith("…")


def test_the_count_is_this_shoes_alerts():
    assert alert_count(dealt("BP")) == 0 and alert_count(TableState()) == 0
    table = with_alert()
    assert alert_count(table) == 1
    table.new_shoe("S2")
    assert alert_count(table) == 0


def test_a_layout_without_a_footer_carries_the_mark_in_the_header(tmp_path: Path):
    classic = load_theme("classic")
    source = Path(classic.source).read_text(encoding="utf-8")
    source = re.sub(r"\n +- \{name: footer,[^\n]*", "", source)
    theme = parse_theme(source, tmp_path / "no-footer.yaml")
    renderer = Renderer(theme, (1920, 1080), motion=False)
    assert "footer" not in renderer.layout.panels
    table = with_alert()
    log: list[DrawnText] = []
    renderer.panels.log = log
    draw_header(renderer.panels, renderer.static.copy(), table, FeedStatus.LIVE, "21:45")
    renderer.panels.log = None
    assert "ALERTS 1" in [d.text for d in log]
