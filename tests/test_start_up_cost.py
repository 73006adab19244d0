"""What a command's start does not pay for: work and modules it has no use for.

Every kiosk start and every ``check-theme`` draws the theme once to prove it
(:mod:`scoreboard.screen.board.probe`), and every command imports its modules
before it does anything; a kiosk on a small board pays both again after each
power cut.  These checks pin what was taken off that path without timing
anything: the probe draws no card faces ahead of a coup, and each command
imports only the rooms it uses (read from the real command's ``-X importtime``).
"""

from __future__ import annotations

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
