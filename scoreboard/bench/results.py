"""The figures of one ``scoreboard bench`` run, as values: what the verdict and the report read."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .frames import FrameFigures
from .idle import IdleFigure
from .memory import MemoryFigure
from .stats import Spread


def size_text(size: tuple[int, int]) -> str:
    """How sizes are named in the report and the JSON keys.

    >>> size_text((1920, 1080))
    '1920x1080'
    """
    return f"{size[0]}x{size[1]}"


@dataclass(frozen=True, slots=True)
class Latency:
    """Publish -> flip (and -> applied) in ms over the ``shown`` of ``published`` coups.

    Not measured (no broker here): ``flip`` None and ``skipped`` says why.
    Measured but the board let it down (never connected, coups never shown):
    ``failed`` says how, and the verdict fails.
    """

    flip: Spread | None
    applied: Spread | None = None
    published: int = 0
    shown: int = 0
    skipped: str | None = None
    failed: str | None = None

    @classmethod
    def not_measured(cls, reason: str) -> Latency:
        return cls(None, skipped=reason)


@dataclass(frozen=True, slots=True)
class Results:
    """Everything measured; ``frames`` holds the screen's size first, then the reference sizes.

    ``frames_failed`` names the sizes the display could not open, and why
    (a KMSDRM screen has only its own modes).  ``machine`` and ``display`` are
    :mod:`.machine`'s descriptions (JSON-ready).
    """

    screen: tuple[int, int]
    road_append_us: Spread
    frames: tuple[FrameFigures, ...]
    idle: IdleFigure
    memory: MemoryFigure
    latency: Latency
    rotate: int = 0
    theme: str = "classic"
    quick: bool = False
    seconds: float = 0.0
    frames_failed: dict[str, str] = field(default_factory=dict)
    machine: dict[str, Any] = field(default_factory=dict)
    display: dict[str, Any] = field(default_factory=dict)

    def frames_at(self, size: tuple[int, int]) -> FrameFigures | None:
        return next((figures for figures in self.frames if figures.size == size), None)

    @property
    def display_copy(self) -> bool:
        """False when SDL's dummy driver drew: the copy to the display went nowhere."""
        return bool(self.display.get("display_copy", False))
