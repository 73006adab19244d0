"""What a command's start does not pay for: work and modules it has no use for.

Every kiosk start and every ``check-theme`` draws the theme once to prove it
(:mod:`scoreboard.screen.board.probe`), and every command imports its modules
before it does anything; a kiosk on a small board pays both again after each
power cut.  These checks pin what was taken off that path without timing
anything: the probe and ``screenshot`` draw no card faces ahead of a coup, and a
command imports only the rooms it uses (read from ``sys.modules`` in a fresh
interpreter that imported what the command imports).
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pygame
import pytest

import scoreboard.screen.board._hand as hand
import scoreboard.screen.board._open_fonts as open_fonts
import scoreboard.screen.board.probe as probe
import scoreboard.screen.board.text as texts
from scoreboard import protocol
from scoreboard.cli import main
from scoreboard.protocol import DISPLAY_OFFLINE, apply_event, display, display_status
from scoreboard.screen.board.probe import SIZES, draw_problems, sample_table
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.board.text import TextCache
from scoreboard.screen.theme.loading import load_theme
from scoreboard.table import state
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState

pytestmark = pytest.mark.usefixtures("pygame_display")

FONTS = Path(__file__).resolve().parent.parent / "themes" / "fonts"


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


def test_a_screenshot_draws_no_card_faces_ahead(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    calls = faces_warmed(monkeypatch)
    assert main(["screenshot", "-o", str(tmp_path / "board.png"), "--size", "640x360"]) == 0
    assert (tmp_path / "board.png").stat().st_size > 0
    assert calls == []


@pytest.mark.parametrize("size", [(1920, 1080), (640, 360)])
def test_a_frame_is_the_same_with_or_without_faces_drawn_ahead(size: tuple[int, int]) -> None:
    theme, table = load_theme("classic"), sample_table()
    assert table.games  # the last hand shows its cards
    frames = [
        pygame.image.tobytes(
            Renderer(theme, size, motion=False, ahead=warm).render(
                table, FeedStatus.LIVE, clock="21:45"
            ),
            "RGB",
        )
        for warm in (True, False)
    ]
    assert frames[0] == frames[1]


#: What ``scoreboard shoe`` and ``scoreboard pit`` import: their parsers and commands, and
#: what their runs import (the controller, its floor, the MQTT link).
CONTROLLER_MODULES = [
    *(
        f"scoreboard.cli.{part}.{name}"
        for name in ("shoe", "pit")
        for part in ("parsers", "commands")
    ),
    "scoreboard.controller",
    "scoreboard.controller.floor",
    "scoreboard.link.client",
]


def test_a_controller_and_the_pit_leave_the_displays_table_and_journal_unimported() -> None:
    modules = imported_after(*CONTROLLER_MODULES)
    assert "scoreboard.protocol.messages" in modules  # the reading works
    display_side = ("scoreboard.table.state", "scoreboard.protocol.display", "scoreboard.journal")
    assert [name for name in display_side if name in modules] == []


def test_the_protocol_still_names_the_displays_parts() -> None:
    assert (display_status, DISPLAY_OFFLINE) == (display.display_status, display.DISPLAY_OFFLINE)
    assert apply_event is state.apply_event
    with pytest.raises(AttributeError, match="no attribute 'apply_events'"):
        protocol.apply_events  # noqa: B018


def font_opens(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """The files and sizes of the fonts opened from now on."""
    opens: list[tuple[str, int]] = []
    opening = pygame.font.Font

    def counted(path: str, size: int) -> pygame.font.Font:
        opens.append((Path(path).name, size))
        return opening(path, size)

    monkeypatch.setattr(pygame.font, "Font", counted)
    return opens


def test_the_size_for_a_capital_height_opens_no_font_per_size_tried(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = TextCache(load_theme("classic").fonts)
    text.cap_height(57)  # the file's sizer is there
    sizes = font_opens(monkeypatch)
    assert text.size_for_cap(40.5) > 0 and text.cap_height(58, bold=False) > 0
    assert sizes == []


@pytest.mark.parametrize("name", sorted(path.name for path in FONTS.glob("*.otf")))
def test_a_resized_font_measures_and_draws_as_one_opened_at_the_size(name: str) -> None:
    path = FONTS / name
    text = "Hg8 Banker 庄 บิ๊ก 뱅커"
    for size in (*range(6, 130, 7), 200, 9, 333, 13):  # up, then down and up again
        fresh = pygame.font.Font(str(path), size)
        assert open_fonts.metrics(path, size, "Hg8") == fresh.metrics("Hg8"), size
        resized = open_fonts.font(path, size)
        assert resized.size(text) == fresh.size(text), size
        assert (resized.get_ascent(), resized.get_height()) == (
            fresh.get_ascent(),
            fresh.get_height(),
        ), size
        drawn = [
            pygame.image.tobytes(f.render(text, True, (200, 9, 9)), "RGBA")
            for f in (resized, fresh)
        ]
        assert drawn[0] == drawn[1], size


def test_the_probes_boards_and_the_kiosks_share_one_text_cache(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made: list[int] = []
    build = TextCache.__init__

    def counted(self: TextCache, *args: object, **kwargs: object) -> None:
        made.append(1)
        build(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(TextCache, "__init__", counted)
    monkeypatch.setattr(texts, "_shared", type(texts._shared)())  # none made yet
    theme = load_theme("classic")
    assert len(theme.layouts) == 3  # three boards drawn
    assert draw_problems(theme) == []
    assert made == [1]
    Renderer(theme, (1280, 720)).render(sample_table(), FeedStatus.LIVE, clock="21:45")
    assert draw_problems(theme) == []  # a reload's check
    assert made == [1]


def test_a_kiosk_start_opens_each_font_file_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The probe's three boards and the kiosk's first frame draw with each file's one font,
    resized to each size; from its second frame on, a size the board draws gets its own.

    Opening a font costs about a millisecond and a megabyte (FreeType reads the
    file's tables anew); a start asked for about sixty-five sizes.
    """
    for module, kept in ((open_fonts, "_fonts"), (open_fonts, "_sized"), (texts, "_shared")):
        monkeypatch.setattr(module, kept, type(getattr(module, kept))())  # nothing open yet
    opens = font_opens(monkeypatch)
    theme = load_theme("classic")
    assert draw_problems(theme) == []
    renderer, table = Renderer(theme, (1280, 720)), sample_table()
    renderer.render(table, FeedStatus.LIVE, clock="21:45")
    files = sorted({name for name, _ in opens})
    assert len(files) == 2  # the regular and the bold drew
    assert sorted(name for name, _ in opens) == files
    renderer.update(table, FeedStatus.LIVE, clock="21:46")  # a new text, on the next frame
    assert len(opens) > len(files)


