"""The limits panel: the minimum bet as a headline, honest "Limits —" when unknown, long pays."""

from __future__ import annotations

import pytest

from scoreboard.game.limits import Limits
from scoreboard.game.variants import VARIANTS
from scoreboard.screen.board._limits_panel import draw_limits
from scoreboard.screen.board.panels import DrawnText
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.board.text import CAP_FLOORS
from scoreboard.screen.theme.loading import available_themes, load_theme

SIZES = [(1920, 1080), (1080, 1920), (1280, 720), (1280, 1024)]
IDS = [f"{w}x{h}" for w, h in SIZES]

pytestmark = pytest.mark.usefixtures("pygame_display")


def drawn(renderer: Renderer, limits: Limits) -> list[DrawnText]:
    log: list[DrawnText] = []
    renderer.panels.log = log
    draw_limits(renderer.panels, renderer.static.copy(), limits)
    renderer.panels.log = None
    return log


@pytest.mark.parametrize("name", available_themes())
@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_the_main_bets_minimum_and_maximum_lead_in_large_numbers(name, size):
    renderer = Renderer(load_theme(name), size)
    limits = Limits(
        currency="EUR",
        bets={"banker": (50, 5000), "player": (20, 8000), "tie": (5, 500)},
        pays=VARIANTS["commission"].pays(),
    )
    log = drawn(renderer, limits)
    numbers = [text for text in log if text.role == "number"]
    assert [text.text for text in numbers] == ["20", "8,000"]  # the main bets' widest span
    for number in numbers:
        assert renderer.text.cap_height(number.size, bold=number.bold) >= (
            CAP_FLOORS["number"] * min(size) - 0.5
        )
        assert all(number.size > text.size for text in log if text.role != "number")
    table = [t for t in log if t.role != "number" and t.text.startswith(("50", "20", "5 "))]
    assert table and all(number.rect.bottom <= t.rect.top for t in table for number in numbers)
    assert any("(EUR)" in text.text for text in log)  # the currency, in the title


@pytest.mark.parametrize("name", available_themes())
@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_unknown_limits_say_so_and_never_show_a_default(name, size):
    theme = load_theme(name)
    renderer = Renderer(theme, size)
    variant = VARIANTS["ez"]
    log = drawn(renderer, Limits(currency="USD", bets={}, pays=variant.pays()))
    texts = [text.text for text in log]
    assert renderer.panels.words("no_limits") in texts
    assert not [text for text in log if text.role == "number"]
    assert not [t for t in texts if "–" in t and any(c.isdigit() for c in t)]  # no spans
    assert not [t for t in texts if t in {"25", "10,000"}]
    assert not [t for t in texts if "USD" in t]  # no currency for limits nobody gave
    assert "8:1" in texts  # the variant's pays are known and stay


@pytest.mark.parametrize("name", available_themes())
@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_the_ez_banker_pays_are_read_in_full(name, size):
    """ "1:1 (Dragon 7 push)" on one line, on two, or with its bracket as a footnote; never cut."""
    renderer = Renderer(load_theme(name), size)
    variant = VARIANTS["ez"]
    texts = [text.text for text in drawn(renderer, Limits.default_for(variant))]
    whole = "1:1 (Dragon 7 push)"
    assert (
        whole in texts
        or ("1:1" in texts and "(Dragon 7 push)" in texts)
        or ("1:1 *" in texts and "* Dragon 7 push" in texts)
    ), texts
    assert not [t for t in texts if "…" in t and "Drag" in t]
