"""Under systemd the log goes to the journal with priorities; elsewhere it carries the time."""

from __future__ import annotations

import logging
import os
import re
import subprocess
import sys
from pathlib import Path

from scoreboard.service.logsetup import JournalFormatter


def demo_log(tmp_path: Path, journal: bool) -> str:
    log_file = tmp_path / "stderr"
    with log_file.open("w") as stderr:
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
        env.pop("JOURNAL_STREAM", None)
        if journal:  # what systemd sets when stderr is its journal stream
            info = os.fstat(stderr.fileno())
            env["JOURNAL_STREAM"] = f"{info.st_dev}:{info.st_ino}"
        args = ["demo", "--windowed", "--size", "320x240", "--duration", "1"]
        subprocess.run(
            [sys.executable, "-m", "scoreboard", *args],
            stderr=stderr,
            stdout=subprocess.DEVNULL,
            env=env,
            timeout=60,
            check=True,
        )
    return log_file.read_text()


def test_a_board_started_by_systemd_logs_priorities_and_no_time(tmp_path):
    lines = demo_log(tmp_path, journal=True).splitlines()
    assert lines and all(re.match(r"<[2-7]>scoreboard[.\w]*: ", line) for line in lines), lines
    assert any(line.startswith("<6>scoreboard.feeds.simulated: demo: shoe 1") for line in lines)


def test_a_board_in_a_terminal_logs_the_time_and_level(tmp_path):
    lines = demo_log(tmp_path, journal=False).splitlines()
    assert lines and all(re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ [A-Z]+ ", x) for x in lines)


def test_a_stream_that_is_not_the_journal_gets_the_terminal_format(tmp_path, monkeypatch):
    monkeypatch.setenv("JOURNAL_STREAM", "1:2")  # someone else's stream, inherited
    from scoreboard.service.logsetup import to_journal

    with (tmp_path / "f").open("w") as stream:
        assert not to_journal(stream)
    monkeypatch.setenv("JOURNAL_STREAM", "garbage")
    with (tmp_path / "f").open("w") as stream:
        assert not to_journal(stream)


def test_every_line_of_a_traceback_keeps_its_priority():
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        record = logging.makeLogRecord(
            {"name": "scoreboard.kiosk.loop", "levelno": logging.ERROR, "msg": "frame failed"}
        )
        record.exc_info = sys.exc_info()
    lines = JournalFormatter().format(record).splitlines()
    assert len(lines) > 3
    assert all(line.startswith("<3>") for line in lines)
    assert lines[0] == "<3>scoreboard.kiosk.loop: frame failed"
    assert lines[-1] == "<3>RuntimeError: boom"
