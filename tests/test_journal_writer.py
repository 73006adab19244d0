"""The journal's writer on its own: startup, pruning and a failing disk, in a tmp state dir.

Fast and without processes or a broker: the disk faults are made by swapping the
writer's two write calls for ones that raise, the way a full disk does.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import shutil

import pytest
from dealt import dealt_shoe

from scoreboard.game.cards import parse_cards
from scoreboard.game.limits import Limits
from scoreboard.journal import ARCHIVE_DIR, JOURNAL_NAME, Journal, archive, writer
from scoreboard.journal import _replay as replay
from scoreboard.journal._links import ZERO, digest
from scoreboard.journal.archive import chain_end
from scoreboard.journal.chain import verify
from scoreboard.protocol import Burn, CoupReceived, LimitsReceived, NewShoe, Snapshot, apply_event
from scoreboard.table.applied import Applied
from scoreboard.table.health import JournalState
from scoreboard.table.state import TableState

SHOE, GAMES = dealt_shoe(3).shoe, list(dealt_shoe(3).games)
LOW = Limits("EUR", {"tie": (5, 500)}, {"tie": "8:1"})
HIGH = Limits("EUR", {"tie": (10, 1000)}, {"tie": "8:1"})


def feed(journal: Journal, table: TableState, events) -> None:
    for event in events:
        journal.keep(event, table, apply_event(table, event))


def lines(state_dir) -> list[dict]:
    return [json.loads(raw) for raw in (state_dir / JOURNAL_NAME).read_bytes().splitlines()]


def kinds(state_dir) -> list[str]:
    """Each line's kind, an ``event`` line's by its type: ``new_shoe``, ``limits``, ..."""
    return [
        line["data"]["type"] if line["kind"] == "event" else line["kind"]
        for line in lines(state_dir)
    ]


def replayed(state_dir) -> TableState:
    table = TableState()
    with Journal(state_dir) as journal:
        journal.replay(table)
    return table


class Disk:
    """The writer's disk calls, made to fail like a full disk while ``full`` is set."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.full, self.calls = False, []
        for name in ("append_durably", "replace_durably"):
            real = getattr(writer, name)
            monkeypatch.setattr(writer, name, self._guarded(real))

    def _guarded(self, real):
        def call(*args):
            self.calls.append(real.__name__)
            if self.full:
                raise OSError(errno.ENOSPC, "No space left on device")
            return real(*args)

        return call


class Failing:
    """A journal replayed on an empty state dir, with a disk that fails on demand
    and a clock that moves only when the test moves it."""

    def __init__(self, state_dir, monkeypatch: pytest.MonkeyPatch) -> None:
        self.disk, self.now, self.table = Disk(monkeypatch), [0.0], TableState()
        self.journal = Journal(state_dir, clock=lambda: self.now[0])
        self.journal.replay(self.table)


@pytest.fixture
def failing(tmp_path, monkeypatch) -> Failing:
    return Failing(tmp_path, monkeypatch)


def shoes_with_games(state_dir, count: int) -> None:
    """A state dir whose ``shoes/`` holds ``count`` archived shoes with a game each."""
    table = TableState()
    with Journal(state_dir, keep_shoes=count + 5) as journal:
        journal.replay(table)
        for number in range(count + 1):
            feed(journal, table, [NewShoe(f"S{number}"), CoupReceived(f"S{number}", GAMES[0])])
    assert len(list((state_dir / ARCHIVE_DIR).glob("*.jsonl"))) == count


# -- startup -------------------------------------------------------------------------
def test_a_restart_alone_prunes_nothing_the_next_new_shoe_does(tmp_path):
    shoes_with_games(tmp_path, 3)
    table = TableState()
    with Journal(tmp_path, keep_shoes=1) as journal:
        journal.replay(table)
        assert len(list((tmp_path / ARCHIVE_DIR).glob("*.jsonl"))) == 3
        feed(journal, table, [NewShoe("NEXT")])
    assert len(list((tmp_path / ARCHIVE_DIR).glob("*.jsonl"))) == 1
    assert kinds(tmp_path).count("pruned") == 3


