"""What a command's start does not pay for: work and modules it has no use for.

Every kiosk start and every ``check-theme`` draws the theme once to prove it
(:mod:`scoreboard.screen.board.probe`), and every command imports its modules
before it does anything; a kiosk on a small board pays both again after each
power cut.  These checks pin what was taken off that path without timing
anything: the probe draws no card faces ahead of a coup, and each command
imports only the rooms it uses (read from the real command's ``-X importtime``).
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import scoreboard.screen.board._hand as hand
from scoreboard.screen.board.probe import draw_problems
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.loading import load_theme

pytestmark = pytest.mark.usefixtures("pygame_display")


def faces_warmed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that grows by one each time a renderer draws its card faces ahead."""
    calls: list[int] = []
    warm = hand.warm_cards

    def counted(p: object) -> list:
        calls.append(1)
        return warm(p)  # type: ignore[arg-type]

    monkeypatch.setattr(hand, "warm_cards", counted)
    return calls


def test_the_theme_probe_draws_no_card_faces_ahead(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = faces_warmed(monkeypatch)
    assert draw_problems(load_theme("classic")) == []
    assert calls == []


def test_a_kiosks_renderer_still_draws_its_card_faces_ahead(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = faces_warmed(monkeypatch)
    renderer = Renderer(load_theme("classic"), (640, 360))
    assert calls == [1]
    assert renderer.cards.faces  # the first dealt hand finds them drawn


#: The modules a kiosk or controller command imports before it runs: its parser, the
#: shared options (and the settings they read), and its command module.
COMMAND_MODULES = [
    f"scoreboard.cli.{part}.{name}"
    for name in ("demo", "run", "shoe", "pit", "screenshot", "lobby")
    for part in ("parsers", "commands")
]


def imported_after(*modules: str) -> set[str]:
    """Every module a fresh interpreter holds after importing ``modules``."""
    script = "import importlib, sys\n"
    script += "".join(f"importlib.import_module({name!r})\n" for name in modules)
    script += "print('\\n'.join(sys.modules))\n"
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    found = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, env=env
    )
    assert found.returncode == 0, found.stderr[-2000:]
    return set(found.stdout.split())


def test_reading_the_settings_leaves_the_shoe_readers_unimported() -> None:
    modules = imported_after("scoreboard.cli.options", *COMMAND_MODULES)
    assert "scoreboard.settings.shoe" in modules  # the reading works
    assert sorted(name for name in modules if name.startswith("scoreboard.shoes")) == []
