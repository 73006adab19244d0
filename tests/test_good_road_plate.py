"""The good-road plate on a table's own display, rendered for real (SDL's dummy driver).

Each board is drawn twice, with the plate and without: the pixels that differ
are the plate's, so where it sits (the big road's title row, right of the
caption, clear of every road cell and of the "final hand" plate) is read off
the frame, not off the renderer's insides.
"""

from __future__ import annotations

import pygame
import pytest
from pixels import changed_area
from shipped_themes import shipped_theme

from scoreboard.game.notation import result_games
from scoreboard.game.rules import Game
from scoreboard.roads.good_roads import GoodRoadRules
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.board.text import CAP_FLOORS
from scoreboard.screen.theme.loading import available_themes
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState

SIZES = [(1920, 1080), (1080, 1920), (1280, 720), (720, 1280), (3840, 2160)]
THEMES = available_themes()

pytestmark = pytest.mark.usefixtures("pygame_display")


def table_of(results: str, *, cut_card: bool = False) -> TableState:
    table = TableState(table_id="T1")
    table.new_shoe("S1")
    for game in result_games(results):
        table.add_game(game)
    if cut_card:
        table.mark_cut_card()
    return table


def frame(renderer: Renderer, table: TableState) -> pygame.Surface:
    return renderer.render(table, FeedStatus.LIVE, clock="21:45").copy()


def plate_words(renderer: Renderer, table: TableState) -> list[str]:
    """The texts the plate drew on a full frame (the painter's log, as the size tests read it)."""
    renderer.panels.log = []
    try:
        renderer.render(table, FeedStatus.LIVE, clock="21:45")
        logged = list(renderer.panels.log)
    finally:
        renderer.panels.log = None
    title = renderer.layout.panels["big_road"].title
    return [t.text for t in logged if title.contains(t.rect) and "×" in t.text]


