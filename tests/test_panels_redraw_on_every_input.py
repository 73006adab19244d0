"""A small panel is redrawn whenever anything it draws from changes, and only what it shows.

Each case renders a board, changes one input of one panel (the table, the feed's
status, the clock, the journal's health, another panel failing, the wall clock),
updates, and compares the panel with a board rendered from scratch for the new
inputs: a change key that leaves out an input of the drawing leaves the old
pixels on the screen, and the comparison fails.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pygame
import pytest
from test_side_bets_board import SEED, limits

from scoreboard.cli.commands.screenshot import dealt_table
from scoreboard.game.cards import parse_cards
from scoreboard.game.limits import Limits
from scoreboard.game.rules import Game, deal_coup, result_coup
from scoreboard.screen.board._limits_panel import LIMITS
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.loading import load_theme
from scoreboard.table.applied import FeedStatus
from scoreboard.table.shoe_watch import deals_of
from scoreboard.table.state import TableState

pytestmark = pytest.mark.usefixtures("pygame_display", "utc")

SIZE = (1920, 1080)
AT = 1_796_162_400.0  # 2026-12-01 22:00 UTC: when the scheduled limits take over
NEW = Limits(
    currency="USD", bets={"player": (50, 20_000), "banker": (50, 20_000), "tie": (5, 2_000)}
)
# Seed 7's coup 31 wins Lucky 7 (see test_side_bets_board); coup 30 wins no side bet.
LUCKY = 31


class Breakable:
    """The counters panel, drawn plainly, that raises while ``broken``."""

    def __init__(self) -> None:
        self.broken = False

    def __call__(self, surface: pygame.Surface, body: pygame.Rect, _table: TableState) -> None:
        if self.broken:
            raise RuntimeError("counters broke")
        pygame.draw.rect(surface, (90, 90, 90), body)


@dataclass
class Inputs:
    """What one update is given: the table and the header's inputs."""

    table: TableState
    status: FeedStatus = FeedStatus.LIVE
    clock: str = "21:45"
    journal_failing: bool = False
    counters: Breakable = field(default_factory=Breakable)

    def drawn(self, renderer: Renderer, *, whole: bool) -> pygame.Surface:
        args: dict[str, Any] = {"clock": self.clock, "journal_failing": self.journal_failing}
        if whole:
            return renderer.render(self.table, self.status, **args)
        renderer.update(self.table, self.status, **args)
        return renderer.frame


def played(coups: int = 30, **table: Any) -> Inputs:
    return Inputs(dealt_table(SEED, coups, table=TableState(table_id="T1", **table)))


def add_coup(given: Inputs) -> None:
    table = given.table
    table.add_game(Game(table.last_number + 1, result_coup(table.games[-1].coup.winner)))


def deal_a_hand(given: Inputs) -> None:
    table = given.table
    for event in deals_of(table.shoe_id, Game(table.last_number + 1, table.games[0].coup))[:3]:
        table.deal(event)


def one_deck() -> Inputs:
    """A one-deck shoe whose first coup shows the A♠ (the next one's A♠ is an alert)."""
    table = TableState(table_id="T1", decks=1)
    table.new_shoe("S1")
    table.add_game(Game(1, deal_coup(parse_cards(["AS", "2H", "8H", "5H"]))))
    return Inputs(table)


def overcount(given: Inputs) -> None:
    given.table.add_game(Game(2, deal_coup(parse_cards(["AS", "5D", "8D", "2D"]))))
    assert len(given.table.alerts) == 1


def broken_counters() -> Inputs:
    """The counters fail to draw (the header says DISPLAY FAULT) until they are mended."""
    given = played()
    given.counters.broken = True
    return given


def schedule(given: Inputs) -> None:
    given.table.switch_limits(AT - 86_400 - 3_600)  # the day before
    given.table.set_limits(NEW, effective_at=AT)


@dataclass(frozen=True)
class Case:
    panel: str
    start: Callable[[], Inputs]
    change: Callable[[Inputs], None]
    drawers: bool = False  # the counters are the Breakable panel