def test_a_torn_line_that_cannot_be_cut_is_a_disk_fault_until_the_file_is_rewritten(
    tmp_path, monkeypatch
):
    table = TableState()
    with Journal(tmp_path) as journal:
        journal.replay(table)
        feed(journal, table, [NewShoe(SHOE), *(CoupReceived(SHOE, g) for g in GAMES[:4])])
    with open(tmp_path / JOURNAL_NAME, "ab") as handle:
        handle.write(b'{"at":1,"kind":"coup","data":{"v":1,"sh')

    def refuse(*_):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(replay, "truncate", refuse)
    now = [0.0]
    again = TableState()
    journal = Journal(tmp_path, clock=lambda: now[0])
    journal.replay(again)
    assert again.games == table.games
    assert journal.health.state is JournalState.FAILING
    assert "Read-only file system" in (journal.health.reason or "")
    assert (tmp_path / JOURNAL_NAME).read_bytes().endswith(b'"sh')  # nothing written yet
    monkeypatch.undo()
    now[0] = 10.0
    assert journal.heal().state is JournalState.OK
    journal.close()
    assert (tmp_path / JOURNAL_NAME).read_bytes().endswith(b"\n")
    gap = next(line for line in lines(tmp_path) if line["kind"] == "gap")
    assert "could not be written (Read-only file system)" in gap["data"]["why"]
    assert "rewritten from memory" in gap["data"]["why"]  # on purpose, not found changed
    assert "replaced or changed" not in gap["data"]["why"]
    assert replayed(tmp_path).games == table.games


def test_a_first_keep_without_replay_starts_a_new_journal_quietly(tmp_path, caplog):
    table = TableState()
    journal = Journal(tmp_path)
    with caplog.at_level(logging.WARNING, logger="scoreboard.journal"):
        feed(journal, table, [NewShoe(SHOE), CoupReceived(SHOE, GAMES[0])])
    journal.close()
    assert caplog.records == []
    assert kinds(tmp_path) == ["new_shoe", "coup"]
    assert lines(tmp_path)[0]["prev"] == ZERO


def test_a_first_keep_without_replay_chains_to_the_archives_when_the_journal_is_gone(tmp_path):
    shoes_with_games(tmp_path, 2)
    (tmp_path / JOURNAL_NAME).unlink()
    end = chain_end(tmp_path)
    assert end != ZERO
    table = TableState()
    with Journal(tmp_path) as journal:
        feed(journal, table, [NewShoe("LATER")])
    assert lines(tmp_path)[0]["prev"] == end


def test_a_first_keep_without_replay_appends_to_the_journal_found(tmp_path, caplog):
    table = TableState()
    with Journal(tmp_path) as journal:
        journal.replay(table)
        feed(journal, table, [NewShoe(SHOE), *(CoupReceived(SHOE, g) for g in GAMES[:3])])
    before = (tmp_path / JOURNAL_NAME).read_bytes().splitlines()
    quiet = caplog.at_level(logging.WARNING, logger="scoreboard.journal")
    with quiet, Journal(tmp_path) as journal:  # the table is the one shown, not replayed here
        feed(journal, table, [CoupReceived(SHOE, GAMES[3])])
    assert caplog.records == []
    after = (tmp_path / JOURNAL_NAME).read_bytes().splitlines()
    assert after[: len(before)] == before and len(after) == len(before) + 1
    assert json.loads(after[-1])["prev"] == digest(before[-1])
    assert replayed(tmp_path).games == table.games


def test_a_journal_of_limits_only_is_replaced_by_the_next_shoe_and_named_as_pruned(tmp_path):
    table = TableState()
    with Journal(tmp_path) as journal:
        journal.replay(table)
        feed(journal, table, [LimitsReceived(LOW), NewShoe("EMPTY")])
        replaced = (tmp_path / JOURNAL_NAME).read_bytes().splitlines()
        feed(journal, table, [NewShoe(SHOE)])
    assert list((tmp_path / ARCHIVE_DIR).glob("*.jsonl")) == []
    first = lines(tmp_path)[0]
    assert first["kind"] == "pruned"
    assert first["data"]["why"] == "it held no games"
    assert (first["data"]["shoe"], first["data"]["tip"]) == ("EMPTY", digest(replaced[-1]))
    assert first["data"]["lines"] == len(replaced) == 2  # the limits and the new shoe
    assert verify(tmp_path).ok


# -- pruning --------------------------------------------------------------------------
def test_pruning_reads_the_archives_once_per_new_journal_not_per_coup(tmp_path, monkeypatch):
    calls = []
    real = archive.doomed

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(archive, "doomed", counted)
    table = TableState()
    with Journal(tmp_path) as journal:
        journal.replay(table)  # a new, empty journal
        feed(journal, table, [NewShoe(SHOE), *(CoupReceived(SHOE, g) for g in GAMES[:10])])
        assert len(calls) == 1
        feed(journal, table, [NewShoe("NEXT"), CoupReceived("NEXT", GAMES[0])])
        assert len(calls) == 2


