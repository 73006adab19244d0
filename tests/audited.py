"""A state dir the real demo journaled, copied per test to tamper with, and the real
``scoreboard audit`` run on it (shared by the audit tests).

The fixtures ``dealt`` (the demo's state dir, once per module) and ``state`` (a
copy per test) are imported by the test modules that use them.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli import scoreboard

from scoreboard.journal import ARCHIVE_DIR

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
