"""The cut card's "final hand" mark: shown only while the cut card is out, nothing else moves."""

from __future__ import annotations

import pygame
import pytest
from pixels import changed_area
from shipped_themes import shipped_theme

from scoreboard.cli import main
from scoreboard.cli.commands.screenshot import dealt_table
from scoreboard.feeds.simulated import SimulatedFeed
from scoreboard.game.shoe import Dealer
from scoreboard.screen.board.panels import DrawnText
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.loading import available_themes, load_theme, themes_dir
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState

SIZES = [(1280, 720), (1920, 1080), (3840, 2160), (1080, 1920), (720, 1280)]

pytestmark = pytest.mark.usefixtures("pygame_display")


def table_after(coups: int = 40, *, cut_card: bool) -> TableState:
    table = dealt_table(1, coups)
    if cut_card:
        table.mark_cut_card()
    return table


def frame(renderer: Renderer, table: TableState) -> pygame.Surface:
    return renderer.render(table, FeedStatus.DEMO, clock="21:45").copy()


def spy_on_text(renderer: Renderer) -> list[DrawnText]:
    """Every text the renderer's panels draw from now on (the painter's documented log)."""
    drawn: list[DrawnText] = []
    renderer.panels.log = drawn
    return drawn


@pytest.mark.parametrize("name", available_themes())
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_mark_appears_only_with_the_cut_card_out_and_only_in_the_big_roads_title(name, size):
    renderer = Renderer(shipped_theme(name), size)
    without = frame(renderer, table_after(cut_card=False))
    seen = spy_on_text(renderer)
    with_mark = frame(renderer, table_after(cut_card=True))
    area = changed_area(without, with_mark)
    title = renderer.layout.panels["big_road"].title
    assert area is not None, "the cut card changed nothing on screen"
    assert title.contains(area), f"the mark spilled out of the big road's title: {area} {title}"
    assert area.left >= title.centerx, "the mark must leave the title's words clear"
    assert area.height >= title.height // 2, "the plate is too small to read"
    label = renderer.panels.words("cut_card_out", "  ·  ")
    assert label in [text.text for text in seen]


@pytest.mark.parametrize("name", available_themes())
def test_the_plate_is_in_the_themes_accent_colour(name):
    theme = shipped_theme(name)
    renderer = Renderer(theme, (1920, 1080))
    without = frame(renderer, table_after(cut_card=False))
    with_mark = frame(renderer, table_after(cut_card=True))
    area = changed_area(without, with_mark)
    assert area is not None
    inside = [with_mark.get_at((x, area.centery))[:3] for x in range(area.left, area.right)]
    accent = sum(1 for color in inside if color == theme.colors.accent)
    assert accent > len(inside) // 4


def test_the_shuffle_screen_hides_the_mark():
    renderer = Renderer(shipped_theme("midnight"), (1920, 1080))
    plain, marked = table_after(cut_card=False), table_after(cut_card=True)
    plain.set_shuffling(True)
    marked.set_shuffling(True)
    assert changed_area(frame(renderer, plain), frame(renderer, marked)) is None


def test_a_new_shoe_takes_the_mark_away():
    renderer = Renderer(shipped_theme("classic"), (1280, 720))
    empty = TableState(table_id="T1")
    empty.new_shoe("first")
    empty.new_shoe("next")  # the header shows shoe 2 on both
    table = table_after(cut_card=True)
    table.new_shoe("next")
    assert not table.cut_card_out
    assert changed_area(frame(renderer, empty), frame(renderer, table)) is None


def test_the_incremental_update_draws_and_clears_the_mark_like_a_full_render():
    theme = shipped_theme("midnight")
    live = Renderer(theme, (1920, 1080))
    table = table_after(cut_card=False)
    live.update(table, FeedStatus.DEMO, clock="21:45")
    table.mark_cut_card()
    dirty = live.update(table, FeedStatus.DEMO, clock="21:45")
    title = live.layout.panels["big_road"].title
    assert any(rect.contains(title) for rect in dirty)
    full = Renderer(theme, (1920, 1080))
    assert changed_area(live.frame, frame(full, table)) is None
    table.new_shoe("next")
    live.update(table, FeedStatus.DEMO, clock="21:45")
    assert changed_area(live.frame, frame(full, table)) is None


@pytest.mark.parametrize("name", available_themes())
def test_every_shipped_theme_has_the_label_and_passes_check_theme(name, capsys):
    path = themes_dir() / f"{name}.yaml"
    assert main(["check-theme", str(path)]) == 0
    assert "OK" in capsys.readouterr().out
    theme = shipped_theme(name)
    assert all(theme.label("cut_card_out"))
    if "zh" in theme.languages:
        assert "最後一局" in theme.label("cut_card_out")


def test_a_theme_without_the_label_still_validates_with_the_english_default(tmp_path):
    text = (themes_dir() / "midnight.yaml").read_text(encoding="utf-8")
    older = "\n".join(line for line in text.splitlines() if "cut_card_out" not in line)
    path = tmp_path / "older.yaml"
    path.write_text(older.replace("labels:\n  en:\n", "labels:\n"), encoding="utf-8")
    assert main(["check-theme", str(path)]) == 0
    assert load_theme(path).label("cut_card_out")[0] == "FINAL HAND"


def test_the_demo_feed_shows_the_mark_for_a_whole_pace_before_the_last_coup():
    feed = SimulatedFeed(Dealer(decks=1, seed=5), pace=1.0)
    table = TableState(table_id="T1")
    now = 0.0
    while not table.cut_card_out:
        feed.poll(table, now)
        now += 0.25
        assert now < 200, "the cut card never came out"
    marked_at = table.last_number
    feed.poll(table, now + 0.5)
    assert table.cut_card_out and table.last_number == marked_at, "the last coup came at once"
    feed.poll(table, now + 1.0)
    assert table.last_number == marked_at + 1
    feed.poll(table, now + 2.0)
    assert table.shuffling


def test_screenshot_cut_card_flag_shows_the_mark(tmp_path):
    common = ["--size", "1280x720", "--seed", "1", "--coups", "30", "--clock", "12:00"]
    plain, marked = tmp_path / "plain.png", tmp_path / "marked.png"
    assert main(["screenshot", "-o", str(plain), *common]) == 0
    assert main(["screenshot", "-o", str(marked), "--cut-card", *common]) == 0
    area = changed_area(pygame.image.load(str(plain)), pygame.image.load(str(marked)))
    layout = Renderer(shipped_theme("classic"), (1280, 720)).layout
    assert area is not None and layout.panels["big_road"].title.contains(area)