# -- a failing disk -------------------------------------------------------------------
def test_events_wait_for_a_full_disk_and_close_gives_it_one_last_try(tmp_path, failing):
    disk, table, journal = failing.disk, failing.table, failing.journal
    disk.full = True
    feed(journal, table, [NewShoe(SHOE), *(CoupReceived(SHOE, g) for g in GAMES[:3])])
    assert journal.health.state is JournalState.FAILING
    assert journal.health.reason == "No space left on device"
    assert journal.heal().state is JournalState.FAILING  # the backoff is not over
    disk.full = False
    journal.close()  # before the backoff ends: the last try does not wait for it
    assert journal.health.state is JournalState.OK
    feed(journal, table, [CoupReceived(SHOE, GAMES[3])])  # written at once, backoff or not
    assert replayed(tmp_path).games == table.games
    assert kinds(tmp_path)[:2] == ["gap", "new_shoe"]


def test_a_heal_retries_only_when_the_backoff_allows(tmp_path, failing):
    disk, now, table, journal = failing.disk, failing.now, failing.table, failing.journal
    disk.full = True
    feed(journal, table, [NewShoe(SHOE)])
    disk.full = False
    assert journal.heal().state is JournalState.FAILING
    now[0] = 60.0
    assert journal.heal().state is JournalState.OK
    assert replayed(tmp_path).shoe_id == SHOE


def test_too_many_events_waiting_are_dropped_and_the_table_written_instead(tmp_path, failing):
    disk, now, table, journal = failing.disk, failing.now, failing.table, failing.journal
    feed(journal, table, [NewShoe(SHOE), CoupReceived(SHOE, GAMES[0])])
    disk.full = True
    feed(
        journal,
        table,
        [LimitsReceived(HIGH if n % 2 else LOW) for n in range(writer.MAX_PENDING + 1)],
    )
    disk.full = False
    now[0] = 60.0
    assert journal.heal().state is JournalState.OK
    journal.close()
    written = lines(tmp_path)
    assert len(written) < 20  # the table as it is, not ten thousand limits
    gap = next(line for line in written if line["kind"] == "gap")
    assert gap["data"]["dropped"] >= writer.MAX_PENDING
    assert "events waited for the disk" in gap["data"]["why"]
    again = replayed(tmp_path)
    assert (again.shoe_id, again.games, again.limits) == (SHOE, table.games, table.limits)


def test_a_state_dir_that_cannot_be_made_fails_quietly_and_closes(tmp_path):
    journal = Journal(tmp_path / ("x" * 300))  # too long a name for the file system
    assert journal.health.state is JournalState.FAILING
    assert "too long" in (journal.health.reason or "")
    journal.close()  # never replayed: nothing to write, and no traceback
    assert journal.health.state is JournalState.FAILING


def test_a_first_keep_without_replay_cuts_a_torn_last_line_before_appending(tmp_path):
    table = TableState()
    with Journal(tmp_path) as journal:
        journal.replay(table)
        feed(journal, table, [NewShoe(SHOE), CoupReceived(SHOE, GAMES[0])])
    whole = (tmp_path / JOURNAL_NAME).read_bytes()
    with open(tmp_path / JOURNAL_NAME, "ab") as handle:
        handle.write(b'{"at":1,"kind":"coup","da')  # the power went out mid-line
    with Journal(tmp_path) as journal:
        feed(journal, table, [CoupReceived(SHOE, GAMES[1])])
    after = (tmp_path / JOURNAL_NAME).read_bytes()
    assert after.startswith(whole)
    gap, coup = (json.loads(raw) for raw in after[len(whole) :].splitlines())
    assert (gap["kind"], coup["kind"]) == ("gap", "coup")
    assert gap["prev"] == digest(whole.splitlines()[-1])
    assert "a torn last line of 25 bytes was cut" in gap["data"]["why"]
    assert replayed(tmp_path).games == table.games


