"""The last hand: dealt again card by card, totals of the cards on view, results-only coups."""

from __future__ import annotations

import pygame
import pytest

from scoreboard.game.cards import hand_total, parse_cards
from scoreboard.game.rules import Coup, Game, Winner, deal_coup, deal_order, result_coup
from scoreboard.screen.board._hand import draw_last_coup, visible_cards
from scoreboard.screen.board.panels import DrawnText
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.loading import available_themes, load_theme
from scoreboard.table.state import TableState

SIZE = (1920, 1080)
BOTH_DRAW = ("AS", "KH", "AD", "QC", "5S", "4C")  # player 2 draws 5: 7; banker 0 draws 4: 4
PLAYER_DRAWS = ("2S", "3H", "2D", "4C", "9S")  # player 4 draws 9: 3; banker 7 stands
BANKER_DRAWS = ("7S", "2H", "KD", "3C", "9H")  # player 7 stands; banker 5 draws 9: 4

RANKS = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"}

pytestmark = pytest.mark.usefixtures("pygame_display")


def table_with(coup: Coup) -> TableState:
    table = TableState(table_id="T1")
    table.new_shoe("hand")
    table.add_game(Game(1, coup))
    return table


def draw(renderer: Renderer, table: TableState, shown: int | None) -> tuple[pygame.Surface, list]:
    surface = renderer.static.copy()
    log: list[DrawnText] = []
    renderer.panels.log = log
    draw_last_coup(renderer.panels, surface, table, shown)
    renderer.panels.log = None
    return surface, log


def numbers(log: list[DrawnText]) -> list[str]:
    return [text.text for text in log if text.role == "number"]


def ink(renderer: Renderer, text: DrawnText) -> pygame.Rect:
    glyphs = renderer.text.render(text.text, text.size, text.color, bold=text.bold)
    return glyphs.get_bounding_rect().move(text.rect.topleft)


@pytest.mark.parametrize("cards", [BOTH_DRAW, PLAYER_DRAWS, BANKER_DRAWS, ("9S", "8H", "KD", "KC")])
def test_the_cards_appear_in_deal_order_with_the_totals_of_the_cards_on_view(cards):
    coup = deal_coup(parse_cards(list(cards)))
    order = deal_order(coup.player, coup.banker)
    renderer = Renderer(load_theme("classic"), SIZE)
    table = table_with(coup)
    previous = None
    for shown in range(len(order) + 1):
        player, banker = visible_cards(coup, shown)
        assert sorted(map(str, player + banker)) == sorted(map(str, order[:shown]))
        frame, log = draw(renderer, table, shown)
        expected = [str(hand_total(side)) if side else "–" for side in (player, banker)]
        assert numbers(log) == expected
        ranks = [t for t in log if t.role == "label" and t.text in RANKS]
        assert len(ranks) == shown  # one rank per card on view
        if previous is not None:
            assert pygame.image.tobytes(frame, "RGB") != pygame.image.tobytes(previous, "RGB")
        previous = frame
    _, everything = draw(renderer, table, None)
    assert numbers(everything) == [str(coup.player_total), str(coup.banker_total)]


def test_a_card_appearing_never_moves_the_cards_already_shown():
    coup = deal_coup(parse_cards(list(BOTH_DRAW)))
    renderer = Renderer(load_theme("classic"), SIZE)
    table = table_with(coup)
    _, three = draw(renderer, table, 3)
    _, all_cards = draw(renderer, table, None)

    def ranks(log: list[DrawnText]) -> list[pygame.Rect]:
        return [t.rect for t in log if t.role == "label" and t.text in RANKS]

    assert len(ranks(three)) == 3
    assert all(rect in ranks(all_cards) for rect in ranks(three))


def test_the_winner_is_highlighted_only_once_every_card_is_on_view():
    coup = deal_coup(parse_cards(list(BOTH_DRAW)))
    theme = load_theme("classic")
    renderer = Renderer(theme, SIZE)
    table = table_with(coup)
    body = renderer.layout.panels["last_coup"].body
    winner_half = body.x + (
        body.width * 3 // 4 if coup.winner is Winner.BANKER else body.width // 4
    )
    point = (winner_half, body.y + 6)
    fill = renderer.roads.side_color[coup.winner]
    early, _ = draw(renderer, table, 4)
    done, _ = draw(renderer, table, None)
    assert tuple(done.get_at(point))[:3] == fill
    assert tuple(early.get_at(point))[:3] != fill


@pytest.mark.parametrize("name", available_themes())
def test_a_results_only_coup_shows_the_winner_and_its_totals_not_empty_hands(name):
    theme = load_theme(name)
    renderer = Renderer(theme, SIZE)
    coup = result_coup(Winner.BANKER, banker_total=7, player_total=5)
    _, log = draw(renderer, table_with(coup), None)
    texts = [t.text for t in log]
    wins = theme.label("wins")[0]
    assert f"{theme.label('banker')[0].upper()} {wins}" in texts
    assert numbers(log) == ["7 – 5"]
    assert "–" not in texts  # no empty "Player –" / "Banker –" boxes
    _, bare = draw(renderer, table_with(result_coup(Winner.TIE)), None)
    assert numbers(bare) == []
    assert theme.label("tie_result")[0] in [t.text for t in bare]


@pytest.mark.parametrize("name", available_themes())
@pytest.mark.parametrize("size", [(1280, 1024), (1920, 1080), (1080, 1920), (1280, 720)])
def test_the_totals_never_run_into_the_names(name, size):
    renderer = Renderer(load_theme(name), size)
    coup = deal_coup(parse_cards(list(BOTH_DRAW)))
    _, log = draw(renderer, table_with(coup), None)
    totals = [t for t in log if t.role == "number"]
    names = [t for t in log if t.text.startswith(("Player", "Banker", "閒", "莊"))]
    assert len(totals) == 2 and len(names) == 2
    for total in totals:
        for name_text in names:
            assert not ink(renderer, total).colliderect(ink(renderer, name_text)), (
                total,
                name_text,
            )
