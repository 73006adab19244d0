"""Notices: what happened to the board's record ("Game 17 voided") and the keypad's prompt.

A void or a correction rebuilds the roads; without a word on screen players
would see history change under their eyes.  :class:`Notices` watches the
table's amendments and puts a short plate up for each new one, in the theme's
languages: "Game 17 voided", "Game 17 corrected: Banker → Player" (a correction
that kept the winner says what changed: "P Pair added").  It is information,
not decoration: shown with motion off too.

Rules (docs/display.md, "Notices"):

- Each plate stays ``motion.notice_seconds`` (4 s by default), one after the
  other; none is lost.  At most :data:`MAX_WAITING` wait behind the one shown:
  beyond that the waiting ones merge by kind ("Games 17, 18 voided"), so the
  whole queue never takes more than three plates' time.
- Only an amendment made while the board watches: none on the first frame
  (which covers a journal replay at start and a theme reload) nor for a new shoe.
- The keypad's prompt (:meth:`Notices.set_prompt`) is a plate of its own that
  stays while set.
- Each plate's look changes at most once every
  :data:`~scoreboard.screen.board._motion.BANNER_GAP_SECONDS` (0.4 s), so the two
  plates together stay under three flashes a second (WCAG 2.3.1).

The correction notice goes over the last hand's panel (the board's middle
without one), across the whole board when its words do not fit the panel; the
prompt, for the dealer, on a strip across the bottom of the board.  Painted by
:class:`~scoreboard.screen.board._banner.SignPainter`, like the winner banner.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pygame

from scoreboard.game.rules import Coup, Winner
from scoreboard.screen.board._banner import SIDE_KEYS, PaintedBanner, Placing, Sign, SignPainter
from scoreboard.screen.board._motion import BANNER_GAP_SECONDS, Paced
from scoreboard.screen.board._overlay import Overlay, board_area
from scoreboard.screen.board.layout import ScreenLayout
from scoreboard.screen.board.panels import PanelPainter
from scoreboard.screen.theme.values import RGB, Theme
from scoreboard.table.amendments import AmendKind, Amendment
from scoreboard.table.state import TableState

NOTICE_CAP = 0.045
"""A notice's capitals (of the shorter screen side) when they fit."""

PROMPT_CAP = 0.035
"""The keypad prompt's capitals: one line on a strip at the bottom of the board."""

MAX_WAITING = 2
"""Notices waiting behind the one shown before the waiting ones merge by kind."""

MAX_RUNS = 5
"""Runs of game numbers a merged notice names ("17–19, 23, …"); more end in an ellipsis."""


@dataclass(frozen=True, slots=True)
class Notice:
    """One plate: its kind (``void``, ``correct``, ``prompt``), the games it names and
    its words, one per shown language."""

    kind: str
    games: tuple[int, ...]
    words: tuple[str, ...]


def game_runs(games: Sequence[int]) -> str:
    """Game numbers as runs, in order: ``"17–19, 23"``; more than :data:`MAX_RUNS` end in "…".

    >>> game_runs([23, 17, 18, 19]), game_runs([1, 3, 5, 7, 9, 11])
    ('17–19, 23', '1, 3, 5, 7, 9, …')
    """
    runs: list[list[int]] = []
    for game in sorted(set(games)):
        if runs and game == runs[-1][-1] + 1:
            runs[-1].append(game)
        else:
            runs.append([game])
    shown = [str(r[0]) if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs[:MAX_RUNS]]
    return ", ".join(shown + (["…"] if len(runs) > MAX_RUNS else []))


