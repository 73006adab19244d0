"""The archive of finished shoes (``shoes/``): what pruning names, and a ``shoes/`` that went.

Fast and in a tmp state dir, through the writer as a display uses it: what an
operator does to the disk (removing ``shoes/`` to make room) must not stop the
journal, and what surveillance reads (the ``pruned`` records) must say which
shoes went, in the order they went.
"""

from __future__ import annotations

import json
import os
import shutil

from dealt import dealt_shoe

from scoreboard.journal import ARCHIVE_DIR, JOURNAL_NAME, Journal, archive
from scoreboard.journal._links import digest
from scoreboard.journal.chain import verify
from scoreboard.protocol import CoupReceived, NewShoe, Snapshot, apply_event
from scoreboard.table.applied import Applied
from scoreboard.table.health import JournalState
from scoreboard.table.state import TableState

GAMES = list(dealt_shoe(4).games)


def feed(journal: Journal, table: TableState, events) -> None:
    for event in events:
        journal.keep(event, table, apply_event(table, event))


def live(state_dir) -> list[dict]:
    return [json.loads(raw) for raw in (state_dir / JOURNAL_NAME).read_bytes().splitlines()]


def archived(state_dir) -> list:
    return sorted((state_dir / ARCHIVE_DIR).glob("*.jsonl"))


def finished_shoes(state_dir, shoes: list[str]) -> TableState:
    """A display that dealt a game of each of ``shoes``; all but the last archived."""
    table = TableState()
    with Journal(state_dir, keep_shoes=len(shoes) + 5) as journal:
        journal.replay(table)
        for shoe in shoes:
            feed(journal, table, [NewShoe(shoe), CoupReceived(shoe, GAMES[0])])
    return table


def late_snapshot(journal: Journal, table: TableState, shoe: str) -> None:
    """A controller's snapshot completing finished shoe ``shoe``, as the feed keeps it."""
    journal.keep(Snapshot(shoe, tuple(GAMES[:2])), table, Applied(completed=shoe))


# -- pruning -------------------------------------------------------------------------
def test_pruned_shoes_are_named_oldest_first_with_their_shoe_lines_and_hashes(tmp_path):
    table = finished_shoes(tmp_path, ["S0", "S1", "S2", "S3"])
    files = archived(tmp_path)
    held = {path.name: path.read_bytes().splitlines() for path in files}
    with Journal(tmp_path, keep_shoes=1) as journal:
        journal.replay(table)
        feed(journal, table, [NewShoe("NEXT")])  # S3 archived; S0, S1 and S2 go
    pruned = [line["data"] for line in live(tmp_path) if line["kind"] == "pruned"]
    assert [each["shoe"] for each in pruned] == ["S0", "S1", "S2"]
    for each, path in zip(pruned, files, strict=True):
        lines = held[path.name]
        assert each["file"] == f"{ARCHIVE_DIR}/{path.name}"
        assert (each["lines"], each["tip"], each["last"]) == (
            len(lines),
            digest(lines[-1]),
            digest(lines[-1]),
        )
        assert not path.exists()
    assert len(archived(tmp_path)) == 1
    assert verify(tmp_path).ok


# -- a shoes/ removed while the display runs --------------------------------------------
def test_a_shoes_dir_removed_while_running_is_made_again_for_the_next_archive(tmp_path):
    table = TableState()
    with Journal(tmp_path) as journal:
        journal.replay(table)
        feed(journal, table, [NewShoe("A"), CoupReceived("A", GAMES[0])])
        finished = (tmp_path / JOURNAL_NAME).read_bytes()
        shutil.rmtree(tmp_path / ARCHIVE_DIR)  # an operator making room
        feed(journal, table, [NewShoe("B")])
        assert journal.health.state is JournalState.OK
    (only,) = archived(tmp_path)
    assert only.name.endswith("-A.jsonl") and only.read_bytes() == finished


def snapshot_after_shoes_removed(state_dir) -> JournalState:
    """Shoe A archived, then ``shoes/`` removed, then A's late snapshot: the health after."""
    table = TableState()
    with Journal(state_dir) as journal:
        journal.replay(table)
        feed(journal, table, [NewShoe("A"), CoupReceived("A", GAMES[0]), NewShoe("B")])
        shutil.rmtree(state_dir / ARCHIVE_DIR)
        late_snapshot(journal, table, "A")
        return journal.health.state


