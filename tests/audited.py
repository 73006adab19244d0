"""A state dir the real demo journaled, copied per test to tamper with, the ways to
tamper with it, and the real ``scoreboard audit`` run on it (shared by the audit tests).

The fixtures ``dealt`` (the demo's state dir, once per module) and ``state`` (a
copy per test) are imported by the test modules that use them.  Each tampering
is done as someone at the box would, with what the journal's format tells anyone
(:func:`scoreboard.journal._links.seal` links a forged line as the display would).
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from cli import scoreboard

from scoreboard.game.events import CoupReceived, NewShoe
from scoreboard.game.shoe import Dealer
from scoreboard.journal import ARCHIVE_DIR, JOURNAL_NAME, Journal
from scoreboard.journal._links import Record, seal
from scoreboard.protocol import canonical_json
from scoreboard.table.state import TableState, apply_event

DEMO = ["demo", "--windowed", "--size", "640x360", "--decks", "1", "--seed", "3"]
FAST = ["--pace", "0.005", "--shuffle-seconds", "0.01", "--duration", "1.2"]


@pytest.fixture(scope="module")
def dealt(tmp_path_factory) -> Path:
    """A state dir the real demo journaled: several archived shoes and a live one."""
    state = tmp_path_factory.mktemp("demo") / "state"
    done = scoreboard(*DEMO, *FAST, "--state-dir", str(state))
    assert done.returncode == 0, done.stderr
    assert len(archives(state)) >= 4, "the demo dealt too few shoes for these tests"
    return state


def journaled(state: Path, shoes: int = 5) -> Path:
    """A state dir the display's journal wrote in this process, as the demo deals: ``shoes``
    finished shoes of the demo's dealer, then 3 coups of the next (for fast tests)."""
    table, started, coups = TableState(), 0, 0
    with Journal(state) as journal:
        journal.replay(table)
        for event in Dealer(decks=1, seed=3):
            started += isinstance(event, NewShoe)
            coups += started > shoes and isinstance(event, CoupReceived)
            journal.keep(event, table, apply_event(table, event))
            if coups == 3:
                return state
    raise AssertionError("the dealer stopped")


@pytest.fixture
def state(dealt, tmp_path) -> Path:
    copy = tmp_path / "state"
    shutil.copytree(dealt, copy)
    return copy


def archives(state: Path) -> list[Path]:
    return sorted((state / ARCHIVE_DIR).glob("*.jsonl"))


def lines_of(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def audit(state: Path, *options: str):
    done = scoreboard("audit", str(state), *options)
    assert "Traceback" not in done.stderr + done.stdout, done.stderr
    return done


def broken(state: Path, *options: str) -> dict:
    """The first broken link as ``audit --json`` names it (exit status 1)."""
    done = audit(state, "--json", *options)
    assert done.returncode == 1, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["ok"] is False
    return report["broken"]


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in lines_of(path)]


def sha(line: bytes) -> str:
    return hashlib.sha256(line.rstrip(b"\n")).hexdigest()


def tip_of(state: Path) -> str:
    """The hash of the live journal's last line: the tip audit prints."""
    return sha(lines_of(state / JOURNAL_NAME)[-1])


def unchained(rows: list[dict]) -> bytes:
    """Lines of the old format: canonical JSON without ``prev`` or ``mono``."""
    return b"".join(
        canonical_json({k: v for k, v in row.items() if k not in ("prev", "mono")}) + b"\n"
        for row in rows
    )


def linked(after: bytes, at: float, kind: str, data: object) -> bytes:
    """A line chained to ``after`` as the display would seal it."""
    line, _ = seal([Record(at, 1.0, kind, data)], sha(after))
    return line


def drop_unchained_shoe(state: Path, *, at: float) -> tuple[Path, str]:
    """A shoe of 6 unchained lines (a new shoe, 5 coups) dropped into ``shoes/``, dated ``at``."""
    rows = [row for row in records(archives(state)[-1]) if row["kind"] in ("event", "coup")]
    shoe = "T1-3-forged-999"
    taken = [rows[0], *(row for row in rows if row["kind"] == "coup")][:6]
    text = json.dumps(taken).replace(taken[0]["data"]["shoe"], shoe)
    fake = [{**row, "at": at + index} for index, row in enumerate(json.loads(text))]
    assert [row["kind"] for row in fake] == ["event"] + ["coup"] * 5
    path = state / ARCHIVE_DIR / f"29990101-000000-{shoe}.jsonl"
    path.write_bytes(unchained(fake))
    return path, shoe


