"""A frame costs what changed: the rectangles an update returns, and the pixels under them.

Every test renders for real; "the same frame" means every pixel equal to a full
``render`` of the same state by a second renderer.
"""

from __future__ import annotations

import itertools

import pygame
import pytest
from dealt import dealt_games, table_with
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoreboard.game.rules import Game
from scoreboard.roads.engine import DerivedRoad
from scoreboard.screen.board.renderer import Renderer
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState

SIZE = (1280, 720)
ROADS = ("bead_plate", "big_road", *DerivedRoad)

pytestmark = pytest.mark.usefixtures("pygame_display")


def same_frame(a: pygame.Surface, b: pygame.Surface) -> bool:
    return pygame.image.tobytes(a, "RGB") == pygame.image.tobytes(b, "RGB")


def area(rects: list[pygame.Rect]) -> int:
    """Pixels covered by ``rects`` (overlaps counted once)."""
    covered = pygame.Surface(SIZE)
    for rect in rects:
        covered.fill((255, 255, 255), rect)
    return pygame.mask.from_threshold(covered, (255, 255, 255), (1, 1, 1, 255)).count()


def test_one_coup_touches_a_small_part_of_the_screen_and_draws_the_full_frame(classic):
    games = dealt_games(seed=4, coups=41)
    live, full = Renderer(classic, SIZE, motion=False), Renderer(classic, SIZE, motion=False)
    table = table_with(games[:40])
    live.render(table, FeedStatus.DEMO, clock="21:45")
    table.add_game(games[40])
    dirty = live.update(table, FeedStatus.DEMO, clock="21:45")
    panels = live.layout.panels
    roads = [panels[name].rect for name in ROADS]
    in_roads = [rect for rect in dirty if rect.collidelist(roads) >= 0]
    assert in_roads and area(in_roads) < 0.01 * SIZE[0] * SIZE[1]  # the new cells only
    small = {"header", "counters", "predictions", "last_coup"}
    rest = [r for r in dirty if r not in in_roads]
    assert all(any(panels[n].rect.contains(r) for n in small) for r in rest)
    assert {n for n in small if panels[n].rect.collidelist(rest) >= 0} == small
    assert area(dirty) < 0.25 * SIZE[0] * SIZE[1]  # the changed values, not whole panels
    before = table_with(games[:40]).roads
    grown = [name for name in ROADS if table.roads.length(name) > before.length(name)]
    assert "bead_plate" in grown
    for name in grown:
        newest = live.views[name].newest
        assert newest is not None and any(rect.contains(newest) for rect in dirty), name
    assert same_frame(live.frame, full.render(table, FeedStatus.DEMO, clock="21:45"))


def test_a_tie_redraws_the_big_road_cell_it_lands_on(classic):
    live, full = Renderer(classic, SIZE, motion=False), Renderer(classic, SIZE, motion=False)
    games = [g for g in dealt_games(seed=9, coups=80)]
    tie_at = next(i for i, g in enumerate(games) if i > 5 and g.coup.winner.value == "T")
    table = table_with(games[:tie_at])
    live.render(table, FeedStatus.DEMO)
    cell = live.views["big_road"].newest
    table.add_game(games[tie_at])
    dirty = live.update(table, FeedStatus.DEMO)
    assert cell in dirty
    assert live.views["big_road"].newest == cell
    assert same_frame(live.frame, full.render(table, FeedStatus.DEMO))


def test_an_update_with_nothing_new_touches_nothing(classic):
    renderer = Renderer(classic, SIZE, motion=False)
    table = table_with(dealt_games(seed=2, coups=30))
    renderer.render(table, FeedStatus.DEMO, clock="10:00")
    assert renderer.update(table, FeedStatus.DEMO, clock="10:00") == []
    dirty = renderer.update(table, FeedStatus.DEMO, clock="10:01")
    header = renderer.layout.panels["header"].rect
    assert dirty and all(header.contains(rect) for rect in dirty)
    assert sum(rect.w * rect.h for rect in dirty) < header.w * header.h / 4  # the clock's part


