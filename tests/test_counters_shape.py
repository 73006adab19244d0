"""The statistics panel keeps its shape through a shoe, and its three tiles speak alike.

Measured on what the painter logs (every text with its place and size), in every
shipped theme at four sizes: the labelled counts stay where they were when a
streak, a count or the games reach two digits (midnight reflowed from two columns
to one when the longest streak reached 10), and the Banker, Player and Tie tiles
name their sides at one font size (midnight drew "Banker 莊" smaller than "Tie 和").
"""

from __future__ import annotations

import pytest

from scoreboard.cli.commands.screenshot import dealt_table
from scoreboard.game.notation import result_games
from scoreboard.screen.board._counters_panel import draw_counters
from scoreboard.screen.board.panels import DrawnText
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.loading import available_themes, load_theme
from scoreboard.table.state import TableState

SIZES = [(1920, 1080), (1280, 720), (3840, 2160), (1080, 1920)]
IDS = [f"{w}x{h}" for w, h in SIZES]
LABELS = ("banker_pair", "player_pair", "natural", "games", "streak", "longest")

pytestmark = pytest.mark.usefixtures("pygame_display")


def table_of(results: str) -> TableState:
    table = TableState(table_id="T1")
    table.new_shoe("S1")
    for game in result_games(results):
        table.add_game(game)
    return table


def counters_drawn(renderer: Renderer, table: TableState) -> list[DrawnText]:
    painter, surface = renderer.panels, renderer.static.copy()
    painter.log = drawn = []
    try:
        draw_counters(painter, surface, table)
    finally:
        painter.log = None
    return drawn


def label_places(renderer: Renderer, table: TableState) -> dict[str, tuple[int, int, int]]:
    """Each labelled count's label: (left, vertical middle, font size), by its words."""
    words = {renderer.panels.words(key): key for key in LABELS}
    found = {}
    for text in counters_drawn(renderer, table):
        for shown, key in words.items():
            if text.text and shown.startswith(text.text.rstrip("…")):
                found[key] = (text.rect.left, text.rect.centery, text.size)
    return found


@pytest.mark.parametrize("name", available_themes())
@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_the_counts_stay_in_place_when_numbers_grow_to_two_digits(name, size):
    renderer = Renderer(load_theme(name), size)
    early = label_places(renderer, table_of("BBBBBBBBBPPT"))  # streaks of 9 and 2
    late = label_places(renderer, table_of("BBBBBBBBBBBPPT"))  # a streak of 11
    whole = label_places(renderer, dealt_table(1, 80))  # a whole shoe's counts
    assert set(early) == set(LABELS), early
    assert early == late == whole


@pytest.mark.parametrize("name", available_themes())
@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_the_three_tiles_name_their_sides_at_one_size(name, size):
    renderer = Renderer(load_theme(name), size)
    names = {renderer.panels.words(key) for key in ("banker", "player", "tie")}
    names |= {renderer.panels.names(key)[0] for key in ("banker", "player", "tie")}
    drawn = [t for t in counters_drawn(renderer, table_of("BPT")) if t.text in names]
    drawn += [t for t in renderer_static_names(renderer) if t.text in names]
    assert len({t.size for t in drawn}) == 1, [(t.text, t.size) for t in drawn]
    assert len(drawn) >= 3


def renderer_static_names(renderer: Renderer) -> list[DrawnText]:
    """The tiles' names are drawn into the static layer: log that drawing again."""
    from scoreboard.screen.board._counters_panel import draw_tile_faces

    painter = renderer.panels
    painter.log = drawn = []
    try:
        draw_tile_faces(painter, renderer.static.copy())
    finally:
        painter.log = None
    return drawn


@pytest.mark.parametrize("name", available_themes())
def test_an_empty_board_says_waiting_once_and_shows_no_share_of_nothing(name):
    from scoreboard.table.applied import FeedStatus

    renderer = Renderer(load_theme(name), (1920, 1080))
    table = TableState(table_id="T1")
    table.new_shoe("S1")
    renderer.panels.log = drawn = []
    try:
        renderer.render(table, FeedStatus.LIVE, clock="12:00")
    finally:
        renderer.panels.log = None
    texts = [t.text for t in drawn]
    waiting = renderer.panels.words("waiting", "  ·  ")
    assert texts.count(waiting) == 1, texts
    assert not [t for t in texts if t.endswith("%")], texts
