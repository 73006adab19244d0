"""Storage faults degrade, never destroy: the board runs from memory and the disk catches up.

Real faults, not mocks: a tiny tmpfs filled up (ENOSPC), a tmpfs remounted
read-only (EROFS), ``chattr +i`` on the tmp file system (EPERM), a journal
deleted, replaced or turned into a directory under the display.  A test skips
only when its mechanism is unavailable here, and says why.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from dealt import dealt_shoe

from scoreboard.cli import main
from scoreboard.journal import ARCHIVE_DIR, JOURNAL_NAME, Journal, JournalError
from scoreboard.protocol import CoupReceived, NewShoe, Snapshot, Void, apply_event
from scoreboard.table.applied import Applied
from scoreboard.table.health import JournalHealth, JournalState
from scoreboard.table.state import TableState

GAMES = list(dealt_shoe(5).games)
OK = JournalHealth(JournalState.OK)
FULL = JournalHealth(JournalState.FAILING, "No space left on device")
READ_ONLY = JournalHealth(JournalState.FAILING, "Read-only file system")


class Clock:
    """A monotonic clock the test moves: the journal's backoff without waiting."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Disk:
    """A tmpfs of its own: fill it, free it, make it read-only and writable again."""

    path: Path

    def fill(self) -> None:
        filler = self.path / "filler"
        with open(filler, "ab", buffering=0) as handle, contextlib.suppress(OSError):
            while True:
                handle.write(b"\0" * 4096)

    def free(self) -> None:
        (self.path / "filler").unlink()

    def read_only(self) -> None:
        _run("mount", "-o", "remount,ro", str(self.path))

    def writable(self) -> None:
        _run("mount", "-o", "remount,rw", str(self.path))


def _run(*command: str) -> None:
    subprocess.run(command, check=True, capture_output=True)


@contextlib.contextmanager
def mounted_tmpfs(where: Path, size: str) -> Iterator[Disk]:
    where.mkdir(parents=True, exist_ok=True)
    options = f"size={size},mode=755"
    try:
        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", options, f"sb-{uuid.uuid4().hex[:6]}", str(where)],
            capture_output=True,
            text=True,
        )
    except FileNotFoundError:
        pytest.skip("no mount command here: cannot make a real full or read-only disk")
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.strip()}): no real disk faults")
    try:
        yield Disk(where)
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


@pytest.fixture
def disk(tmp_path) -> Iterator[Disk]:
    with mounted_tmpfs(tmp_path / "disk", "256k") as disk:
        yield disk


def feed(journal: Journal, table: TableState, events) -> None:
    """What a feed does: apply, and hand the journal what changed."""
    for event in events:
        journal.keep(event, table, apply_event(table, event))


def shoe(name: str, count: int = len(GAMES)) -> list:
    return [NewShoe(name), *(CoupReceived(name, game) for game in GAMES[:count])]


def view(table: TableState) -> dict:
    return {
        "shoe": table.shoe_id,
        "shoe_number": table.shoe_number,
        "games": table.games,
        "voided": table.voided,
        "limits": table.limits,
        "archived": table.archived,
    }


def replayed(state: Path) -> TableState:
    table = TableState()
    with Journal(state) as journal:
        journal.replay(table)
    return table


def archives(state: Path) -> dict[str, list[dict]]:
    """Each archived file's records, by file name."""
    found = {}
    for path in sorted((state / ARCHIVE_DIR).glob("*.jsonl")):
        found[path.name] = [json.loads(line) for line in path.read_text().splitlines()]
    return found


def coups_in(records: list[dict]) -> int:
    return sum(record["kind"] == "coup" for record in records)


