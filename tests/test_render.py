"""Rendered frames checked pixel by pixel at positions computed from the layout."""

from __future__ import annotations

import pygame
import pytest

from scoreboard.game.cards import parse_cards
from scoreboard.game.notation import result_games
from scoreboard.game.rules import Coup, Game, Winner, deal_coup, result_coup
from scoreboard.screen.board._overlay import draw_shuffle_screen
from scoreboard.screen.board._scroll import own_start
from scoreboard.screen.board.panels import DrawnText
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.loading import load_theme
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState

SIZE = (1280, 720)

pytestmark = pytest.mark.usefixtures("pygame_display")


def table_of(results: str) -> TableState:
    table = TableState(table_id="T1")
    table.new_shoe("test")
    for game in result_games(results):
        table.add_game(game)
    return table


def pixel(surface: pygame.Surface, point: tuple[float, float]) -> tuple[int, int, int]:
    return tuple(surface.get_at((round(point[0]), round(point[1]))))[:3]


def close(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 40) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def ring_point(cell: pygame.Rect) -> tuple[float, float]:
    """A point on a big-road ring: left of centre, between its inner and outer edge."""
    return (cell.centerx - 0.365 * min(cell.size), cell.centery)


def test_the_first_bead_has_the_banker_colour_after_a_banker_win(classic):
    renderer = Renderer(classic, SIZE)
    frame = renderer.render(table_of("B"), FeedStatus.DEMO)
    cell = renderer.layout.grids["bead_plate"].cell(0, 0)
    beside_letter = (cell.centerx - 0.34 * min(cell.size), cell.centery)
    assert close(pixel(frame, beside_letter), classic.colors.banker)
    second = renderer.layout.grids["bead_plate"].cell(0, 1)
    assert close(pixel(frame, second.center), classic.colors.panel, 8)


def test_a_tie_draws_its_slash_on_the_cell_of_the_result_before_it(classic):
    renderer = Renderer(classic, SIZE)
    frame = renderer.render(table_of("BPT"), FeedStatus.DEMO)
    grid = renderer.layout.grids["big_road"]
    player_cell, banker_cell = grid.cell(1, 0), grid.cell(0, 0)
    assert close(pixel(frame, player_cell.center), classic.colors.tie)
    assert close(pixel(frame, ring_point(player_cell)), classic.colors.player)
    assert close(pixel(frame, banker_cell.center), classic.colors.panel, 8)
    assert close(pixel(frame, ring_point(banker_cell)), classic.colors.banker)


def test_only_ties_show_on_the_first_big_road_cell_without_a_ring(classic):
    renderer = Renderer(classic, SIZE)
    frame = renderer.render(table_of("TTT"), FeedStatus.DEMO)
    cell = renderer.layout.grids["big_road"].cell(0, 0)
    assert close(pixel(frame, ring_point(cell)), classic.colors.panel, 8)
    # the slash's lower end (its upper end runs into the tie count's badge)
    slash_end = (cell.centerx - 0.25 * cell.width, cell.centery + 0.25 * cell.height)
    assert close(pixel(frame, slash_end), classic.colors.tie, 60)


def test_derived_entries_appear_where_roads_md_puts_them(classic):
    """H1 BBBPPBPPPP: small road b r b r along row 0; cockroach pig r r then b."""
    renderer = Renderer(classic, SIZE)
    frame = renderer.render(table_of("BBBPPBPPPP"), FeedStatus.DEMO)
    colors = classic.colors
    small = renderer.layout.grids["small_road"]
    expected = [colors.player, colors.banker, colors.player, colors.banker, colors.panel]
    for col, color in enumerate(expected):
        assert close(pixel(frame, small.cell(col, 0).center), color), col
    assert close(pixel(frame, small.cell(0, 1).center), colors.panel, 8)
    pig = renderer.layout.grids["cockroach_pig"]
    for (col, row), color in {
        (0, 0): colors.banker,
        (0, 1): colors.banker,
        (1, 0): colors.player,
    }.items():
        assert close(pixel(frame, pig.cell(col, row).center), color, 60), (col, row)
    eye = renderer.layout.grids["big_eye_boy"]
    cell = eye.cell(1, 2)  # r b b b r r: the blue run fills column 1 down to row 2
    on_ring = (cell.centerx - 0.33 * min(cell.size), cell.centery)
    assert close(pixel(frame, on_ring), colors.player, 60)


def test_after_sixty_columns_the_newest_big_road_cell_is_still_on_screen(classic):
    renderer = Renderer(classic, SIZE, motion=False)
    table = table_of("BP" * 30 + "B")  # 61 columns of one cell each
    frame = renderer.render(table, FeedStatus.DEMO)
    view, window = renderer.views["big_road"], renderer.windows["big_road"]
    assert view.first_col == window.start > 0  # scrolled (tests/test_render_dirty.py: how)
    newest = window.cell(60, 0)
    assert newest is not None and view.newest == newest
    assert newest.right <= window.grid.rect.right
    assert close(pixel(frame, ring_point(newest)), classic.colors.banker)
    before = window.cell(59, 0)
    assert before is not None
    assert close(pixel(frame, ring_point(before)), classic.colors.player)
    after = window.cell(61, 0)
    if after is not None:
        assert close(pixel(frame, ring_point(after)), classic.colors.panel, 8)


