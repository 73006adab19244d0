"""A coup redraws the values that changed, not whole panels (issue 10: a frame costs what changed).

These tests bound the area an update touches, never its time: the speed itself is
measured in ``benchmarks/bench_frame.py``.  Each also checks that the frame after
the updates equals a full render pixel for pixel, so touching less never shows less.

The painter also keeps work per content: where ``PanelPainter.put`` places a
text, a panel's layout (``laid_out``) and the operations of a panel's parts
(``part``: an ask-road row, a hand's head, a counter row) per the values they
show.  The last tests check that a kept drawing is reused only for the same
values: through the painter's public calls, and through the renderer's pixels
compared with a fresh renderer's full render.
"""

from __future__ import annotations

import pygame
import pytest
from dealt import dealt_games, table_with
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoreboard.screen.board.canvas import Recorder, changed_areas, copy_area, draw_rect, replay
from scoreboard.screen.board.renderer import Renderer
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState

SIZE = (1920, 1080)
SMALL = (1280, 720)
RED, BLUE = (220, 20, 20), (20, 20, 220)

pytestmark = pytest.mark.usefixtures("pygame_display")


def covered(rects: list[pygame.Rect], size: tuple[int, int] = SIZE) -> int:
    """Pixels under ``rects``, overlaps counted once."""
    canvas = pygame.Surface(size)
    for rect in rects:
        canvas.fill((255, 255, 255), rect)
    return pygame.mask.from_threshold(canvas, (255, 255, 255), (1, 1, 1, 255)).count()


def same_frame(a: pygame.Surface, b: pygame.Surface) -> bool:
    return pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB")


def inside(rects: list[pygame.Rect], panel: pygame.Rect) -> list[pygame.Rect]:
    return [rect.clip(panel) for rect in rects if rect.colliderect(panel)]


@pytest.mark.parametrize("shoe", [40, 1000])
def test_a_coup_touches_the_changed_values_of_the_small_panels(classic, shoe):
    games = dealt_games(seed=3, coups=shoe + 1)
    live = Renderer(classic, SIZE, motion=False)
    table = table_with(games[:shoe])
    live.render(table, FeedStatus.DEMO, clock="21:45")
    table.add_game(games[shoe])
    dirty = live.update(table, FeedStatus.DEMO, clock="21:45")
    panels = live.layout.panels
    for name in ("header", "counters"):
        rect = panels[name].rect
        touched = covered(inside(dirty, rect))
        assert 0 < touched < 0.5 * rect.w * rect.h, name  # its numbers, not the panel
    assert covered(dirty) < 0.3 * SIZE[0] * SIZE[1]  # was 42 % when small panels went whole
    full = Renderer(classic, SIZE, motion=False)
    assert same_frame(live.frame, full.render(table, FeedStatus.DEMO, clock="21:45"))


def test_a_card_appearing_touches_only_the_last_hand_and_less_than_all_of_it(classic):
    games = dealt_games(seed=8, coups=31)
    live = Renderer(classic, SIZE)
    table = table_with(games[:30])
    live.render(table, FeedStatus.DEMO, now=0.0)
    table.add_game(games[30])
    live.update(table, FeedStatus.DEMO, now=100.0)
    hand = live.layout.panels["last_coup"].rect
    now, steps = 100.0, 0
    while (due := live.next_blink(now)) is not None and steps < 40:
        now = due
        dirty = live.blink(now)
        steps += 1
        in_hand = inside(dirty, hand)
        if in_hand:
            assert covered(in_hand) < 0.6 * hand.w * hand.h, steps  # one card and the totals
    assert steps >= 4  # the cards were dealt one by one
    settled = Renderer(classic, SIZE, motion=False)
    # The motion is over: the board equals a still render of the same state.
    assert same_frame(live.base, settled.render(table, FeedStatus.DEMO, now=now))


def test_a_clock_minute_touches_only_the_clock(classic):
    live = Renderer(classic, SIZE, motion=False)
    table = table_with(dealt_games(seed=1, coups=20))
    live.render(table, FeedStatus.DEMO, clock="09:59")
    dirty = live.update(table, FeedStatus.DEMO, clock="10:00")
    header = live.layout.panels["header"].rect
    assert dirty and all(header.contains(rect) for rect in dirty)
    assert covered(dirty) < 0.1 * header.w * header.h
    full = Renderer(classic, SIZE, motion=False)
    assert same_frame(live.frame, full.render(table, FeedStatus.DEMO, clock="10:00"))


# -- the recorder on its own: replaying only what changed equals drawing all of it ------------
CANVAS = (64, 48)
COLORS = st.sampled_from([(200, 30, 30), (30, 30, 200), (240, 240, 240), (10, 10, 10)])
RECTS = st.builds(
    pygame.Rect, st.integers(-8, 60), st.integers(-8, 44), st.integers(0, 40), st.integers(0, 30)
)
OP = st.tuples(st.booleans(), COLORS, RECTS, st.integers(0, 3), st.integers(0, 6))


def draw(surface: pygame.Surface, ops: list[tuple[bool, tuple, pygame.Rect, int, int]], sprites):
    for is_sprite, color, rect, width, radius in ops:
        if is_sprite:
            surface.blit(sprites[color], rect.topleft)
        else:
            draw_rect(surface, color, rect, width, border_radius=radius)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(OP, max_size=8), st.lists(OP, max_size=8), st.data())
