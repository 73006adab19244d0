"""No display, quit keys and motion: what the kiosk does around the frame.

The no-display case runs ``scoreboard demo`` and ``scoreboard run`` as real
subprocesses with no DISPLAY, no WAYLAND_DISPLAY and no SDL_VIDEODRIVER: pygame-ce
then falls back to SDL's ``offscreen`` driver, which shows nothing.
"""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
import time
from pathlib import Path

import pygame
import pytest

from scoreboard.kiosk.loop import Kiosk
from scoreboard.kiosk.monitor import NoDisplayError, check_display
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.loading import load_theme
from scoreboard.table.applied import FeedStatus
from scoreboard.table.health import JournalHealth, RenderHealth
from scoreboard.table.state import TableState

ROOT = Path(__file__).resolve().parents[1]
NO_DISPLAY_VARIABLES = ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")


def without_a_display(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in NO_DISPLAY_VARIABLES}
    env["SDL_AUDIODRIVER"] = "dummy"
    return subprocess.run(
        [sys.executable, "-m", "scoreboard", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )


def test_pygame_falls_back_to_an_invisible_driver_here():
    probe = "import pygame; pygame.display.init(); print(pygame.display.get_driver())"
    env = {k: v for k, v in os.environ.items() if k not in NO_DISPLAY_VARIABLES}
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout.split()[-1] in ("offscreen", "dummy")


@pytest.mark.parametrize("windowed", [[], ["--windowed"]], ids=["full-screen", "windowed"])
def test_the_demo_with_no_display_says_what_to_do_and_exits_1(windowed):
    started = time.monotonic()
    done = without_a_display("demo", *windowed, "--duration", "30")
    assert done.returncode == 1, done.stderr
    assert time.monotonic() - started < 30  # it did not render offscreen for the duration
    err = done.stderr
    assert "scoreboard demo: no display to show the board on" in err
    assert "DISPLAY or WAYLAND_DISPLAY" in err and "scoreboard screenshot" in err
    assert "Traceback" not in err


def test_run_with_no_display_says_what_to_do_and_exits_1(tmp_path):
    done = without_a_display("run", "--mqtt", "127.0.0.1:1", "--state-dir", str(tmp_path / "state"))
    assert done.returncode == 1, done.stderr
    assert "scoreboard run: no display to show the board on" in done.stderr
    assert "scoreboard run --headless" in done.stderr and "Traceback" not in done.stderr


def test_a_chosen_dummy_driver_keeps_working_without_a_display():
    env = {k: v for k, v in os.environ.items() if k not in NO_DISPLAY_VARIABLES}
    env |= {"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    done = subprocess.run(
        [sys.executable, "-m", "scoreboard", "demo", "--pace", "0.1", "--duration", "0.5"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_an_invisible_driver_is_refused_only_when_nobody_chose_it():
    check_display("offscreen", chosen="offscreen")
    check_display("dummy", chosen="dummy")
    check_display("x11", chosen=None)
    with pytest.raises(NoDisplayError, match="fell back to its offscreen driver"):
        check_display("offscreen", chosen=None)
    with pytest.raises(NoDisplayError):
        check_display("dummy", chosen="")


class QuietFeed:
    def start(self, _wake) -> None: ...
    def poll(self, table: TableState, _now: float) -> None:
        if table.shoe_id is None:
            table.new_shoe("quiet")

    def status(self, _now: float) -> FeedStatus:
        return FeedStatus.LIVE

    def next_deadline(self, _now: float) -> None:
        return None

    def report(self, _render: RenderHealth) -> None: ...
    def journal_health(self) -> JournalHealth:
        return JournalHealth()

    def stop(self) -> None: ...


def key(code: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=code, mod=0)


@pytest.fixture(autouse=True)
def display():
    pygame.display.init()
    yield
    pygame.display.quit()


@pytest.mark.parametrize("code", [pygame.K_ESCAPE, pygame.K_q], ids=["esc", "q"])
def test_a_live_kiosk_full_screen_ignores_the_keys_a_window_quits_on_them(code):
    theme = load_theme("classic")
    kiosk = Kiosk(QuietFeed(), TableState(), theme)
    kiosk.handle(key(code))
    assert kiosk.running, "a passer-by's key press must not end a live kiosk"
    kiosk.handle(key(pygame.K_a))
    windowed = Kiosk(QuietFeed(), TableState(), theme, windowed=True, size=(320, 180))
    windowed.handle(key(pygame.K_a))
    assert windowed.running
    windowed.handle(key(code))
    assert not windowed.running


def test_quit_keys_quit_full_screen_when_asked():
    kiosk = Kiosk(QuietFeed(), TableState(), load_theme("classic"), quit_keys=True)
    kiosk.handle(key(pygame.K_q))
    assert not kiosk.running


def test_windowed_run_quits_on_q(tmp_path):
    import threading

    from scoreboard.cli import main

    def press() -> None:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            time.sleep(0.3)
            try:
                if pygame.display.get_surface() is not None:
                    pygame.event.post(key(pygame.K_q))
                    return
            except pygame.error:
                pass

    threading.Thread(target=press, daemon=True).start()
    started = time.monotonic()
    argv = ["run", "--windowed", "--size", "320x180", "--mqtt", "127.0.0.1:1"]
    assert main([*argv, "--state-dir", str(tmp_path / "state")]) == 0
    assert time.monotonic() - started < 20


RENDERER_HAS_MOTION = "motion" in inspect.signature(Renderer).parameters


class OneCoupLater(QuietFeed):
    """A shoe with one coup, then a second coup on the next poll (with a full hand)."""

    def __init__(self) -> None:
        from scoreboard.game.notation import result_games

        self.games = result_games("BP")

    def poll(self, table: TableState, _now: float) -> None:
        super().poll(table, _now)
        if self.games:
            table.add_game(self.games.pop(0))


@pytest.mark.skipif(
    not RENDERER_HAS_MOTION, reason="Renderer(motion=) lands with the pipeline's part of issue 10"
)
@pytest.mark.parametrize("motion", [True, False], ids=["motion", "no-motion"])
def test_without_motion_a_coup_is_drawn_at_once_in_its_final_state(tmp_path, motion):
    # No blinking either, so the only difference motion can make is its own.
    still = tmp_path / "still.yaml"
    text = (ROOT / "themes" / "classic.yaml").read_text(encoding="utf-8")
    still.write_text(text.replace("blink_seconds: 2.5", "blink_seconds: 0"), encoding="utf-8")
    theme, size = load_theme(still), (640, 360)
    table = TableState()
    kiosk = Kiosk(OneCoupLater(), table, theme, windowed=True, size=size, motion=motion)
    kiosk.step(0.0)
    kiosk.step(0.05)  # the second coup arrives: motion would deal its cards in now
    final = Renderer(theme, size, motion=False).render(  # type: ignore[call-arg]
        table, FeedStatus.LIVE, clock=kiosk.clock_text()
    )
    at_once = pygame.image.tobytes(kiosk.screen, "RGB") == pygame.image.tobytes(final, "RGB")
    assert at_once is not motion
