"""A table with the issue-11 core values the screen reads, until the core's land on main.

``Amended`` is a :class:`TableState` whose ``amendments``, ``corrected(n)``,
``alerts`` and ``scheduled`` are set by the test (the agreed interface of
docs/architecture.md, issue 11), and ``void`` / ``correct`` record an amendment
the way the core will.  Once ``scoreboard.core.amendments`` is on main these
tests build real tables instead.  ``Framed`` draws a renderer's frames with the
notices composited over them, as the screen will.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import pygame

from scoreboard.core.rules import Coup, Game, Winner, result_coup
from scoreboard.core.table import Applied, FeedStatus, Limits, TableState
from scoreboard.render.compose import Compositor
from scoreboard.render.notices import Notices
from scoreboard.render.screen import Renderer
from scoreboard.theme import Theme


class AmendKind(enum.Enum):
    VOID = "void"
    CORRECT = "correct"


@dataclass(frozen=True, slots=True)
class Amendment:
    shoe: str
    game: int
    kind: AmendKind
    before: Coup | None
    after: Coup | None
    reason: str = ""
    by_snapshot: bool = False


@dataclass(frozen=True, slots=True)
class Alert:
    shoe: str
    game: int
    kind: str
    detail: str


@dataclass(frozen=True)
class Scheduled:
    at: float
    limits: Limits


class Amended(TableState):
    """A table that keeps this shoe's amendments, alerts and scheduled limits."""

    def __init__(self) -> None:
        super().__init__()
        self.amendments: tuple[Amendment, ...] = ()
        self.alerts: tuple[Alert, ...] = ()
        self.scheduled: Scheduled | None = None

    def corrected(self, number: int) -> bool:
        last: dict[int, AmendKind] = {a.game: a.kind for a in self.amendments}
        return last.get(number) is AmendKind.CORRECT

    def new_shoe(self, shoe_id: str) -> Applied:
        self.amendments, self.alerts = (), ()
        return super().new_shoe(shoe_id)

    def void(self, number: int) -> Applied:
        before = self.game(number)
        applied = super().void(number)
        self._amend(number, AmendKind.VOID, before and before.coup, None)
        return applied

    def correct(self, game: Game) -> Applied:
        before = self.game(game.number)
        applied = super().correct(game)
        self._amend(game.number, AmendKind.CORRECT, before and before.coup, game.coup)
        return applied

    def _amend(self, number: int, kind: AmendKind, before: Coup | None, after: Coup | None) -> None:
        made = Amendment(self.shoe_id or "", number, kind, before, after)
        self.amendments = (*self.amendments, made)


def dealt(results: str, shoe: str = "S1") -> Amended:
    """A table whose shoe dealt ``results`` ("BPT..."), games 1, 2, ..."""
    table = Amended()
    table.new_shoe(shoe)
    winners = {"B": Winner.BANKER, "P": Winner.PLAYER, "T": Winner.TIE}
    for number, letter in enumerate(results, start=1):
        table.add_game(Game(number, result_coup(winners[letter])))
    return table


class Framed:
    """A renderer's board with the notices composited over it, frame by frame."""

    def __init__(self, theme: Theme, size: tuple[int, int]) -> None:
        self.renderer = Renderer(theme, size, motion=False)
        self.notices = Notices(theme, self.renderer.panels, self.renderer.layout)
        self.compositor = Compositor(self.renderer.base)

    def update(self, table: TableState, now: float) -> pygame.Surface:
        dirty = self.renderer.update(table, FeedStatus.LIVE, now=now)
        self.notices.observe(table, now)
        self.compositor.compose(self.notices.overlays(), now, dirty)
        return self.compositor.frame

    def at(self, now: float) -> pygame.Surface:
        """The frame at ``now`` with no new state (a blink)."""
        self.compositor.compose(self.notices.overlays(), now, [])
        return self.compositor.frame


def test_the_helper_records_what_the_core_will() -> None:
    table = dealt("BPB")
    table.void(3)
    table.correct(Game(2, result_coup(Winner.BANKER)))
    assert [(a.game, a.kind) for a in table.amendments] == [
        (3, AmendKind.VOID),
        (2, AmendKind.CORRECT),
    ]
    assert table.corrected(2) and not table.corrected(1) and not table.corrected(3)
    table.new_shoe("S2")
    assert table.amendments == ()
