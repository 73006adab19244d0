"""Medians and nearest-rank percentiles of timed samples, and the stopwatch that takes them."""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass


def percentile(values: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile (p99 of fewer than 100 samples is near the maximum).

    A nearest rank is a sample that happened, never an interpolation between two.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.5), percentile(list(range(101)), 0.99)
    (3.0, 99)
    """
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


@dataclass(frozen=True, slots=True)
class Spread:
    """The median and p99 of one figure's wall-clock samples, their count, the CPU median.

    The unit is the figure's.  ``cpu`` (the median of the same calls' process CPU
    time) is None when only the wall clock was taken.

    >>> Spread.of([3.0, 1.0, 2.0])
    Spread(median=2.0, p99=3.0, count=3, cpu=None)
    """

    median: float
    p99: float
    count: int
    cpu: float | None = None

    @classmethod
    def of(cls, samples: Sequence[float], cpu: Sequence[float] = ()) -> Spread:
        if not samples:
            raise ValueError("a spread needs at least one sample")
        cpu_median = statistics.median(cpu) if cpu else None
        return cls(statistics.median(samples), percentile(samples, 0.99), len(samples), cpu_median)

    def scaled(self, factor: float) -> Spread:
        """The same spread in another unit (``factor`` per unit of this one).

        >>> Spread(2e-6, 5e-6, 10).scaled(1e6)
        Spread(median=2.0, p99=5.0, count=10, cpu=None)
        """
        cpu = None if self.cpu is None else self.cpu * factor
        return Spread(self.median * factor, self.p99 * factor, self.count, cpu)


class Stopwatch:
    """Wall time (what the screen waits) and this process's CPU time, in milliseconds.

    The CPU time is what a busy neighbour on shared cores moves less.
    """

    wall: float
    cpu: float

    def __enter__(self) -> Stopwatch:
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *_: object) -> None:
        self.wall = (time.perf_counter() - self.wall) * 1000
        self.cpu = (time.process_time() - self.cpu) * 1000