def screen_sized(monkeypatch: pytest.MonkeyPatch) -> Counter[tuple[int, int]]:
    """How many surfaces of each size are made from now on."""
    made: Counter[tuple[int, int]] = Counter()

    class Counted(pygame.Surface):
        def __init__(self, size: tuple[int, int], *args: Any, **kwargs: Any) -> None:
            made[(int(size[0]), int(size[1]))] += 1
            super().__init__(size, *args, **kwargs)

    monkeypatch.setattr(pygame, "Surface", Counted)
    return made


def test_the_probes_boards_make_one_screen_sized_surface_each(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A screen-sized surface is 8 MB zeroed at 1920x1080: a probe's board is drawn over its
    static layer (no pixel of it is read), a kiosk's on a frame of its own (or the
    display's), with a copy of the board under its overlays."""
    made = screen_sized(monkeypatch)
    theme = load_theme("classic")
    assert draw_problems(theme) == []
    assert {size: made[size] for size in SIZES.values()} == dict.fromkeys(SIZES.values(), 1)
    made.clear()
    Renderer(theme, (1280, 720)).render(sample_table(), FeedStatus.LIVE, clock="21:45")
    assert made[(1280, 720)] == 3


def test_the_kiosks_board_draws_no_text_the_probe_drew(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kiosk at one of the probe's sizes (1920x1080, the usual screen) shows the texts the
    probe's landscape board drew at the same sizes: drawn once, not twice."""
    drawn: list[tuple[object, ...]] = []
    draw = TextCache._draw

    def counted(self: TextCache, *args: Any) -> pygame.Surface:
        drawn.append(args)  # text, size, colour, weight
        return draw(self, *args)

    monkeypatch.setattr(TextCache, "_draw", counted)
    monkeypatch.setattr(texts, "_shared", type(texts._shared)())  # nothing drawn yet
    theme = load_theme("classic")
    assert draw_problems(theme) == []
    by_probe, drawn[:] = set(drawn), []
    Renderer(theme, (1920, 1080)).render(sample_table(), FeedStatus.LIVE, clock="21:45")
    assert drawn  # the winner's banner, painted ahead, is the kiosk's own
    assert by_probe & set(drawn) == set()


def test_the_probe_deals_its_sample_shoe_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every reload's check and every theme ``check-theme`` reads draws the same sample table:
    dealt for the first, read by the rest (the boards only read it)."""
    dealt: list[object] = []
    apply = probe.apply_event

    def counted(table: TableState, event: object) -> object:
        dealt.append(event)
        return apply(table, event)  # type: ignore[arg-type]

    monkeypatch.setattr(probe, "apply_event", counted)
    fresh = functools.cache(probe.sample_table)  # none dealt yet
    monkeypatch.setattr(probe, "_sample", fresh, raising=False)
    for name in ("classic", "midnight", "classic"):
        assert draw_problems(load_theme(name)) == []
    assert len(dealt) == probe.SAMPLE_COUPS + 1  # the shoe's start and its coups, once


def test_a_board_drawing_on_draws_each_size_with_a_font_of_its_own() -> None:
    """A resize forgets the glyphs a font had ready: the probe's boards, drawn once, draw with
    one font per file; a kiosk's board, frame after frame, with a font per size."""
    theme = load_theme("classic")
    assert draw_problems(theme) == []
    text = Renderer(theme, (640, 360)).text
    assert text is texts.shared_cache(theme.fonts, theme.style.text_scale)
    with text.one_font_per_file():
        assert text.font(20) is text.font(30)
    assert text.font(20) is not text.font(30)
    assert (text.font(20).point_size, text.font(30).point_size) == (20, 30)
