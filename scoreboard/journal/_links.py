"""The hash chain's links: how a line names the one before it, and reading lines bounded.

Every journal line carries ``prev``, the SHA-256 (hex) of the exact bytes of the
line written before it (without its newline), and ``mono``, the monotonic clock
beside the wall clock's ``at``.  The writer keeps the tip (the hash of the last
line it wrote) in memory and seals each line as it writes it, so an append
costs one SHA-256 of the line and never a read of the file.  The first line
ever written in a state dir names :data:`ZERO`; a line of the old format has no
``prev`` (legacy: the chain starts after it).

>>> line, tip = seal([Record(1.0, 2.0, "gap", None)], ZERO)
>>> line[:60]
b'{"at":1.0,"data":null,"kind":"gap","mono":2.0,"prev":"000000'
>>> tip == digest(line)
True
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scoreboard.protocol import canonical_json
from scoreboard.regular_file import open_regular

#: What the first line ever written in a state dir names as its ``prev``.
ZERO = "0" * 64
#: A line longer than this is not a journal line (a snapshot of a whole shoe is ~30 KB).
MAX_LINE = 1024 * 1024
_CHUNK = 256 * 1024  # pragma: no mutate (any size reads the same lines)


@dataclass(frozen=True, slots=True)
class Record:
    """One journal line before it is sealed into the chain (``prev`` is added then).

    ``at``: unix time and ``mono``: monotonic time when the display kept it, not
    when the disk took it (a line held in memory through a disk fault keeps its time).
    """

    at: float
    mono: float
    kind: str
    data: Any


def digest(line: bytes) -> str:
    """The hash a following line names: SHA-256 of ``line`` without its newline.

    >>> digest(b"{}\\n") == digest(b"{}")
    True
    """
    return hashlib.sha256(line.rstrip(b"\n")).hexdigest()


def seal(records: Iterable[Record], tip: str) -> tuple[bytes, str]:
    """``records`` as journal lines chained after ``tip``, and the new tip."""
    out: list[bytes] = []
    for record in records:
        line = canonical_json(
            {
                "at": record.at,
                "data": record.data,
                "kind": str(record.kind),
                "mono": record.mono,
                "prev": tip,
            }
        )
        tip = hashlib.sha256(line).hexdigest()
        out.append(line + b"\n")
    return b"".join(out), tip


@dataclass(frozen=True, slots=True)
class Line:
    """One line read back: its 1-based ``number``, ``hash`` and parsed ``record``.

    ``record`` is None when the line is not a JSON object (garbage, a NUL byte,
    too long); ``problem`` then says why.
    """

    number: int
    hash: str
    record: dict[str, Any] | None
    problem: str = ""
    #: The bytes are canonical JSON, as the display writes every line.
    canonical: bool = True  # pragma: no mutate (read only for a record, which parse says)

    @property
    def prev(self) -> str | None:
        """The hash this line names, None for a line of the old format or garbage."""
        value = self.record.get("prev") if self.record is not None else None
        return value if isinstance(value, str) else None

    @property
    def kind(self) -> str:
        value = self.record.get("kind") if self.record is not None else None
        return value if isinstance(value, str) else ""

    @property
    def data(self) -> Any:
        return self.record.get("data") if self.record is not None else None


@dataclass(frozen=True, slots=True)
class Read:
    """A file's complete lines; ``torn``: bytes after the last newline; ``cut``: the
    line number past which the file was not read (a line over :data:`MAX_LINE`)."""

    lines: tuple[Line, ...]
    torn: int = 0
    cut: int | None = None


def parse(number: int, raw: bytes) -> Line:
    """One complete line (without its newline) as a :class:`Line`, never raising."""
    try:
        record = json.loads(raw)
    except (ValueError, RecursionError) as error:
        return Line(number, digest(raw), None, f"not JSON ({str(error)[:60]})")
    if not isinstance(record, dict) or not isinstance(record.get("kind"), str):
        return Line(number, digest(raw), None, "not a journal record")
    try:
        canonical = canonical_json(record) == raw
    except (TypeError, ValueError):
        canonical = False
    return Line(number, digest(raw), record, canonical=canonical)


def read_lines(path: Path, *, limit: int = MAX_LINE) -> Read:
    """The lines of ``path``, read in chunks so no line longer than ``limit`` is held.

    Raises OSError when the file cannot be opened or read.
    """
    lines: list[Line] = []
    pending = b""
    with open_regular(path) as handle:
        while chunk := handle.read(_CHUNK):
            parts = (pending + chunk).split(b"\n")
            pending = parts.pop()
            for raw in parts:
                lines.append(parse(len(lines) + 1, raw))
            if len(pending) > limit:
                number = len(lines) + 1
                lines.append(Line(number, "", None, f"longer than {limit:,} bytes"))
                return Read(tuple(lines), cut=number)
    return Read(tuple(lines), torn=len(pending))


def last_line(path: Path) -> tuple[bytes, int] | None:
    """The last complete line of ``path`` (without its newline) and how many lines it has.

    Reads the file in chunks; None when it holds no complete line.
    """
    count, last, pending = 0, b"", b""
    with open_regular(path) as handle:
        while chunk := handle.read(_CHUNK):
            parts = (pending + chunk).split(b"\n")
            pending = parts.pop()[-MAX_LINE:]
            if parts:
                count += len(parts)
                last = parts[-1]
    return (last, count) if count else None


def start_link(line: Line | None) -> str | None:
    """What a file's first line says came before it: the hash it chains from.

    A ``gap`` or ``pruned`` first line with ``after`` says the lines before it were
    lost or dropped and names where the chain was before them; a legacy line
    (no ``prev``) or none at all says nothing (None).
    """
    if line is None:
        return None
    data = line.data
    if line.kind in AFTER_KINDS and isinstance(data, dict) and "after" in data:
        after = data["after"]
        return after if isinstance(after, str) else None
    return line.prev


#: The kinds a file's first line may use to say where the chain was before lost lines.
AFTER_KINDS = ("gap", "pruned")
