"""Shared material of the screen's issue-11 tests: dealt tables, alerts, notices framed.

``dealt`` builds a real table; ``with_alert`` one whose shoe raised an integrity
alert the way the core does (a second A♠ in a one-deck shoe).  ``Framed`` draws a
renderer's frames with the notices composited over them, as the screen does.
"""

from __future__ import annotations

import pygame

from scoreboard.game.cards import parse_cards
from scoreboard.game.rules import Game, Winner, deal_coup, result_coup
from scoreboard.screen.board._compose import Compositor
from scoreboard.screen.board._notices import Notices
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.values import Theme
from scoreboard.table.amendments import AmendKind
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState

WINNERS = {"B": Winner.BANKER, "P": Winner.PLAYER, "T": Winner.TIE}


def dealt(results: str, shoe: str = "S1") -> TableState:
    """A table whose shoe dealt ``results`` ("BPT..."), games 1, 2, ..."""
    table = TableState()
    table.new_shoe(shoe)
    for number, letter in enumerate(results, start=1):
        table.add_game(Game(number, result_coup(WINNERS[letter])))
    return table


def with_alert() -> TableState:
    """A one-deck shoe whose second coup shows a second A♠: one OVERCOUNT alert."""
    table = TableState(decks=1)
    table.new_shoe("S1")
    table.add_game(Game(1, deal_coup(parse_cards(["AS", "2H", "8H", "5H"]))))
    table.add_game(Game(2, deal_coup(parse_cards(["AS", "5D", "8D", "2D"]))))
    assert len(table.alerts) == 1
    return table


class Framed:
    """A renderer's board with the notices composited over it, frame by frame."""

    def __init__(self, theme: Theme, size: tuple[int, int]) -> None:
        self.renderer = Renderer(theme, size, motion=False)
        self.notices = Notices(theme, self.renderer.panels, self.renderer.layout)
        self.compositor = Compositor(size, pygame.Surface(size))

    def update(self, table: TableState, now: float) -> pygame.Surface:
        dirty = self.renderer.update(table, FeedStatus.LIVE, now=now)
        board = self.renderer.base  # what the renderer drew, under its own overlays
        for rect in dirty:
            self.compositor.frame.blit(board, rect, rect)
        self.notices.observe(table, now)
        self.compositor.compose(self.notices.overlays(), now, dirty)
        return self.compositor.frame

    def at(self, now: float) -> pygame.Surface:
        """The frame at ``now`` with no new state (a blink)."""
        self.compositor.compose(self.notices.overlays(), now, [])
        return self.compositor.frame


def test_the_tables_hold_what_the_screen_reads() -> None:
    table = dealt("BPB")
    table.void(3)
    table.correct(Game(2, result_coup(Winner.BANKER)))
    assert [(a.game, a.kind) for a in table.amendments] == [
        (3, AmendKind.VOID),
        (2, AmendKind.CORRECT),
    ]
    assert table.corrected(2) and not table.corrected(1)
    assert with_alert().alerts[0].detail == "A♠ seen 2 times in 1 deck"