def test_the_journal_is_journal_jsonl_and_200_shoes_are_kept_by_default(tmp_path):
    shoes_with_games(tmp_path, 1)
    (tmp_path / "journal.jsonl").unlink()  # the name docs/operations.md gives
    (only,) = (tmp_path / ARCHIVE_DIR).glob("*.jsonl")
    for number in range(200):
        copy = only.with_name(f"20000101-000000-C{number:03}.jsonl")
        copy.write_bytes(only.read_bytes())
        os.utime(copy, (1_000_000 + number,) * 2)  # older than the original
    with Journal(tmp_path) as journal:
        journal.replay(TableState())  # a new journal: pruning is due
    assert (tmp_path / "journal.jsonl").is_file()
    left = list((tmp_path / ARCHIVE_DIR).glob("*.jsonl"))
    assert len(left) == 200 and (tmp_path / ARCHIVE_DIR / "20000101-000000-C000.jsonl") not in left


def test_a_journal_that_cannot_be_opened_for_writing_is_failing_from_the_start(
    tmp_path, monkeypatch
):
    shoes_with_games(tmp_path, 0)
    real = os.open

    def read_only(path, flags, *args):
        if flags & os.O_WRONLY and os.fspath(path) == os.fspath(tmp_path / JOURNAL_NAME):
            raise OSError(errno.EROFS, "Read-only file system")
        return real(path, flags, *args)

    monkeypatch.setattr(os, "open", read_only)
    table = TableState()
    with Journal(tmp_path) as journal:
        journal.replay(table)  # no event yet, and already known
        assert journal.health.state is JournalState.FAILING
        assert journal.health.reason == "Read-only file system"
    assert table.shoe_id == "S0"


def test_an_unreadable_journal_is_set_aside_and_the_table_written_afresh(tmp_path):
    (tmp_path / JOURNAL_NAME).mkdir()  # not a file: it cannot be read
    table = TableState()
    with Journal(tmp_path) as journal:
        assert journal.replay(table) == 0
        assert journal.health.state is JournalState.OK
    assert (tmp_path / JOURNAL_NAME).is_file()
    gap = lines(tmp_path)[0]
    assert gap["kind"] == "gap"
    assert "journal.jsonl was unreadable (" in gap["data"]["why"]
    assert "rewritten from memory; what was there is set aside as" in gap["data"]["why"]
    assert "not this display's" not in gap["data"]["why"]
    assert sum(path.is_dir() for path in tmp_path.iterdir()) == 2  # shoes/ and the one set aside


def test_a_journal_missing_after_archives_is_written_down_at_start(tmp_path):
    shoes_with_games(tmp_path, 2)
    (tmp_path / JOURNAL_NAME).unlink()
    end = chain_end(tmp_path)
    with Journal(tmp_path) as journal:
        journal.replay(TableState())
    gap = lines(tmp_path)[0]
    assert gap["kind"] == "gap" and gap["prev"] == end
    assert "journal.jsonl was missing at start" in gap["data"]["why"]


def test_an_alert_raised_while_the_disk_fails_outlives_a_rewrite(tmp_path, failing):
    disk, now, table, journal = failing.disk, failing.now, failing.table, failing.journal
    feed(journal, table, [NewShoe("A", decks=1)])
    disk.full = True
    feed(journal, table, [Burn(tuple(parse_cards(["AS", "AS"])), shoe="A")])  # one ace too many
    disk.full = False
    (tmp_path / JOURNAL_NAME).unlink()  # lost while it waited: the table is written afresh
    now[0] = 60.0
    assert journal.heal().state is JournalState.OK
    journal.close()
    alerts = [line["data"] for line in lines(tmp_path) if line["kind"] == "alert"]
    assert [(alert["kind"], alert["game"]) for alert in alerts] == [("overcount", 0)]


def test_an_event_that_changes_nothing_does_not_retry_a_failing_disk(failing):
    disk, now, table, journal = failing.disk, failing.now, failing.table, failing.journal
    disk.full = True
    feed(journal, table, [NewShoe(SHOE), CoupReceived(SHOE, GAMES[0])])
    disk.full = False
    now[0] = 60.0  # the backoff is over, yet a repeat is no reason to write
    feed(journal, table, [CoupReceived(SHOE, GAMES[0])])
    assert journal.health.state is JournalState.FAILING
    assert journal.heal().state is JournalState.OK