def change_words(theme: Theme, before: Coup | None, after: Coup | None) -> tuple[str, ...]:
    """What a correction changed, per language: "Banker → Player", or for the same
    winner "P Pair added", "7 – 5 → 8 – 5", else "cards changed"."""
    if after is None:
        return theme.label("cards_changed")
    side = theme.label(SIDE_KEYS[after.winner])
    if before is None:
        return side
    if before.winner is not after.winner:
        was = theme.label(SIDE_KEYS[before.winner])
        return tuple(f"{a} → {b}" for a, b in zip(was, side, strict=True))
    parts: list[tuple[str, ...]] = []
    for key, had, has in (
        ("banker_pair", before.banker_pair, after.banker_pair),
        ("player_pair", before.player_pair, after.player_pair),
    ):
        if had != has:
            parts.append(theme.filled("added" if has else "removed", what=theme.label(key)))
    old, new = score(before, after.winner), score(after, after.winner)
    if old != new and old is not None and new is not None:
        parts.append(tuple(f"{old} → {new}" for _ in theme.languages))
    if not parts:
        return theme.label("cards_changed")
    return tuple(", ".join(words) for words in zip(*parts, strict=True))


def score(coup: Coup, winner: Winner) -> str | None:
    """The totals, the winner's first (a tie: Player's): ``"7 – 5"``; None if unknown."""
    player, banker = coup.player_total, coup.banker_total
    if player is None or banker is None:
        return None
    return f"{banker} – {player}" if winner is Winner.BANKER else f"{player} – {banker}"


def amendment_notice(theme: Theme, amendment: Amendment) -> Notice:
    """The plate for one amendment."""
    game = str(amendment.game)
    if amendment.kind is AmendKind.VOID:
        return Notice("void", (amendment.game,), theme.filled("game_voided", game=game))
    change = change_words(theme, amendment.before, amendment.after)
    words = theme.filled("game_corrected", game=game, change=change)
    return Notice("correct", (amendment.game,), words)


def merged(
    theme: Theme, notices: Sequence[Notice], on_board: Callable[[int], bool] = lambda _: False
) -> list[Notice]:
    """The notices as at most one plate per kind, voids first: "Games 17, 18 voided".

    A merged plate shows later than the changes it names, so it says where each game
    ended: a game in the kind of its last notice only, and not "voided" when it is
    on the board again (voided before it arrived, then dealt).
    """
    last: dict[int, Notice] = {}
    for notice in notices:
        for game in notice.games:
            last[game] = notice
    found: list[Notice] = []
    for kind, key in (("void", "games_voided"), ("correct", "games_corrected")):
        games = tuple(
            sorted(
                game
                for game, notice in last.items()
                if notice.kind == kind and not (kind == "void" and on_board(game))
            )
        )
        if len(games) == 1:
            found.append(last[games[0]])
        elif games:
            found.append(Notice(kind, games, theme.filled(key, games=game_runs(games))))
    return found


def prompt_lines(text: str) -> tuple[str, ...]:
    """A question and its instruction as two parts, so a narrow plate breaks it there
    rather than cutting the instruction the dealer needs.

    >>> prompt_lines("Void game 17 (Banker)? Press - again or hold it")
    ('Void game 17 (Banker)?', 'Press - again or hold it')
    >>> prompt_lines("Banker pair +")
    ('Banker pair +',)
    """
    question, mark, rest = text.partition("? ")
    return (question + mark.strip(), rest) if mark and rest else (text,)


@dataclass(frozen=True, slots=True)
class Slot:
    """One plate in the queue: shown from ``start`` to ``end``."""

    start: float
    end: float
    notice: Notice


class Prompt:
    """The keypad's prompt plate's look over time: the text wanted, shown from when it changed.

    Its own object, not methods of :class:`Notices`: the plate holding ``at`` would
    otherwise hold the notices that hold the plate, a cycle only Python's rare full
    collection frees (with the renderer and its surfaces, issue 22).
    """

    def __init__(self) -> None:
        self.wanted: str | None = None
        self._planned: str | None = None
        self._paced = Paced[Notice](gap=BANNER_GAP_SECONDS)

    def at(self, now: float) -> Notice | None:
        """The prompt up at ``now`` (a new text is planned from ``now``); None when none is."""
        if self.wanted != self._planned:
            self._planned = wanted = self.wanted
            look = None if wanted is None else Notice("prompt", (), prompt_lines(wanted))
            self._paced.plan(now, [(now, look)])
        return self._paced.at(now)

    def next_change(self, now: float) -> float | None:
        """When the prompt's plate changes next after ``now``."""
        self.at(now)
        return self._paced.next_change(now)


