"""The table's board and the lobby's wall run in the one kiosk window (``kiosk/window.py``).

Seen from outside, the wall gains what the board's loop had: an uncovered window is
drawn again whole, and while nothing changes the watchdog's ping still proves the
display answers (one pixel pushed to it, as the board does).  The board's side is
pinned by its own tests (tests/test_app*.py, tests/test_watchdog.py).  And no module
but the window opens the display or takes its events: there is one loop.
"""

from __future__ import annotations

import ast
import socket
import time
from pathlib import Path

import pygame
import pytest

from scoreboard.cli import build_parser
from scoreboard.cli.commands.lobby import build_wall
from scoreboard.lobby.sample import sample_floor

pytestmark = pytest.mark.usefixtures("pygame_display")

PACKAGE = Path(__file__).resolve().parent.parent / "scoreboard"
#: What only a kiosk loop does: open the display, sleep on its events, take them.
LOOP_CALLS = {"pygame.display.set_mode", "pygame.event.wait", "pygame.event.get"}

WALL = 1_700_000_000.0  # the header's minute never turns between two steps
NO_BROKER = "127.0.0.1:1"  # nothing listens: the wall shows its floor, NO FEED


def wall_of(tables: int):
    """``scoreboard lobby``'s own wall, windowed, over a sample floor of ``tables``."""
    args = ["lobby", "--mqtt", NO_BROKER, "--lobby-id", "W1", "--windowed", "--size", "960x540"]
    wall = build_wall(build_parser().parse_args(args))
    wall.floor = sample_floor(tables, now=time.monotonic())
    wall.renderer.log = []
    return wall


def names_drawn(wall) -> list[str]:
    return [text.text for text in wall.renderer.log if text.part == "name"]


def test_an_uncovered_lobby_window_is_drawn_again_whole():
    wall = wall_of(4)
    pygame.event.post(pygame.event.Event(pygame.WINDOWEXPOSED))
    try:
        wall.run(0.5)
    finally:
        pygame.display.quit()
    assert names_drawn(wall).count("Baccarat 1") == 2  # the first frame, then after the expose


def test_an_idle_lobby_still_proves_its_display_answers_to_the_watchdog(tmp_path, monkeypatch):
    address = str(tmp_path / "notify")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(address)
    monkeypatch.setenv("NOTIFY_SOCKET", address)
    monkeypatch.setenv("WATCHDOG_USEC", "300000")  # a ping every 0.1 s
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    wall = wall_of(4)
    pushed: list[object] = []
    try:
        start = time.monotonic()
        wall.step(start, WALL)
        assert names_drawn(wall).count("Baccarat 1") == 1
        monkeypatch.setattr(pygame.display, "update", pushed.append)
        time.sleep(0.2)  # a ping due, nothing changed on the floor
        wall.step(start + 0.2, WALL)
    finally:
        pygame.display.quit()
        listener.close()
    assert names_drawn(wall).count("Baccarat 1") == 1  # nothing redrawn
    assert pushed == [pygame.Rect(0, 0, 1, 1)]


def test_only_the_kiosk_window_opens_the_display_and_takes_its_events():
    calls = {
        f"{path.relative_to(PACKAGE)}: {ast.unparse(node.func)}"
        for path in PACKAGE.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and ast.unparse(node.func) in LOOP_CALLS
    }
    assert calls == {f"kiosk/window.py: {call}" for call in LOOP_CALLS}
