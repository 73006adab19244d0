"""The display's memory: an append-only, fsync'd log of what it applied.

A kiosk loses power without warning.  Every event that changed the table is
appended to ``journal.jsonl`` in the state directory and flushed to disk before
the next frame, so on start the display replays it and shows the same roads it
showed before the cut, then catches up from the retained snapshot.

One line per event: ``{"at": <unix time>, "mono": <monotonic time>, "kind": <payload
kind>, "data": <payload>, "prev": <SHA-256 of the line before>}`` in canonical JSON, the
payload in the wire format of :mod:`scoreboard.protocol` (validated again on replay).
A torn last line, as a power cut mid-write leaves it, is dropped.
When a new shoe starts, the finished shoe's journal moves to ``shoes/`` (the
audit trail: the most recent ``keep_shoes`` shoes with games are kept) and the
new one begins with the current limits and a ``history`` record (the shoe
number so far and the recently finished shoe ids).

The disk may fail under a kiosk (full, remounted read-only, the file deleted):
the board then runs from memory, :attr:`Journal.health` says why, one ERROR is
logged, and the disk is tried again with a backoff.  What it could not take
waits in memory and is written when it can; if the file was lost meanwhile,
the journal is rewritten from the table, which is the truth.  Nothing is ever
deleted to make room: a shoe without games is not archived, pruning counts only
shoes with games, and whatever unreadable thing sits where the journal should
be is set aside, not overwritten.

The record is tamper-evident: ``prev`` chains every line to the one before it,
through the archived shoes (oldest first) into the live journal, across restarts.
What the display knows went wrong is written on the chain, never hidden: a
``gap`` when writing resumes after a disk fault, a lost or set-aside journal, a
torn line cut or events dropped from memory; ``pruned`` for each old shoe the
retention removes (and for a journal without games replaced by the next shoe);
``completed`` confirming a late snapshot appended to its archive (a branch off
the chain); ``alert`` for each integrity alert.  Lines of the old format (no
``prev``) stay as unchained legacy lines and the chain starts after them.
``scoreboard audit`` verifies it all (:func:`scoreboard.journal.chain.verify`):
every file of the state directory is on the chain or named as not on it.

The package: ``writer`` holds :class:`Journal` (the appending file, losing track
of it, the rewrite from the table), ``pending`` what waits for the disk,
``faults`` its health and backoff, ``replay`` the reading back, ``archive`` the
finished shoes in ``shoes/`` (rotation, retention, completing one), ``records``
the lines, ``links`` the chain's hashing and bounded reading, ``tip`` where the
writer stands in the chain and what it owes it, ``chain`` the verification,
``contents`` what a verified chain holds shoe by shoe, ``exports`` the marker an
export leaves, and ``disk`` the durable file steps they share.
"""

from scoreboard.journal.archive import ARCHIVE_DIR
from scoreboard.journal.faults import RETRY_FIRST_SECONDS, RETRY_MAX_SECONDS
from scoreboard.journal.pending import MAX_PENDING
from scoreboard.journal.records import HISTORY_KIND
from scoreboard.journal.writer import JOURNAL_NAME, Journal, JournalError

__all__ = [
    "ARCHIVE_DIR",
    "HISTORY_KIND",
    "JOURNAL_NAME",
    "MAX_PENDING",
    "RETRY_FIRST_SECONDS",
    "RETRY_MAX_SECONDS",
    "Journal",
    "JournalError",
]
