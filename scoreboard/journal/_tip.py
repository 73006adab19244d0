"""Where the writer stands in the hash chain, and what the chain must be told next.

The tip (the hash of the last line written, or read at start) is kept here, so
an append seals its lines without reading the file.  So is what the next write
must say first: a ``gap`` when the journal could not take lines for a while or
lost some (from when to when, why, what waited in memory, what was dropped),
and a ``pruned`` record when a new journal replaces one that held no games.

A file whose earlier lines were lost starts with a record that names, in
``after``, the hash the lost file itself chained from (its ``anchor``): audit
follows the chain across the loss, and the loss is written down, never hidden.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scoreboard.journal._links import ZERO, Record, parse, seal, start_link
from scoreboard.journal.archive import chain_end
from scoreboard.journal.records import COMPLETED_KIND, GAP_KIND, PRUNED_KIND, line

_NAMING = (PRUNED_KIND, COMPLETED_KIND, GAP_KIND)
"""The records that name lines of other files (see :meth:`ChainTip.carry`)."""


@dataclass
class ChainTip:
    """The writer's place in the chain and the records its next write owes.

    >>> tip = ChainTip()
    >>> tip.trouble("No space left on device", since=10.0)
    >>> [record.kind for record in tip.owed(held=3)]
    ['gap']
    >>> tip.owed(held=3)[0].data["held"], tip.tip == ZERO
    (3, True)
    """

    tip: str = ZERO
    #: The hash the live file's first line chains from (None: it began with old lines).
    anchor: str | None = ZERO
    #: Lines in the live file, as written or read.
    lines: int = 0
    shoe: str | None = None
    #: When the last line was written (or read), for a gap that begins then.
    last_at: float | None = None
    #: What the live file's ``pruned`` (file, tip) and ``completed`` (file, line, hash)
    #: records named: files elsewhere need them, so a loss of the file carries them on.
    carried: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    _why: list[str] = field(default_factory=list)
    _since: float | None = None
    _dropped: int = 0
    _lost: dict[str, Any] | None = None
    _pruned: Record | None = None

    # -- what the disk holds ---------------------------------------------------
    def read(self, raw: bytes, state_dir: Path) -> None:
        """Take the chain from the journal's complete lines ``raw`` (for an empty or
        missing journal, from the end of the archives in ``state_dir``)."""
        complete = raw.split(b"\n")[:-1]
        self.carried = {}
        for number, raw_line in enumerate(complete, start=1):  # pragma: no mutate (unread)
            if any(b'"kind":"%s"' % kind.encode() in raw_line for kind in _NAMING):
                found = parse(number, raw_line)
                if isinstance(found.data, dict):
                    self.carry(found.kind, found.data)
        if not complete:
            self.tip = self.anchor = chain_end(state_dir)
            self.lines = 0
            return
        last = parse(len(complete), complete[-1])
        self.tip, self.lines = last.hash, len(complete)
        self.anchor = start_link(parse(1, complete[0]))  # pragma: no mutate (number unread)
        at = last.record.get("at") if last.record is not None else None
        self.last_at = float(at) if isinstance(at, int | float) else None

    def start(
        self, raw: bytes | None, state_dir: Path, *, torn: int = 0, unreadable: str = ""
    ) -> None:
        """Take the chain from what the start found: the journal's complete lines ``raw``
        (None: no journal, or ``unreadable`` says why), ``torn`` bytes of a last line cut."""
        self.read(raw or b"", state_dir)
        if unreadable:
            self.trouble(f"journal.jsonl was unreadable ({unreadable})")
        elif not raw and not torn and self.tip != ZERO:  # archives, yet no journal after them
            what = "missing" if raw is None else "empty"
            self.trouble(f"journal.jsonl was {what} at start; the board started empty")
        if torn:
            why = f"a torn last line of {torn} bytes was cut (a power cut mid-write?)"
            self.trouble(why, self.last_at)

    def wrote(self, count: int, tip: str, records: list[Record]) -> None:
        """``count`` lines reached the disk (what was owed, then ``records``), the last one
        hashing to ``tip``: nothing is owed any more."""
        for record in [*self.owed(), *records]:
            if record.kind in _NAMING and isinstance(record.data, dict):
                self.carry(record.kind, record.data)
        self.tip, self.lines = tip, self.lines + count
        self.last_at = round(time.time(), 3)
        self._why, self._since, self._dropped, self._lost, self._pruned = [], None, 0, None, None

    def archived(self) -> None:
        """The live file moved to ``shoes/`` whole: the next file chains to its end."""
        self.anchor, self.lines, self.carried = self.tip, 0, {}

    def _gone(self) -> dict[str, Any]:
        """What a record says of the live file's lines as they leave the chain."""
        gone = {"file": "journal.jsonl", "lines": self.lines, "last": self.tip}
        gone.update(self.carried)
        self.lines, self.carried = 0, {}
        return gone

    def carry(self, kind: str, data: dict[str, Any]) -> None:
        """Remember what a ``pruned``, ``completed`` or ``gap`` record of the live file names
        elsewhere: a pruned file's tip, a completed branch, and what a replaced or lost
        journal named (a gap's ``lost``), so a later loss or pruning of this file says it too."""
        if kind in (PRUNED_KIND, COMPLETED_KIND):
            keys = ("file", "tip") if kind == PRUNED_KIND else ("file", "line", "hash")
            self.carried.setdefault(kind, []).append({key: data.get(key) for key in keys})
        lost = data.get("lost") if kind == GAP_KIND else None
        for holder in (data, lost if isinstance(lost, dict) else {}):
            for nested in (PRUNED_KIND, COMPLETED_KIND):  # a replaced journal's own
                for each in holder.get(nested) or ():
                    if isinstance(each, dict):
                        self.carry(nested, each)

    # -- what the next write must say --------------------------------------------
    def trouble(self, why: str, since: float | None = None) -> None:
        """Something the next write records in a ``gap`` (``since``: when it began)."""
        if why not in self._why:
            self._why.append(why)
        if since is not None:
            self._since = since if self._since is None else min(self._since, since)

    def dropped(self, count: int) -> None:
        """``count`` events held in memory were dropped (the table is written instead)."""
        self._dropped += count

    def lose(self, why: str, *, always: bool = False) -> None:
        """The live file's lines are lost (deleted, replaced, overwritten); ``always``:
        say why even if it held none of this display's lines."""
        if self.lines or always:
            self.trouble(why, self.last_at)
        if self.lines:
            self._lost = self._gone()

    def replace(self, why: str) -> None:
        """The live file, which held no games, is replaced on purpose by a new one."""
        if self.lines:
            data = {"shoe": self.shoe, "tip": self.tip, "why": why}
            self._pruned = line(PRUNED_KIND, {**self._gone(), **data, "after": self.anchor})

    def owed(self, held: int = 0) -> list[Record]:  # pragma: no mutate (only sealed writes)
        """The records the next write starts with (a ``pruned``, then a ``gap``)."""
        owed = [self._pruned] if self._pruned is not None else []
        if self._why or self._dropped or self._lost:
            since = None if self._since is None else round(self._since, 3)
            now = round(time.time(), 3)  # never before its start (a clock stepped back)
            data: dict[str, Any] = {
                "why": "; ".join(self._why) or "events dropped from memory",
                "from": since,
                "to": now if since is None else max(now, since),
                "held": held,
                "dropped": self._dropped,
            }
            if self._lost is not None:
                data.update(lost=self._lost, after=self.anchor)
            owed.append(line(GAP_KIND, data))
        return owed

    def sealed(self, records: list[Record], held: int) -> tuple[bytes, int, str]:
        """What the next write holds: what is owed, then ``records``; its line count, tip."""
        every = [*self.owed(held), *records]
        data, tip = seal(every, self.tip)
        return data, len(every), tip
