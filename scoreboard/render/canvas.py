"""A panel's drawing kept as operations, so a redraw touches only the pixels that change.

A small panel (header, counters, ask road, last hand, limits, footer) is drawn
onto a :class:`Recorder` instead of the frame: the drawing code runs as usual,
but its blits and rectangles are kept, not done.  The renderer compares the
operations with the ones the panel drew last time (:func:`changed_areas`) and
puts on the frame only the areas where they differ (:func:`replay`: the static
layer back under each area, then every operation that reaches into it, clipped
to it, in drawing order).  A pixel outside those areas is covered by the same
operations, in the same order, as before, so the frame equals a full redraw
pixel for pixel, while a coup that changes three numbers costs three numbers.

>>> import pygame
>>> pen = Recorder((100, 50))
>>> spot = pygame.Surface((4, 4))
>>> pen.blit(spot, (10, 10))
Rect(10, 10, 4, 4)
>>> draw_rect(pen, (255, 0, 0), pygame.Rect(0, 0, 5, 5))
Rect(0, 0, 5, 5)
>>> before = pen.ops
>>> pen = Recorder((100, 50))
>>> _ = pen.blit(spot, (20, 10)), draw_rect(pen, (255, 0, 0), pygame.Rect(0, 0, 5, 5))
>>> changed_areas(before, pen.ops)
[Rect(10, 10, 4, 4), Rect(20, 10, 4, 4)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pygame

from scoreboard.theme import RGB

MERGE_SLACK = 1.3
"""Two changed areas are copied as one when their union is at most this much bigger."""


@dataclass(frozen=True, slots=True, eq=False)
class Op:
    """One drawing operation: a blit of ``source`` (a Surface) or a filled/outlined rectangle.

    Two operations are the same when they draw the same thing at the same place:
    the very same source surface (cached text and sprites are reused objects), or
    the same colour, rectangle, line width and corner radius.
    """

    rect: pygame.Rect
    """What the operation may touch (its bounding rectangle on the frame)."""
    source: pygame.Surface | None = None
    area: pygame.Rect | None = None
    color: RGB | None = None
    width: int = 0
    radius: int = 0
    shape: pygame.Rect | None = None
    """The rectangle drawn (``rect`` may reach past it); None for a blit."""

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Op):
            return NotImplemented
        return (
            self.source is other.source
            and self.rect == other.rect
            and self.area == other.area
            and self.color == other.color
            and self.width == other.width
            and self.radius == other.radius
            and self.shape == other.shape
        )

    def run(self, surface: pygame.Surface) -> None:
        """Do the operation on ``surface`` (its clip limits where)."""
        if self.source is not None:
            surface.blit(self.source, self.rect, self.area)
        else:
            assert self.color is not None and self.shape is not None
            pygame.draw.rect(surface, self.color, self.shape, self.width, self.radius)


class Recorder(pygame.Surface):
    """Stands in for the frame while a panel draws: its blits are kept in :attr:`ops`.

    It reports the frame's size (a panel lays out from it) but holds one pixel;
    rectangles go through :func:`draw_rect`, which records them on a recorder and
    draws them on any other surface.
    """

    def __init__(self, size: tuple[int, int]) -> None:
        super().__init__((1, 1))
        self.frame_size = size
        self.ops: list[Op] = []

    def get_size(self) -> tuple[int, int]:
        return self.frame_size

    def get_width(self) -> int:
        return self.frame_size[0]

    def get_height(self) -> int:
        return self.frame_size[1]

    def get_rect(self, **where: object) -> pygame.Rect:
        rect = pygame.Rect((0, 0), self.frame_size)
        for name, value in where.items():
            setattr(rect, name, value)
        return rect

    def blit(
        self,
        source: pygame.Surface,
        dest: Any = (0, 0),
        area: Any = None,
        special_flags: int = 0,
    ) -> pygame.Rect:
        if special_flags:
            raise ValueError("a recorded blit takes no special flags")
        clip = None if area is None else pygame.Rect(area)
        width, height = source.get_size() if clip is None else clip.size
        where = pygame.Rect(dest[0], dest[1], width, height)  # a Rect indexes as x, y too
        self.ops.append(Op(where, source=source, area=clip))
        return where


def draw_rect(
    surface: pygame.Surface,
    color: RGB,
    rect: pygame.Rect,
    width: int = 0,
    border_radius: int = 0,
) -> pygame.Rect:
    """``pygame.draw.rect``, kept as an operation when ``surface`` is a :class:`Recorder`."""
    if isinstance(surface, Recorder):
        rect = pygame.Rect(rect)
        reach = rect
        if width > 0:  # pygame may draw an outline a pixel or two past its rectangle
            spill = 2 * (width + max(0, border_radius) + 1)
            reach = rect.inflate(spill, spill)
            if min(rect.w, rect.h) <= spill:  # and a rectangle too small for it anywhere right
                reach = surface.get_rect()
        surface.ops.append(Op(reach, color=color, width=width, radius=border_radius, shape=rect))
        return rect
    return pygame.draw.rect(surface, color, rect, width, border_radius=border_radius)


def changed_areas(before: Sequence[Op], after: Sequence[Op]) -> list[pygame.Rect]:
    """Where ``after`` draws differently from ``before``: merged rectangles, few and small.

    Operations are compared in drawing order, position by position; an operation
    that differs marks both its old and its new rectangle.
    """
    rects = []
    for n in range(max(len(before), len(after))):
        old = before[n] if n < len(before) else None
        new = after[n] if n < len(after) else None
        if old is not None and new is not None and old == new:
            continue
        rects += [op.rect for op in (old, new) if op is not None and op.rect.w and op.rect.h]
    return merge(rects)


def merge(rects: list[pygame.Rect]) -> list[pygame.Rect]:
    """Overlapping rectangles joined, and near ones whose union wastes little.

    >>> merge([pygame.Rect(0, 0, 10, 10), pygame.Rect(5, 5, 10, 10), pygame.Rect(50, 0, 2, 2)])
    [Rect(0, 0, 15, 15), Rect(50, 0, 2, 2)]
    """
    kept: list[pygame.Rect] = []
    for rect in rects:
        rect = pygame.Rect(rect)
        joined = True
        while joined:  # a grown rectangle may now reach one kept before
            joined = False
            for n, other in enumerate(kept):
                union = other.union(rect)
                size = union.w * union.h
                if other.colliderect(rect) or size <= MERGE_SLACK * (
                    other.w * other.h + rect.w * rect.h
                ):
                    rect = union
                    del kept[n]
                    joined = True
                    break
        kept.append(rect)
    return kept


def replay(
    frame: pygame.Surface,
    static: pygame.Surface,
    ops: Sequence[Op],
    areas: Sequence[pygame.Rect],
) -> None:
    """Put ``ops`` on ``frame`` within ``areas``: the static layer back, then each op clipped."""
    before = frame.get_clip()
    try:
        for area in areas:
            area = whole_outlines(area, ops).clip(frame.get_rect())
            frame.set_clip(area)
            frame.blit(static, area, area)
            for op in ops:
                if op.rect.colliderect(area):
                    op.run(frame)
    finally:
        frame.set_clip(before)


def whole_outlines(area: pygame.Rect, ops: Sequence[Op]) -> pygame.Rect:
    """``area`` grown to hold every outline that reaches into it, whole.

    pygame clips a rectangle *before* drawing its outline, so an outline redrawn
    under a clip that cuts it is a different shape (its hole moves) from the one
    drawn unclipped; redrawn with its whole reach inside the clip it is the same.
    The pixels the growth adds are redrawn as they were (the same operations).
    """
    grown = True
    while grown:
        grown = False
        for op in ops:
            if op.width > 0 and op.rect.colliderect(area) and not area.contains(op.rect):
                area = area.union(op.rect)
                grown = True
    return area
