"""The card faces are drawn when the renderer is built, not on the first coups that deal them."""

from __future__ import annotations

import pygame
import pytest

from scoreboard.game.cards import parse_cards
from scoreboard.game.rules import Game, deal_coup
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.loading import available_themes, load_theme
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState

HANDS = (
    ("AS", "KH", "AD", "QC", "5S", "4C"),  # both draw
    ("2S", "3H", "2D", "4C", "9S"),  # the player draws
    ("7S", "2H", "KD", "3C", "9H"),  # the banker draws
    ("9D", "TH", "9C", "QS"),  # a natural
    ("JD", "5H", "6C", "2S"),  # both stand
)

pytestmark = pytest.mark.usefixtures("pygame_display")


def sprites_after_each_coup(renderer: Renderer) -> list[int]:
    """How many sprites the renderer holds after drawing each of :data:`HANDS` in turn."""
    table = TableState(table_id="T1")
    table.new_shoe("warm")
    renderer.render(table, FeedStatus.DEMO)
    counts = [len(renderer.sprites)]
    for number, cards in enumerate(HANDS, start=1):
        table.add_game(Game(number, deal_coup(parse_cards(list(cards)))))
        renderer.update(table, FeedStatus.DEMO)
        counts.append(len(renderer.sprites))
    return counts


@pytest.mark.parametrize("size", [(1920, 1080), (1080, 1920), (1280, 720), (3840, 2160)])
@pytest.mark.parametrize("theme_name", available_themes())
def test_a_coup_draws_no_card_face_the_renderer_did_not_draw_when_built(theme_name, size):
    shipped = Renderer(load_theme(theme_name), size, motion=False)
    assert len(shipped.sprites) > 52  # every card, before any coup
    own = Renderer(load_theme(theme_name), size, motion=False, drawers=NO_CARDS)
    grown = [n - len(shipped.sprites) for n in sprites_after_each_coup(shipped)]
    # The roads' marks are drawn as they first appear; the hands add no card face of their own.
    assert grown == [n - len(own.sprites) for n in sprites_after_each_coup(own)]


def no_cards(frame: pygame.Surface, body: pygame.Rect, table: TableState) -> None:
    """A last-hand panel that draws nothing (so the renderer warms no card faces)."""


NO_CARDS = {"last_coup": no_cards}


def test_a_site_s_own_last_hand_panel_gets_no_card_faces_drawn():
    own = Renderer(load_theme("classic"), (1920, 1080), motion=False, drawers=NO_CARDS)
    shipped = Renderer(load_theme("classic"), (1920, 1080), motion=False)
    assert len(shipped.sprites) - len(own.sprites) > 52