def test_a_late_snapshot_after_shoes_was_removed_gets_a_new_archive_file(tmp_path):
    assert snapshot_after_shoes_removed(tmp_path) is JournalState.OK
    (made,) = archived(tmp_path)
    (line,) = made.read_bytes().splitlines()
    assert json.loads(line)["kind"] == "snapshot"
    confirm = next(each["data"] for each in live(tmp_path) if each["kind"] == "completed")
    assert (confirm["file"], confirm["line"]) == (f"{ARCHIVE_DIR}/{made.name}", 1)


def test_an_archive_file_made_for_a_late_snapshot_is_readable_and_not_executable(tmp_path):
    old = os.umask(0o022)
    try:
        snapshot_after_shoes_removed(tmp_path)
    finally:
        os.umask(old)
    (made,) = archived(tmp_path)
    assert made.stat().st_mode & 0o777 == 0o644  # as every file the journal writes


def test_a_late_snapshot_holds_no_file_open(tmp_path):
    table = finished_shoes(tmp_path, ["A", "B"])
    with Journal(tmp_path) as journal:
        journal.replay(table)
        before = len(os.listdir("/proc/self/fd"))
        late_snapshot(journal, table, "A")
        assert len(os.listdir("/proc/self/fd")) == before
    assert json.loads(archived(tmp_path)[0].read_bytes().splitlines()[-1])["kind"] == "snapshot"


def test_an_archived_shoe_is_made_durable_in_its_directory(tmp_path, monkeypatch):
    synced = []
    real = archive.fsync_dir

    def noted(path):
        synced.append(path)
        real(path)

    monkeypatch.setattr(archive, "fsync_dir", noted)
    table = TableState()
    with Journal(tmp_path) as journal:
        journal.replay(table)
        feed(journal, table, [NewShoe("A"), CoupReceived("A", GAMES[0])])
        assert synced == []
        feed(journal, table, [NewShoe("B")])  # A's journal renamed into shoes/
    assert synced == [tmp_path / ARCHIVE_DIR]


def test_an_archive_that_begins_by_naming_a_replaced_journal_is_its_own_shoes(tmp_path):
    table = TableState()
    with Journal(tmp_path, keep_shoes=0) as journal:
        journal.replay(table)
        feed(journal, table, [NewShoe("EMPTY"), NewShoe("A"), CoupReceived("A", GAMES[0])])
        assert live(tmp_path)[0]["data"]["shoe"] == "EMPTY"  # the pruned journal, first
        feed(journal, table, [NewShoe("B")])  # A archived, then pruned (none are kept)
    (pruned,) = (each["data"] for each in live(tmp_path) if each["kind"] == "pruned")
    assert pruned["shoe"] == "A"
    assert verify(tmp_path).ok


def test_pruned_records_name_the_shoe_of_a_file_that_begins_with_a_coup_or_a_snapshot(tmp_path):
    table = TableState()
    with Journal(tmp_path) as journal:
        journal.replay(table)
        feed(journal, table, [CoupReceived("A", GAMES[0])])  # a shoe that began with a coup
        feed(journal, table, [NewShoe("B"), CoupReceived("B", GAMES[0])])
        feed(journal, table, [NewShoe("C"), CoupReceived("C", GAMES[0])])
        (b_file,) = (path for path in archived(tmp_path) if path.name.endswith("-B.jsonl"))
        b_file.unlink()
        late_snapshot(journal, table, "B")  # a new file for B: it begins with the snapshot
    with Journal(tmp_path, keep_shoes=0) as journal:
        journal.replay(table)
        feed(journal, table, [NewShoe("D")])
    pruned = [each["data"] for each in live(tmp_path) if each["kind"] == "pruned"]
    assert [each["shoe"] for each in pruned] == ["A", "B", "C"]  # oldest first
    assert archived(tmp_path) == []


# -- which archive a late snapshot completes ---------------------------------------------
def test_a_late_snapshot_goes_to_its_shoes_file_not_that_of_a_longer_id(tmp_path):
    table = finished_shoes(tmp_path, ["S1", "S10", "S2"])  # S10's file is newer than S1's
    before = {path.name: path.read_bytes() for path in archived(tmp_path)}
    with Journal(tmp_path) as journal:
        journal.replay(table)
        late_snapshot(journal, table, "S1")
    changed = [path.name for path in archived(tmp_path) if path.read_bytes() != before[path.name]]
    assert len(changed) == 1 and changed[0].endswith("-S1.jsonl")
    assert verify(tmp_path).ok