def test_a_first_keep_without_replay_archives_the_games_of_the_journal_found(tmp_path):
    table = TableState()
    with Journal(tmp_path) as journal:
        journal.replay(table)
        feed(journal, table, [NewShoe(SHOE), *(CoupReceived(SHOE, g) for g in GAMES[:3])])
    found = (tmp_path / JOURNAL_NAME).read_bytes()
    with Journal(tmp_path) as journal:  # the table shown, not replayed here
        feed(journal, table, [NewShoe("NEXT"), NewShoe("THIRD")])
    (archived,) = (tmp_path / ARCHIVE_DIR).glob("*.jsonl")  # never replaced: it holds games
    assert archived.read_bytes().startswith(found)


def test_a_late_snapshot_of_the_finished_shoe_goes_to_its_archive_confirmed_live(tmp_path):
    table = TableState()
    with Journal(tmp_path) as journal:
        journal.replay(table)
        feed(journal, table, [NewShoe("A"), *(CoupReceived("A", g) for g in GAMES[:2])])
        feed(journal, table, [NewShoe("B")])
        journal.keep(Snapshot("A", tuple(GAMES[:3])), table, Applied(completed="A"))
    (archived,) = (tmp_path / ARCHIVE_DIR).glob("*.jsonl")
    last = archived.read_bytes().splitlines()[-1]
    assert json.loads(last)["kind"] == "snapshot"
    confirm = next(line["data"] for line in lines(tmp_path) if line["kind"] == "completed")
    assert confirm["file"] == f"shoes/{archived.name}" and confirm["hash"] == digest(last)
    assert (confirm["shoe"], confirm["line"]) == ("A", len(archived.read_bytes().splitlines()))
    assert kinds(tmp_path)[-1] == "unfinished"  # the live journal stops asking for it


def test_a_confirmation_waiting_for_the_disk_outlives_a_rewrite(tmp_path, failing):
    disk, now, table, journal = failing.disk, failing.now, failing.table, failing.journal
    feed(journal, table, [NewShoe("A"), CoupReceived("A", GAMES[0]), NewShoe("B")])
    disk.full = True  # the archive takes the late snapshot, the live journal cannot
    journal.keep(Snapshot("A", tuple(GAMES[:2])), table, Applied(completed="A"))
    disk.full = False
    (tmp_path / JOURNAL_NAME).unlink()
    now[0] = 60.0
    assert journal.heal().state is JournalState.OK
    assert kinds(tmp_path).count("completed") == 1


def test_a_batch_written_after_a_fault_names_the_shoe_it_ends_in(tmp_path, failing):
    disk, now, table, journal = failing.disk, failing.now, failing.table, failing.journal
    disk.full = True
    feed(journal, table, [LimitsReceived(LOW), NewShoe("A"), CoupReceived("A", GAMES[0])])
    disk.full = False
    now[0] = 60.0
    assert journal.heal().state is JournalState.OK  # the three in one write
    feed(journal, table, [NewShoe("B")])
    (archived,) = (tmp_path / ARCHIVE_DIR).glob("*.jsonl")
    assert archived.name.endswith("-A.jsonl")


def test_a_new_journal_with_nothing_to_prune_is_written_once(failing):
    assert failing.disk.calls == ["replace_durably"]


def test_a_journal_changed_behind_the_writer_is_rewritten_from_the_table(tmp_path):
    table = TableState()
    with Journal(tmp_path) as journal:
        journal.replay(table)
        feed(journal, table, [NewShoe(SHOE), CoupReceived(SHOE, GAMES[0])])
        with open(tmp_path / JOURNAL_NAME, "ab") as handle:
            handle.write(b'{"forged":1}\n')  # same file, one line longer
        feed(journal, table, [CoupReceived(SHOE, GAMES[1])])
    assert b"forged" not in (tmp_path / JOURNAL_NAME).read_bytes()
    gap = next(line for line in lines(tmp_path) if line["kind"] == "gap")
    assert "journal.jsonl was replaced or changed" in gap["data"]["why"]
    assert replayed(tmp_path).games == table.games


def test_appending_holds_no_file_open(tmp_path):
    table = TableState()
    with Journal(tmp_path) as journal:
        journal.replay(table)
        before = len(os.listdir("/proc/self/fd"))
        feed(journal, table, [NewShoe(SHOE), *(CoupReceived(SHOE, g) for g in GAMES[:20])])
        assert len(os.listdir("/proc/self/fd")) == before


