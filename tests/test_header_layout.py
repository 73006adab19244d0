"""The header: numbers that stay put whatever the status, a logo beside the table's name."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from scoreboard.game.notation import result_games
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.loading import load_theme
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState

LONG = "The Grand Imperial Dragon Phoenix High Limit Salon Table Number Seventeen VIP"


def table(name: str = "") -> TableState:
    shown = TableState(table_id="T1", table_name=name)
    shown.new_shoe("s1")
    for game in result_games("BPBPTB"):
        shown.add_game(game)
    return shown


@pytest.mark.parametrize("size", [(1080, 1920), (1920, 1080)], ids=["portrait", "landscape"])
def test_the_game_number_stays_put_whatever_the_status(size) -> None:
    places = set()
    for status in FeedStatus:
        renderer = Renderer(load_theme("midnight"), size, motion=False)
        renderer.render(table(LONG), status, clock="21:45")
        places.add(renderer.panel_views["header"].value("game").rect.center)
    assert len(places) == 1


def drawn_texts(renderer: Renderer, table_state: TableState, status: FeedStatus) -> list[str]:
    renderer.panels.log = []
    renderer.render(table_state, status, clock="21:45")
    return [text.text for text in renderer.panels.log or []]


def test_a_wide_logo_leaves_room_for_the_table_s_name(tmp_path: Path) -> None:
    logo = pygame.Surface((4000, 100))
    logo.fill((200, 160, 40))
    pygame.image.save(logo, str(tmp_path / "wide.png"))
    source = load_theme("classic").source
    assert source is not None
    text = source.read_text(encoding="utf-8").replace("style:\n", "style:\n  logo: wide.png\n", 1)
    (tmp_path / "wide.yaml").write_text(text, encoding="utf-8")
    renderer = Renderer(load_theme(tmp_path / "wide.yaml"), (1920, 1080), motion=False)
    texts = drawn_texts(renderer, table("Salon Privé 12"), FeedStatus.LIVE)
    assert "Salon Privé 12" in texts
