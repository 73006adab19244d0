"""The shuffle screen as an overlay: drawn in place over the board while the table shuffles.

Like the winner banner, it is drawn on the frame over the board, the board under
it kept in the compositor's saved copy (:mod:`scoreboard.render.compose`), so
the end of the shuffle costs a copy back, not a board drawn again.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

import pygame

from scoreboard.core.table import TableState
from scoreboard.render.overlay import board_area, draw_shuffle_screen
from scoreboard.render.panels import PanelPainter


class ShuffleOverlay:
    """The shuffle screen as an :class:`Overlay`: over the board while the table shuffles.

    Drawn in place like the banner, the board under it kept: when the shuffle
    ends, the board comes back from the saved copy, not drawn again (and no
    remnant of the screen stays between the panels).  ``run(now, draw)`` runs
    the drawing in the renderer's guard for the screen.
    """

    def __init__(
        self, p: PanelPainter, run: Callable[[float, Callable[[], object]], object]
    ) -> None:
        self.p, self.run = p, run
        self.table: TableState | None = None

    def area(self, now: float) -> pygame.Rect | None:  # noqa: ARG002 - the interface's signature
        table = self.table
        if table is None or not table.shuffling or "big_road" not in self.p.layout.panels:
            return None
        return board_area(self.p.layout)

    def version(self, now: float) -> Hashable:  # noqa: ARG002 - the interface's signature
        return None if self.table is None else self.table.version

    def draw(self, surface: pygame.Surface, now: float) -> None:
        table = self.table
        if table is not None:
            self.run(now, lambda: draw_shuffle_screen(self.p, surface, table))