def test_scrolling_keeps_whole_columns():
    # 20 columns, 1 for the marker once scrolled, 2 left empty when it moves
    assert own_start(0, 20, 1, 2) == 0
    assert own_start(20, 20, 1, 2) == 0  # it fits: no scroll
    assert own_start(21, 20, 1, 2) == 4  # 4..22 shown: the newest (20) and 2 empty
    assert own_start(23, 20, 1, 2) == 4  # steps: no shift on every column
    assert own_start(24, 20, 1, 2) == 7
    assert own_start(5, 1, 2, 2) == 4  # one column: the newest only


def test_blink_touches_only_the_newest_cells(classic):
    renderer = Renderer(classic, SIZE, motion=False)  # motion draws the newest in first
    table = table_of("BBP")
    renderer.render(table, FeedStatus.DEMO, now=0.0)
    table.add_game(result_games("BBPP")[-1])
    dirty = renderer.update(table, FeedStatus.DEMO, now=10.0)
    assert dirty  # the road panels and counters changed
    hidden = renderer.blink(10.6)
    bead, big = renderer.views["bead_plate"].newest, renderer.views["big_road"].newest
    assert bead in hidden and big in hidden
    assert all(rect.width < renderer.layout.unit // 5 for rect in hidden)
    assert close(pixel(renderer.frame, ring_point(big)), classic.colors.panel, 8)
    assert renderer.blink(10.7) == []  # same phase: nothing to do
    shown = renderer.blink(11.1)
    assert big in shown
    assert close(pixel(renderer.frame, ring_point(big)), classic.colors.player)
    renderer.blink(10.0 + classic.roads.blink_seconds + 0.1)
    assert renderer.next_blink(20.0) is None
    assert close(pixel(renderer.frame, ring_point(big)), classic.colors.player)


def test_an_unchanged_table_redraws_nothing_but_the_clock(classic):
    renderer = Renderer(classic, SIZE)
    table = table_of("BPT")
    renderer.render(table, FeedStatus.DEMO, clock="10:00")
    assert renderer.update(table, FeedStatus.DEMO, clock="10:00") == []
    dirty = renderer.update(table, FeedStatus.DEMO, clock="10:01")
    header = renderer.layout.panels["header"].rect
    assert dirty and all(header.contains(rect) for rect in dirty)
    assert sum(rect.w * rect.h for rect in dirty) < header.w * header.h / 4  # the clock's part


@pytest.mark.parametrize("name", ["classic", "midnight", "contrast"])
@pytest.mark.parametrize("size", [(3840, 2160), (1080, 1920)])
def test_every_theme_renders_a_long_shoe_at_any_size(name, size):
    theme = load_theme(name)
    renderer = Renderer(theme, size)
    table = table_of("BBBBBBBBPPPPPPPBBBBBBTPTPTBPbBPp" * 3)
    frame = renderer.render(table, FeedStatus.LIVE, clock="23:59")
    assert frame.get_size() == size
    header = renderer.layout.panels["header"].rect
    assert close(pixel(frame, (header.x + 2, header.centery)), theme.colors.header_background, 8)


def test_the_shuffle_screen_shows_over_the_roads(classic):
    """The whole board under the header is the shuffle screen, the roads and counters included."""
    renderer = Renderer(classic, SIZE)
    table = table_of("BPBP")
    table.set_shuffling(True)
    frame = renderer.render(table, FeedStatus.DEMO).copy()
    expected = renderer.frame.copy()
    covered = draw_shuffle_screen(renderer.panels, expected, table)
    header = renderer.layout.panels["header"].rect
    assert covered.top >= header.bottom and covered.height > SIZE[1] * 0.8
    for panel in ("big_road", "bead_plate", "counters", "limits"):
        assert covered.contains(renderer.layout.panels[panel].rect), panel
    sub = frame.subsurface(covered)
    assert pygame.image.tobytes(sub, "RGB") == pygame.image.tobytes(
        expected.subsurface(covered), "RGB"
    )


# -- what the labelled panels drew -------------------------------------------------------------
def drawn_on_frame(renderer: Renderer, panel: str, drawn: DrawnText) -> bool:
    """The frame at ``drawn.rect`` is exactly what the panel's view says was drawn there.

    Every text of the view is drawn again, in order, over the static layer (a
    caption's line box may reach into the value below it), and the pixels of
    ``drawn``'s rectangle are compared with the frame's.  A view that names the
    right text while the frame shows another, or nothing, fails here.
    """
    entries = renderer.panel_views[panel].entries
    texts = [text for entry in entries for text in (entry.label, entry.value)]
    assert drawn in texts
    expected, without = renderer.static.copy(), renderer.static.copy()
    for text in texts:
        glyphs = renderer.text.render(text.text, text.size, text.color, bold=text.bold)
        expected.blit(glyphs, text.rect)
        if text != drawn:
            without.blit(glyphs, text.rect)
    region = [pygame.image.tobytes(s.subsurface(drawn.rect), "RGB") for s in (expected, without)]
    assert region[0] != region[1]  # the text is visible on its own
    return pygame.image.tobytes(renderer.frame.subsurface(drawn.rect), "RGB") == region[0]


def dealt(*cards: str) -> Coup:
    """A coup with cards, in deal order (P1 B1 P2 B2, then the thirds)."""
    return deal_coup(parse_cards(list(cards)))


DRAGON_7 = ("AS", "AH", "AD", "AC", "AS", "5H")  # banker A A 5 = 7 on three cards beats 3
PANDA_8 = ("AS", "AH", "AD", "AC", "6S", "AH")  # player A A 6 = 8 on three cards beats 3


def test_variant_counters_show_on_an_ez_table(classic):
    from scoreboard.game.variants import VARIANTS

    assert dealt(*DRAGON_7).dragon7 and dealt(*PANDA_8).panda8
    table = TableState(variant=VARIANTS["ez"])
    table.new_shoe("ez")
    coups = [dealt(*DRAGON_7), result_coup(Winner.PLAYER), dealt(*DRAGON_7), dealt(*PANDA_8)]
    for number, coup in enumerate(coups, start=1):
        table.add_game(Game(number, coup))
    renderer = Renderer(classic, SIZE)
    renderer.render(table, FeedStatus.DEMO)
    view = renderer.panel_views["counters"]
    dragon, panda = view.value("dragon7"), view.value("panda8")
    assert (dragon.text, panda.text) == ("2", "1")
    assert drawn_on_frame(renderer, "counters", dragon)
    assert drawn_on_frame(renderer, "counters", panda)
    assert view.value("games").text == "4"
    plain = Renderer(classic, SIZE)
    plain.render(table_of("BPBPT"), FeedStatus.DEMO)
    labels = [label for label, _ in plain.panel_views["counters"].pairs()]
    assert "Dragon 7" not in labels and "Panda 8" not in labels
    assert "Games" in labels


def test_naturals_can_be_split_by_side(classic):
    import dataclasses

    from scoreboard.game.notation import parse_results

    theme = dataclasses.replace(
        classic, style=dataclasses.replace(classic.style, split_naturals=True)
    )
    table = TableState()
    table.new_shoe("naturals")
    for number, coup in enumerate(parse_results("Bn Pn Pn P"), start=1):
        table.add_game(Game(number, coup))
    renderer = Renderer(theme, SIZE)
    renderer.render(table, FeedStatus.DEMO)
    naturals = renderer.panel_views["counters"].value("natural")
    assert naturals.text == "B 1 · P 2"
    assert drawn_on_frame(renderer, "counters", naturals)
    together = Renderer(classic, SIZE)  # the theme's default: one count for both sides
    together.render(table, FeedStatus.DEMO)
    naturals = together.panel_views["counters"].value("natural")
    assert naturals.text == "3"
    assert drawn_on_frame(together, "counters", naturals)


def test_the_counters_panel_shows_the_shoe_counts(classic):
    from scoreboard.game.notation import parse_results

    table = TableState()
    table.new_shoe("counts")
    for number, coup in enumerate(parse_results("Bb B Pp T Bn P"), start=1):
        table.add_game(Game(number, coup))
    renderer = Renderer(classic, SIZE)
    renderer.render(table, FeedStatus.DEMO)
    view = renderer.panel_views["counters"]
    assert view.pairs() == [
        ("Banker", "3"),
        ("Player", "2"),
        ("Tie", "1"),
        ("B Pair", "1"),
        ("P Pair", "1"),
        ("Natural", "1"),
        ("Games", "6"),
        ("Streak", "P × 1"),
        ("Longest", "B 2 · P 1"),
    ]
    for entry in view.entries[3:]:  # the rows under the tiles sit on the panel itself
        assert drawn_on_frame(renderer, "counters", entry.label)
        assert drawn_on_frame(renderer, "counters", entry.value)


@pytest.mark.parametrize(("results", "game"), [("", "–"), ("B", "1"), ("BPT", "3")])
def test_the_header_names_the_last_game_and_an_empty_shoe_none(classic, results, game):
    """An empty shoe's header says "–", not "Game 1"; then the last game's number."""
    renderer = Renderer(classic, SIZE)
    renderer.render(table_of(results), FeedStatus.DEMO)
    view = renderer.panel_views["header"]
    assert view.pairs() == [("TABLE", "T1"), ("SHOE", "1"), ("GAME", game)]
    assert drawn_on_frame(renderer, "header", view.value("game"))
