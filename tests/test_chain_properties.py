"""For any sequence of journal operations the record audits intact.

Events of every kind (coups, voids, corrections, snapshots, new shoes, limits),
restarts, the journal deleted or an old copy restored under the running display, a torn
last line before a restart, late completions of an archived shoe and pruning
(two shoes kept): whatever the order, ``verify`` finds no broken link, and a
display replaying the state dir goes on from the same tip.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_chain import late
from test_journal_replay import LIMITS, events

from scoreboard.journal import JOURNAL_NAME, Journal
from scoreboard.journal.chain import verify
from scoreboard.protocol import LimitsReceived, NewShoe, Snapshot, apply_event
from scoreboard.table.state import TableState

operations = st.lists(
    st.one_of(
        events.map(lambda event: ("event", event)),
        st.sampled_from([("restart",), ("delete",), ("restore",), ("tear",), ("complete",)]),
    ),
    max_size=40,
)


class Display:
    """A display over ``state``: its table, its journal, and an old copy of the journal."""

    def __init__(self, state: Path) -> None:
        self.state = state
        self.start()
        self.copy: bytes | None = None

    def start(self) -> None:
        self.table = TableState()
        self.journal = Journal(self.state, keep_shoes=2)
        self.journal.replay(self.table)

    def notice(self) -> None:
        """An event that changes the table: the display's next write notices what happened
        to its journal (restarted first, it could not tell an old copy from its own, nor
        know what a deleted journal confirmed: audit then rightly reports it)."""
        other = LIMITS[1] if self.table.limits == LIMITS[0] else LIMITS[0]
        self.do(("event", LimitsReceived(other)))

    def do(self, operation: tuple) -> None:
        path = self.state / JOURNAL_NAME
        match operation:
            case ("event", event):
                self.journal.keep(event, self.table, apply_event(self.table, event))
                if self.copy is None and path.exists():
                    self.copy = path.read_bytes()
            case ("restart",):
                self.journal.close()
                self.start()
            case ("delete",) if path.exists():
                path.unlink()
                self.notice()
            case ("restore",) if self.copy is not None:
                (self.state / "copy").write_bytes(self.copy)
                os.replace(self.state / "copy", path)
                self.notice()
            case ("tear",) if path.exists():
                with open(path, "ab") as handle:
                    handle.write(b'{"at":1,"kind":"coup","da')
                self.journal.close()
                self.start()
            case ("complete",) if self.table.archived:
                snapshot = Snapshot(self.table.archived[-1], ())
                self.journal.keep(snapshot, self.table, late(self.table.archived[-1]))


SHOE_A, SHOE_B, SHOE_C = (("event", NewShoe(shoe)) for shoe in "ABC")


@settings(max_examples=100, deadline=None)
@given(operations)
# A late completion of a pruned shoe, its journal then lost (deleted, or an old copy put back;
# a restart between), then that journal's shoe pruned: the pruned record must still name the
# completed line the lost journal's gap carried, or audit finds the archive off the chain.
@example([SHOE_A, SHOE_C, ("complete",), ("delete",), SHOE_B])
@example([SHOE_A, SHOE_C, ("complete",), ("delete",), ("restart",), SHOE_B])
@example([SHOE_A, SHOE_C, ("complete",), ("restore",), SHOE_B])
def test_any_sequence_of_journal_operations_audits_intact(sequence):
    with tempfile.TemporaryDirectory() as folder:
        display = Display(Path(folder))
        for operation in sequence:
            display.do(operation)
        display.journal.close()
        report = verify(Path(folder))
        assert report.ok, (report.broken, sequence)
