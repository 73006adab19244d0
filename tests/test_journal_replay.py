"""A display rebuilt from its journal is the display that wrote it, whatever the events were."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from dealt import dealt_shoe
from hypothesis import given, settings
from hypothesis import strategies as st

from scoreboard.game.limits import Limits
from scoreboard.game.rules import Game
from scoreboard.journal import JOURNAL_NAME, Journal
from scoreboard.protocol import (
    Burn,
    Correct,
    CoupReceived,
    CutCard,
    LimitsReceived,
    NewShoe,
    Shuffle,
    Snapshot,
    Void,
    apply_event,
)
from scoreboard.table.state import TableState

SHOES = ["A", "B", "C"]
GAMES = list(dealt_shoe(11, decks=1, short=True).games)
#: Where the many journals of the property tests are written: memory when the machine has a
#: tmpfs (each of their fsyncs then costs nothing); what they check is what is read back.
IN_MEMORY = "/dev/shm" if os.path.isdir("/dev/shm") else None
LIMITS = [Limits("EUR", {"tie": (5, 500)}, {"tie": "8:1"}), Limits("USD", {"tie": (1, 50)}, {})]


def feed(journal: Journal, table: TableState, events) -> None:
    """What the MQTT feed does: apply, journal what changed, count (here: drop) conflicts.

    An event that taught the table a coup is not a game's truth (``Applied.retired``)
    is journaled even when rejected or invisible, as the feed does.
    """
    for event in events:
        journal.keep(event, table, apply_event(table, event))


def view(table: TableState) -> dict:
    return {
        "shoe": table.shoe_id,
        "shoe_number": table.shoe_number,
        "games": table.games,
        "voided": table.voided,
        "missing": table.missing,
        "last_game": table.last_game,
        "limits": table.limits,
        "shuffling": table.shuffling,
        "cut_card_out": table.cut_card_out,
        "roads": table.roads.to_json(),
        "finished": [shoe for shoe in SHOES if table.is_archived(shoe)],
    }


numbers = st.integers(1, 12)
games = st.builds(lambda n, k: Game(n, GAMES[k].coup), numbers, st.integers(0, len(GAMES) - 1))
shoes = st.sampled_from(SHOES)
events = st.one_of(
    st.builds(CoupReceived, shoes, games),
    st.builds(CoupReceived, shoes, games),
    st.builds(NewShoe, shoes),
    st.builds(Void, shoes, numbers),
    st.builds(Correct, shoes, games),
    st.builds(
        lambda shoe, gs, voided: Snapshot(
            shoe,
            tuple({g.number: g for g in gs}[n] for n in sorted({g.number for g in gs})),
            tuple(sorted(set(voided) - {g.number for g in gs})),
        ),
        shoes,
        st.lists(games, max_size=8),
        st.lists(numbers, max_size=3),
    ),
    st.builds(LimitsReceived, st.sampled_from(LIMITS)),
    st.sampled_from([Shuffle(), Burn(()), CutCard()]),
)


def live_and_replayed(state_dir: Path, history) -> tuple[TableState, TableState]:
    table = TableState()
    journal = Journal(state_dir)
    journal.replay(table)
    feed(journal, table, history)
    journal.close()
    again = TableState()
    journal = Journal(state_dir)
    journal.replay(again)
    journal.close()
    return table, again


@pytest.mark.slow
@settings(max_examples=120, deadline=None)
@given(st.lists(events, max_size=40), st.lists(events, max_size=15))
def test_a_replayed_journal_rebuilds_the_table_and_it_goes_on_alike(history, later):
    with tempfile.TemporaryDirectory(dir=IN_MEMORY) as state_dir:
        table, again = live_and_replayed(Path(state_dir), history)
        assert view(again) == view(table)
        for event in later:  # hidden state (voids, corrections, finished shoes) alike too
            outcomes = [apply_event(each, event) for each in (table, again)]
            assert outcomes[0] == outcomes[1], event
            assert view(again) == view(table)


def test_a_restart_keeps_the_shoe_number_and_a_finished_shoe_cannot_come_back(tmp_path):
    history = [NewShoe("A"), CoupReceived("A", GAMES[0]), NewShoe("B"), CoupReceived("B", GAMES[0])]
    table, again = live_and_replayed(tmp_path, history)
    assert (again.shoe_id, again.shoe_number) == ("B", 2) == (table.shoe_id, table.shoe_number)
    # after the restart, a queued late coup or retained snapshot of shoe A arrives
    assert apply_event(again, CoupReceived("A", GAMES[1])).changed is False
    assert apply_event(again, Snapshot("A", tuple(GAMES[:3]))).changed is False
    assert (again.shoe_id, again.games) == ("B", (GAMES[0],))


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(st.lists(events, min_size=1, max_size=25))
def test_a_journal_torn_anywhere_in_its_last_line_loses_at_most_that_event(history):
    with tempfile.TemporaryDirectory(dir=IN_MEMORY) as state_dir:
        path = Path(state_dir) / JOURNAL_NAME
        table = TableState()
        journal = Journal(state_dir)
        journal.replay(table)
        views, written = [view(table)], [b""]
        for event in history:
            feed(journal, table, [event])
            views.append(view(table))
            written.append(path.read_bytes() if path.exists() else b"")
        journal.close()
        raw = path.read_bytes() if path.exists() else b""
        last = raw.rstrip(b"\n").rfind(b"\n") + 1
        full = view(table)
        # The last line is the one the event that first left the file as it ends up wrote:
        # torn, the table is as it was just before that event, never any earlier.
        before_last = views[max(0, written.index(raw) - 1)]
        for cut in range(last, len(raw) + 1):
            path.write_bytes(raw[:cut])
            again = TableState()
            journal = Journal(state_dir)
            journal.replay(again)
            journal.close()
            if view(again) in (full, before_last):
                continue
            # the cut fell just after a rotation: between the finished shoe and the new one
            between = {**views[-2], "shoe": None, "games": (), "voided": (), "missing": ()}
            between.update(shoe_number=full["shoe_number"] - 1, finished=full["finished"])
            between.update(last_game=None, roads=TableState().roads.to_json())
            between.update(shuffling=False, cut_card_out=False)
            assert view(again) == between, cut


def test_a_rejected_coup_is_remembered_across_a_restart(tmp_path):
    """A conflicting coup is journaled (though rejected), so after a power cut a void and a
    stale snapshot listing that coup cannot bring it back as a redeal."""
    fixed = Game(1, GAMES[3].coup)
    table = TableState()
    journal = Journal(tmp_path)
    journal.replay(table)
    feed(journal, table, [NewShoe("A"), Snapshot("A", (fixed,)), CoupReceived("A", GAMES[0])])
    journal.close()
    restarted = TableState()
    Journal(tmp_path).replay(restarted)
    for event in (Correct("A", fixed), Void("A", 1), Snapshot("A", (GAMES[0],))):
        apply_event(restarted, event)
    assert restarted.games == () and restarted.voided == (1,)
