"""Motion: the last hand dealt card by card, the winner banner, the newest mark drawn in.

A pure timing model: :class:`Motion` is told when a coup arrives and answers,
for any later moment, what the board shows (how many cards, which banner, how
grown the newest road mark is); the renderer draws that.  Nothing here reads a
clock: ``now`` is the loop's monotonic time, and successive calls never go back
in time.

A coup that arrives at ``t`` with cards shows them one every ``deal_seconds``
from ``t`` (the first at once) in deal order: player 1, banker 1, player 2,
banker 2, then the player's third and the banker's third.  One step after the
last card comes the result: the winner banner for ``banner_seconds``, and the
newest road mark growing in over ``draw_in_seconds``.  Until the result the
roads, the counters and the ask road show the board before the coup
(:meth:`Motion.settled`), so nothing tells the result before the cards do.  A
results-only coup has its result at once.

The hand in order: the banner only ever names the coup whose cards are on
screen.  A coup arriving while the previous one's banner is up waits, with no
card on view, until the banner is down (at most :data:`BANNER_GAP_SECONDS`);
a coup arriving before the previous one's last card ends that reveal, whose
banner is then never shown, and the previous coup goes on the roads at once.
So that this stays rare, the reveal fits the pace: when the last two coups
came less than a reveal and a banner gap apart (a fast demo), the cards come
faster, so the last card lands and the banner is up :data:`BANNER_GAP_SECONDS`
before the next coup is due.

Within limits a regulator accepts (WCAG 2.3.1, at most three flashes a second):

- A coup arriving less than :data:`BURST_SECONDS` after the previous one is part
  of a burst (a backlog delivered at once, a fast demo): it shows its final
  state at once, with no card reveal, no drawn-in mark and no new banner.  A
  banner already up keeps its place and end time and only changes its text.
- The banner's look (up, down, another text) changes at most once every
  :data:`BANNER_GAP_SECONDS`, so at most three times in any second: a change
  asked for sooner waits, and of several waiting changes only the newest is
  shown.
- A card appearing is one change in a small area (a card is under 1 % of the
  screen), never an on-off pair, so the reveal is not a flash.

Motion off (the theme's ``motion.enabled: false``, or the config's or CLI's
switch) draws the final state at once: no card reveal, no banner, no draw-in.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

import pygame

from scoreboard.game.rules import Coup
from scoreboard.screen.board._banner import (
    BannerLook,
    WinnerBanner,
    banner_look,
    newest_big_road_cell,
)
from scoreboard.screen.board._overlay import Overlay
from scoreboard.screen.board.layout import ScreenLayout
from scoreboard.screen.board.panels import PanelPainter
from scoreboard.screen.theme.values import Theme
from scoreboard.table.state import TableState

__all__ = ["BANNER_GAP_SECONDS", "BURST_SECONDS", "Motion", "MotionSettings", "Paced", "ease_out"]

BURST_SECONDS = 1.0
"""A coup arriving sooner than this after the previous one shows its final state at once."""

BANNER_GAP_SECONDS = 0.4
"""The least time between two changes of the banner's look: at most 3 changes in any second."""

DRAW_IN_STEP = 1 / 30
"""How often the board is redrawn while the newest mark grows (30 frames a second)."""

T = TypeVar("T")

_EPSILON = 1e-9  # a card due at exactly ``now`` is shown, whatever the float rounding


@dataclass(frozen=True, slots=True)
class MotionSettings:
    """How the board moves; ``enabled=False`` draws every change in its final state at once."""

    enabled: bool = True
    deal_seconds: float = 0.3
    banner_seconds: float = 3.0
    draw_in_seconds: float = 0.35

    @classmethod
    def from_theme(cls, theme: Theme, *, enabled: bool = True) -> MotionSettings:
        """The theme's ``motion`` section; motion runs only when the theme and ``enabled`` allow."""
        section = theme.motion
        return cls(
            enabled=enabled and section.enabled,
            deal_seconds=section.deal_seconds,
            banner_seconds=section.banner_seconds,
            draw_in_seconds=section.draw_in_seconds,
        )


