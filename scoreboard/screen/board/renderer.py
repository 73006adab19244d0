"""The full frame: a cached static layer, and only what changed redrawn.

:class:`Renderer` draws on one frame: its own, or the display's when the kiosk
hands it over (:meth:`Renderer.draw_on`: nothing copied on the way to the
screen).  ``update`` redraws the small panels whose content changed, and of
them only what they draw differently from last time (onto a
:class:`~scoreboard.screen.board.canvas.Recorder`), and of the roads only the changed
cells; a road is redrawn whole only when its window scrolled.  A small panel is
one unit (:class:`~scoreboard.screen.board._small_panels.SmallPanel`): what it
reads is its change key and all its drawing sees, so the renderer only compares
and draws, the same way for each panel of :data:`SMALL_PANELS`.  ``update`` returns the
rectangles it touched; the app shows them only after the whole update
succeeded, so a frame that fails half-way never reaches the screen (the next is
full).  A full frame copies the static layer once.

Motion (:mod:`scoreboard.screen.board._motion`) is a timing model the renderer asks:
how many of the last hand's cards show, how grown the newest mark is, which
overlays (the winner banner) are up.  Overlays (and the shuffle screen) are
drawn over the board on the same frame, the board under them kept in a saved
copy (:mod:`scoreboard.screen.board._compose`) and restored exactly when they move or
end; :attr:`Renderer.base` is the board without them.

Each panel is drawn inside its own guard (:mod:`scoreboard.screen.board.guard`): a
panel that raises shows a neutral placeholder, the others go on updating, and
while any panel fails the header's feed mark says so (never LIVE over a board
it could not draw).  A failing panel is tried again on every update.  The
roads' state (windows, newest cells) is in :mod:`scoreboard.screen.board._road_frame`.

Use (pygame's display and fonts initialised first, as ``tests/test_render.py``
does)::

    renderer = Renderer(load_theme("classic"), (1280, 720))
    frame = renderer.render(table, FeedStatus.DEMO)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Mapping
from typing import Any

import pygame

from scoreboard.roads.good_roads import GoodRoadRules
from scoreboard.screen.board._ask_road import ASK_ROAD
from scoreboard.screen.board._chrome import FOOTER, HEADER
from scoreboard.screen.board._compose import Compositor, Overlay
from scoreboard.screen.board._counters_panel import COUNTERS, draw_tile_faces
from scoreboard.screen.board._good_road_plate import GoodRoadPlate
from scoreboard.screen.board._hand import LAST_HAND, WarmCards
from scoreboard.screen.board._limits_panel import LIMITS
from scoreboard.screen.board._motion import Motion, MotionSettings
from scoreboard.screen.board._notices import Notices
from scoreboard.screen.board._road_frame import RoadFrame
from scoreboard.screen.board._small_panels import FrameInput, SmallPanel, Timing
from scoreboard.screen.board.canvas import Op, Recorder, put_down
from scoreboard.screen.board.grid import RoadView, RoadWindow, static_layer
from scoreboard.screen.board.guard import PanelGuard
from scoreboard.screen.board.layout import PanelBox, ScreenLayout, compute_layout
from scoreboard.screen.board.marks import RoadPainter
from scoreboard.screen.board.panels import PanelPainter, PanelView
from scoreboard.screen.board.shuffle_overlay import Promo, ShuffleOverlay
from scoreboard.screen.board.symbols import Sprites
from scoreboard.screen.board.text import shared_cache
from scoreboard.screen.theme.values import Theme
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState

SHUFFLE_BANNER = "shuffle_banner"
"""The name the shuffle screen's failures are reported under (it is drawn over the roads)."""

PanelDrawer = Callable[[pygame.Surface, pygame.Rect, TableState], object]
"""Draws one panel: the frame, the panel's body rectangle, the table."""

SMALL_PANELS: tuple[SmallPanel[Any], ...] = (COUNTERS, ASK_ROAD, LAST_HAND, LIMITS, FOOTER, HEADER)
"""The small panels, in drawing order (each one unit: what it reads beside how it draws;
see :mod:`scoreboard.screen.board._small_panels`).  A new one is a unit and an entry here."""


