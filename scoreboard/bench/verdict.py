"""Do the figures meet what the board needs on the floor?  One line, and each check behind it.

The board needs every frame at its screen's size within one refresh of a 60 Hz
monitor (a coup's update, each animation frame, a full redraw: their p99),
its display loop idle under 2 % of a core (a board waits most of its life),
and a coup on screen within 50 ms of its publish (p99) when that could be
measured.  A figure not measured is said, never guessed: it neither passes nor
fails.

>>> idle = Check("idle CPU", "", 3.24, IDLE_LIMIT_PERCENT, "%")
>>> full = Check("full frame p99", "at 3840x2160", 23.1, REFRESH_MS, "ms")
>>> verdict([idle, full]).line
'FAIL: idle CPU 3.24 % > 2 %; full frame p99 23.1 ms at 3840x2160 > 16.7 ms'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .results import Results, size_text

REFRESH_MS = 1000 / 60
IDLE_LIMIT_PERCENT = 2.0
FLIP_LIMIT_MS = 50.0
PASS_LINE = "PASS: ready for the floor"


@dataclass(frozen=True, slots=True)
class Check:
    """One figure against its limit: ``value`` None when ``skipped`` or ``failed`` (the reason)."""

    what: str
    where: str
    value: float | None
    limit: float
    unit: str
    skipped: str | None = None
    failed: str | None = None

    @property
    def passed(self) -> bool | None:
        """True within the limit, False over it (or failed), None when not measured."""
        if self.failed is not None:
            return False
        return None if self.value is None else self.value <= self.limit

    @property
    def name(self) -> str:
        return f"{self.what} {self.where}".strip()

    def figure_text(self) -> str:
        """``full frame p99 23.1 ms at 3840x2160`` (or ``... skipped: why``)."""
        if self.value is None:
            return f"{self.name} skipped: {self.skipped}"
        digits = 2 if self.unit == "%" else 1
        return f"{self.what} {self.value:.{digits}f} {self.unit} {self.where}".rstrip()

    def failure_text(self) -> str:
        if self.failed is not None:
            return f"{self.name} failed: {self.failed}"
        return f"{self.figure_text()} > {self.limit:.3g} {self.unit}"


@dataclass(frozen=True, slots=True)
class Verdict:
    passed: bool
    line: str


def checks(results: Results) -> list[Check]:
    """Every check the board needs, from the figures at the screen's size."""
    where = f"at {size_text(results.screen)}"
    frames = results.frames_at(results.screen)
    found: list[Check] = []
    if frames is not None:
        found.append(Check("per-coup update p99", where, frames.coup.p99, REFRESH_MS, "ms"))
        if frames.animation is not None:
            found.append(
                Check("animation frame p99", where, frames.animation.p99, REFRESH_MS, "ms")
            )
        found.append(Check("full frame p99", where, frames.full.p99, REFRESH_MS, "ms"))
    else:
        failed = results.frames_failed.get(size_text(results.screen), "not measured")
        found.append(Check("frames", where, None, REFRESH_MS, "ms", failed=failed))
    found.append(Check("idle CPU", "", results.idle.percent, IDLE_LIMIT_PERCENT, "%"))
    if not results.display_copy:  # the dummy driver: frames never reached a screen
        skipped = "no screen (dummy driver): run it on the box's own display"
        found.append(Check("copy to the screen", "", None, REFRESH_MS, "ms", skipped))
    latency = results.latency
    flip = None if latency.flip is None else latency.flip.p99
    found.append(
        Check("publish→flip p99", "", flip, FLIP_LIMIT_MS, "ms", latency.skipped, latency.failed)
    )
    return found


def verdict(found: Sequence[Check]) -> Verdict:
    """``PASS: ready for the floor``, ``FAIL:`` naming each failed figure, or PASS so far.

    A figure it could not take (no broker, no screen) is named, and the line then
    never says "ready for the floor".
    """
    failed = [check.failure_text() for check in found if check.passed is False]
    skipped = [f"{check.name}: {check.skipped}" for check in found if check.passed is None]
    if failed:
        return Verdict(False, "FAIL: " + "; ".join(failed))
    if skipped:  # never "ready" on figures it could not take
        return Verdict(True, f"PASS as far as measured (not measured: {'; '.join(skipped)})")
    return Verdict(True, PASS_LINE)