def ease_out(x: float) -> float:
    """Fast then slow (cubic): how a drawn-in mark grows from 0 to 1.

    >>> ease_out(0.0), ease_out(0.5), ease_out(1.0)
    (0.0, 0.875, 1.0)
    """
    return 1 - (1 - x) ** 3


@dataclass(slots=True)
class Paced(Generic[T]):
    """A look that changes at most once every ``gap`` seconds.

    ``plan`` says what the look should become and when; what is shown follows
    that plan, but a change due sooner than ``gap`` after the last shown change
    waits, and of the changes waiting only the newest is shown.

    >>> look = Paced[str](gap=0.4)
    >>> look.plan(0.0, [(0.0, "a"), (0.1, "b"), (0.2, "c"), (2.0, None)])
    >>> look.at(0.0), look.at(0.3), look.at(0.4), look.at(2.0)
    ('a', 'a', 'c', None)
    >>> look.next_change(0.0)
    0.4
    """

    gap: float
    shown: T | None = None
    since: float = -math.inf
    pending: list[tuple[float, T | None]] = field(default_factory=list)

    def _steps(self) -> Iterator[tuple[float, T | None, int]]:
        """(when, look, how many pending entries it used up), in time order."""
        value, since, pending = self.shown, self.since, self.pending
        index = 0
        while index < len(pending):
            when = max(pending[index][0], since + self.gap)
            while index + 1 < len(pending) and pending[index + 1][0] <= when:
                index += 1
            index += 1
            look = pending[index - 1][1]
            if look != value:
                value, since = look, when
            yield when, value, index

    def at(self, now: float) -> T | None:
        """The look shown at ``now``."""
        value = self.shown
        for when, look, _ in self._steps():
            if when > now:
                break
            value = look
        return value

    def next_change(self, now: float) -> float | None:
        """When the shown look changes next after ``now``; None when it stays."""
        value = self.at(now)
        for when, look, _ in self._steps():
            if when > now and look != value:
                return when
        return None

    def plan(self, now: float, entries: Sequence[tuple[float, T | None]]) -> None:
        """From ``now`` on the look should follow ``entries`` (time, look), replacing any plan."""
        for when, look, _ in self._steps():
            if when > now:
                break
            if look != self.shown:
                self.shown, self.since = look, when
        self.pending = sorted(entries, key=lambda entry: entry[0])


@dataclass(frozen=True, slots=True)
class Reveal:
    """One coup's motion: cards from ``start``, the result (banner, draw-in) at ``result``."""

    start: float
    cards: int
    result: float
    step: float  # between two cards


@dataclass(slots=True)
class NewestCell:
    """Where the banner finds the big road's newest cell: as ``told()`` says, else as estimated.

    Its own object, not a method of :class:`Motion`: the banner that holds it would
    otherwise hold the motion that holds the banner, a cycle only Python's rare full
    collection frees (with the renderer and its surfaces, issue 22).
    """

    told: Callable[[], pygame.Rect | None] | None
    estimate: pygame.Rect | None = None

    def __call__(self) -> pygame.Rect | None:
        told = self.told() if self.told is not None else None
        return told if told is not None else self.estimate