@pytest.mark.parametrize("theme_name", THEMES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("cut_card", [False, True], ids=["", "final-hand"])
def test_the_plate_sits_in_the_big_roads_title_row_and_covers_nothing(theme_name, size, cut_card):
    theme = shipped_theme(theme_name)
    table = table_of("PBPBBBBBBBB", cut_card=cut_card)
    plain = frame(Renderer(theme, size, motion=False), table)
    shown = Renderer(theme, size, motion=False, good_roads=GoodRoadRules())
    with_plate = frame(shown, table)
    plate = changed_area(plain, with_plate)
    assert plate is not None, "the plate is not on the frame"
    box = shown.layout.panels["big_road"]
    assert box.title is not None and box.title.contains(plate)
    assert not plate.colliderect(shown.layout.grids["big_road"].rect)
    # Nothing was under it: on the frame without the plate its rectangle is bare panel.
    under = pygame.image.tobytes(plain.subsurface(plate), "RGB")
    colors = {tuple(under[i : i + 3]) for i in range(0, len(under), 3)}  # read on failure only
    bare = bytes(theme.colors.panel) * (plate.w * plate.h)
    assert under == bare, f"the plate covers something: {sorted(colors)[:4]}"
    words = plate_words(shown, table)
    assert words and words[0].startswith("Long Banker") and "×8" in words[0]


@pytest.mark.parametrize("theme_name", THEMES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_plate_keeps_the_label_floor_of_the_text_size_rule(theme_name, size):
    renderer = Renderer(shipped_theme(theme_name), size, good_roads=GoodRoadRules())
    renderer.panels.log = []
    renderer.render(table_of("BBPPBBPPBBPPBB"), FeedStatus.LIVE, clock="21:45")
    title = renderer.layout.panels["big_road"].title
    plate = [t for t in renderer.panels.log if title.contains(t.rect) and "×" in t.text]
    assert plate, "no plate drawn"
    floor = CAP_FLOORS["label"] * min(size)
    for text in plate:
        assert renderer.text.cap_height(text.size, bold=text.bold) >= floor - 0.5, text


def test_the_names_are_in_the_themes_languages():
    table = table_of("BBBBBBB")
    english = plate_words(
        Renderer(shipped_theme("classic"), (1920, 1080), good_roads=GoodRoadRules()), table
    )
    both = plate_words(
        Renderer(shipped_theme("midnight"), (1920, 1080), good_roads=GoodRoadRules()), table
    )
    assert english == ["Long Banker ×7"]
    assert both == ["Long Banker 長莊 ×7"]


@pytest.mark.parametrize("results", ["", "BP", "BBPTP", "BBBBB"])
def test_no_good_road_no_plate(results):
    theme, table = shipped_theme("midnight"), table_of(results)
    plain = frame(Renderer(theme, (1920, 1080)), table)
    on = frame(Renderer(theme, (1920, 1080), good_roads=GoodRoadRules()), table)
    assert changed_area(plain, on) is None


def test_off_by_default_even_when_a_good_road_holds():
    theme, table = shipped_theme("classic"), table_of("BBBBBBBBB")
    off = Renderer(theme, (1920, 1080))
    assert off.good_road_plate is None
    assert plate_words(off, table) == []


def test_the_thresholds_are_the_configs():
    theme, table = shipped_theme("classic"), table_of("BBBBBBB")
    strict = Renderer(theme, (1920, 1080), good_roads=GoodRoadRules(streak=8))
    assert plate_words(strict, table) == []


def test_it_follows_coups_voids_corrections_and_a_new_shoe_drawing_only_its_rectangle():
    """A hand-worked shoe: B x5, then a sixth B makes "Long Banker ×6"; a seventh "×7";
    voiding games 7 and 6 clears it; correcting game 5 to Player keeps it clear; a
    new shoe starts bare.  After each step the frame updated in place equals a
    fresh full frame of the same table (the big road's panel: a void's notice is up
    elsewhere for a while)."""
    theme = shipped_theme("classic")
    renderer = Renderer(theme, (1920, 1080), motion=False, good_roads=GoodRoadRules())
    table = table_of("BBBBB")
    renderer.render(table, FeedStatus.LIVE, clock="21:45")
    title = renderer.layout.panels["big_road"].title

    def step(change) -> tuple[str, list[pygame.Rect]]:
        change()
        dirty = renderer.update(table, FeedStatus.LIVE, clock="21:45")
        fresh = Renderer(theme, (1920, 1080), motion=False, good_roads=GoodRoadRules())
        panel = renderer.layout.panels["big_road"].rect
        now = renderer.frame.subsurface(panel)
        assert changed_area(now, frame(fresh, table).subsurface(panel)) is None
        return renderer.good_road_plate.text, [r for r in dirty if r.colliderect(title)]

    banker = result_games("B")[0].coup
    add = lambda: table.add_game(Game(len(table.games) + 1, banker))  # noqa: E731
    text, touched = step(add)
    assert text == "Long Banker ×6" and touched
    assert all(title.contains(r) for r in touched)
    assert step(add)[0] == "Long Banker ×7"
    assert step(lambda: table.void(7))[0] == "Long Banker ×6"
    assert step(lambda: table.void(6))[0] == ""
    player = result_games("P")[0].coup
    assert step(lambda: table.correct(Game(5, player)))[0] == ""
    for _ in range(6):
        step(lambda: table.add_game(Game(table.last_number + 1, player)))
    assert renderer.good_road_plate.text == "Long Player ×7"  # game 5 and six more
    assert step(lambda: table.new_shoe("S2"))[0] == ""


def test_a_coup_that_changes_no_good_road_leaves_the_title_row_alone():
    renderer = Renderer(
        shipped_theme("classic"), (1920, 1080), motion=False, good_roads=GoodRoadRules()
    )
    table = table_of("BPBPB")  # a single jump of 5 columns: the plate is up
    renderer.render(table, FeedStatus.LIVE, clock="21:45")
    title = renderer.layout.panels["big_road"].title
    table.add_game(Game(6, result_games("T")[0].coup))  # a tie: no new column, no pattern
    dirty = renderer.update(table, FeedStatus.LIVE, clock="21:45")
    assert dirty and not [r for r in dirty if r.colliderect(title)]


def test_the_plate_comes_back_at_the_burn_that_ends_a_shuffle():
    """The plate is bare while the table shuffles; the burn ends the shuffle, and the
    plate must show the roads again then, not only at the next coup."""
    renderer = Renderer(
        shipped_theme("classic"), (1920, 1080), motion=False, good_roads=GoodRoadRules()
    )
    table = table_of("BBBBBB")
    renderer.render(table, FeedStatus.LIVE, clock="21:45")
    assert renderer.good_road_plate.text == "Long Banker ×6"
    table.set_shuffling(True)
    renderer.update(table, FeedStatus.LIVE, clock="21:45")
    assert renderer.good_road_plate.text == ""
    table.burn(())
    renderer.update(table, FeedStatus.LIVE, clock="21:45")
    assert renderer.good_road_plate.text == "Long Banker ×6"