def test_when_the_roads_scroll_the_road_panels_are_redrawn_whole(classic):
    live, full = Renderer(classic, SIZE, motion=False), Renderer(classic, SIZE, motion=False)
    games = dealt_games(seed=5, coups=200)
    table = table_with(games[:80])
    live.render(table, FeedStatus.DEMO)
    starts = {name: live.views[name].first_col for name in ROADS}
    for game in games[80:]:
        table.add_game(game)
        dirty = live.update(table, FeedStatus.DEMO)
        moved = [name for name in ROADS if live.views[name].first_col != starts[name]]
        if moved:
            break
    else:
        pytest.fail("200 coups never scrolled the roads")
    for name in moved:
        assert live.layout.panels[name].rect in dirty
    assert same_frame(live.frame, full.render(table, FeedStatus.DEMO))


@settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.integers(0, 10_000), st.integers(0, 90), st.integers(1, 40))
def test_incremental_updates_draw_what_a_full_render_draws(classic, seed, start, coups):
    """Over random simulated shoes, past the point where the roads scroll."""
    live, full = Renderer(classic, SIZE, motion=False), Renderer(classic, SIZE, motion=False)
    games = dealt_games(seed, start + coups)
    table = table_with(games[:start])
    live.render(table, FeedStatus.DEMO, clock="09:00")
    for number, game in enumerate(games[start:]):
        table.add_game(game)
        live.update(table, FeedStatus.DEMO, clock="09:00")
        if number % 7 == 0 or number == coups - 1:
            assert same_frame(live.frame, full.render(table, FeedStatus.DEMO, clock="09:00"))


def test_a_long_shoe_at_its_end_matches_a_full_render(classic):
    live, full = Renderer(classic, SIZE, motion=False), Renderer(classic, SIZE, motion=False)
    games = dealt_games(seed=11, coups=330)
    table = table_with(games[:300])
    live.render(table, FeedStatus.DEMO)
    for game in games[300:]:
        table.add_game(game)
        live.update(table, FeedStatus.DEMO)
    assert same_frame(live.frame, full.render(table, FeedStatus.DEMO))


class Counting:
    """Counts the entry sprites a renderer asks its road painter for."""

    def __init__(self, renderer: Renderer) -> None:
        self.calls = 0
        painter = renderer.roads
        for method in ("bead", "big_road", "derived"):
            setattr(painter, method, self.counted(getattr(painter, method)))

    def counted(self, method):
        def call(*args, **kwargs):
            self.calls += 1
            return method(*args, **kwargs)

        return call


def test_a_frame_builds_marks_for_the_visible_columns_only(classic):
    cells = {}
    counts = {}
    for coups in (80, 1000):
        renderer = Renderer(classic, SIZE, motion=False)
        counting = Counting(renderer)
        renderer.render(table_with(dealt_games(seed=1, coups=coups)), FeedStatus.DEMO)
        counts[coups] = counting.calls
        cells = {name: g.rows * g.cols for name, g in renderer.layout.grids.items()}
    assert counts[1000] <= sum(cells.values())  # at most one sprite a visible cell
    assert counts[1000] <= 1.3 * counts[80]  # the same screen's worth, not 12 times as many


def test_a_coup_builds_marks_for_its_new_entries_only(classic):
    renderer = Renderer(classic, SIZE, motion=False)
    games = dealt_games(seed=1, coups=1001)
    table = table_with(games[:1000])
    counting = Counting(renderer)
    renderer.render(table, FeedStatus.DEMO)
    whole_screen = counting.calls
    assert renderer.views["bead_plate"].first_col > 0  # scrolled far into the shoe
    counting.calls = 0
    before = {name: table.roads.length(name) for name in ROADS}
    table.add_game(games[1000])
    renderer.update(table, FeedStatus.DEMO)
    new = sum(table.roads.length(name) - before[name] for name in ROADS)
    # Each new entry (its cell and its view), the big road's tie cell, the ask road's 6 symbols.
    assert counting.calls <= 2 * new + 1 + 6
    assert counting.calls < whole_screen / 10


