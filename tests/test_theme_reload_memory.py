"""Theme reloads give back what the old theme held: a real demo, SIGHUPs, and /proc.

Each reload of ``midnight`` at 1920x1080 used to keep 80-160 MB and reopen
both CJK fonts once per size (issue 22): the renderers a reload replaced (and
the two boards the reload draws to check the theme) sat in reference cycles
until Python's rare full collection, every one with its own font objects and
full-screen surfaces.  Here a real ``scoreboard demo`` is reloaded again and
again while its resident memory and open files are read from ``/proc``; a
notify socket, as systemd's, says when a frame follows each reload (a watchdog
ping goes out only after a step that drew).
``benchmarks/soak_reload.py`` runs the issue's 150 reloads (docs/benchmarks.md).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from pathlib import Path

import pytest
from test_watchdog import WATCHDOG, NotifySocket

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
RELOADED = "theme midnight reloaded from"
RELOADS = 12
MAX_GROWTH_MIB = 50.0
MAX_MORE_FILES = 3


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no VmRSS for {pid}")


def open_files(pid: int) -> list[str]:
    """Where each of ``pid``'s file descriptors points."""
    found = []
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            found.append(os.readlink(fd))
        except OSError:  # closed while listed
            continue
    return found


def on_fonts(files: list[str]) -> dict[str, int]:
    """How many descriptors are open on each font file (by its whole path: two copies of a
    font, a checkout's and an installed one, are two files)."""
    counts: dict[str, int] = {}
    for target in files:
        if target.endswith((".otf", ".ttf")):
            counts[target] = counts.get(target, 0) + 1
    return counts


def logged(log: Path, text: str) -> int:
    return log.read_text(encoding="utf-8", errors="replace").count(text)


def wait_for(log: Path, text: str, count: int, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60.0
    while time.monotonic() < deadline and process.poll() is None:
        if logged(log, text) >= count:
            return
        time.sleep(0.05)
    raise AssertionError(f"{text!r} x{count} not logged; log:\n{log.read_text()[-2000:]}")


def reload(process: subprocess.Popen, log: Path, notify: NotifySocket) -> None:
    """One SIGHUP, the reload it asks for done and a frame drawn by the new renderer."""
    done = logged(log, RELOADED)
    process.send_signal(signal.SIGHUP)
    wait_for(log, RELOADED, done + 1, process)
    notify.drain()  # every ping sent before the reload was logged
    notify.wait_for(lambda message: message == WATCHDOG, timeout=60.0)


@pytest.mark.slow
def test_reloading_midnight_again_and_again_keeps_memory_and_open_files_flat(tmp_path):
    log = tmp_path / "demo.log"
    command = [sys.executable, "-m", "scoreboard", "demo", "--theme", "midnight", "--windowed"]
    # No coup is dealt while it runs (the board is the one it starts with): whatever grows,
    # the reloads made it (a new coup's texts may want a font size not yet open).
    command += ["--size", "1920x1080", "--pace", "300", "--seed", "3", "--duration", "600"]
    name = f"scoreboard-reload-{uuid.uuid4().hex}"
    notify = NotifySocket(b"\0" + name.encode())
    env = {**ENV, "NOTIFY_SOCKET": "@" + name, "WATCHDOG_USEC": "600000"}  # a ping each 0.2 s
    with log.open("w") as sink:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=sink, stderr=sink)
    try:
        notify.wait_for(lambda message: message.startswith(b"READY=1"), timeout=60.0)
        rss, files = rss_mib(process.pid), open_files(process.pid)  # the first frame is up
        for _ in range(RELOADS):
            reload(process, log, notify)
        grown = rss_mib(process.pid) - rss
        now = open_files(process.pid)
        assert process.poll() is None, log.read_text()[-2000:]
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
        notify.close()
    opened = sorted((Counter(now) - Counter(files)).elements())
    where = f"after {RELOADS} reloads (newly open: {opened})"
    assert grown < MAX_GROWTH_MIB, f"{where} RSS grew {grown:.0f} MiB (from {rss:.0f})"
    assert len(now) - len(files) <= MAX_MORE_FILES, f"{where} {len(files)} -> {len(now)} files"
    assert on_fonts(now) == on_fonts(files), f"{where} font files reopened"
    assert sum(on_fonts(files).values()) > 0, "the demo holds no font file open: nothing measured"
    text = log.read_text()
    assert "Traceback" not in text and "refused" not in text, text[-2000:]
