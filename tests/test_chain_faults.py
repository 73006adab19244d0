"""The chain through real storage faults: a full or read-only disk leaves a ``gap`` record
saying from when to when the journal could not write and what waited in memory; the
``scoreboard audit`` process lists it and still finds the record intact."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from cli import scoreboard
from test_storage_faults import Clock, Disk, feed, mounted_tmpfs, shoe, started

from scoreboard.journal.chain import verify
from scoreboard.protocol import Void


@pytest.fixture
def disk(tmp_path) -> Iterator[Disk]:
    with mounted_tmpfs(tmp_path / "disk", "256k") as disk:
        yield disk


def test_a_full_disk_period_is_a_gap_on_the_chain_and_nothing_held_is_dropped(disk):
    clock, state = Clock(), disk.path / "state"
    journal, table = started(state, clock)
    feed(journal, table, shoe("S1", 10))
    disk.fill()
    feed(journal, table, [*shoe("S2", 5), Void("S2", 3, "misdeal")])  # held in memory
    clock.now += 2
    disk.free()
    clock.now += 61
    assert journal.heal().ok
    journal.close()
    report = verify(state)
    assert report.ok, report.broken
    (gap,) = report.gaps
    assert gap.data["why"] == "the journal could not be written (No space left on device)"
    assert gap.data["dropped"] == 0 and gap.data["held"] > 0
    assert gap.data["from"] <= gap.data["to"]
    done = scoreboard("audit", str(state))
    assert done.returncode == 0, done.stdout
    assert "No space left on device" in done.stdout and "0 events dropped" in done.stdout
    shoes = json.loads(scoreboard("audit", str(state), "--json").stdout)["shoes"]
    assert [(s["shoe"], s["games"], s["voided"]) for s in shoes] == [("S1", 10, []), ("S2", 4, [3])]


def test_a_read_only_period_from_the_start_is_a_gap_when_writing_resumes(disk):
    clock, state = Clock(), disk.path / "state"
    journal, table = started(state, clock)
    feed(journal, table, shoe("S1", 3))
    journal.close()
    disk.read_only()
    journal, table = started(state, clock)
    disk.writable()
    clock.now += 61
    assert journal.heal().ok
    journal.close()
    report = verify(state)
    assert report.ok, report.broken
    (gap,) = report.gaps
    assert gap.data["why"] == "the journal could not be written (Read-only file system)"
