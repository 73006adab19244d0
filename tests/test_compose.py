"""Overlays drawn in place over the board: what they leave behind when they go is the board.

The renderer draws the board and the overlays on one frame (the display's own on
a screen not turned); the board under an overlay lives in a saved copy.  Every
test compares whole frames with a renderer that never showed the overlay.
"""

from __future__ import annotations

import pygame
import pytest
from dealt import dealt_games, table_with
from test_render_dirty import StandInMotion

from scoreboard.game.rules import Game
from scoreboard.screen.board._compose import Compositor
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.values import Theme
from scoreboard.table.applied import FeedStatus

SIZE = (1280, 720)

pytestmark = pytest.mark.usefixtures("pygame_display")


def pixels(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGB")


def stand_in(theme: Theme, size: tuple[int, int]) -> Renderer:
    """A renderer whose banner the test places (motion off otherwise)."""
    renderer = Renderer(theme, size, motion=False)
    renderer.motion = StandInMotion()
    return renderer


def banner(renderer: Renderer) -> StandInMotion:
    assert isinstance(renderer.motion, StandInMotion)
    return renderer.motion


def under_the_banner(renderer: Renderer, name: str) -> pygame.Rect:
    """A banner over panel ``name`` and reaching past it (it cuts what is beside it)."""
    return renderer.layout.panels[name].rect.inflate(60, 40)


@pytest.mark.parametrize("covered", ["bead_plate", "counters", "last_coup", "header"])
def test_a_coup_under_the_banner_then_its_end_leave_the_board_a_renderer_without_it_draws(
    classic, covered
):
    games = dealt_games(seed=11, coups=30)
    live, never = stand_in(classic, SIZE), stand_in(classic, SIZE)
    table = table_with(games[:28])
    for renderer in (live, never):
        renderer.render(table, FeedStatus.DEMO, now=1.0)
    motion = banner(live)
    motion.banner.rect = under_the_banner(live, covered)
    live.blink(2.0)
    up = pixels(live.frame)
    assert up != pixels(never.frame)  # the banner shows
    assert pixels(live.base) == pixels(never.frame)  # and the board is kept without it
    for n, game in enumerate(games[28:], start=3):  # coups under the banner
        table.add_game(game)
        dirty = live.update(table, FeedStatus.DEMO, now=float(n))
        never.update(table, FeedStatus.DEMO, now=float(n))
        assert motion.banner.rect.collidelist(dirty) >= 0  # the board changed under it
        assert live.frame.get_at(motion.banner.rect.center)[:3] == motion.banner.color
        assert pixels(live.base) == pixels(never.frame)
    motion.banner.rect = None
    live.blink(9.0)
    assert pixels(live.frame) == pixels(never.frame)


def test_a_banner_that_moves_over_a_changed_board_leaves_only_the_board_behind(classic):
    games = dealt_games(seed=5, coups=20)
    live, never = stand_in(classic, SIZE), stand_in(classic, SIZE)
    table = table_with(games[:18])
    for renderer in (live, never):
        renderer.render(table, FeedStatus.DEMO)
    motion = banner(live)
    start = under_the_banner(live, "bead_plate")
    motion.banner.rect = start
    live.blink(1.0)
    table.add_game(games[18])
    live.update(table, FeedStatus.DEMO, now=2.0)
    never.update(table, FeedStatus.DEMO, now=2.0)
    motion.banner.rect = start.move(start.width // 2, -10)  # half over where it was
    motion.banner.color = (10, 200, 30)
    dirty = live.blink(3.0)
    assert start in dirty and motion.banner.rect in dirty
    table.add_game(games[19])
    live.update(table, FeedStatus.DEMO, now=4.0)
    never.update(table, FeedStatus.DEMO, now=4.0)
    assert pixels(live.base) == pixels(never.frame)
    motion.banner.rect = None
    live.blink(5.0)
    assert pixels(live.frame) == pixels(never.frame)


class Patch:
    """A square overlay the test places."""

    def __init__(self, rect: pygame.Rect | None, color: tuple[int, int, int]) -> None:
        self.rect, self.color = rect, color

    def area(self, now: float) -> pygame.Rect | None:  # noqa: ARG002 - the interface's signature
        return self.rect

    def version(self, now: float) -> object:  # noqa: ARG002 - the interface's signature
        return self.color

    def draw(self, surface: pygame.Surface, now: float) -> None:  # noqa: ARG002 - the interface's signature
        assert self.rect is not None
        surface.fill(self.color, self.rect)


def test_a_chain_of_overlapping_overlays_is_drawn_again_whole_in_order():
    board = pygame.Surface((90, 30))
    board.fill((40, 40, 40))
    frame = board.copy()
    compositor = Compositor((90, 30), frame)
    # c over b over a, each overlapping the next only: a change under a reaches c too.
    a = Patch(pygame.Rect(0, 0, 40, 30), (200, 0, 0))
    b = Patch(pygame.Rect(30, 0, 30, 30), (0, 200, 0))
    c = Patch(pygame.Rect(50, 0, 40, 30), (0, 0, 200))
    overlays = [c, b, a]  # drawn in this order: a on top
    compositor.compose(overlays, 0.0, [frame.get_rect()])
    c.color = (0, 100, 100)  # c changes: b over it is drawn again, and a over b then
    compositor.compose(overlays, 1.0, [])
    assert frame.get_at((55, 5))[:3] == b.color  # b over c
    assert frame.get_at((35, 5))[:3] == a.color  # a over b
    assert frame.get_at((85, 5))[:3] == c.color
    for patch in overlays:
        patch.rect = None
    compositor.compose(overlays, 2.0, [])
    assert pixels(frame) == pixels(board)


def first_coup(theme: Theme, shuffled: bool) -> tuple[int, bytes]:
    """Pixels copied from the static layer by the first coup of a new shoe, and its frame.

    ``shuffled``: a shuffle mark came after the new shoe (the screen covers its
    empty board until that coup).
    """
    games = dealt_games(seed=4, coups=3)
    renderer = Renderer(theme, SIZE, motion=False)
    table = table_with(games[:2])
    renderer.render(table, FeedStatus.DEMO, now=1.0)
    table.new_shoe("next")
    table.set_shuffling(shuffled)
    renderer.update(table, FeedStatus.DEMO, now=2.0)
    assert table.shuffling == shuffled
    static, real_blit, copied = renderer.static, pygame.Surface.blit, []

    class Watched(pygame.Surface):
        """The frame, noting what is copied onto it from the static layer."""

        def blit(self, source, dest, area=None, special_flags=0):  # type: ignore[override]
            if source is static:
                copied.append(pygame.Rect(dest[0], dest[1], *(area or source.get_rect()).size))
            return real_blit(self, source, dest, area, special_flags)

    watched = Watched(SIZE)
    watched.blit(renderer.frame, (0, 0))
    renderer.compositor._frame = watched
    table.add_game(Game(1, games[2].coup))
    renderer.update(table, FeedStatus.DEMO, now=3.0)
    return sum(r.w * r.h for r in copied), pixels(renderer.frame)


def test_the_first_coup_takes_the_shuffle_screen_away_without_drawing_the_board_again(classic):
    after_shuffle, shown = first_coup(classic, shuffled=True)
    plain, board = first_coup(classic, shuffled=False)
    assert shown == board  # nothing of the screen is left, between the panels either
    assert after_shuffle == plain  # and the first coup draws what it draws without one


def test_a_new_shoe_after_the_shuffle_mark_leaves_nothing_of_the_screen(classic):
    games = dealt_games(seed=4, coups=2)
    live, never = Renderer(classic, SIZE, motion=False), Renderer(classic, SIZE, motion=False)
    table = table_with(games)
    live.render(table, FeedStatus.DEMO, now=1.0)
    table.set_shuffling(True)  # the finished shoe's summary over its board
    live.update(table, FeedStatus.DEMO, now=2.0)
    table.new_shoe("next")
    live.update(table, FeedStatus.DEMO, now=3.0)
    assert pixels(live.frame) == pixels(never.render(table, FeedStatus.DEMO))
