"""What a frame costs as the screen sees it: a coup's update, an animation frame, a full frame.

Measured through the kiosk's own loop (:mod:`.kiosk`): each figure is a
``Kiosk.step`` or ``Kiosk.draw``, so the poll, the renderer's work, the copy
of the dirty rectangles onto the display surface (turned, on a rotated screen)
and ``pygame.display.update`` are all inside it.  With SDL's dummy driver that
last copy goes nowhere, which the report says.  The kiosk is the one shipped
(its theme's motion) unless ``motion`` says otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass

from .kiosk import Board, shoe_games
from .stats import Spread

COUP, ANIMATION, FULL = "coup", "animation frame", "full frame"


@dataclass(frozen=True, slots=True)
class FramePlan:
    """``shoes`` shoes of ``coups`` coups, each coup's step timed; ``full`` full frames."""

    shoes: int = 2
    coups: int = 80
    full: int = 30


@dataclass(frozen=True, slots=True)
class FrameFigures:
    """One screen size's frames in milliseconds (``animation`` None: the theme has no motion)."""

    size: tuple[int, int]
    rotate: int
    coup: Spread
    animation: Spread | None
    full: Spread


def measure_frames(board: Board, plan: FramePlan) -> FrameFigures:
    """Deal the plan's shoes coup by coup on a new kiosk of the board's size, then full frames."""
    bench = board.bench()
    bench.step()
    bench.settle(None)  # the first frame is a start, not a coup
    for seed in range(1, plan.shoes + 1):
        bench.shoe(f"bench-{seed}", shoe_games(seed, plan.coups), lambda _: COUP)
    bench.full_frames(plan.full, FULL)

    def spread(case: str) -> Spread | None:
        taken = bench.samples.get(case)
        return Spread.of(taken["wall"], taken["cpu"]) if taken else None

    coup, full = spread(COUP), spread(FULL)
    assert coup is not None and full is not None, "every plan times coups and full frames"
    return FrameFigures(board.size, board.rotate, coup, spread(ANIMATION), full)
