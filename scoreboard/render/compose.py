"""Overlays (the winner banner) composited over the drawn board, restored exactly when they go.

The renderer draws the board into ``base``; while no overlay shows, the screen
copies ``base`` itself, so compositing costs nothing.  While one shows, the
composite is ``base`` plus the overlays, kept up to date only where either
changed: a board change under an overlay redraws that overlay over it, and an
overlay that moves or ends gets the board under its old area back.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Protocol

import pygame

from scoreboard.render.canvas import copy_area


class Overlay(Protocol):
    """Something drawn over the panels (see scoreboard.render.overlay)."""

    def area(self, now: float) -> pygame.Rect | None: ...
    def version(self, now: float) -> Hashable: ...
    def draw(self, surface: pygame.Surface, now: float) -> None: ...


class Compositor:
    """The frame the screen shows: ``base``, or a composite of it and the overlays up."""

    def __init__(self, base: pygame.Surface) -> None:
        self.base = base
        # Made now, not when the first overlay shows: a screen-sized surface costs 5 ms to
        # make at 1920x1080 and 25 ms at 3840x2160 (zeroed memory), which the first winner
        # banner's frame used to pay, in front of the next coup.
        self._composite = pygame.Surface(base.get_size())
        self._stale: list[pygame.Rect] = [base.get_rect()]  # base changes not copied yet
        self._overlaid: dict[int, tuple[pygame.Rect, Hashable]] = {}

    @property
    def frame(self) -> pygame.Surface:
        if self._overlaid:
            return self._composite
        return self.base

    def compose(
        self, overlays: Sequence[Overlay], now: float, dirty: list[pygame.Rect]
    ) -> list[pygame.Rect]:
        """Bring the frame up to date after ``dirty`` changed in ``base``; what to copy out."""
        dirty = unique(dirty)
        shown = self._shown(overlays, now)
        if not shown and not self._overlaid:
            self._stale = unique(self._stale + dirty)  # a card dealt twice is copied once
            return dirty
        composite = self._composite
        repaint = self._repaint(shown, dirty)
        if not self._overlaid:  # the composite catches up with the board drawn meanwhile
            for rect in self._stale:
                copy_area(composite, self.base, rect)
            self._stale = []
        for rect in repaint:
            copy_area(composite, self.base, rect)
        for at, (area, _) in shown.items():
            if area.collidelist(repaint) >= 0:
                overlays[at].draw(composite, now)
        self._overlaid = shown
        return repaint

    def _repaint(
        self, shown: dict[int, tuple[pygame.Rect, Hashable]], dirty: list[pygame.Rect]
    ) -> list[pygame.Rect]:
        """The board changes, the old and new areas of overlays that changed, and the
        whole area of any overlay under those (it is drawn again whole)."""
        repaint = list(dirty)
        for at in set(shown) | set(self._overlaid):
            before, after = self._overlaid.get(at), shown.get(at)
            if before != after:
                repaint += [look[0] for look in (before, after) if look is not None]
        for area, _ in shown.values():
            if area.collidelist(repaint) >= 0 and area not in repaint:
                repaint.append(area)
        return repaint

    @staticmethod
    def _shown(overlays: Sequence[Overlay], now: float) -> dict[int, tuple[pygame.Rect, Hashable]]:
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
