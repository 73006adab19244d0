"""Overlays (the winner banner, the notices) drawn over the board in place, restored exactly.

The renderer draws the board straight onto its frame (the display's own surface
when the screen is not turned), so no pixel is copied to a second surface on
the way to the screen.  An overlay is drawn onto that same frame; the board
under it is kept in a saved copy of its area (:attr:`Compositor.under`).  Only
what changed is touched: a board change under an overlay goes into the saved
copy and the overlay is drawn again over it, and an overlay that moves or ends
gets the board under its old area back from the copy.  With no overlay up,
compositing costs nothing.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Protocol

import pygame

from scoreboard.screen.board.canvas import HOLE_PIXELS, copy_area, uncovered

Look = tuple[pygame.Rect, Hashable]
"""Where an overlay is drawn and what it looks like there (its area and version)."""


class Overlay(Protocol):
    """Something drawn over the panels (see scoreboard.screen.board._overlay)."""

    def area(self, now: float) -> pygame.Rect | None: ...
    def version(self, now: float) -> Hashable: ...
    def draw(self, surface: pygame.Surface, now: float) -> None: ...


class Compositor:
    """Keeps the overlays drawn on ``frame`` and the board under them, in a saved copy."""

    def __init__(
        self, size: tuple[int, int], frame: pygame.Surface | None = None, *, ahead: bool = True
    ) -> None:
        """``frame``: the surface drawn on (default: one of its own, made when first drawn on).

        ``ahead``: the copy of the board under the overlays is made now, not when the
        first overlay shows: a screen-sized surface costs 5 ms to make at 1920x1080 and
        25 ms at 3840x2160 (zeroed memory), which the first winner banner's frame used to
        pay, in front of the next coup.  ``ahead=False`` for a board drawn once and
        dropped (the theme probe's), which mostly shows no overlay.
        """
        self.size = size
        self._frame = frame
        self._under = pygame.Surface(size) if ahead else None
        self._overlaid: dict[int, Look] = {}
        self._board: pygame.Surface | None = None

    @property
    def under(self) -> pygame.Surface:
        """The board under the overlays drawn now (valid inside their areas only)."""
        if self._under is None:
            self._under = pygame.Surface(self.size)
        return self._under

    @property
    def frame(self) -> pygame.Surface:
        """The surface the board and the overlays are drawn on (what the screen shows)."""
        if self._frame is None:  # not made before it is needed: a kiosk may hand its own
            self._frame = pygame.Surface(self.size)
        return self._frame

    def retarget(self, frame: pygame.Surface) -> None:
        """Draw on ``frame`` from now on; nothing of this compositor's is on it (a full frame
        follows)."""
        if frame.get_size() != self.size:
            raise ValueError(f"a {frame.get_size()} surface for a {self.size} frame")
        self._frame = frame
        self._overlaid = {}
        self._board = None

    def board(self) -> pygame.Surface:
        """The frame without overlays (the frame itself when none is up; a copy otherwise)."""
        if not self._overlaid:
            return self.frame
        if self._board is None:
            board = self.frame.copy()
            for area, _ in self._overlaid.values():
                board.blit(self.under, area, area)
            self._board = board
        return self._board

    def compose(
        self, overlays: Sequence[Overlay], now: float, dirty: list[pygame.Rect]
    ) -> list[pygame.Rect]:
        """Draw the overlays again where ``dirty`` (drawn board) reached them; what changed."""
        dirty = unique(dirty)
        shown = self._shown(overlays, now)
        if not shown and not self._overlaid:
            return dirty
        self._board = None
        frame, before = self.frame, self._overlaid
        drawn = [rect for rect in dirty if rect.w * rect.h >= HOLE_PIXELS]  # large: board now
        self._save(dirty, drawn, shown)
        repaint = self._repaint(shown, dirty)
        for area, _ in before.values():  # the board back where an overlay goes or is redrawn
            if area.collidelist(repaint) >= 0:
                for piece in uncovered(area, [r for r in drawn if r.colliderect(area)]):
                    copy_area(frame, self.under, piece)
        kept = [area for area, _ in before.values()]
        redrawn = [at for at, (area, _) in shown.items() if area.collidelist(repaint) >= 0]
        for at in redrawn:  # a new area: the board under it is saved before anything covers it
            area = shown[at][0]
            if area not in kept:
                copy_area(self.under, frame, area)
        for at in redrawn:
            overlays[at].draw(frame, now)
        self._overlaid = shown
        return repaint

    def _save(
        self, dirty: list[pygame.Rect], drawn: list[pygame.Rect], shown: dict[int, Look]
    ) -> None:
        """The board drawn under an overlay into the copy; under one that goes, only what
        the restore will not skip (a large drawn rectangle is board on the frame already)."""
        staying = [area for area, _ in shown.values()]
        for area, _ in self._overlaid.values():
            stays = area in staying
            for rect in dirty if stays else [r for r in dirty if r not in drawn]:
                clip = area.clip(rect)
                if clip.w and clip.h:
                    copy_area(self.under, self.frame, clip)

    def _repaint(self, shown: dict[int, Look], dirty: list[pygame.Rect]) -> list[pygame.Rect]:
        """The board changes, the old and new areas of overlays that changed, and the
        whole area of any overlay those reach, and of any that one reaches (drawn whole)."""
        repaint = list(dirty)
        for at in set(shown) | set(self._overlaid):
            before, after = self._overlaid.get(at), shown.get(at)
            if before != after:
                repaint += [look[0] for look in (before, after) if look is not None]
        areas = [look[0] for look in (*shown.values(), *self._overlaid.values())]
        grown = True
        while grown:  # an overlay over one drawn again is drawn again too, and so on
            grown = False
            for area in areas:
                if area not in repaint and area.collidelist(repaint) >= 0:
                    repaint.append(area)
                    grown = True
        return repaint

    @staticmethod
    def _shown(overlays: Sequence[Overlay], now: float) -> dict[int, Look]:
        shown = {}
        for at, overlay in enumerate(overlays):
            area = overlay.area(now)
            if area is not None:
                shown[at] = (pygame.Rect(area), overlay.version(now))
        return shown


def unique(rects: list[pygame.Rect]) -> list[pygame.Rect]:
    """``rects`` without repeats and without rectangles inside another (copied once)."""
    kept: list[pygame.Rect] = []
    for rect in sorted(rects, key=lambda r: -r.width * r.height):
        if not any(other.contains(rect) for other in kept):
            kept.append(rect)
    return kept
