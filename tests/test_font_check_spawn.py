"""A font check that cannot run is not a bad font; the shipped fonts need no check to run.

A font is tried in a child process (:mod:`scoreboard.screen.theme.fonts`).  When the child
cannot start (a process limit, low memory, too many open files: issue 22 saw
the last after theme reloads leaked files) the kiosk used to call its own
shipped font "not a usable font" and refuse its own theme.  Each case here is
a real ``scoreboard check-theme`` process: one whose Python executable is gone
(so no child can start), one out of file descriptors (RLIMIT_NOFILE set low,
so the child's pipes cannot be made), and one that can spawn, for a real bad font.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

from scoreboard.screen.theme.fonts import SHIPPED_FONTS, sha256_of
from scoreboard.screen.theme.loading import themes_dir

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
MIDNIGHT = (ROOT / "themes" / "midnight.yaml").read_text(encoding="utf-8")
NOT_A_FONT = ROOT / "docs" / "images" / "classic-landscape.png"

#: ``scoreboard check-theme`` in a process whose Python executable cannot be started again.
NO_EXECUTABLE = """
import sys
sys.executable = "/nonexistent/python3"
sys.argv = ["scoreboard", "check-theme", *sys.argv[1:]]
from scoreboard.cli import main
raise SystemExit(main())
"""

#: ``scoreboard check-theme`` with two descriptors to spare once it is loaded: a font file
#: can be read, but the check's child cannot be given its three pipes.
NO_DESCRIPTORS = """
import os, resource, sys
sys.argv = ["scoreboard", "check-theme", *sys.argv[1:]]
from scoreboard.cli import main
import scoreboard.cli.commands.check_theme, scoreboard.screen.board.probe
import pygame, pygame.freetype, yaml
highest = max(int(fd) for fd in os.listdir("/proc/self/fd"))
resource.setrlimit(resource.RLIMIT_NOFILE, (highest + 3, highest + 3))
raise SystemExit(main())
"""


def check_theme(script: str | None, *files: Path | str) -> subprocess.CompletedProcess[str]:
    """``scoreboard check-theme FILES``, as a module or through ``script``."""
    head = ["-m", "scoreboard", "check-theme"] if script is None else ["-c", script]
    return subprocess.run(
        [sys.executable, *head, *map(str, files)],
        cwd=ROOT,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )


def theme_with_font(tmp_path: Path, font: Path) -> Path:
    """``midnight`` with ``font`` as its regular font, beside it."""
    shutil.copy(font, tmp_path / font.name)
    text = MIDNIGHT.replace("NotoSansCJK-Regular-subset.otf", font.name)
    assert text != MIDNIGHT
    path = tmp_path / "edited.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def changed_shipped_font(tmp_path: Path) -> Path:
    """The shipped regular font with a byte more at its end: a font, but not the shipped file."""
    font = tmp_path / "source" / "Regular-copy.otf"
    font.parent.mkdir()
    shipped = themes_dir() / "fonts" / "NotoSansCJK-Regular-subset.otf"
    font.write_bytes(shipped.read_bytes() + b"\0")
    return font


def test_the_shipped_fonts_are_in_the_checksum_table():
    shipped = sorted(p for p in (themes_dir() / "fonts").iterdir() if p.suffix in (".otf", ".ttf"))
    assert shipped
    assert {path.name: sha256_of(path) for path in shipped} == dict(SHIPPED_FONTS)


def test_a_shipped_theme_passes_where_no_child_process_can_start():
    done = check_theme(NO_EXECUTABLE, "midnight", "classic", "contrast")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count(": OK") == 3 and "Traceback" not in done.stderr


def cannot_check(tmp_path: Path, script: str) -> str:
    """The one line ``script`` prints for a font it cannot check (not the shipped file)."""
    theme = theme_with_font(tmp_path, changed_shipped_font(tmp_path))
    done = check_theme(script, theme)
    assert done.returncode == 1, done.stdout + done.stderr
    (line,) = done.stdout.splitlines()
    assert line.startswith(f"{theme}: fonts.regular: cannot check fonts: "), line
    assert "not a usable font" not in line
    return line


def test_a_font_the_check_cannot_start_for_is_not_called_a_bad_font(tmp_path):
    line = cannot_check(tmp_path, NO_EXECUTABLE)
    assert "cannot start a process (No such file or directory), tried 3 times" in line


def executable(path: Path, body: str) -> Path:
    """A shell script at ``path`` that the check will start as its Python."""
    path.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
    path.chmod(0o755)
    return path


def passes_on_the_second_try(tmp_path: Path, theme: Path) -> None:
    """``theme`` checked where the first child cannot set itself up (a moment of low
    memory) and the second can: it passes."""
    once = tmp_path / "failed-once"
    flaky = executable(
        tmp_path / "python-flaky",
        f'[ -e {once} ] || {{ touch {once}; echo "MemoryError" >&2; exit 3; }}\n'
        f'exec {sys.executable} "$@"',
    )
    done = check_theme(NO_EXECUTABLE.replace("/nonexistent/python3", str(flaky)), theme)
    assert once.exists()
    assert done.returncode == 0 and done.stdout.startswith(f"{theme}: OK"), done.stdout


def test_a_check_that_could_not_start_once_is_tried_again(tmp_path):
    passes_on_the_second_try(tmp_path, theme_with_font(tmp_path, changed_shipped_font(tmp_path)))


def broken_python(tmp_path: Path) -> str:
    """``check-theme`` whose every child exits 3, unable to set itself up (low memory)."""
    broken = executable(
        tmp_path / "python-broken", "echo 'MemoryError: no room to import pygame' >&2; exit 3"
    )
    return NO_EXECUTABLE.replace("/nonexistent/python3", str(broken))


def test_a_child_that_cannot_set_itself_up_is_no_verdict_on_the_font(tmp_path):
    line = cannot_check(tmp_path, broken_python(tmp_path))
    assert "the check could not start (MemoryError: no room to import pygame)" in line


def test_out_of_file_descriptors_the_check_says_it_cannot_check(tmp_path):
    line = cannot_check(tmp_path, NO_DESCRIPTORS)
    assert "cannot start a process (Too many open files), tried 3 times" in line


def test_a_changed_shipped_font_is_checked_in_the_child_and_passes(tmp_path):
    theme = theme_with_font(tmp_path, changed_shipped_font(tmp_path))
    done = check_theme(None, theme)
    assert done.returncode == 0 and done.stdout.startswith(f"{theme}: OK"), done.stdout


def test_a_bad_font_is_still_not_a_usable_font(tmp_path):
    theme = theme_with_font(tmp_path, NOT_A_FONT)
    done = check_theme(None, theme)
    assert done.returncode == 1
    assert f"fonts.regular: {tmp_path / NOT_A_FONT.name} is not a usable font (" in done.stdout


def test_the_limit_of_the_descriptor_case_is_real():
    """The low RLIMIT_NOFILE case really cannot make pipes (else it tests nothing)."""
    script = NO_DESCRIPTORS.replace("raise SystemExit(main())", "os.pipe(); os.pipe()")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=ENV, capture_output=True)
    assert done.returncode != 0 and b"Too many open files" in done.stderr
    assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] > 64  # this process is untouched