class Renderer:
    """Turns a table state into pixels for one theme and one screen size."""

    def __init__(
        self,
        theme: Theme,
        size: tuple[int, int],
        *,
        drawers: Mapping[str, PanelDrawer] | None = None,
        motion: bool = True,
        good_roads: GoodRoadRules | None = None,
        promo: Promo | None = None,
        ahead: bool = True,
        pixels: bool = True,
    ) -> None:
        """``drawers`` replaces how the named panels are drawn (see :data:`PanelDrawer`).

        It is the documented hook for a test's failing panel and for a site's own
        panel; the built-in painters draw every panel it does not name.
        ``motion=False`` (or the theme's ``motion.enabled: false``) draws every
        change in its final state at once.  ``good_roads``: show them (None: off).
        ``promo``: the venue's images, shown in turn on the shuffle screen.
        ``ahead=False``: nothing made ahead for later frames, neither the card faces
        for the first coup nor the copy of the board under the overlays (a renderer that
        draws one frame and is dropped, as the theme probe's, has no later frame to speed up);
        else, once its first frame is drawn, each size is drawn with a font of its own.
        ``pixels=False``: no pixel of the board is ever read (the theme probe reads only
        where each text went and which panel failed), so it is drawn over its static
        layer, one screen-sized surface instead of two; its frame is not the board.
        Texts are measured and drawn in the process's cache for the theme's fonts
        (:func:`~scoreboard.screen.board.text.shared_cache`), shared by every board of it.
        """
        self.theme = theme
        self.drawers: Mapping[str, PanelDrawer] = dict(drawers or {})
        self.guard = PanelGuard()
        self.size = size
        self.layout: ScreenLayout = compute_layout(theme, size)
        self.text = shared_cache(theme.fonts, theme.style.text_scale)
        self.sprites = Sprites()
        self.roads = RoadPainter(theme, self.sprites, self.text)
        self.panels = PanelPainter(theme, self.layout, self.text, self.roads)
        #: The frame drawn on (board and overlays in place) and the board under the overlays.
        self.compositor = Compositor(size, ahead=ahead)
        self.static = static_layer(theme, self.layout, self.panels)
        if "counters" in self.layout.panels and "counters" not in self.drawers:
            draw_tile_faces(self.panels, self.static)
        if not pixels:
            self.compositor.retarget(self.static)
        self.cards = WarmCards(self.panels, ahead and "last_coup" not in self.drawers)
        self.ahead = ahead
        # What the parts are handed refers to the parts, never back to the renderer: a
        # renderer a theme reload replaces is freed at once, its surfaces with it (issue 22).
        self.road_frame = RoadFrame(theme, self.layout, self.roads, self.panels)
        self.motion = self._motion(motion)
        #: The correction notices and the keypad's prompt (shown with motion off too).
        self.notices = Notices(theme, self.panels, self.layout)
        guarded = functools.partial(self.guard.run, SHUFFLE_BANNER)
        self.shuffle = ShuffleOverlay(self.panels, guarded, promo)
        self.good_road_plate = (
            None if good_roads is None else GoodRoadPlate(self.panels, self.layout, good_roads)
        )
        #: The small panels drawn (the layout places those it has).
        self.small_panels = SMALL_PANELS
        #: The labelled values the header and the counters panel show now.
        self.panel_views: dict[str, PanelView] = {}
        self._keys: dict[str, Hashable] = {}
        self._ops: dict[str, list[Op]] = {}  # what each recorded panel last put on the frame
        self._table: TableState | None = None
        self._given: FrameInput | None = None  # what the last update drew from
        self._drawn_version: tuple[int, bool] | None = None  # and the table's version then
        #: Each road's columns before the coup being dealt (its scroll waits), or None.
        self._held: dict[str, int] | None = None
        self._shoe_id: str | None = None
        #: The last hand seen dealt face down (shoe, game): its coup turns its cards over.
        self._face_down: tuple[str, int] | None = None

    def _motion(self, wanted: bool) -> Motion | None:
        settings = MotionSettings.from_theme(self.theme, enabled=wanted)
        if not settings.enabled:
            return None
        return Motion(settings, self.panels, self.layout, newest=self.road_frame.newest_big_road)

    # -- public ---------------------------------------------------------------------------
    @property
    def failures(self) -> int:
        """Failed panel draws since this renderer was built."""
        return self.guard.failures

    @property
    def windows(self) -> dict[str, RoadWindow]:
        """The window each road shows now, by road name."""
        return self.road_frame.windows

    @property
    def views(self) -> dict[str, RoadView]:
        """What each road panel shows now (scroll, newest cell), by road name."""
        return self.road_frame.views

    @property
    def frame(self) -> pygame.Surface:
        """What the screen shows: the board, with any overlay drawn over it."""
        return self.compositor.frame

    @property
    def base(self) -> pygame.Surface:
        """The drawn board without overlays (the frame itself while none is up; else a copy)."""
        return self.compositor.board()

    def draw_on(self, surface: pygame.Surface) -> None:
        """Draw straight onto ``surface`` (the display's, on a screen not turned) from now on;
        the next update is a full frame.  ``surface`` must be this renderer's size."""
        self.compositor.retarget(surface)
        self.invalidate()

    def _compose(self, now: float, dirty: list[pygame.Rect]) -> list[pygame.Rect]:
        self.shuffle.table = self._table
        overlays: list[Overlay] = [self.shuffle]  # under the banner and the notices
        overlays += self.motion.overlays() if self.motion is not None else ()
        overlays += self.notices.overlays()
        return self.compositor.compose(overlays, now, dirty)

    def invalidate(self) -> None:
        """Forget what is on the frame: the next update redraws everything."""
        self._keys.clear()

    @property
    def failing(self) -> tuple[str, ...]:
        """The panels that show the placeholder now: their last draw failed."""
        return self.guard.failing

    def render(
        self,
        table: TableState,
        status: FeedStatus,
        *,
        clock: str = "",
        now: float = 0.0,
        journal_failing: bool = False,
    ) -> pygame.Surface:
        """The complete frame for this state (what ``screenshot`` saves)."""
        self.invalidate()
        self.update(table, status, clock=clock, now=now, journal_failing=journal_failing)
        return self.frame

    def update(
        self,
        table: TableState,
        status: FeedStatus,
        *,
        clock: str = "",
        now: float = 0.0,
        journal_failing: bool = False,
        notice: str | None = None,
    ) -> list[pygame.Rect]:
        """Redraw what changed; return the rectangles touched.

        ``journal_failing`` puts the journal warning beside the feed mark.  The
        header is drawn last, so its mark reflects the panels of this very frame.
        ``notice``: the keypad's prompt, shown on a plate while given.
        """
        dirty: list[pygame.Rect] = []
        full = not self._keys
        if full:
            self.cards.onto(self.frame)  # the full frame covers them
            self.frame.blit(self.static, (0, 0))
            dirty.append(self.frame.get_rect())
        before = self.road_frame.columns()
        changed = self.road_frame.index.sync(table.roads)
        arrived = self._arrived(table, changed, full)
        self._table, self._shoe_id = table, table.shoe_id
        if table.forming is not None:
            self._face_down = (table.forming.shoe, table.forming.game)
        if self.motion is not None:
            if arrived:
                self.motion.coup_arrived(table, now)
            elif changed is None and not full:
                self.motion.stop(now)
        self._hold_roads(before if arrived else None, changed, full, now)
        self.notices.set_prompt(notice)
        self.notices.observe(table, now)
        if changed and any(changed.values()):  # new entries: the marks still drawing in or
            # blinking are finished first (a redraw for the clock leaves them as they are)
            dirty += self.road_frame.newest.settle(self.frame, self.static, self.views)
        given = self._input(table, status, clock, now, journal_failing)
        self._given, self._drawn_version = given, (table.version, table.shuffling)
        self._refresh_small(given, dirty, full, last=False)
        grown = self._update_roads(given, changed, dirty, full)
        self._refresh_small(given, dirty, full, last=True)  # how this frame's draws went
        if self.good_road_plate is not None:
            plate = functools.partial(self.good_road_plate.update, self.frame, self.static)
            self._guarded("good_roads", now, lambda: dirty.extend(plate(table, dirty, full)))
        newest = self.road_frame.newest
        if grown and arrived:
            drawn = self.motion is None or self.motion.draw_in(now) is None
            newest.begin(grown, now if drawn else None)
        if table.shuffling or changed is None:
            newest.begin([], None)  # the banner covers the roads; a blink would cut into it
        dirty += self._animate_newest(now)
        self._frame_drawn()
        return self._compose(now, dirty)

    def _frame_drawn(self) -> None:
        """A renderer that draws on draws each size with a font of its own from now on (its
        first frame, at a start, opened none: :meth:`TextCache.settle`)."""
        if self.ahead:
            self.text.settle()

    def next_blink(self, now: float) -> float | None:
        """The next moment anything animated changes (a blink, a card, a banner), or None."""
        due = []
        if self.motion is not None:
            due.append(self.motion.next_deadline(now))
        due.append(self.notices.next_deadline(now))
        due.append(self.road_frame.newest.next_change(now))
        due.append(self.shuffle.next_change(now))
        found = [when for when in due if when is not None]
        return min(found, default=None)

    def blink(self, now: float) -> list[pygame.Rect]:
        """Advance every animation to ``now``; touches only what changed."""
        dirty: list[pygame.Rect] = []
        table = self._table
        given = self._given
        if table is not None and self.motion is not None and given is not None:
            given = self._input(table, given.status, given.clock, now, given.journal_failing)
            same = self._drawn_version == (table.version, table.shuffling)
            landed = same and self._settled(now)  # else the next update draws the new table
            for panel in self.small_panels:  # only those on the frame (not a failed one)
                moves = panel.timing is Timing.MOVING or (landed and panel.timing is Timing.LANDED)
                if moves and panel.name in self._keys:
                    self._refresh(panel, given, dirty, False)
            if landed and self._held is not None:
                self._held = None  # landed: the roads scroll to the coup's column
                self._update_roads(given, {}, dirty, False)
        dirty += self._animate_newest(now)
        return self._compose(now, dirty)

    # -- roads ------------------------------------------------------------------------------
    def _arrived(self, table: TableState, changed: dict[str, list[int]] | None, full: bool) -> bool:
        """A coup joined the current shoe since the last update (not a first frame or rebuild)."""
        return (
            not full
            and changed is not None
            and bool(changed.get("bead_plate"))
            and self._shoe_id == table.shoe_id
        )

    def _update_roads(
        self,
        given: FrameInput,
        changed: dict[str, list[int]] | None,
        dirty: list[pygame.Rect],
        full: bool,
    ) -> list[str]:
        """Scroll, then redraw each road whole or only its changed cells; the roads that grew."""
        table, roads = given.table, self.road_frame
        roads.place_windows(self._held)
        grown = []
        for name in self.layout.grids:
            key = roads.key(name, table)
            if name in self.drawers:
                key = (key, table.version)
            touched = [] if changed is None else changed.get(name, [])
            if changed is None:  # rebuilt (a void, a correction): every cell may differ
                self._keys.pop(name, None)
            if changed is None or self._keys.get(name) != key:
                self._refresh_road(name, key, given, dirty, full)
            elif touched:
                draw = functools.partial(
                    roads.draw_cells, self.frame, self.static, name, table, touched, dirty
                )
                self._guarded(name, given.now, draw)
            if touched and table.roads.length(name):
                grown.append(name)
        return grown

    def _hold_roads(
        self,
        before: dict[str, int] | None,
        changed: dict[str, list[int]] | None,
        full: bool,
        now: float,
    ) -> None:
        """The roads keep their scroll (``before``: their columns before the coup that
        arrived) until its last card has landed; a rebuild or a full frame lets go."""
        if before is not None:
            self._held = before
        elif changed is None or full or any(changed.values()):
            self._held = None
        if self._settled(now):
            self._held = None

    def _settled(self, now: float) -> bool:
        return self.motion is None or self.motion.settled(now)

    def _refresh_small(
        self, given: FrameInput, dirty: list[pygame.Rect], full: bool, *, last: bool
    ) -> None:
        """The small panels drawn before the roads, or (``last``) after them.  Those that
        take a coup with the roads wait until its last card has landed (a full frame
        draws them as they are)."""
        landed = full or self._settled(given.now)
        for panel in self.small_panels:
            if panel.last is last and (landed or panel.timing is not Timing.LANDED):
                self._refresh(panel, given, dirty, full)

    def _animate_newest(self, now: float) -> list[pygame.Rect]:
        scale = self.motion.draw_in(now) if self.motion is not None else None
        return self.road_frame.newest.draw(self.frame, self.static, self.views, now, scale)

    def _input(
        self, table: TableState, status: FeedStatus, clock: str, now: float, journal_failing: bool
    ) -> FrameInput:
        """What the small panels read at ``now``: the table, the header's inputs, motion's
        cards on view, and the guard (the header reads whether another panel fails)."""
        shown = self.motion.cards_shown(now) if self.motion is not None else None
        backs = self._face_down == (table.shoe_id, table.last_number)
        return FrameInput(table, status, clock, now, journal_failing, self.guard, shown, backs)

    # -- panels -----------------------------------------------------------------------------
    def _refresh(
        self, panel: SmallPanel[Any], given: FrameInput, dirty: list[pygame.Rect], full: bool
    ) -> None:
        """Redraw small ``panel`` if what it reads differs from what it drew, onto a recorder:
        only what differs from last time reaches the frame (a full frame has the static
        layer down; a site's own drawer draws the panel whole).

        Reading and drawing are guarded: a panel that raises leaves the frame as it
        was (nothing was put down yet), shows the placeholder and is put down whole
        when it draws again.
        """
        name, table = panel.name, given.table
        box = self.layout.panels.get(name)
        if box is None:
            return
        try:
            shows = panel.read(self.panels, given)
        except Exception as error:
            self.guard.failed(name, given.now, error)
            self._failed(name, box, dirty, full)
            return
        drawer = self.drawers.get(name)
        key = shows if drawer is None else (shows, table.version, table.shuffling)
        if self._keys.get(name) == key:
            return
        if drawer is not None:  # it may read anything of the table: each change redraws it
            if not full:
                self.frame.blit(self.static, box.rect, box.rect)
                dirty.append(box.rect)
            if not self._guarded(name, given.now, lambda: drawer(self.frame, box.body, table)):
                self._placeholder(name, box)
                return
        else:
            pen = Recorder(self.size)
            drawn: list[PanelView | None] = []
            draw = functools.partial(panel.draw, self.panels, pen, shows)
            if not self._guarded(name, given.now, lambda: drawn.append(draw())):
                self._failed(name, box, dirty, full)
                return
            before = None if full else self._ops.get(name)
            areas = put_down(self.frame, self.static, before, pen.ops, box.rect, full=full)
            if not full:
                dirty += areas
            self._ops[name] = pen.ops
            if drawn[0] is not None:
                self.panel_views[name] = drawn[0]
        self._keys[name] = key

    def _failed(self, name: str, box: PanelBox, dirty: list[pygame.Rect], full: bool) -> None:
        """Small panel ``name`` raised before anything of it was put down: its placeholder."""
        self._placeholder(name, box)
        if not full:
            dirty.append(box.rect)

    def _refresh_road(
        self, name: str, key: Hashable, given: FrameInput, dirty: list[pygame.Rect], full: bool
    ) -> None:
        """Redraw road ``name`` whole if its ``key`` changed (a full frame has the static
        layer down)."""
        box = self.layout.panels.get(name)
        if box is None or self._keys.get(name) == key:
            return
        if not full:
            self.frame.blit(self.static, box.rect, box.rect)
            dirty.append(box.rect)
        drawn = self._guarded(name, given.now, lambda: self._draw_road(name, box, given.table))
        if not drawn:
            self._placeholder(name, box)
            return
        self._keys[name] = key

    def _draw_road(self, name: str, box: PanelBox, table: TableState) -> None:
        drawer = self.drawers.get(name)
        if drawer is not None:
            drawer(self.frame, box.body, table)
        else:
            self.road_frame.draw_road(self.frame, name, table)

    def _placeholder(self, name: str, box: PanelBox) -> None:
        """Panel ``name`` failed: its placeholder, not a half-drawn panel; tried again next."""
        self.frame.blit(self.static, box.rect, box.rect)
        self.panels.placeholder(self.frame, name)
        self.views.pop(name, None)  # nothing of it blinks or is read off the screen
        self.panel_views.pop(name, None)
        self._keys.pop(name, None)  # the next update tries the panel again
        self._ops.pop(name, None)  # and a recorded one is put down whole

    def _guarded(self, name: str, now: float, draw: Callable[[], object]) -> bool:
        """Run ``draw()`` in the panel's guard; when it raised, the panel is drawn again next."""
        if self.guard.run(name, now, draw):
            return True
        self._keys.pop(name, None)
        return False