class Motion:
    """The board's motion after each coup, as a function of time; see the module's rules."""

    def __init__(
        self,
        settings: MotionSettings,
        panels: PanelPainter,
        layout: ScreenLayout,
        *,
        newest: Callable[[], pygame.Rect | None] | None = None,
    ) -> None:
        """``newest()``, when given, says where the big road's newest cell is drawn now
        (the renderer knows its scroll); the banner goes beside it.  Without it the
        place is worked out from the table (exact while nothing scrolls)."""
        self.settings = settings
        self.theme = panels.theme
        self.layout = layout
        self._reveal: Reveal | None = None
        self._last_arrival: float | None = None
        self._banner_end = -math.inf
        self._look = Paced[BannerLook](gap=BANNER_GAP_SECONDS)
        self._newest = NewestCell(newest)
        self.banner = WinnerBanner(panels, layout, self._look.at, self._newest)

    def coup_arrived(self, table: TableState, now: float) -> None:
        """A new coup joined the current shoe at ``now``: animate it, or not in a burst."""
        game = table.last_game
        pace = None if self._last_arrival is None else now - self._last_arrival
        quick = pace is not None and pace < BURST_SECONDS
        self._last_arrival = now
        if not self.settings.enabled or game is None:
            return
        look = banner_look(self.theme, game.coup)
        if quick:
            self._reveal = None
            self._look.plan(now, self._in_place(look, now))
            return
        self._newest.estimate = newest_big_road_cell(
            table, self.layout, self.theme.roads.empty_columns
        )
        self._start(game.coup, dataclasses.replace(look, placed=game.number), now, pace)

    def _start(self, coup: Coup, look: BannerLook, now: float, pace: float | None) -> None:
        cards = len(coup.player) + len(coup.banker)
        start = self._banner_down(now)
        step = self.settings.deal_seconds
        if pace is not None and cards:
            step = min(step, max(0.0, (now + pace - BANNER_GAP_SECONDS - start) / cards))
        result = start + round(cards * step, 9)
        self._reveal = Reveal(start, cards, result, step)
        self._banner_end = result + self.settings.banner_seconds
        self._look.plan(now, [(now, None), (result, look), (self._banner_end, None)])

    def _banner_down(self, now: float) -> float:
        """When the banner up at ``now`` can be down (``now`` if none is up): the new
        coup's cards wait for it, so the banner never names a hand it did not win."""
        self._look.plan(now, [(now, None)])
        return self._look.next_change(now) or now

    def _in_place(self, look: BannerLook, now: float) -> list[tuple[float, BannerLook | None]]:
        """A burst's plan: a banner up takes the new text until its end; none starts."""
        shown = self._look.at(now)
        if shown is None:
            return []
        if self._banner_end <= now:
            return [(now, None)]
        return [(now, dataclasses.replace(look, placed=shown.placed)), (self._banner_end, None)]

    def stop(self, now: float) -> None:
        """End every motion at ``now`` (a new shoe, a rebuild): the final state, banner down."""
        self._reveal = None
        self._banner_end = now
        self._look.plan(now, [(now, None)])

    def cards_shown(self, now: float) -> int | None:
        """How many of the last hand's cards show (deal order); None: all of them."""
        reveal = self._reveal
        if reveal is None or reveal.cards == 0 or reveal.step <= 0:
            return None
        if now < reveal.start - _EPSILON:
            return 0  # the previous coup's banner is still coming down
        shown = 1 + math.floor((now - reveal.start) / reveal.step + _EPSILON)
        return None if shown >= reveal.cards else max(1, shown)

    def settled(self, now: float) -> bool:
        """The roads, the counters and the ask road show the newest coup at ``now``:
        its last card has landed (or nothing is being revealed)."""
        reveal = self._reveal
        return reveal is None or now >= reveal.result - _EPSILON

    def draw_in(self, now: float) -> float | None:
        """The newest road mark's size, 0 to 1 from the result on; None once drawn in."""
        reveal = self._reveal
        if reveal is None:
            return None
        if now < reveal.result:
            return 0.0
        span = self.settings.draw_in_seconds
        if now >= self._drawn_in(reveal) - _EPSILON:
            return None
        return ease_out((now - reveal.result) / span)

    def _drawn_in(self, reveal: Reveal) -> float:
        """When the newest mark is whole again."""
        return reveal.result + max(0.0, self.settings.draw_in_seconds)

    def banner_look(self, now: float) -> BannerLook | None:
        """What the winner banner says at ``now``; None while it is down."""
        return self._look.at(now)

    def overlays(self) -> Sequence[Overlay]:
        """What is drawn over the panels: the winner banner."""
        return (self.banner,)

    def next_deadline(self, now: float) -> float | None:
        """When the look changes next after ``now`` (a card, the banner, a draw-in frame)."""
        due = [self._look.next_change(now)]
        reveal = self._reveal
        if reveal is not None:
            shown = self.cards_shown(now)
            if shown is not None:
                due.append(reveal.start + shown * reveal.step)
            if now < reveal.result:
                due.append(reveal.result)
            elif self.draw_in(now) is not None:
                due.append(min(now + DRAW_IN_STEP, self._drawn_in(reveal)))
        found = [when for when in due if when is not None and when > now]
        return min(found, default=None)