class Notices:
    """The correction notices and the keypad's prompt, as overlays; see the module's rules."""

    def __init__(self, theme: Theme, panels: PanelPainter, layout: ScreenLayout) -> None:
        self.theme = theme
        self.seconds = theme.motion.notice_seconds
        self._shoe: str | None = None
        self._seen = 0
        self._watching = False
        self._queue: list[Slot] = []
        self._banner = Paced[Notice](gap=BANNER_GAP_SECONDS)
        self._prompt = Prompt()
        board = board_area(layout)
        strip = pygame.Rect(board.x, 0, board.width, round(layout.unit * PROMPT_CAP * 2.3 / 0.8))
        strip.bottom = board.bottom - layout.px(0.005)
        panel = layout.panels.get("last_coup")
        middle = pygame.Rect(panel.rect) if panel is not None else board
        middle.height = max(middle.height // 2, min(middle.bottom, strip.top) - middle.top)
        wide = pygame.Rect(board.x, middle.y, board.width, middle.height)
        colors = panels.colors
        signs = SignPainter(panels, layout, cap=NOTICE_CAP)
        self.banner = NoticePlate(signs, self._banner.at, (middle, wide), colors.header_background)
        signs = SignPainter(panels, layout, cap=PROMPT_CAP)
        self.prompt = NoticePlate(signs, self._prompt.at, (strip, strip), colors.accent)

    # -- the queue -------------------------------------------------------------------------
    def observe(self, table: TableState, now: float) -> None:
        """Called on every update: a new amendment of the same shoe puts a notice up."""
        amendments = table.amendments
        first, same_shoe = not self._watching, table.shoe_id == self._shoe
        self._watching, self._shoe = True, table.shoe_id
        fresh = amendments[self._seen :] if same_shoe and len(amendments) > self._seen else ()
        self._seen = len(amendments)
        if not first and not same_shoe:  # a new shoe: the last shoe's notices go
            self._queue = []
            self._banner.plan(now, [(now, None)])
        if not fresh:  # the first frame (a replay included) and a new shoe have none
            return
        notices = [amendment_notice(self.theme, a) for a in fresh]
        self._enqueue(notices, now, lambda game: table.game(game) is not None)

    def _enqueue(self, notices: list[Notice], now: float, on_board: Callable[[int], bool]) -> None:
        kept = [slot for slot in self._queue if slot.end > now]
        shown = [slot for slot in kept if slot.start <= now]
        waiting = [slot.notice for slot in kept if slot.start > now] + notices
        if len(waiting) > MAX_WAITING + (0 if shown else 1):
            waiting = merged(self.theme, waiting, on_board)
        start = shown[-1].end if shown else now
        self._queue = shown[-1:]
        for notice in waiting:
            self._queue.append(Slot(start, start + self.seconds, notice))
            start += self.seconds
        plan: list[tuple[float, Notice | None]] = [(s.start, s.notice) for s in self._queue]
        self._banner.plan(now, [*plan, (start, None)])

    # -- the prompt ------------------------------------------------------------------------
    def set_prompt(self, text: str | None) -> None:
        """The keypad's confirm prompt ("Void game 17? Press − again"); None takes it down."""
        self._prompt.wanted = text or None

    # -- for the renderer ------------------------------------------------------------------
    def overlays(self) -> Sequence[Overlay]:
        """The correction notice and the prompt (in that order)."""
        return (self.banner, self.prompt)

    def notice(self, now: float) -> Notice | None:
        """The correction notice up at ``now``; None when none is."""
        return self._banner.at(now)

    def next_deadline(self, now: float) -> float | None:
        """When a plate changes next after ``now`` (a notice ends, the next one, a prompt)."""
        due = [self._banner.next_change(now), self._prompt.next_change(now)]
        return min((when for when in due if when is not None), default=None)


class NoticePlate(Sign[Notice]):
    """One of the notices' plates, as an :class:`~scoreboard.screen.board._compose.Overlay`.

    Tried in its slot, then across the whole board at the slot's height; in
    each on one line with its languages side by side, else a line each.
    """

    def __init__(
        self,
        signs: SignPainter,
        look_at: Callable[[float], Notice | None],
        slots: tuple[pygame.Rect, pygame.Rect],
        fill: RGB,
    ) -> None:
        super().__init__(look_at)
        self.signs = signs
        self.slots = slots
        self.fill = fill

    def paint(self, look: Notice) -> PaintedBanner:
        signs, wide = self.signs, self.slots[-1]
        words = tuple(dict.fromkeys(look.words))
        room = signs.room(
            Placing(wide, (wide.left, wide.right), tuple(((w, False),) for w in words))
        )
        size, text = signs.least_size(), signs.panels.text
        words = tuple(text.shorten(w, size, room, bold=True) for w in words)  # a theme's long label
        one = (tuple((word, False) for word in words),)
        each = tuple(((word, False),) for word in words)
        placings = [
            Placing(slot, (slot.left, slot.right), lines)
            for slot in self.slots
            for lines in dict.fromkeys((one, each))
        ]
        return self.signs.paint(placings, self.fill, self.signs.panels.colors.accent)


# -- the staff's marks: integrity alerts, the shoe's health --------------------------------
def alert_count(table: TableState) -> int:
    """This shoe's integrity alerts (the staff mark's count)."""
    return len(table.alerts)


def alert_text(p: PanelPainter, count: int) -> str:
    """The words beside the staff mark's triangle: ``"ALERTS 2"`` (the primary language)."""
    return f"{p.theme.label('alerts')[0]} {count}"


def shoe_text(p: PanelPainter, table: TableState) -> str:
    """The card-reading shoe's staff mark: ``"SHOE OFFLINE"`` while its cable is out,
    ``"SHOE ERROR 2"`` while it reports an error (the latest one's code); "" while well."""
    watch = table.shoe_watch
    key = watch.mark
    if key is None:
        return ""
    words = p.theme.label(key)[0]
    errors = watch.errors
    if key == "shoe_error" and errors:
        words += " " + errors[-1].condition.partition(":")[2]
    return words


def draw_staff_mark(
    p: PanelPainter, surface: pygame.Surface, text: str, box: pygame.Rect, height: float
) -> pygame.Rect:
    """A staff mark, right-aligned in ``box``: a warning triangle and ``text`` (the
    alerts' label and count, the shoe's state); the rectangle it covers.

    Discreet by design: the size of the footer's small print, in the warning
    colour, where staff look for it and players do not read a banner (the
    alerts themselves are in the log, the status and the journal).  The
    triangle is drawn, not a glyph: every font draws it.
    """
    colors = p.colors
    drawn = p.put(surface, text, box, colors.warning, bold=True, align="right",
                  height=height)  # fmt: skip
    cap = p.text.cap_height(drawn.size, bold=True)
    sign = alert_triangle(p, max(6, round(cap * 1.35)))
    where = sign.get_rect(midright=(drawn.rect.left - max(2, round(cap * 0.4)), box.centery))
    surface.blit(sign, where)
    return where.union(drawn.rect)


def alert_triangle(p: PanelPainter, side: int) -> pygame.Surface:
    """A warning triangle ``side`` wide with an exclamation mark, cached with the sprites."""
    colors = p.colors
    key = ("alert", side, colors.warning, colors.background)
    found = p.roads.sprites.get(key)
    if found is not None:
        return found
    height = round(side * 0.9)
    sign = pygame.Surface((side, height), pygame.SRCALPHA)
    pygame.draw.polygon(
        sign, colors.warning, [(side / 2, 0), (side - 1, height - 1), (0, height - 1)]
    )
    stroke = max(1, round(side / 9))
    bang = pygame.Rect(0, 0, stroke, round(height * 0.38))
    bang.midtop = (side // 2, round(height * 0.32))
    pygame.draw.rect(sign, colors.background, bang)
    dot = pygame.Rect(0, 0, stroke, stroke)
    dot.midtop = (side // 2, bang.bottom + stroke)
    pygame.draw.rect(sign, colors.background, dot)
    return p.roads.sprites.put(key, sign)
