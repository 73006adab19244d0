"""The side bets on the board, by pixels: their counts and their limits rows appear only
where the table offers them, and the last hand's mark only when it won one of those."""

from __future__ import annotations

import pygame
import pytest

from scoreboard.cli.commands.screenshot import dealt_table
from scoreboard.game.limits import Limits, limits_from_spec, offer_side_bets
from scoreboard.game.side_bets import SIDE_BETS
from scoreboard.game.variants import VARIANTS
from scoreboard.screen.board.panels import DrawnText
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.loading import load_theme
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState
from tests.pixels import changed_area

pytestmark = pytest.mark.usefixtures("pygame_display")

SIZES = [(1920, 1080), (1080, 1920)]
IDS = ["landscape", "portrait"]
# Seed 7: coup 31 is Player 7 (7 10) over Banker 6 (6 J): Lucky 7 6:1 and Super Lucky 7
# 30:1; coup 30 wins no tier.
SEED, LUCKY, PLAIN = 7, 31, 30


def limits(*bets: str) -> Limits:
    plain = limits_from_spec("25-10000", VARIANTS["commission"])
    return offer_side_bets(plain, [SIDE_BETS[bet] for bet in bets])


def shot(theme: str, size: tuple[int, int], coups: int, *bets: str) -> tuple[pygame.Surface, list]:
    table = dealt_table(SEED, coups, table=TableState(table_id="T1", limits=limits(*bets)))
    renderer = Renderer(load_theme(theme), size, motion=False)
    log: list[DrawnText] = []
    renderer.panels.log = log
    frame = renderer.render(table, FeedStatus.DEMO, clock="12:00").copy()
    renderer.panels.log = None
    return frame, log


def inside(area: pygame.Rect | None, panel: pygame.Rect) -> bool:
    return area is not None and panel.contains(area)


@pytest.mark.parametrize("theme", ["classic", "midnight"])
@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_offered_side_bets_change_the_counts_limits_and_last_hand_only(theme, size):
    renderer = Renderer(load_theme(theme), size)
    panels = renderer.layout.panels
    plain, _ = shot(theme, size, LUCKY)
    offered, log = shot(theme, size, LUCKY, "small_6", "lucky_7")
    texts = [t.text for t in log]
    assert "LUCKY 7 6:1" in texts and not any(t.startswith("SMALL 6 ") for t in texts)
    assert any(t.startswith("Small 6") for t in texts) and "6/15:1" in texts
    for name in ("counters", "limits", "last_coup"):
        alone = pygame.Surface(size)
        alone.blit(offered, (0, 0))
        rest = [n for n in ("counters", "limits", "last_coup") if n != name]
        for other in rest:  # the other two panels as the plain board has them
            alone.blit(plain, panels[other].rect, panels[other].rect)
        assert inside(changed_area(plain, alone), panels[name].rect), name


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_no_mark_for_a_bet_not_offered_nor_for_a_hand_that_won_none(size):
    renderer = Renderer(load_theme("classic"), size)
    title = renderer.layout.panels["last_coup"].title
    assert title is not None
    won_not_offered, log = shot("classic", size, LUCKY, "small_6", "big_6")
    plain, _ = shot("classic", size, LUCKY)
    assert changed_area(plain.subsurface(title), won_not_offered.subsurface(title)) is None
    assert not any(":1" in t.text and t.text.isupper() for t in log)
    lost, _ = shot("classic", size, PLAIN, "lucky_7", "super_lucky_7")
    lost_plain, _ = shot("classic", size, PLAIN)
    assert changed_area(lost_plain.subsurface(title), lost.subsurface(title)) is None
    won, log = shot("classic", size, LUCKY, "super_lucky_7")
    assert changed_area(plain.subsurface(title), won.subsurface(title)) is not None
    assert "SUPER LUCKY 7 30:1" in [t.text for t in log]


def test_the_counts_are_the_shoes_per_offered_bet():
    _, log = shot("classic", (1920, 1080), LUCKY, "lucky_7", "super_lucky_7")
    texts = [t.text for t in log]
    # seed 7 to coup 31: Lucky 7 at 3, 4, 18, 22, 24, 31; Super Lucky 7 at 31
    at = texts.index("Lucky 7")
    assert texts[at - 1] == "6"
    at = texts.index("Super Lucky 7")
    assert texts[at - 1] == "1"


@pytest.mark.parametrize("theme", ["classic", "midnight", "contrast"])
@pytest.mark.parametrize("size", [*SIZES, (1280, 720)], ids=[*IDS, "720p"])
def test_every_side_bet_offered_cuts_no_statistics_label(theme, size):
    """Five more rows: the columns share the width by what they hold, so "Longest" stays whole."""
    renderer = Renderer(load_theme(theme), size)
    counters = renderer.layout.panels["counters"].rect
    _, log = shot(theme, size, LUCKY, *SIDE_BETS)
    cut = [t.text for t in log if counters.contains(t.rect) and t.text.endswith("…")]
    assert cut == []


def test_no_mark_while_the_hand_is_still_being_turned_over():
    from scoreboard.screen.board._hand import draw_last_coup

    table = dealt_table(SEED, LUCKY, table=TableState(table_id="T1", limits=limits("lucky_7")))
    renderer = Renderer(load_theme("classic"), (1920, 1080))
    marks = []
    for shown in (3, None):  # three of four cards on view, then all
        log: list[DrawnText] = []
        renderer.panels.log = log
        draw_last_coup(renderer.panels, renderer.static.copy(), table, shown)
        renderer.panels.log = None
        marks.append([t.text for t in log if t.text == "LUCKY 7 6:1"])
    assert marks == [[], ["LUCKY 7 6:1"]]