def test_a_late_snapshot_of_a_shoe_that_began_with_a_coup_goes_to_its_archive(tmp_path):
    table = TableState()
    with Journal(tmp_path) as journal:
        journal.replay(table)
        feed(journal, table, [CoupReceived("A", GAMES[0]), NewShoe("B")])  # joined mid-shoe
        late_snapshot(journal, table, "A")
    (only,) = archived(tmp_path)
    assert json.loads(only.read_bytes().splitlines()[0])["kind"] == "coup"
    assert json.loads(only.read_bytes().splitlines()[-1])["kind"] == "snapshot"
    assert verify(tmp_path).ok


def test_a_late_snapshot_goes_to_the_newest_file_of_its_shoe(tmp_path):
    (tmp_path / ARCHIVE_DIR).mkdir()
    older = tmp_path / ARCHIVE_DIR / "20260101-000000-A.jsonl"
    newer = tmp_path / ARCHIVE_DIR / "20260102-000000-A.jsonl"  # say, restored from a backup
    for number, path in enumerate((older, newer)):
        path.write_bytes(b'{"data":{"shoe":"A","type":"new_shoe","v":1},"kind":"event"}\n')
        os.utime(path, (1_000_000 + number,) * 2)
    path, number = archive.complete(tmp_path, "A", b'{"kind":"snapshot"}\n')
    assert (path, number) == (newer, 2)
    assert len(older.read_bytes().splitlines()) == 1


# -- what pruning finds in shoes/ -------------------------------------------------------
def test_a_dangling_link_in_shoes_stops_neither_pruning_nor_the_next_shoe(tmp_path):
    table = finished_shoes(tmp_path, ["A", "B", "C"])
    (tmp_path / ARCHIVE_DIR / "20000101-000000-GONE.jsonl").symlink_to(tmp_path / "nowhere")
    with Journal(tmp_path, keep_shoes=1) as journal:
        journal.replay(table)
        feed(journal, table, [NewShoe("D")])
        assert journal.health.state is JournalState.OK
    assert [path.name[-7:] for path in archived(tmp_path)] == ["C.jsonl"]


def test_an_archive_that_cannot_be_read_is_never_pruned_unexported(tmp_path):
    table = finished_shoes(tmp_path, ["A", "B"])
    fifo = tmp_path / ARCHIVE_DIR / "20000101-000000-X.jsonl"  # not a file: cannot be read
    os.mkfifo(fifo)
    os.utime(fifo, (1_000_000,) * 2)
    with Journal(tmp_path, keep_shoes=0, require_export=True) as journal:
        journal.replay(table)
        feed(journal, table, [NewShoe("C")])
    assert fifo.exists() and len(archived(tmp_path)) == 3  # A, B and the unread one


def test_with_no_live_journal_a_broken_chain_goes_on_from_its_newest_end(tmp_path):
    here, there = tmp_path / "here", tmp_path / "there"
    finished_shoes(here, ["A", "B"])
    finished_shoes(there, ["X", "Y"])
    (tmp_path / "here" / JOURNAL_NAME).unlink()
    (mine,) = archived(here)
    (copied,) = archived(there)
    shutil.copy(copied, here / ARCHIVE_DIR / copied.name)  # a chain of another display
    copied = here / ARCHIVE_DIR / copied.name
    for newest, other in ((copied, mine), (mine, copied)):
        os.utime(other, (1_000_000,) * 2)
        os.utime(newest, (2_000_000,) * 2)
        assert archive.chain_end(here) == digest(newest.read_bytes().splitlines()[-1])


def test_a_shoe_id_too_long_for_a_file_name_is_archived_under_its_first_64_characters(tmp_path):
    long = "L" * 300
    table = TableState()
    with Journal(tmp_path) as journal:
        journal.replay(table)
        feed(journal, table, [NewShoe(long), CoupReceived(long, GAMES[0]), NewShoe("B")])
        assert journal.health.state is JournalState.OK
    (only,) = archived(tmp_path)
    assert only.name.endswith("-" + "L" * 64 + ".jsonl")
    assert verify(tmp_path).ok
