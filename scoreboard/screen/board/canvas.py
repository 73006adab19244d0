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
>>> changed_areas(before, pen.ops)  # the spot's old and new places, near: one copy
[Rect(10, 10, 14, 4)]
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

import pygame

from scoreboard.screen.theme.values import RGB

MERGE_PIXELS = 4096
"""Two changed areas are copied as one when their union holds at most this many more pixels.

About what one more rectangle costs (a replay pass over the panel's operations,
a blit call, a rectangle more for the display) in pixels copied.
"""


class Op(NamedTuple):
    """One drawing operation: a blit of ``source`` (a Surface) or a filled/outlined rectangle.

    Two operations are the same when they draw the same thing at the same place:
    the very same source surface (a Surface equals only itself; cached text and
    sprites are reused objects), or the same colour, rectangle, line width and
    corner radius.  A tuple, so that building one and comparing two (a few
    dozen each coup) costs no Python-level call.
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
        if width > 0 and 2 * width >= min(rect.w, rect.h):
            # An outline as wide as its rectangle's half may be drawn past it (by up to
            # its width, measured); otherwise it stays inside (6,000 random cases, any radius).
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
    if before == after:
        return []
    rects: list[pygame.Rect] = []
    for old, new in zip(before, after, strict=False):
        if old != new:
            rects += (old.rect, new.rect)
    shared = min(len(before), len(after))
    rects += [op.rect for op in before[shared:]]
    rects += [op.rect for op in after[shared:]]
    return merge([rect for rect in rects if rect.w and rect.h])


def merge(rects: list[pygame.Rect]) -> list[pygame.Rect]:
    """Overlapping and near rectangles joined where one copy costs less than two.

    Two rectangles become their union when it holds at most :data:`MERGE_PIXELS`
    more pixels than the two do apart: each rectangle has a fixed cost (a
    replay pass, a blit, a copy to the display) worth about that many pixels,
    and every pixel of a union is copied twice (drawn, then shown).  A small
    change beside a large one stays apart instead of dragging the union over
    the still pixels between them.

    >>> merge([pygame.Rect(0, 0, 10, 10), pygame.Rect(5, 5, 10, 10), pygame.Rect(500, 0, 2, 2)])
    [Rect(0, 0, 15, 15), Rect(500, 0, 2, 2)]
    >>> merge([pygame.Rect(0, 0, 400, 400), pygame.Rect(0, 420, 400, 400)])
    [Rect(0, 0, 400, 400), Rect(0, 420, 400, 400)]
    """
    kept = [pygame.Rect(r) for r in dict.fromkeys(tuple(r) for r in rects)]  # once each
    while True:  # passes until none joins (a grown rectangle may reach one kept before)
        rects, kept = kept, []
        for rect in rects:
            size = rect.w * rect.h + MERGE_PIXELS
            for n, other in enumerate(kept):
                union = other.union(rect)
                if union.w * union.h <= other.w * other.h + size:
                    kept[n] = union
                    break
            else:
                kept.append(rect)
        if len(kept) == len(rects):
            return kept


FAST_COPY_PIXELS = 1 << 20
"""Rectangles this large are copied as they are (SDL's streaming copy suits them)."""


def copy_area(frame: pygame.Surface, source: pygame.Surface, rect: pygame.Rect) -> None:
    """``frame.blit(source, rect, rect)``, split where SDL would copy it slowly.

    SDL copies rows that start 16-byte aligned with streaming stores, 64 bytes
    at a time, and the rest of each row with ordinary stores.  When a row
    starts off a 64-byte line and its length is not a multiple of 64 bytes,
    the ordinary stores land on a line the streaming ones half wrote, which
    costs about 0.5 µs a row on the development machine (a 57x57 road cell:
    30 µs instead of 1-2; ``benchmarks/bench_copy.py``).  Such a rectangle is
    copied as its first column, then the rest (whose rows then start
    unaligned: an ordinary copy).  The pixels are the same either way.
    """
    if rect.w * rect.h < FAST_COPY_PIXELS and slow_rows(frame, rect):
        edge = pygame.Rect(rect.x, rect.y, 1, rect.h)
        frame.blit(source, edge, edge)
        rect = pygame.Rect(rect.x + 1, rect.y, rect.w - 1, rect.h)
    frame.blit(source, rect, rect)


def slow_rows(surface: pygame.Surface, rect: pygame.Rect) -> bool:
    """Whether SDL copies ``rect`` onto ``surface`` the slow way (see :func:`copy_area`).

    >>> frame = pygame.Surface((64, 8))
    >>> slow_rows(frame, pygame.Rect(0, 0, 16, 8)), slow_rows(frame, pygame.Rect(1, 0, 40, 8))
    (False, False)
    """
    depth, pitch = surface.get_bytesize(), surface.get_pitch()
    length = rect.w * depth
    if length <= 64 or length % 64 == 0:
        return False
    start = getattr(surface, "_pixels_address", 0) + rect.y * pitch + rect.x * depth
    if start % 16 or pitch % 16:
        return False  # an ordinary copy
    return start % 64 != 0 or pitch % 64 != 0


OPAQUE: weakref.WeakKeyDictionary[pygame.Surface, tuple[pygame.Rect, ...]] = (
    weakref.WeakKeyDictionary()
)
"""Parts of a source surface that a blit covers with opaque pixels, copied exactly (see
:func:`mark_opaque`)."""


def mark_opaque(surface: pygame.Surface, parts: Iterable[pygame.Rect]) -> pygame.Surface:
    """Say that a blit of ``surface`` puts down exactly its own pixels in ``parts``.

    True of a run-length surface whose alpha is 255 there (SDL copies its opaque
    runs): a replay then skips the static layer under those parts, which the blit
    covers anyway (a card's face: only its corners and the gaps between cards).
    """
    OPAQUE[surface] = tuple(pygame.Rect(part) for part in parts)
    return surface


def replay(
    frame: pygame.Surface,
    static: pygame.Surface,
    ops: Sequence[Op],
    areas: Sequence[pygame.Rect],
) -> None:
    """Put ``ops`` on ``frame`` within ``areas``: the static layer back where no op covers it
    opaquely (:func:`mark_opaque`), then each op clipped."""
    before = frame.get_clip()
    reach = [op.rect for op in ops]
    outlines = [op.rect for op in ops if op.width > 0]
    try:
        for area in areas:
            area = whole_outlines(area, outlines).clip(frame.get_rect())
            frame.set_clip(area)
            hits = area.collidelistall(reach)
            for piece in uncovered(area, covered((ops[n] for n in hits), area)):
                copy_area(frame, static, piece)
            for n in hits:
                ops[n].run(frame)
    finally:
        frame.set_clip(before)


HOLE_PIXELS = 2 * MERGE_PIXELS
"""An opaque part smaller than this (within the area replayed) gets the static layer anyway.

Leaving a hole splits the copy into up to four rectangles, each with the fixed
cost of a blit: a small hole costs more than the pixels it saves.
"""


def covered(ops: Iterable[Op], area: pygame.Rect) -> list[pygame.Rect]:
    """Where ``ops`` put down opaque pixels of their own in ``area``, in large parts only.

    Filled rectangles (their band clear of the round corners) and whole-surface
    blits of a surface :func:`mark_opaque` named (its largest part): one hole
    an operation, so that a copy splits into few rectangles.
    """
    found = []
    for op in ops:
        if op.source is None:
            if op.width != 0 or op.shape is None:
                continue
            parts = rounded_cross(op.shape, op.radius)
        elif op.area is None:
            parts = [part.move(op.rect.topleft) for part in OPAQUE.get(op.source, ())]
        else:
            continue
        if parts:
            hole = max((part.clip(area) for part in parts), key=lambda r: r.w * r.h)
            if hole.w * hole.h >= HOLE_PIXELS:
                found.append(hole)
    return found


def rounded_cross(shape: pygame.Rect, radius: int) -> list[pygame.Rect]:
    """A filled rectangle with corners rounded by ``radius``: where it is surely filled.

    >>> rounded_cross(pygame.Rect(0, 0, 40, 20), 4)
    [Rect(0, 5, 40, 10), Rect(5, 0, 30, 20)]
    """
    if radius <= 0:
        return [shape]
    clear = 2 * (radius + 1)  # one pixel more each side than the radius: the curve's last
    return [shape.inflate(0, -clear), shape.inflate(-clear, 0)]


def uncovered(area: pygame.Rect, holes: Sequence[pygame.Rect]) -> list[pygame.Rect]:
    """``area`` less ``holes``, as rectangles that do not overlap.

    >>> uncovered(pygame.Rect(0, 0, 10, 10), [pygame.Rect(2, 2, 6, 6)])
    [Rect(0, 0, 10, 2), Rect(0, 8, 10, 2), Rect(0, 2, 2, 6), Rect(8, 2, 2, 6)]
    >>> uncovered(pygame.Rect(0, 0, 10, 10), [pygame.Rect(-5, -5, 30, 30)])
    []
    """
    pieces = [area]
    for hole in holes:
        pieces = [part for piece in pieces for part in subtract(piece, hole)]
    return pieces


def subtract(piece: pygame.Rect, hole: pygame.Rect) -> list[pygame.Rect]:
    """``piece`` less ``hole``: up to four rectangles (above, below, left, right of it)."""
    cut = piece.clip(hole)
    if not (cut.w and cut.h):
        return [piece]
    parts = [
        pygame.Rect(piece.x, piece.y, piece.w, cut.y - piece.y),
        pygame.Rect(piece.x, cut.bottom, piece.w, piece.bottom - cut.bottom),
        pygame.Rect(piece.x, cut.y, cut.x - piece.x, cut.h),
        pygame.Rect(cut.right, cut.y, piece.right - cut.right, cut.h),
    ]
    return [part for part in parts if part.w > 0 and part.h > 0]


def put_down(
    frame: pygame.Surface,
    static: pygame.Surface,
    before: Sequence[Op] | None,
    ops: Sequence[Op],
    box: pygame.Rect,
    *,
    full: bool,
) -> list[pygame.Rect]:
    """Put a recorded panel's ``ops`` on ``frame`` in ``box``; the areas that changed.

    Without ``before`` (what it drew last time) the panel goes down whole, over
    the static layer (already down on a ``full`` frame); with it, only where the
    operations differ (:func:`changed_areas`, :func:`replay`), grown to the
    outlines they cut, which are drawn again whole: every pixel written is in
    the areas returned (an overlay drawn over the frame is drawn again there).
    """
    if before is None:
        if not full:
            frame.blit(static, box, box)
        for op in ops:
            op.run(frame)
        return [box]
    areas = [area.clip(box) for area in changed_areas(before, ops)]
    outlines = [op.rect for op in ops if op.width > 0]
    areas = [whole_outlines(area, outlines) for area in areas if area.w and area.h]
    replay(frame, static, ops, areas)
    return [area.clip(frame.get_rect()) for area in areas]


def whole_outlines(area: pygame.Rect, outlines: Sequence[pygame.Rect]) -> pygame.Rect:
    """``area`` grown to hold every outline (the reach of an outlined rectangle) it cuts, whole.

    pygame clips a rectangle *before* drawing its outline, so an outline redrawn
    under a clip that cuts it is a different shape (its hole moves) from the one
    drawn unclipped; redrawn with its whole reach inside the clip it is the same.
    The pixels the growth adds are redrawn as they were (the same operations).
    """
    grown = True
    while grown:
        grown = False
        for reach in outlines:
            if reach.colliderect(area) and not area.contains(reach):
                area = area.union(reach)
                grown = True
    return area
