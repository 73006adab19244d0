"""What the board holds in memory: its peak, and how much more after each shoe.

A kiosk as shipped deals ``shoes`` shoes coup by coup, every animation frame
drawn (on the synthetic clock of :mod:`.kiosk`); the resident set is read
after each shoe.  The first shoes fill the caches (fonts, card faces, texts,
layouts: each bounded), so growth is counted over the second half: a board
that leaks shows a steady climb there, one that does not a plateau
(``benchmarks/soak_demo.py`` runs hundreds of shoes).  Run it first in a
process, so the peak is the board's at that size and nothing else's.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .kiosk import Board, shoe_games

COUPS_PER_SHOE = 80


def status_mib(field: str, pid: int | str = "self") -> float:
    """A size from ``/proc/PID/status`` in MiB: ``VmRSS`` (resident now), ``VmHWM`` (its peak).

    >>> status_mib("VmRSS") > 1
    True
    """
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    raise LookupError(f"/proc/{pid}/status has no {field}")


@dataclass(frozen=True, slots=True)
class MemoryFigure:
    """Resident memory in MiB: the process's peak, and after each shoe (``after[0]``: shoe 1).

    >>> figure = MemoryFigure(120.0, (100.0, 104.0, 106.0, 106.5))
    >>> figure.settled_shoe, figure.growth_mib, figure.growth_per_shoe_kib
    (2, 2.5, 1280.0)
    """

    peak_mib: float
    after: tuple[float, ...]

    @property
    def shoes(self) -> int:
        return len(self.after)

    @property
    def settled_shoe(self) -> int:
        """Growth is counted from this shoe on: the first half fills the caches (bounded ones)."""
        return max(1, self.shoes // 2)

    @property
    def growth_mib(self) -> float:
        """What the shoes after :attr:`settled_shoe` added."""
        return self.after[-1] - self.after[self.settled_shoe - 1]

    @property
    def growth_per_shoe_kib(self) -> float:
        return self.growth_mib * 1024 / max(1, self.shoes - self.settled_shoe)


def measure_memory(board: Board, shoes: int) -> MemoryFigure:
    """Deal ``shoes`` shoes (at least 2) on a new kiosk of the board's size; RSS after each."""
    bench = board.bench()
    after: list[float] = []
    for seed in range(1, max(2, shoes) + 1):
        bench.shoe(f"memory-{seed}", shoe_games(seed, COUPS_PER_SHOE), lambda _: None)
        bench.samples.clear()
        after.append(status_mib("VmRSS"))
    return MemoryFigure(status_mib("VmHWM"), tuple(after))
