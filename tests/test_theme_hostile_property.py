"""The promise of check-theme: a theme it accepts draws at every supported size.

Shipped themes are mutated (numbers at and beyond their bounds, odd text, bad or
missing fonts, odd colours); whenever the theme loads, the screenshot path's
frame is rendered for real at landscape and portrait sizes, and nothing may
raise or log an error (a panel that fails to draw logs one).  Whenever it does
not load, every problem is one line naming the file.

A handful of examples run by default; THEME_EXAMPLES=200 explores more.
"""

from __future__ import annotations

import copy
import logging
import math
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoreboard.cli.commands.screenshot import dealt_table
from scoreboard.kiosk.theme_watch import use_theme_rows
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme._fields import RANGES
from scoreboard.screen.theme.loading import available_themes, load_theme, themes_dir
from scoreboard.screen.theme.values import Theme, ThemeError
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState

ROOT = Path(__file__).resolve().parents[1]
SIZES = ((1280, 720), (1920, 1080), (3840, 2160), (1080, 1920))
EXAMPLES = int(os.environ.get("THEME_EXAMPLES", "6"))
WHOLE = {
    "roads.rows",
    "roads.empty_columns",
    *(k for k in RANGES if k.startswith("roads.columns.")),
}
NOT_A_FONT = ROOT / "docs" / "images" / "classic-landscape.png"
BASES = {
    name: yaml.safe_load((themes_dir() / f"{name}.yaml").read_text(encoding="utf-8"))
    for name in available_themes()
}
TEXT_KEYS = (
    "style.header_title",
    "labels.en.banker",
    "labels.en.cut_card_out",
    "labels.en.disclaimer",
    "labels.en.controller_offline",
    "labels.en.table",
    "labels.zh.banker",
    "labels.zh.shuffle_note",
    "roads.letters.banker",
    "roads.letters.tie",
)
ODD = "\x00\x1b\n\u200b\u200e\u202e\u0301\ufeff\ud800\udfff\U0001f48e莊閒和€♠—ÿ\u00a0 "

pytestmark = pytest.mark.usefixtures("pygame_display")


def table() -> TableState:
    dealt = dealt_table(seed=1, coups=75)
    dealt.mark_cut_card()
    return dealt


def assert_draws_everywhere(theme: Theme, caplog: pytest.LogCaptureFixture) -> None:
    """The kiosk's frame at every size: no exception, no panel logging a failure."""
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        for size in SIZES:
            state = table()
            use_theme_rows(state, theme)
            frame = Renderer(theme, size).render(state, FeedStatus.LIVE, clock="21:45")
            assert frame.get_size() == size
            state.set_shuffling(True)
            Renderer(theme, size).render(state, FeedStatus.CONTROLLER_OFFLINE, clock="08:00")
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


def mutated(base: str, changes: dict[str, Any]) -> Path:
    data = copy.deepcopy(BASES[base])
    for dotted, value in changes.items():
        *parents, last = dotted.split(".")
        node = data
        for part in parents:
            child = node.get(part)
            node[part] = child = child if isinstance(child, dict) else {}
            node = child
        node[last] = value
    folder = Path(tempfile.mkdtemp(prefix="hostile-theme-"))
    path = folder / f"{base}-mutated.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=False), encoding="ascii")
    return path


def number_values(key: str) -> st.SearchStrategy[Any]:
    low, high = RANGES[key]
    edges = [low, high, math.inf, -math.inf, math.nan, 1e9, -5, 0]
    if key in WHOLE:
        return st.one_of(st.integers(int(low) - 2, int(high) + 2), st.sampled_from(edges))
    nudged = [low - 1e-9, high + 1e-9, high * 1.5, low / 2]
    return st.one_of(st.floats(low, high), st.sampled_from(edges + nudged))


NUMBERS = st.sampled_from(sorted(RANGES)).flatmap(
    lambda key: st.tuples(st.just(key), number_values(key))
)
TEXTS = st.tuples(
    st.sampled_from(TEXT_KEYS),
    st.one_of(
        st.text(st.sampled_from(ODD), max_size=6),
        st.text(st.characters(exclude_categories=()), max_size=12),
        st.text(st.sampled_from("BP莊Tie ·"), min_size=150, max_size=230),
    ),
)
FONTS = st.tuples(
    st.sampled_from(["fonts.regular", "fonts.bold"]),
    st.sampled_from(["Nope.ttf", str(NOT_A_FONT), "NotoSansCJK-Bold-subset.otf", ""]),
)
COLORS = st.tuples(
    st.sampled_from(["colors.banker", "colors.panel", "colors.header_text", "colors.accent"]),
    st.one_of(
        st.lists(st.integers(-1, 256), min_size=3, max_size=3),
        st.sampled_from(["#fff", "#000000", "#12345", "red", "#ggg"]),
    ),
)
LANGUAGES = st.tuples(
    st.just("languages"),
    st.sampled_from([["en"], ["en", "zh"], ["zh", "en"], ["en", "zh", "en"], [], ["en"] * 4]),
)
MUTATIONS = st.dictionaries(st.nothing(), st.nothing()) | st.lists(
    st.one_of(NUMBERS, TEXTS, FONTS, COLORS, LANGUAGES), min_size=1, max_size=4
).map(dict)


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(base=st.sampled_from(sorted(BASES)), changes=MUTATIONS)
def test_a_theme_check_theme_accepts_draws_at_every_size(base, changes, caplog):
    path = mutated(base, changes)
    try:
        theme = load_theme(path)
    except ThemeError as error:
        assert error.errors
        for line in error.errors:
            assert line.startswith(f"{path}: ") and "\n" not in line and len(line) < 400
        return
    assert_draws_everywhere(theme, caplog)


@pytest.mark.parametrize("end", [0, 1])
def test_every_number_at_the_same_bound_at_once_draws_at_every_size(end, caplog):
    changes: dict[str, Any] = {key: bounds[end] for key, bounds in RANGES.items()}
    changes = {k: int(v) if k in WHOLE else float(v) for k, v in changes.items()}
    changes["style.header_title"] = "莊" * 200
    changes["languages"] = ["en", "zh", "en"] if "zh" in BASES["midnight"]["labels"] else ["en"]
    assert_draws_everywhere(load_theme(mutated("midnight", changes)), caplog)
