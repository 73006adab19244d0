"""A recorded panel put down again reports every pixel it wrote.

An overlay drawn in place over the board is drawn again only where the board
changed, so a pixel written outside the rectangles an update returns would cut
into it unseen.
"""

from __future__ import annotations

import pygame
import pytest
from dealt import dealt_games, table_with

from scoreboard.screen.board import canvas
from scoreboard.screen.board.canvas import Recorder, draw_rect, mark_opaque, put_down
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.loading import load_theme
from scoreboard.table.applied import FeedStatus

pytestmark = pytest.mark.usefixtures("pygame_display")

MAGENTA = (255, 0, 255)


def recorded(spot_at: tuple[int, int]) -> Recorder:
    """An outlined box and a small spot cutting into its outline."""
    pen = Recorder((120, 80))
    draw_rect(pen, (0, 0, 0), pygame.Rect(10, 10, 60, 50), 3)
    spot = pygame.Surface((6, 6))
    spot.fill((0, 200, 0))
    pen.blit(spot, spot_at)
    return pen


def test_a_replay_that_redraws_a_whole_outline_returns_the_outline_s_area_too():
    static = pygame.Surface((120, 80))
    static.fill((240, 240, 240))
    before, after = recorded((8, 30)), recorded((8, 34))
    frame = pygame.Surface((120, 80))
    frame.fill(MAGENTA)  # what was on the frame: an overlay's pixels, say
    box = pygame.Rect(0, 0, 120, 80)
    areas = put_down(frame, static, before.ops, after.ops, box, full=False)
    written = pygame.mask.from_threshold(frame, MAGENTA, (1, 1, 1, 255))
    written.invert()
    reported = pygame.mask.Mask(frame.get_size())
    for area in areas:
        reported.draw(pygame.mask.Mask(area.size, fill=True), area.topleft)
    assert written.count() > 36  # more than the spot: the outline was drawn again whole
    assert written.overlap_area(reported, (0, 0)) == written.count()


def test_the_static_layer_goes_back_only_where_no_opaque_blit_covers_it(monkeypatch):
    static = pygame.Surface((200, 200))
    static.fill((240, 240, 240))
    card = pygame.Surface((120, 160), pygame.SRCALPHA)
    card.fill((250, 250, 250, 255))
    card.fill((0, 0, 0, 0), pygame.Rect(0, 0, 4, 4))  # a clear corner
    card.set_alpha(255, pygame.RLEACCEL)
    mark_opaque(card, [pygame.Rect(0, 4, 120, 156), pygame.Rect(4, 0, 116, 4)])
    before, after = Recorder((200, 200)), Recorder((200, 200))
    after.blit(card, (10, 10))
    frame = pygame.Surface((200, 200))
    frame.fill(MAGENTA)
    copied: list[pygame.Rect] = []
    monkeypatch.setattr(canvas, "copy_area", lambda f, s, r: (copied.append(r), f.blit(s, r, r)))
    put_down(frame, static, before.ops, after.ops, frame.get_rect(), full=False)
    assert copied == [pygame.Rect(10, 10, 120, 4)]  # the strip of the card's clear corner only
    whole = static.copy()
    for op in after.ops:
        op.run(whole)
    card_area = pygame.Rect(10, 10, 120, 160)
    assert pygame.image.tobytes(frame.subsurface(card_area), "RGB") == pygame.image.tobytes(
        whole.subsurface(card_area), "RGB"
    )


def test_a_late_coup_puts_the_static_layer_back_only_around_the_cards(monkeypatch):
    theme, size = load_theme("classic"), (1920, 1080)
    games = dealt_games(seed=6, coups=20)
    live, full = Renderer(theme, size, motion=False), Renderer(theme, size, motion=False)
    table = table_with(games[:10])
    live.render(table, FeedStatus.DEMO)
    hand = live.layout.panels["last_coup"].rect
    copied: list[pygame.Rect] = []
    real = canvas.copy_area
    monkeypatch.setattr(canvas, "copy_area", lambda f, s, r: (copied.append(r), real(f, s, r)))
    for game in games[10:]:
        copied.clear()
        table.add_game(game)
        dirty = live.update(table, FeedStatus.DEMO)
        changed = sum(r.w * r.h for r in dirty if hand.contains(r))
        back = sum(r.w * r.h for r in copied if hand.contains(r))
        assert changed and back < 0.6 * changed  # the corners and the gaps, not the cards
        assert pygame.image.tobytes(live.frame, "RGB") == pygame.image.tobytes(
            full.render(table, FeedStatus.DEMO), "RGB"
        )
