"""The shuffle screen as an overlay: drawn in place over the board while the table shuffles.

Like the winner banner, it is drawn on the frame over the board, the board under
it kept in the compositor's saved copy (:mod:`scoreboard.screen.board._compose`), so
the end of the shuffle costs a copy back, not a board drawn again.

With the venue's images (:mod:`scoreboard.kiosk._promo`) the screen takes turns: the
finished shoe's summary for the promo's ``seconds``, then each image for as
long, then the summary again, for as long as the table shuffles.  The turns
count from the moment the shuffle was first seen, so every shuffle opens on
the summary.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass

import pygame

from scoreboard.screen.board._overlay import board_area, draw_shuffle_screen
from scoreboard.screen.board.panels import PanelPainter
from scoreboard.table.state import TableState


@dataclass(frozen=True, slots=True)
class Promo:
    """The venue's images that passed their check (:func:`scoreboard.kiosk._promo.load_promo`),
    how long each shows, and how many were refused."""

    images: tuple[pygame.Surface, ...]
    seconds: float
    refused: int = 0


class ShuffleOverlay:
    """The shuffle screen as an :class:`Overlay`: over the board while the table shuffles.

    Drawn in place like the banner, the board under it kept: when the shuffle
    ends, the board comes back from the saved copy, not drawn again (and no
    remnant of the screen stays between the panels).  ``run(now, draw)`` runs
    the drawing in the renderer's guard for the screen.  ``promo``: the venue's
    images, shown in turn with the summary.
    """

    def __init__(
        self,
        p: PanelPainter,
        run: Callable[[float, Callable[[], object]], object],
        promo: Promo | None = None,
    ) -> None:
        self.p, self.run = p, run
        self.table: TableState | None = None
        self.promo = promo if promo is not None and promo.images else None
        self._since: float | None = None  # when the shuffle was first seen

    def area(self, now: float) -> pygame.Rect | None:
        table = self.table
        if table is None or not table.shuffling or "big_road" not in self.p.layout.panels:
            self._since = None
            return None
        if self._since is None:
            self._since = now
        return board_area(self.p.layout)

    def turn(self, now: float) -> int:
        """What the screen shows at ``now``: 0 the summary, ``n`` the promo's n-th image."""
        if self.promo is None or self._since is None:
            return 0
        step = math.floor(max(0.0, now - self._since) / self.promo.seconds + 1e-9)
        return step % (len(self.promo.images) + 1)

    def next_change(self, now: float) -> float | None:
        """When the screen takes its next turn after ``now``; None: it stays as it is."""
        if self.promo is None or self._since is None:
            return None
        steps = math.floor(max(0.0, now - self._since) / self.promo.seconds + 1e-9)
        return self._since + (steps + 1) * self.promo.seconds

    def version(self, now: float) -> Hashable:
        return None if self.table is None else (self.table.version, self.turn(now))

    def draw(self, surface: pygame.Surface, now: float) -> None:
        table, turn = self.table, self.turn(now)
        if table is None:
            return
        if turn == 0 or self.promo is None:
            self.run(now, lambda: draw_shuffle_screen(self.p, surface, table))
            return
        image = self.promo.images[turn - 1]
        self.run(now, lambda: draw_promo(self.p, surface, image))


def draw_promo(p: PanelPainter, surface: pygame.Surface, image: pygame.Surface) -> pygame.Rect:
    """One of the venue's images over the board under the header, as large as fits
    (its shape kept, never enlarged past twice its size), centred on the background."""
    area = board_area(p.layout)
    pygame.draw.rect(surface, p.colors.background, area)
    room = area.inflate(-2 * p.layout.px(0.014), -2 * p.layout.px(0.014))
    fitted = fit_image(image, room.size)
    placed = fitted.get_rect(center=room.center)
    surface.blit(fitted, placed)
    return area


@functools.lru_cache(maxsize=4)
def fit_image(image: pygame.Surface, room: tuple[int, int]) -> pygame.Surface:
    """``image`` scaled to fit ``room``, its shape kept (kept: drawn again each turn)."""
    width, height = image.get_size()
    scale = min(room[0] / width, room[1] / height, 2.0)
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    return image if size == (width, height) else pygame.transform.smoothscale(image, size)