def errors(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


def started(state: Path, clock: Clock | None = None, **options) -> tuple[Journal, TableState]:
    table = TableState()
    journal = Journal(state, clock=clock or Clock(), **options)
    journal.replay(table)
    return journal, table


# -- a full disk ---------------------------------------------------------------
def test_a_full_disk_runs_from_memory_logs_once_and_writes_it_all_when_space_returns(disk, caplog):
    clock, state = Clock(), disk.path / "state"
    journal, table = started(state, clock)
    feed(journal, table, shoe("S1", 10))
    assert journal.health == OK
    disk.fill()
    with caplog.at_level(logging.INFO, logger="scoreboard.journal"):
        for name in ("S1b", "S2", "S3", "S4", "S5"):  # shoe after shoe while the disk is full
            feed(journal, table, shoe(name))
            clock.now += 0.7
        assert journal.health == FULL
        assert len(errors(caplog)) == 1  # one ERROR for the fault, not one per event
        assert all(coups_in(records) > 0 for records in archives(state).values())  # no empties
        disk.free()
        clock.now += 61
        feed(journal, table, [Void("S5", 3)])
        assert journal.health == OK
    assert sum("writing again" in r.getMessage() for r in caplog.records) == 1
    journal.close()
    # Nothing the board showed is lost: every finished shoe is archived with all its games.
    kept = archives(state)
    assert [coups_in(records) for records in kept.values()] == [10] + [len(GAMES)] * 4
    assert view(replayed(state)) == view(table)
    assert replayed(state).voided == (3,)


def test_a_full_disk_across_shoe_changes_makes_no_empty_archive_and_prunes_no_real_shoe(disk):
    clock, state = Clock(), disk.path / "state"
    journal, table = started(state, clock, keep_shoes=3)
    for number in range(1, 5):
        feed(journal, table, shoe(f"S{number}", 4))
    disk.fill()
    for number in range(40):  # the controller starts shoe after shoe; no coup gets through
        feed(journal, table, [NewShoe(f"E{number}")])
        clock.now += 2
    disk.free()
    clock.now += 61
    feed(journal, table, [CoupReceived("E39", GAMES[0])])
    journal.close()
    assert journal.health == OK
    kept = archives(state)
    assert all(coups_in(records) == 4 for records in kept.values())
    assert [name.rsplit("-", 1)[-1] for name in kept] == ["S2.jsonl", "S3.jsonl", "S4.jsonl"]
    assert view(replayed(state)) == view(table)


def test_pruning_never_counts_empty_archives_as_shoes(tmp_path):
    state = tmp_path / "state"
    journal, table = started(state, keep_shoes=2)
    feed(journal, table, shoe("S1", 2) + shoe("S2", 2) + shoe("S3", 2))
    for number in range(5):  # archives an earlier version left with no games in them
        empty = state / ARCHIVE_DIR / f"29990101-00000{number}-empty{number}.jsonl"
        empty.write_text('{"at":1,"data":{"v":1},"kind":"limits"}\n')
    feed(journal, table, shoe("S4", 2))
    journal.close()
    real = [name for name, records in archives(state).items() if coups_in(records)]
    assert [name.rsplit("-", 1)[-1] for name in real] == ["S2.jsonl", "S3.jsonl"]


def test_a_shoe_without_games_is_not_archived(tmp_path):
    state = tmp_path / "state"
    journal, table = started(state)
    feed(journal, table, [NewShoe("A"), NewShoe("B"), NewShoe("C"), CoupReceived("C", GAMES[0])])
    feed(journal, table, [NewShoe("D")])
    journal.close()
    assert [name.rsplit("-", 1)[-1] for name in archives(state)] == ["C.jsonl"]
    assert (replayed(state).shoe_id, replayed(state).shoe_number) == ("D", 4)


# -- a read-only disk -------------------------------------------------------------
def test_a_disk_remounted_read_only_runs_from_memory_and_catches_up(disk, caplog):
    clock, state = Clock(), disk.path / "state"
    journal, table = started(state, clock)
    feed(journal, table, shoe("S1", 5))
    disk.read_only()
    with caplog.at_level(logging.INFO, logger="scoreboard.journal"):
        feed(journal, table, [CoupReceived("S1", g) for g in GAMES[5:9]])
        feed(journal, table, shoe("S2", 3))
    assert journal.health == READ_ONLY
    assert len(errors(caplog)) == 1
    assert archives(state) == {}  # nothing is archived while the disk fails
    disk.writable()
    clock.now += 61
    feed(journal, table, [CoupReceived("S2", GAMES[3])])
    assert journal.health == OK
    journal.close()
    assert [coups_in(records) for records in archives(state).values()] == [9]
    assert view(replayed(state)) == view(table)


def test_a_failing_disk_is_retried_after_1_s_then_2_s_doubling(disk):
    clock, state = Clock(), disk.path / "state"
    journal, table = started(state, clock)
    feed(journal, table, shoe("S1", 1))
    disk.read_only()
    feed(journal, table, [CoupReceived("S1", GAMES[1])])  # fails: next try in 1 s
    clock.now += 1.0
    feed(journal, table, [CoupReceived("S1", GAMES[2])])  # fails again: next try in 2 s
    disk.writable()
    clock.now += 1.5
    feed(journal, table, [CoupReceived("S1", GAMES[3])])
    assert journal.health == READ_ONLY  # not tried yet
    clock.now += 0.5
    assert journal.heal() == OK  # due: tried without waiting for an event
    journal.close()
    assert replayed(state).games == tuple(GAMES[:4])


def test_a_read_only_state_dir_at_start_shows_what_it_read_and_says_why(disk):
    state = disk.path / "state"
    journal, table = started(state)
    feed(journal, table, shoe("S1", 6))
    journal.close()
    disk.read_only()
    journal, again = started(state)
    assert journal.health == READ_ONLY  # from the start, before any event
    assert view(again) == view(table)
    feed(journal, again, [CoupReceived("S1", GAMES[6])])  # never raises
    journal.close()
    assert len(again.games) == 7


def test_a_torn_journal_on_a_read_only_disk_never_raises(disk, caplog):
    clock, state = Clock(), disk.path / "state"
    journal, table = started(state, clock)
    feed(journal, table, shoe("S1", 5))
    journal.close()
    with open(state / JOURNAL_NAME, "ab") as handle:
        handle.write(b'{"at":1,"kind":"coup","data":{"v":1,"shoe":"')
    disk.read_only()
    with caplog.at_level(logging.WARNING):
        journal, again = started(state, clock)
    assert "torn" in caplog.text and journal.health == READ_ONLY
    assert again.games == tuple(GAMES[:5])
    feed(journal, again, [CoupReceived("S1", GAMES[5])])
    disk.writable()
    clock.now += 61
    assert journal.heal() == OK
    journal.close()
    assert (state / JOURNAL_NAME).read_bytes().endswith(b"\n")
    assert view(replayed(state)) == view(again) and len(again.games) == 6


def test_a_state_dir_that_cannot_be_created_starts_from_memory(disk):
    disk.read_only()
    clock, state = Clock(), disk.path / "kiosk" / "state"
    journal, table = started(state, clock)
    assert journal.health == READ_ONLY
    feed(journal, table, shoe("S1", 3))
    disk.writable()
    clock.now += 61
    assert journal.heal() == OK
    journal.close()
    assert view(replayed(state)) == view(table)


def test_the_demo_starts_on_a_read_only_state_dir(disk, caplog):
    state = disk.path / "state"
    state.mkdir()
    disk.read_only()
    demo = ["demo", "--windowed", "--size", "640x360", "--decks", "1", "--seed", "3"]
    fast = ["--pace", "0.01", "--shuffle-seconds", "0.01", "--duration", "0.4"]
    assert main([*demo, *fast, "--state-dir", str(state)]) == 0  # it used to exit 2
    assert errors(caplog) == [
        f"journal {state / JOURNAL_NAME}: cannot write (Read-only file system); "
        "the board runs from memory and retries"
    ]


# -- a file that refuses writes (chattr +i on the tmp file system) ------------------
def test_an_immutable_journal_fails_with_its_reason_and_recovers(tmp_path):
    clock, state = Clock(), tmp_path / "state"
    journal, table = started(state, clock)
    feed(journal, table, shoe("S1", 2))
    path = state / JOURNAL_NAME
    done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, text=True)
    if shutil.which("chattr") is None or done.returncode != 0:
        pytest.skip(f"chattr +i is not available here ({done.stderr.strip()})")
    try:
        feed(journal, table, [CoupReceived("S1", GAMES[2])])
        assert journal.health == JournalHealth(JournalState.FAILING, os.strerror(errno.EPERM))
    finally:
        _run("chattr", "-i", str(path))
    clock.now += 61
    assert journal.heal() == OK
    journal.close()
    assert replayed(state).games == tuple(GAMES[:3])