# -- the "earlier results" marker ------------------------------------------------------------
def close(a, b, tolerance: int = 30) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def band_of(renderer: Renderer, name: str) -> pygame.Rect:
    window = renderer.windows[name]
    grid = window.grid
    return pygame.Rect(grid.rect.x, grid.rect.y, grid.x(window.offset) - grid.rect.x, grid.rect.h)


def ink_extent(frame: pygame.Surface, band: pygame.Rect, accent) -> tuple[int, int]:
    """(columns, rows) of the band's lower part holding anything but the accent: the label."""
    part = pygame.Rect(band.x, band.y + band.h // 3, band.w, band.h - band.h // 3)
    cols, rows = set(), set()
    for x in range(part.left, part.right):
        for y in range(part.top, part.bottom):
            if not close(tuple(frame.get_at((x, y)))[:3], accent, 60):
                cols.add(x)
                rows.add(y)
    return len(cols), len(rows)


@pytest.mark.parametrize("size", [(1920, 1080), (1080, 1920)])
def test_a_scrolled_road_shows_an_earlier_marker_at_its_left_edge(classic, size):
    renderer = Renderer(classic, size, motion=False)
    frame = renderer.render(table_with(dealt_games(seed=3, coups=150)), FeedStatus.DEMO)
    accent = classic.colors.accent
    unit = min(size)
    scrolled = 0
    for name in ROADS:
        window = renderer.windows[name]
        columns = renderer.road_frame.index.columns[name].columns
        if columns <= window.grid.cols:  # each road scrolls for its own columns only
            assert window.start == 0 and window.offset == 0, name
            continue
        scrolled += 1
        assert window.start > 0 and window.offset > 0, name
        band = band_of(renderer, name)
        assert band.left == window.grid.rect.left and band.height == window.grid.rect.height
        assert close(tuple(frame.get_at((band.x + 1, band.bottom - 2)))[:3], accent), name
        assert close(tuple(frame.get_at((band.right - 2, band.y + 1)))[:3], accent), name
        if name in ("bead_plate", "big_road"):
            across, along = ink_extent(frame, band, accent)
            assert across >= 0.015 * unit, name  # the label's letters, read upwards
            assert along > across, name
    assert scrolled >= 2  # 150 coups overflow the bead plate and the big road at least
    eye = renderer.windows["big_eye_boy"]
    if eye.start:
        first = eye.cell(eye.start, 0)
        assert first is not None and first.left >= band_of(renderer, "big_eye_boy").right


def test_a_road_that_fits_has_no_marker(classic):
    renderer = Renderer(classic, (1920, 1080), motion=False)
    frame = renderer.render(table_with(dealt_games(seed=3, coups=60)), FeedStatus.DEMO)
    for name in ROADS:
        window = renderer.windows[name]
        assert window.start == 0 and window.offset == 0
        rect = window.grid.rect
        edge = [tuple(frame.get_at((rect.x + 2, y)))[:3] for y in range(rect.top, rect.bottom)]
        run = longest = 0
        for color in edge:
            run = run + 1 if close(color, classic.colors.accent) else 0
            longest = max(longest, run)
        assert longest < window.grid.cell_height / 2, name  # a marker runs the whole edge


# -- blinking --------------------------------------------------------------------------------
def test_the_newest_entries_blink_at_most_three_times_a_second_and_stop(classic):
    renderer = Renderer(classic, SIZE, motion=False)
    games = dealt_games(seed=6, coups=21)
    table = table_with(games[:20])
    renderer.render(table, FeedStatus.DEMO, now=0.0)
    table.add_game(games[20])
    renderer.update(table, FeedStatus.DEMO, now=100.0)
    cell = renderer.views["bead_plate"].newest
    looks, now = [], 100.0
    while now < 100.0 + classic.roads.blink_seconds + 2:
        due = renderer.next_blink(now)
        if due is None:
            break
        assert due > now
        now = due
        renderer.blink(now)
        looks.append((now, pygame.image.tobytes(renderer.frame.subsurface(cell), "RGB")))
    changes = [t for (t, a), (_, b) in itertools.pairwise(looks) if a != b]
    assert changes  # it did blink
    for t in changes:  # a flash is two changes: at most 6 in any second
        assert sum(1 for u in changes if t <= u < t + 1.0) <= 6
    assert now <= 100.0 + classic.roads.blink_seconds + BLINK_SLACK
    assert renderer.next_blink(now + 10) is None
    shown = renderer.blink(now + 10)
    assert shown == []


BLINK_SLACK = 0.5


# -- motion: the renderer's side (a stand-in timing model; the real one is tests/test_motion*) --
class StandInOverlay:
    """A plain box drawn over the board; the test moves it, changes it and takes it away."""

    def __init__(self) -> None:
        self.rect: pygame.Rect | None = None
        self.color = (250, 0, 250)

    def area(self, now: float) -> pygame.Rect | None:  # noqa: ARG002 - the interface's signature
        return self.rect

    def version(self, now: float):  # noqa: ARG002 - the interface's signature
        return (tuple(self.rect) if self.rect else None, self.color)

    def draw(self, surface: pygame.Surface, now: float) -> None:  # noqa: ARG002 - the interface's signature
        assert self.rect is not None
        surface.fill(self.color, self.rect)


class StandInMotion:
    """The Motion interface (docs: the preamble's agreed interface), scripted by the test."""

    def __init__(self) -> None:
        self.arrivals: list[float] = []
        self.stops: list[float] = []
        self.scale: float | None = None
        self.banner = StandInOverlay()

    def coup_arrived(self, table: TableState, now: float) -> None:  # noqa: ARG002 - the interface's signature
        self.arrivals.append(now)

    def stop(self, now: float) -> None:
        self.stops.append(now)

    def cards_shown(self, now: float) -> int | None:  # noqa: ARG002 - the interface's signature
        return None

    def draw_in(self, now: float) -> float | None:  # noqa: ARG002 - the interface's signature
        return self.scale

    def settled(self, now: float) -> bool:  # noqa: ARG002 - the interface's signature
        return True  # the roads and counters show each coup as it arrives

    def overlays(self):
        return (self.banner,)

    def next_deadline(self, now: float) -> float | None:
        return None if self.scale is None else now + 0.05


def with_stand_in(classic) -> tuple[Renderer, StandInMotion]:
    renderer = Renderer(classic, SIZE, motion=False)
    motion = renderer.motion = StandInMotion()
    return renderer, motion


def test_the_motion_hears_of_a_coup_joining_the_shoe_only(classic):
    renderer, motion = with_stand_in(classic)
    games = dealt_games(seed=8, coups=12)
    table = table_with(games[:10])
    renderer.render(table, FeedStatus.DEMO, now=1.0)
    assert motion.arrivals == []  # the first frame is not an arrival
    table.add_game(games[10])
    renderer.update(table, FeedStatus.DEMO, now=2.0)
    assert motion.arrivals == [2.0]
    renderer.update(table, FeedStatus.DEMO, now=3.0)
    renderer.render(table, FeedStatus.DEMO, now=4.0)  # a full redraw of the same state
    assert motion.arrivals == [2.0]
    table.void(games[10].number)  # a rebuild: the roads are laid out again
    renderer.update(table, FeedStatus.DEMO, now=5.0)
    assert motion.arrivals == [2.0] and motion.stops == [5.0]
    table.new_shoe("next")
    renderer.update(table, FeedStatus.DEMO, now=6.0)
    table.add_game(Game(1, games[0].coup))
    renderer.update(table, FeedStatus.DEMO, now=7.0)
    assert motion.arrivals == [2.0, 7.0]


def test_the_newest_mark_is_drawn_in_at_the_motions_scale(classic):
    renderer, motion = with_stand_in(classic)
    full = Renderer(classic, SIZE, motion=False)
    games = dealt_games(seed=8, coups=12)
    table = table_with(games[:11])
    renderer.render(table, FeedStatus.DEMO, now=0.0)
    table.add_game(games[11])
    motion.scale = 0.0
    renderer.update(table, FeedStatus.DEMO, now=10.0)
    cell = renderer.views["bead_plate"].newest
    empty = pygame.image.tobytes(renderer.static.subsurface(cell), "RGB")
    assert pygame.image.tobytes(renderer.frame.subsurface(cell), "RGB") == empty
    motion.scale = 0.5
    assert renderer.next_blink(10.0) == pytest.approx(10.05)
    assert cell in renderer.blink(10.05)
    half = pygame.image.tobytes(renderer.frame.subsurface(cell), "RGB")
    motion.scale = None
    renderer.blink(10.1)
    whole = pygame.image.tobytes(renderer.frame.subsurface(cell), "RGB")
    assert len({empty, half, whole}) == 3
    edge = (cell.centerx - round(0.4 * cell.width), cell.centery)  # on the bead, off the half
    assert renderer.frame.get_at(edge) != renderer.static.get_at(edge)
    assert same_frame(renderer.frame, full.render(table, FeedStatus.DEMO, now=10.1))


def test_an_overlay_is_composited_over_the_board_and_the_board_comes_back(classic):
    renderer, motion = with_stand_in(classic)
    full = Renderer(classic, SIZE, motion=False)
    games = dealt_games(seed=8, coups=14)
    table = table_with(games[:12])
    renderer.render(table, FeedStatus.DEMO)
    motion.banner.rect = pygame.Rect(300, 200, 400, 150)
    dirty = renderer.blink(1.0)
    assert dirty == [motion.banner.rect]
    assert renderer.frame.get_at((500, 275))[:3] == motion.banner.color
    assert renderer.base.get_at((500, 275))[:3] != motion.banner.color  # the board is kept
    table.add_game(games[12])  # a coup under the banner: the banner stays on top
    dirty = renderer.update(table, FeedStatus.DEMO, now=2.0)
    assert renderer.frame.get_at((500, 275))[:3] == motion.banner.color
    old = motion.banner.rect
    motion.banner.rect = old.move(100, 0)  # moved: the board comes back where it left
    dirty = renderer.blink(3.0)
    assert old in dirty and motion.banner.rect in dirty
    assert renderer.frame.get_at((310, 275)) == renderer.base.get_at((310, 275))
    motion.banner.rect = None  # gone: the frame is the board again, as a full render draws it
    dirty = renderer.blink(4.0)
    assert old.move(100, 0) in dirty
    assert same_frame(renderer.frame, full.render(table, FeedStatus.DEMO))
    table.add_game(games[13])
    renderer.update(table, FeedStatus.DEMO, now=5.0)
    motion.banner.rect = pygame.Rect(0, 0, 50, 50)  # up again over a board drawn meanwhile
    renderer.blink(6.0)
    for rect in (renderer.views["bead_plate"].newest, renderer.layout.panels["counters"].rect):
        assert rect is not None and not rect.colliderect(motion.banner.rect)
        shown = pygame.image.tobytes(renderer.frame.subsurface(rect), "RGB")
        assert shown == pygame.image.tobytes(renderer.base.subsurface(rect), "RGB")
    motion.banner.rect = None
    renderer.blink(7.0)
    assert same_frame(renderer.frame, full.render(table, FeedStatus.DEMO))