def test_replaying_the_changed_areas_equals_drawing_everything(first, second, data):
    sprites = {}
    for color in [(200, 30, 30), (30, 30, 200), (240, 240, 240), (10, 10, 10)]:
        sprite = pygame.Surface((9, 7), pygame.SRCALPHA)
        pygame.draw.circle(sprite, (*color, 160), (4, 3), 3)
        sprites[color] = sprite
    keep = data.draw(st.integers(0, len(first)))
    second = first[:keep] + second  # a shared beginning, as a panel's redraw has
    static = pygame.Surface(CANVAS)
    static.fill((40, 90, 40))
    pygame.draw.line(static, (250, 250, 0), (0, 0), CANVAS, 3)
    before, after = Recorder(CANVAS), Recorder(CANVAS)
    draw(before, first, sprites)
    draw(after, second, sprites)
    frame = static.copy()
    for op in before.ops:
        op.run(frame)
    replay(frame, static, after.ops, changed_areas(before.ops, after.ops))
    expected = static.copy()
    draw(expected, second, sprites)
    assert same_frame(frame, expected)


# -- kept layouts and parts: reused for the same values only -----------------------------
def test_a_part_is_drawn_once_per_key_and_drawn_again_for_a_new_key(classic):
    painter = Renderer(classic, SMALL, motion=False).panels
    drawn: list[tuple[int, int, int]] = []

    def square(color):
        def draw(surface):
            drawn.append(color)
            return draw_rect(surface, color, pygame.Rect(4, 4, 10, 10))

        return draw

    first, again, other = Recorder(SMALL), Recorder(SMALL), Recorder(SMALL)
    assert painter.part(first, ("square", RED), square(RED)) == pygame.Rect(4, 4, 10, 10)
    painter.part(again, ("square", RED), square(RED))
    painter.part(other, ("square", BLUE), square(BLUE))
    assert drawn == [RED, BLUE]  # the same key replays; a new value draws
    assert again.ops == first.ops and len(first.ops) == 1
    assert other.ops != first.ops and other.ops[0].color == BLUE


def test_a_part_draws_every_time_on_a_real_surface_and_while_texts_are_logged(classic):
    painter = Renderer(classic, SMALL, motion=False).panels
    calls = []

    def draw(surface):
        calls.append(surface)
        draw_rect(surface, RED, pygame.Rect(0, 0, 3, 3))

    frame = pygame.Surface(SMALL)
    painter.part(frame, ("dot",), draw)
    painter.part(frame, ("dot",), draw)
    assert calls == [frame, frame]
    painter.part(Recorder(SMALL), ("dot",), draw)  # now kept
    painter.log = []
    painter.part(Recorder(SMALL), ("dot",), draw)
    assert len(calls) == 4  # a logging draw reads every text: nothing is skipped


def test_the_same_text_in_the_same_box_in_another_colour_is_drawn_in_that_colour(classic):
    painter = Renderer(classic, SMALL, motion=False).panels
    box = pygame.Rect(10, 10, 200, 60)

    def ink(frame, color):
        return pygame.mask.from_threshold(frame, color, (40, 40, 40, 255)).count()

    for color, other in ((RED, BLUE), (BLUE, RED), (RED, BLUE)):
        frame = pygame.Surface(SMALL)
        drawn = painter.put(frame, "88", box, color, bold=True, role="number")
        assert drawn.color == color
        assert ink(frame, color) > 50 and ink(frame, other) == 0


def test_values_that_come_back_are_drawn_as_a_full_render_draws_them(classic):
    """A second shoe repeats the first one's counts, hands and ask-road entries: all kept
    drawings are reused, and each frame still equals a fresh renderer's full render."""
    games = dealt_games(seed=12, coups=24)
    live = Renderer(classic, SMALL, motion=False)
    table = TableState(table_id="T1")
    for shoe in ("first", "second"):
        table.new_shoe(shoe)
        live.update(table, FeedStatus.DEMO, clock="21:45")
        for game in games:
            table.add_game(game)
            live.update(table, FeedStatus.DEMO, clock="21:45")
            full = Renderer(classic, SMALL, motion=False)
            expected = full.render(table, FeedStatus.DEMO, clock="21:45")
            assert same_frame(live.frame, expected), (shoe, game.number)
            assert live.panel_views["counters"] == full.panel_views["counters"]


def test_the_texts_logged_after_kept_drawings_are_every_text_of_the_board(classic):
    table = TableState(table_id="T1")
    table.new_shoe("S1")
    for game in dealt_games(seed=5, coups=12):
        table.add_game(game)
    warm = Renderer(classic, SMALL, motion=False)
    warm.render(table, FeedStatus.DEMO)
    warm.render(table, FeedStatus.DEMO)  # every part and placement kept now
    warm.panels.log = []
    warm.render(table, FeedStatus.DEMO)
    cold = Renderer(classic, SMALL, motion=False)
    cold.panels.log = []
    cold.render(table, FeedStatus.DEMO)
    assert warm.panels.log == cold.panels.log
    counted = {entry.value.text for entry in warm.panel_views["counters"].entries}
    assert counted <= {drawn.text for drawn in warm.panels.log}


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 90), st.integers(0, 40), st.integers(0, 140), st.integers(0, 30))
def test_a_copy_split_for_speed_copies_what_a_blit_copies(x, y, w, h):
    """``copy_area`` copies some rectangles in two parts; the pixels are a plain blit's."""
    source = pygame.Surface((200, 80))
    for n in range(200):
        pygame.draw.line(source, (n, 255 - n, (7 * n) % 256), (n, 0), (n, 79))
    expected, frame = pygame.Surface((200, 80)), pygame.Surface((200, 80))
    area = pygame.Rect(x, y, w, h)
    expected.blit(source, area, area)
    copy_area(frame, source, area)
    assert same_frame(frame, expected)