# -- a journal deleted, replaced or broken under the display ----------------------------
def test_a_journal_deleted_under_the_display_is_rewritten_from_memory(tmp_path, caplog):
    state = tmp_path / "state"
    journal, table = started(state)
    feed(journal, table, shoe("S1", 3) + shoe("S2", 5) + [Void("S2", 2)])
    (state / JOURNAL_NAME).unlink()
    with caplog.at_level(logging.WARNING):
        feed(journal, table, [CoupReceived("S2", GAMES[5])])
    assert "journal.jsonl was deleted" in caplog.text
    assert journal.health == OK
    journal.close()
    again = replayed(state)
    assert view(again) == view(table)
    assert (again.shoe_number, again.is_archived("S1")) == (2, True)


def test_a_journal_replaced_under_the_display_is_set_aside_and_rewritten(tmp_path):
    state = tmp_path / "state"
    journal, table = started(state)
    feed(journal, table, shoe("S1", 3))
    old = (state / JOURNAL_NAME).read_bytes()
    feed(journal, table, [CoupReceived("S1", g) for g in GAMES[3:6]])
    (state / "copy").write_bytes(old)
    os.replace(state / "copy", state / JOURNAL_NAME)  # an old copy restored over it
    feed(journal, table, [CoupReceived("S1", GAMES[6])])
    journal.close()
    assert view(replayed(state)) == view(table) and len(table.games) == 7
    assert [p.read_bytes() for p in state.glob(f"{JOURNAL_NAME}.aside-*")] == [old]


