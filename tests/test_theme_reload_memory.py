"""Theme reloads give back what the old theme held: a real demo, SIGHUPs, and /proc.

Each reload of ``midnight`` at 1920x1080 used to keep 80-160 MB and reopen
both CJK fonts once per size (issue 22): the renderers a reload replaced (and
the two boards the reload draws to check the theme) sat in reference cycles
until Python's rare full collection, every one with its own font objects and
full-screen surfaces.  Here a real ``scoreboard demo`` is reloaded again and
again while its resident memory and open files are read from ``/proc``; a
notify socket, as systemd's, says when a frame follows each reload (a watchdog
ping goes out only after a step that drew).

Nothing is dealt, so the header's clock is the one text that changes: its first
new minute is a text never drawn, measured with a font of the clock's size of
its own (a board that draws on keeps one per size, ``_open_fonts.font_at``),
one more descriptor on the theme's regular font that no reload opened.  A run
the clock's minute turned in is therefore run again; the in-process test below
pins that on a kiosk with a clock of its own.
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
from dataclasses import dataclass
from pathlib import Path

import pygame
import pygame.freetype
import pytest
from test_app import MINUTE, Clocks, ScriptedFeed
from test_watchdog import WATCHDOG, NotifySocket

from scoreboard.kiosk.loop import Kiosk
from scoreboard.kiosk.window import clock_text
from scoreboard.screen.theme.loading import load_theme
from scoreboard.table.state import TableState

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
RELOADED = "theme midnight reloaded from"
RELOADS = 12
MAX_GROWTH_MIB = 50.0
MAX_MORE_FILES = 3
ATTEMPTS = 3
"""Runs tried for one within a single minute of the clock (a run takes seconds)."""


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


@dataclass(frozen=True, slots=True)
class Reloaded:
    """One demo reloaded :data:`RELOADS` times: ``/proc`` at its first frame and after."""

    rss: float
    grown: float
    files: list[str]
    now: list[str]
    log: str
    minutes: tuple[str, str]  # the clock before the demo started and after ``now`` was read


def reload_a_demo(log: Path) -> Reloaded:
    command = [sys.executable, "-m", "scoreboard", "demo", "--theme", "midnight", "--windowed"]
    # No coup is dealt while it runs (the board is the one it starts with): whatever grows,
    # the reloads made it (a new coup's texts may want a font size not yet open).
    command += ["--size", "1920x1080", "--pace", "300", "--seed", "3", "--duration", "600"]
    name = f"scoreboard-reload-{uuid.uuid4().hex}"
    notify = NotifySocket(b"\0" + name.encode())
    env = {**ENV, "NOTIFY_SOCKET": "@" + name, "WATCHDOG_USEC": "600000"}  # a ping each 0.2 s
    before = clock_text(time.time())  # every frame the demo draws shows this minute or later
    with log.open("w") as sink:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=sink, stderr=sink)
    try:
        notify.wait_for(lambda message: message.startswith(b"READY=1"), timeout=60.0)
        rss, files = rss_mib(process.pid), open_files(process.pid)  # the first frame is up
        for _ in range(RELOADS):
            reload(process, log, notify)
        grown = rss_mib(process.pid) - rss
        now = open_files(process.pid)
        after = clock_text(time.time())
        assert process.poll() is None, log.read_text()[-2000:]
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
        notify.close()
    return Reloaded(rss, grown, files, now, log.read_text(), (before, after))


@pytest.mark.slow
def test_reloading_midnight_again_and_again_keeps_memory_and_open_files_flat(tmp_path):
    runs = []
    for attempt in range(ATTEMPTS):
        runs.append(reload_a_demo(tmp_path / f"demo-{attempt}.log"))
        if runs[-1].minutes[0] == runs[-1].minutes[1]:
            break
    else:
        raise AssertionError(f"the clock's minute turned in every run: {[r.minutes for r in runs]}")
    run = runs[-1]
    files, now = run.files, run.now
    opened = sorted((Counter(now) - Counter(files)).elements())
    where = f"after {RELOADS} reloads (newly open: {opened})"
    assert run.grown < MAX_GROWTH_MIB, f"{where} RSS grew {run.grown:.0f} MiB (from {run.rss:.0f})"
    assert len(now) - len(files) <= MAX_MORE_FILES, f"{where} {len(files)} -> {len(now)} files"
    assert on_fonts(now) == on_fonts(files), f"{where} font files reopened"
    assert sum(on_fonts(files).values()) > 0, "the demo holds no font file open: nothing measured"
    for earlier in runs:
        assert "Traceback" not in earlier.log and "refused" not in earlier.log, earlier.log[-2000:]


def counting_opens(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """From now on, the file of every pygame font and FreeType face made, in order."""
    made: list[str] = []

    def counted(kind: type) -> object:
        def make(path: object, *rest: object, **options: object) -> object:
            made.append(str(path))
            return kind(path, *rest, **options)

        return make

    monkeypatch.setattr(pygame.font, "Font", counted(pygame.font.Font))
    monkeypatch.setattr(pygame.freetype, "Font", counted(pygame.freetype.Font))
    return made


@pytest.mark.usefixtures("pygame_display")
def test_a_reload_opens_no_font_and_a_new_minute_at_most_one_for_the_clocks_size(monkeypatch):
    """A still board reloaded in this process, its clock set by hand: the reloads open no
    font, not even one closed again (which ``/proc`` cannot see afterwards); the clock's
    first new minute opens at most one, the regular font at the clock's size, and keeps it."""
    clocks = Clocks(monotonic=100.0, wall=MINUTE + 30.0)
    theme = load_theme("midnight")
    kiosk = Kiosk(
        ScriptedFeed(""),
        TableState(),
        theme,
        windowed=True,
        size=(1920, 1080),
        clock=lambda: clocks.monotonic,
        wall_clock=lambda: clocks.wall,
    )

    def step(seconds: float = 1.0, reloads: int = 0) -> dict[str, int]:
        for _ in range(max(reloads, 1)):
            if reloads:
                kiosk.request_reload()
            clocks.advance(seconds)
            kiosk.step(clocks.monotonic)
        return on_fonts(open_files(os.getpid()))

    try:
        step()  # the first frame, with one font per file
        first = step()  # settled: from now on a new text's size gets a font of its own
        made = counting_opens(monkeypatch)
        assert (step(reloads=RELOADS), made) == (first, [])
        turned = step(30.0)  # the minute turned: a text the board never drew
        regular = str(theme.fonts.regular)
        assert made in ([], [regular]), made
        assert Counter(turned) - Counter(first) == Counter(made), turned
        made.clear()
        assert (step(reloads=RELOADS), made) == (turned, [])
        assert (step(60.0), made) == (turned, [])  # the next minute: its size is open
    finally:
        pygame.display.quit()