def forge_confirmed_coup(state: Path, *, chained: bool) -> tuple[Path, int, dict]:
    """A coup appended to an archive, linked to its end, and a ``completed`` record naming
    it in a new file (``chained``: linked to the live journal's tip, else unchained).

    Returns the archive, the forged line's number and the coup's payload."""
    target = archives(state)[2]
    lines, rows = lines_of(target), records(target)
    coup = next(row for row in reversed(rows) if row["kind"] == "coup")
    data = {**coup["data"], "game": coup["data"]["game"] + 1}
    forged = linked(lines[-1], rows[-1]["at"] + 1, "coup", data)
    target.write_bytes(b"".join(lines) + forged)
    confirm = {"file": f"shoes/{target.name}", "line": len(lines) + 1, "hash": sha(forged)}
    at = rows[-1]["at"] + 2
    if chained:
        record = linked(lines_of(state / JOURNAL_NAME)[-1], at, "completed", confirm)
    else:
        record = unchained([{"at": at, "data": confirm, "kind": "completed"}])
    (state / ARCHIVE_DIR / "29990101-000000-confirm.jsonl").write_bytes(record)
    return target, len(lines) + 1, data


def forge_pruned(state: Path) -> None:
    """An archive deleted, and an unchained ``pruned`` record naming its end dropped in."""
    gone = archives(state)[1]
    end = sha(lines_of(gone)[-1])
    gone.unlink()
    record = {"at": 1.0, "data": {"file": f"shoes/{gone.name}", "tip": end, "last": end},
              "kind": "pruned"}  # fmt: skip
    (state / ARCHIVE_DIR / "29990101-000000-pruned.jsonl").write_bytes(unchained([record]))


def edit_second_to_last(state: Path) -> int:
    """The live journal's second-to-last line changed, still canonical JSON; its line count."""
    target = state / JOURNAL_NAME
    lines = lines_of(target)
    row = json.loads(lines[-2])
    row["mono"] += 1
    lines[-2] = canonical_json(row) + b"\n"
    target.write_bytes(b"".join(lines))
    return len(lines)


def append_to_archive(state: Path, *, chained: bool) -> tuple[Path, Path, int]:
    """A line appended to the third archive: linked to its end (``chained``) or a copy of
    its fourth line.  Returns the archive, the next one, and the lines it had."""
    target, after = archives(state)[2:4]
    lines = lines_of(target)
    added = linked(lines[-1], 1.0, "alert", {"shoe": "x"}) if chained else lines[3]
    target.write_bytes(b"".join([*lines, added]))
    return target, after, len(lines)


def copy_archive(state: Path) -> tuple[Path, Path]:
    """The third archive copied under a name the journal could give it."""
    source = archives(state)[2]
    copy = source.with_name(source.stem + "-2.jsonl")
    shutil.copy(source, copy)
    return source, copy


def cut_or_rewrite_tail(state: Path, *, cut: bool) -> None:
    """The live journal's last two lines cut, or its last line rewritten (resealed)."""
    target = state / JOURNAL_NAME
    lines = lines_of(target)
    if cut:
        target.write_bytes(b"".join(lines[:-2]))
    else:
        row = json.loads(lines[-1])
        line, _ = seal([Record(row["at"], row["mono"], "alert", {"shoe": "x"})], row["prev"])
        target.write_bytes(b"".join([*lines[:-1], line]))


def journal_alone(state: Path) -> None:
    """The first archive (chained from nothing) as the only file: a one-shoe state dir."""
    first = archives(state)[0]
    shutil.move(first, state / "first")
    shutil.rmtree(state / ARCHIVE_DIR)
    (state / JOURNAL_NAME).unlink()
    shutil.move(state / "first", state / JOURNAL_NAME)
