"""What a shoe reader throws away, and why: bounded, merged, never silent.

A serial line carries noise (a shoe powering on, a loose cable, the wrong baud).
Both readers report every byte they discard as a :class:`BadBytes` with a reason,
so the bridge can count it, log it with its bytes and show it to staff.  A run of
discards for the same reason is one report however long it is, and keeps only
its first :data:`KEPT` bytes: ten megabytes of noise cost a few values, not ten
megabytes.

>>> out: Readout[str] = Readout()
>>> out.discard(b"\\xff\\xff", "outside a frame")
>>> out.discard(b"\\xc5", "outside a frame")
>>> out.put("a message")
>>> out.take()
[BadBytes(data=b'\\xff\\xff\\xc5', reason='outside a frame', length=3), 'a message']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

__all__ = ["KEPT", "BadBytes", "Readout"]

Message = TypeVar("Message")

#: The bytes a report keeps of its run: enough to read in a log line.
KEPT = 32


@dataclass(frozen=True, slots=True)
class BadBytes:
    """A run of ``length`` discarded bytes, the first :data:`KEPT` of them in ``data``."""

    data: bytes
    reason: str
    length: int

    def __str__(self) -> str:
        shown = self.data.hex(" ").upper()
        more = f" ... ({self.length} bytes)" if self.length > len(self.data) else ""
        return f"{self.reason}: {shown}{more}"


class Readout(Generic[Message]):
    """What one call of a reader found, in line order: messages and merged discards."""

    def __init__(self) -> None:
        self._items: list[Message | BadBytes] = []
        self._reason: str | None = None  # of the run being merged
        self._kept = bytearray()
        self._length = 0

    def put(self, message: Message) -> None:
        self._close()
        self._items.append(message)

    def discard(self, data: bytes | bytearray, reason: str) -> None:
        """Report ``data`` thrown away; it joins the previous report if the reason is the same."""
        if not data:
            return
        if reason != self._reason:
            self._close()
            self._reason = reason
        self._kept += data[: KEPT - len(self._kept)]
        self._length += len(data)

    def take(self) -> list[Message | BadBytes]:
        """Everything so far; the readout is empty afterwards."""
        self._close()
        items, self._items = self._items, []
        return items

    def _close(self) -> None:
        if self._reason is not None:
            self._items.append(BadBytes(bytes(self._kept), self._reason, self._length))
        self._reason, self._kept, self._length = None, bytearray(), 0