def test_a_directory_where_the_journal_should_be_is_set_aside(tmp_path, caplog):
    state = tmp_path / "state"
    (state / JOURNAL_NAME).mkdir(parents=True)
    (state / JOURNAL_NAME / "precious").write_text("kept")
    with caplog.at_level(logging.WARNING):
        journal, table = started(state)
    assert "unreadable" in caplog.text and table.shoe_id is None
    feed(journal, table, shoe("S1", 2))
    assert journal.health == OK
    journal.close()
    assert view(replayed(state)) == view(table)
    assert [p.read_text() for p in state.glob(f"{JOURNAL_NAME}.aside-*/precious")] == ["kept"]


def test_a_garbage_binary_journal_never_raises_and_names_the_lines(tmp_path, caplog):
    state = tmp_path / "state"
    state.mkdir()
    (state / JOURNAL_NAME).write_bytes(bytes(range(256)) * 8 + b"\n\xff\xfe{]\n")
    with caplog.at_level(logging.WARNING):
        journal, table = started(state)
    assert "line 1: skipped" in caplog.text and "line 2: skipped" in caplog.text
    feed(journal, table, shoe("S1", 2))
    journal.close()
    assert view(replayed(state)) == view(table)


def test_an_unreadable_journal_starts_empty_and_is_set_aside(tmp_path):
    if os.geteuid() == 0:  # root reads any file: the fault is made by an unprivileged user
        as_nobody(unreadable_journal_set_aside.__name__)
        return
    unreadable_journal_set_aside(tmp_path)


def unreadable_journal_set_aside(tmp_path: Path) -> None:
    state = tmp_path / "state"
    journal, table = started(state)
    feed(journal, table, shoe("S1", 2))
    journal.close()
    (state / JOURNAL_NAME).chmod(0)
    journal, again = started(state)
    assert again.shoe_id is None
    journal.close()
    assert list(state.glob(f"{JOURNAL_NAME}.aside-*"))


def as_nobody(case: str) -> None:
    """Run this file's function ``case(tmp_path)`` in a Python as uid 65534 (``nobody``)."""
    base = Path(tempfile.mkdtemp(prefix="scoreboard-nobody-"))
    try:
        base.chmod(0o777)
        here = Path(__file__).resolve()
        script = (
            f"import sys; sys.path.insert(0, {str(here.parent)!r}); from pathlib import Path; "
            f"import {here.stem} as t; t.{case}(Path({str(base)!r})); print('case passed')"
        )
        done = subprocess.run(
            ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
             sys.executable, "-c", script],
            cwd=base, capture_output=True, text=True, timeout=120,
            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        )  # fmt: skip
        assert done.returncode == 0 and "case passed" in done.stdout, (case, done.stderr)
    finally:
        shutil.rmtree(base, ignore_errors=True)


# -- a late snapshot completing a finished shoe ----------------------------------------
def test_a_late_snapshot_completing_a_finished_shoe_goes_to_its_archive(tmp_path):
    state = tmp_path / "state"
    journal, table = started(state)
    feed(journal, table, shoe("S1", 4) + shoe("S2", 1))
    late = Snapshot("S1", tuple(GAMES[:6]))
    journal.keep(late, table, Applied(completed="S1"))  # what apply_event says of it
    journal.close()
    (records,) = archives(state).values()
    assert [r["kind"] for r in records][-2:] == ["coup", "snapshot"]
    assert len(records[-1]["data"]["coups"]) == 6
    assert replayed(state).games == (GAMES[0],)  # the current shoe is untouched


# -- a state dir that is plainly wrong ----------------------------------------------------
def test_a_file_in_the_way_of_the_state_dir_is_a_setup_mistake_named_at_once(tmp_path):
    """No retry mends a path that names a file: the command says so (exit 2), as before."""
    blocker = tmp_path / "kiosk"
    blocker.write_text("not a directory")
    for state in (blocker, blocker / "state"):
        with pytest.raises(JournalError, match=f"{blocker} is not a directory"):
            Journal(state)


def test_the_demo_feed_clears_a_journal_fault_while_the_table_is_quiet(disk):
    """The kiosk polls its feed when idle: the feed tries a failing journal again then."""
    from scoreboard.feeds.simulated import SimulatedFeed
    from scoreboard.game.shoe import Dealer

    clock, state = Clock(), disk.path / "state"
    journal, table = started(state, clock)
    demo = SimulatedFeed(Dealer(seed=3), pace=100.0, journal=journal)
    demo.poll(table, 0.0)  # the new shoe, journaled
    disk.fill()
    now = 0.0
    while demo.journal_health().ok and now < 100_000:  # coups dealt onto the full disk
        now += 100.0
        demo.poll(table, now)
    assert demo.journal_health().state is JournalState.FAILING
    disk.free()
    clock.now += 61
    before = table.version
    demo.poll(table, now + 0.5)  # nothing due: no event, yet the journal writes again
    assert table.version == before
    assert demo.journal_health() == JournalHealth(JournalState.OK)
    journal.close()
    assert view(replayed(state)) == view(table)
