"""Which archived shoes have been exported: a marker file beside each one.

``scoreboard export`` writes ``<archive>.exported`` next to the archived shoe's
file in ``shoes/`` (one JSON object: when, which format, where to); pruning asks
:func:`was_exported` when the config requires an export before a shoe may go.
The marker sits outside the hash chain on purpose: exporting reads the record,
it never changes it.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     shoe = Path(folder) / "20261201-120000-S1.jsonl"
...     _ = shoe.write_bytes(b"")
...     before = was_exported(shoe)
...     mark_exported(shoe, "csv", "out.csv", at=1.5)
...     before, was_exported(shoe), marker(shoe).name
(False, True, '20261201-120000-S1.jsonl.exported')
"""

from __future__ import annotations

import time
from pathlib import Path

from scoreboard.journal.disk import replace_durably
from scoreboard.protocol import canonical_json

MARKER_SUFFIX = ".exported"


def marker(archived: Path) -> Path:
    """The marker file of an archived shoe's file."""
    return archived.with_name(archived.name + MARKER_SUFFIX)


def was_exported(archived: Path) -> bool:
    """True when ``scoreboard export`` wrote this shoe out at least once."""
    return marker(archived).is_file()


def mark_exported(archived: Path, fmt: str, target: str, *, at: float | None = None) -> None:
    """Record that the shoe in ``archived`` was exported as ``fmt`` to ``target``."""
    when = round(time.time() if at is None else at, 3)
    replace_durably(marker(archived), canonical_json({"at": when, "format": fmt, "to": target}))