CASES = {
    "header: the table's name": Case("header", played, lambda g: g.table.take_name("Salon Privé")),
    "header: the feed's status": Case(
        "header", played, lambda g: setattr(g, "status", FeedStatus.CONNECTING)
    ),
    "header: the clock": Case("header", played, lambda g: setattr(g, "clock", "21:46")),
    "header: the journal failing": Case(
        "header", played, lambda g: setattr(g, "journal_failing", True)
    ),
    "header: another panel failing no more": Case(
        "header", broken_counters, lambda g: setattr(g.counters, "broken", False), drawers=True
    ),
    "header: the game number": Case("header", played, add_coup),
    "header: a new shoe": Case("header", played, lambda g: g.table.new_shoe("S2")),
    "counters: a coup": Case("counters", played, add_coup),
    "counters: a side bet offered": Case(
        "counters", played, lambda g: g.table.set_limits(limits("lucky_7"))
    ),
    "limits: new limits": Case("limits", played, lambda g: g.table.set_limits(NEW)),
    "limits: limits scheduled": Case("limits", played, schedule),
    "limits: the scheduled limits switched": Case(
        "limits",
        lambda: (given := played(), schedule(given))[0],
        lambda g: g.table.switch_limits(AT),
    ),
    "last hand: a coup": Case("last_coup", played, add_coup),
    "last hand: a hand being dealt": Case("last_coup", played, deal_a_hand),
    "last hand: the side bet it won offered": Case(
        "last_coup", lambda: played(LUCKY), lambda g: g.table.set_limits(limits("lucky_7"))
    ),
    "footer: an alert": Case("footer", one_deck, overcount),
}


def pixels(frame: pygame.Surface, renderer: Renderer, panel: str) -> bytes:
    return pygame.image.tobytes(frame.subsurface(renderer.layout.panels[panel].rect), "RGB")


def renderer_for(case: Case, given: Inputs) -> Renderer:
    drawers = {"counters": given.counters} if case.drawers else None
    return Renderer(load_theme("classic"), SIZE, motion=False, drawers=drawers)


@pytest.mark.parametrize("name", CASES)
def test_a_change_of_any_input_redraws_the_panel_as_a_new_board_would(name):
    case = CASES[name]
    given = case.start()
    renderer = renderer_for(case, given)
    before = pixels(given.drawn(renderer, whole=True), renderer, case.panel)
    case.change(given)
    updated = pixels(given.drawn(renderer, whole=False), renderer, case.panel)
    fresh = pixels(given.drawn(renderer_for(case, given), whole=True), renderer, case.panel)
    assert fresh != before, "the change shows on the panel"
    assert updated == fresh


def test_the_day_changing_redraws_the_scheduled_limits_time(monkeypatch):
    """ "New limits from 2026-12-01 22:00" says "from 22:00" once that day has come, by the
    kiosk's wall clock as it gives it to the table, never the system's own."""
    monkeypatch.setattr(time, "time", lambda: AT + 30 * 86_400)  # a clock the panel must not read
    given = played()
    schedule(given)
    renderer = Renderer(load_theme("classic"), SIZE, motion=False)
    before = pixels(given.drawn(renderer, whole=True), renderer, "limits")
    given.table.switch_limits(AT - 3_600)  # the kiosk's step, an hour before the switch
    updated = pixels(given.drawn(renderer, whole=False), renderer, "limits")
    fresh_renderer = Renderer(load_theme("classic"), SIZE, motion=False)
    fresh = pixels(given.drawn(fresh_renderer, whole=True), fresh_renderer, "limits")
    assert fresh != before
    assert updated == fresh


def test_a_panel_whose_reading_raises_shows_its_placeholder_and_reads_again_next():
    """What a panel reads is read inside its guard, as its drawing is."""
    given = played()
    renderer = Renderer(load_theme("classic"), SIZE, motion=False)
    broken = [True]

    def read(panels: Any, frame: Any) -> Any:
        if broken[0]:
            raise RuntimeError("limits unreadable")
        return LIMITS.read(panels, frame)

    renderer.small_panels = tuple(
        dataclasses.replace(p, read=read) if p is LIMITS else p for p in renderer.small_panels
    )
    frame = given.drawn(renderer, whole=True)
    assert renderer.failing == ("limits",) and "header" in renderer.panel_views
    blank = Renderer(load_theme("classic"), SIZE, motion=False)
    blank.frame.blit(blank.static, (0, 0))
    blank.panels.placeholder(blank.frame, "limits")
    assert pixels(frame, renderer, "limits") == pixels(blank.frame, blank, "limits")
    broken[0] = False
    mended = pixels(given.drawn(renderer, whole=False), renderer, "limits")
    fresh = Renderer(load_theme("classic"), SIZE, motion=False)
    assert renderer.failing == () and mended == pixels(
        given.drawn(fresh, whole=True), fresh, "limits"
    )