def test_events_waiting_when_the_journal_was_deleted_are_counted_and_not_written_twice(
    tmp_path, failing
):
    disk, now, table, journal = failing.disk, failing.now, failing.table, failing.journal
    feed(journal, table, [NewShoe(SHOE)])
    disk.full = True
    feed(journal, table, [CoupReceived(SHOE, g) for g in GAMES[:2]])
    disk.full = False
    (tmp_path / JOURNAL_NAME).unlink()
    now[0] = 60.0
    assert journal.heal().state is JournalState.OK
    gap = next(line for line in lines(tmp_path) if line["kind"] == "gap")
    assert gap["data"]["dropped"] == 2
    assert "coup" not in kinds(tmp_path)  # the snapshot holds them
    assert replayed(tmp_path).games == table.games


def test_leaving_a_with_block_gives_a_failing_disk_its_last_try(tmp_path, monkeypatch):
    disk, table = Disk(monkeypatch), TableState()
    with Journal(tmp_path, clock=lambda: 0.0) as journal:
        journal.replay(table)
        disk.full = True
        feed(journal, table, [NewShoe(SHOE), CoupReceived(SHOE, GAMES[0])])
        disk.full = False
    assert journal.health.state is JournalState.OK
    assert replayed(tmp_path).games == table.games


# -- a journal lost while running ------------------------------------------------------
def test_a_journal_deleted_before_a_new_shoe_is_written_down_as_lost(tmp_path):
    table = TableState()
    with Journal(tmp_path) as journal:
        journal.replay(table)
        feed(journal, table, [NewShoe(SHOE), *(CoupReceived(SHOE, g) for g in GAMES[:3])])
        deleted = (tmp_path / JOURNAL_NAME).read_bytes().splitlines()
        (tmp_path / JOURNAL_NAME).unlink()
        feed(journal, table, [NewShoe("NEXT")])
    assert kinds(tmp_path) == ["gap", "limits", "history", "new_shoe"]
    gap = lines(tmp_path)[0]
    assert gap["data"]["why"] == "journal.jsonl was deleted"
    lost = gap["data"]["lost"]
    assert (lost["lines"], lost["last"]) == (len(deleted), digest(deleted[-1]))
    report = verify(tmp_path)
    assert report.ok and [each.data["why"] for each in report.gaps] == [gap["data"]["why"]]


def test_a_journal_lost_after_an_archive_names_where_the_chain_was(tmp_path):
    table = TableState()
    with Journal(tmp_path) as journal:
        journal.replay(table)
        feed(journal, table, [NewShoe("A"), CoupReceived("A", GAMES[0])])
        feed(journal, table, [NewShoe("B"), CoupReceived("B", GAMES[0])])
        deleted = (tmp_path / JOURNAL_NAME).read_bytes().splitlines()
        (tmp_path / JOURNAL_NAME).unlink()
        feed(journal, table, [CoupReceived("B", GAMES[1])])  # rewritten from the table
    (archived,) = (tmp_path / ARCHIVE_DIR).glob("*.jsonl")
    gap = lines(tmp_path)[0]
    assert gap["kind"] == "gap" and "journal.jsonl was deleted" in gap["data"]["why"]
    assert gap["data"]["after"] == digest(archived.read_bytes().splitlines()[-1])
    assert gap["data"]["lost"]["lines"] == len(deleted)
    assert verify(tmp_path).ok
    assert replayed(tmp_path).games == table.games


def test_a_journal_rewritten_from_memory_prunes_old_shoes_as_a_new_one_does(tmp_path):
    shoes_with_games(tmp_path, 3)
    table = TableState()
    with Journal(tmp_path, keep_shoes=1) as journal:
        journal.replay(table)  # a restart prunes nothing
        (tmp_path / JOURNAL_NAME).unlink()
        feed(journal, table, [CoupReceived("S3", GAMES[1])])  # the table written afresh
    assert len(list((tmp_path / ARCHIVE_DIR).glob("*.jsonl"))) == 1
    assert kinds(tmp_path).count("pruned") == 2
    assert verify(tmp_path).ok


def test_a_state_dir_removed_while_running_is_made_again_with_the_table(tmp_path):
    state = tmp_path / "state"
    table = TableState()
    with Journal(state) as journal:
        journal.replay(table)
        feed(journal, table, [NewShoe(SHOE), CoupReceived(SHOE, GAMES[0])])
        shutil.rmtree(state)
        feed(journal, table, [CoupReceived(SHOE, GAMES[1])])
        assert journal.health.state is JournalState.OK
    gap = lines(state)[0]
    assert gap["kind"] == "gap" and "journal.jsonl was deleted" in gap["data"]["why"]
    assert replayed(state).games == table.games
