"""The audit examines everything it accepts (issue 22): each test tampers a state dir the
real demo journaled, as someone at the box would, and runs the real ``scoreboard audit``
(and ``export`` where games could be passed off as dealt).

A file dropped into ``shoes/`` of unchained lines, a forged coup "confirmed" by a
``completed`` record off the chain, a live journal deleted while the display was off, a
copy of an archive, lines added to one, a file the display never writes: each is named
with exit 1.  The chain's tip is printed, and ``--expect-tip`` catches an end cut off
or rewritten, which the chain alone cannot.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import audited
import pytest
from audited import (
    append_to_archive,
    archives,
    audit,
    broken,
    copy_archive,
    cut_or_rewrite_tail,
    drop_unchained_shoe,
    edit_second_to_last,
    forge_confirmed_coup,
    forge_pruned,
    journal_alone,
    lines_of,
    records,
    sha,
    tip_of,
)
from cli import scoreboard

from scoreboard.controller.sessions import STATE_NAME
from scoreboard.journal import ARCHIVE_DIR, JOURNAL_NAME, chain

dealt, state = audited.dealt, audited.state  # the fixtures


def exported(state: Path, tmp_path: Path):
    """``export --shoe all`` as JSON: the process and the document (None if none written)."""
    out = tmp_path / "all.json"
    done = scoreboard("export", str(state), "--shoe", "all", "-o", str(out))
    assert "Traceback" not in done.stderr
    return done, json.loads(out.read_text(encoding="utf-8")) if out.exists() else None


@pytest.mark.parametrize("when", ["after the chain", "before the chain"])
def test_a_file_of_unchained_lines_dropped_into_shoes_fails_and_is_not_exported(
    state, tmp_path, when
):
    first, last = records(archives(state)[0])[0]["at"], records(state / JOURNAL_NAME)[-1]["at"]
    path, shoe = drop_unchained_shoe(
        state, at=last + 60 if when == "after the chain" else first - 3600
    )
    found = broken(state)
    assert (found["file"], found["line"]) == (f"shoes/{path.name}", 1)
    assert found["why"].startswith("not on the chain: lines of the old format")
    text = audit(state).stdout
    assert "unchained lines of the old format before the chain began" not in text
    assert f"shoes/{path.name} (NOT ON THE CHAIN): shoe {shoe}, 5 games" in text
    done, document = exported(state, tmp_path)
    assert done.returncode == 1
    assert f"scoreboard export: shoes/{path.name} line 1: not on the chain" in done.stderr
    assert shoe not in [each["shoe"] for each in document["shoes"]]
    assert document["left_out"] == [{"file": f"shoes/{path.name}", "line": 1,
                                     "why": found["why"]}]  # fmt: skip


@pytest.mark.parametrize("chained", [False, True], ids=["unchained", "chained off the tip"])
def test_a_forged_coup_confirmed_by_a_completed_record_off_the_chain_fails(
    state, tmp_path, chained
):
    target, number, data = forge_confirmed_coup(state, chained=chained)
    found = broken(state)
    assert found["file"] in (f"shoes/{target.name}", "shoes/29990101-000000-confirm.jsonl")
    assert "not on the chain" in found["why"]
    report = json.loads(audit(state, "--json").stdout)
    assert {"file": f"shoes/{target.name}", "line": number} in [
        {"file": each["file"], "line": each["line"]} for each in report["off"]
    ]
    done, document = exported(state, tmp_path)
    assert done.returncode == 1
    (shoe,) = [each for each in document["shoes"] if each["shoe"] == data["shoe"]]
    assert data["game"] not in [game["game"] for game in shoe["games"]]
    assert [(s["line"], s["why"][:16]) for s in shoe["skipped"]] == [(number, "not on the chain")]


def test_a_pruned_record_off_the_chain_does_not_excuse_a_deleted_archive(state):
    forge_pruned(state)
    assert broken(state)  # exit 1: the chain breaks where the archive was


def test_a_live_journal_deleted_while_the_display_is_off_is_reported_not_refused(state):
    (state / JOURNAL_NAME).unlink()  # shoes/ alone is left
    found = broken(state)
    assert (found["file"], found["line"]) == (JOURNAL_NAME, 1)
    assert found["why"].startswith("missing, yet shoes/ holds archives")
    assert f"shoes/{archives(state)[-1].name}: shoe" in audit(state).stdout  # still listed


def test_an_emptied_live_journal_is_reported(state):
    (state / JOURNAL_NAME).write_bytes(b"")
    found = broken(state)
    assert (found["file"], found["line"]) == (JOURNAL_NAME, 1)
    assert found["why"].startswith("empty, yet shoes/ holds archives")


def test_a_state_dir_of_the_journal_alone_is_audited_not_refused(state):
    shutil.rmtree(state / ARCHIVE_DIR)  # its journal chains to an archive no longer there
    assert "chains to a line no file here holds" in broken(state)["why"]


def test_a_state_dir_whose_only_shoe_is_its_journal_audits_intact(state):
    journal_alone(state)
    done = audit(state)
    assert done.returncode == 0, done.stdout
    assert done.stdout.startswith(f"{state}: chain intact (1 files,")


def test_an_edited_second_to_last_line_of_the_live_journal_fails(state):
    count = edit_second_to_last(state)
    assert broken(state) == {
        "file": JOURNAL_NAME,
        "line": count,
        "why": f"does not chain to line {count - 1}: "
        "inserted, or one of them changed, or lines between them removed",
    }


def test_a_copy_of_a_line_appended_to_an_archive_fails(state):
    target, _, count = append_to_archive(state, chained=False)
    found = broken(state)
    assert (found["file"], found["line"]) == (f"shoes/{target.name}", count + 1)
    assert found["why"].startswith(f"does not chain to line {count}")


def test_a_linked_line_added_to_an_archive_after_the_next_file_began_fails(state):
    target, after, count = append_to_archive(state, chained=True)
    assert broken(state) == {
        "file": f"shoes/{target.name}",
        "line": count + 1,
        "why": f"not on the chain: shoes/{after.name} goes on from line {count}; "
        "the lines after it were added",
    }


def test_a_copy_of_an_archive_under_another_name_fails(state):
    source, copy = copy_archive(state)
    found = broken(state)
    assert found["file"] in (f"shoes/{source.name}", f"shoes/{copy.name}")
    assert found == {**found, "line": 1, "why": "not on the chain: no later file chains to it"}


@pytest.mark.parametrize("name", ["shoes/notes.txt", "shoes/20300101-000000-x.json", "extra"])
def test_a_file_the_display_never_writes_is_named(state, name):
    (state / name).write_text("{}\n")
    assert broken(state) == {
        "file": name,
        "line": 1,
        "why": "not on the chain: not a file the display writes (not examined)",
    }


def test_export_markers_and_the_keypads_session_store_are_no_stray_files(state, tmp_path):
    assert STATE_NAME in chain.COMPANIONS
    (state / STATE_NAME).write_text("{}")
    done, _ = exported(state, tmp_path)
    assert done.returncode == 0, done.stderr
    assert list((state / ARCHIVE_DIR).glob("*.exported"))
    assert audit(state).returncode == 0


def test_audit_prints_the_tip_and_a_kept_tip_still_on_the_chain_passes(state):
    tip, count = tip_of(state), len(lines_of(state / JOURNAL_NAME))
    assert f"\ntip: {tip} ({JOURNAL_NAME} line {count})\n" in audit(state).stdout
    report = json.loads(audit(state, "--json").stdout)
    assert report["tip"] == {"hash": tip, "file": JOURNAL_NAME, "line": count}
    older = sha(lines_of(archives(state)[1])[-1])  # kept after an earlier shoe
    for kept in (tip, older, older.upper()):
        done = audit(state, "--expect-tip", kept)
        assert done.returncode == 0, done.stdout
    assert f"the tip kept off the box is {JOURNAL_NAME} line {count} (0 lines after" in (
        audit(state, "--expect-tip", tip).stdout
    )


@pytest.mark.parametrize("cut", [True, False], ids=["cut", "rewritten"])
def test_a_kept_tip_no_longer_on_the_chain_fails(state, cut):
    kept = tip_of(state)
    cut_or_rewrite_tail(state, cut=cut)
    assert audit(state).returncode == 0  # what the chain alone cannot tell
    found = broken(state, "--expect-tip", kept)
    assert found["file"] == JOURNAL_NAME
    assert found["why"].startswith(f"the tip kept off the box ({kept[:16]}...) is not on the chain")


def test_a_malformed_tip_is_refused_in_one_line(state):
    done = audit(state, "--expect-tip", "abc")
    assert done.returncode == 2 and done.stdout == ""
    assert "is not a tip: audit prints it as 64 hexadecimal digits" in done.stderr
