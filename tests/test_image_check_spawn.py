"""A logo check that cannot run is not a bad image (as for fonts: tests/test_font_check_spawn.py).

The logo is tried in a child process (:mod:`scoreboard.screen.theme.images`, sharing
:mod:`scoreboard.screen.theme._child_check` with the fonts).  When the child cannot start, the
check used to call a good logo "not a usable image".  Each case is a real
``scoreboard check-theme`` process on ``midnight`` (shipped fonts: no child for
them) with a logo beside it: its Python executable gone, out of file
descriptors, a child that exits 3 (could not set itself up), once or always.
"""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from test_font_check_spawn import (
    MIDNIGHT,
    NO_DESCRIPTORS,
    NO_EXECUTABLE,
    broken_python,
    check_theme,
    passes_on_the_second_try,
)


def theme_with_logo(tmp_path: Path) -> Path:
    """``midnight`` with a good 120x40 PNG logo beside it."""
    image = pygame.Surface((120, 40))
    image.fill((200, 160, 40))
    pygame.image.save(image, str(tmp_path / "logo.png"))
    text = MIDNIGHT.replace("style:\n", "style:\n  logo: logo.png\n", 1)
    assert text != MIDNIGHT
    path = tmp_path / "logo-theme.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def cannot_check(tmp_path: Path, script: str) -> str:
    """The one line ``script`` prints for a logo it cannot check."""
    theme = theme_with_logo(tmp_path)
    done = check_theme(script, theme)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    (line,) = done.stdout.splitlines()
    assert line.startswith(f"{theme}: style.logo: cannot check images: logo.png: "), line
    assert "not a usable image" not in line
    return line


def test_a_good_logo_passes(tmp_path):
    theme = theme_with_logo(tmp_path)
    done = check_theme(None, theme)
    assert done.returncode == 0 and done.stdout.startswith(f"{theme}: OK"), done.stdout


#: Each way the check's child cannot run, and what the line then says (after three tries).
CANNOT_RUN = {
    "executable gone": "cannot start a process (No such file or directory)",
    "out of descriptors": "cannot start a process (Too many open files)",
    "child exits 3": "the check could not start (MemoryError: no room to import pygame)",
}


@pytest.mark.parametrize("case", sorted(CANNOT_RUN))
def test_a_logo_the_check_cannot_run_for_is_not_called_a_bad_image(tmp_path, case):
    script = {
        "executable gone": lambda: NO_EXECUTABLE,
        "out of descriptors": lambda: NO_DESCRIPTORS,
        "child exits 3": lambda: broken_python(tmp_path),
    }[case]()
    assert f"{CANNOT_RUN[case]}, tried 3 times" in cannot_check(tmp_path, script)


def test_a_logo_check_that_could_not_start_once_is_tried_again(tmp_path):
    passes_on_the_second_try(tmp_path, theme_with_logo(tmp_path))
