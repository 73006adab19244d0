"""Image files (a theme's logo), tried in a child process before the kiosk opens them.

An image decoder fed a hostile file is as able to abort the process as a font
loader (see :mod:`scoreboard.fonts`), so a logo is first loaded in a
``python -c`` child with a timeout; only an image that loads there, with a sane
size, is handed to the renderer.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PROBE_SECONDS = 10.0
MAX_SIDE = 8192
"""The widest or tallest logo accepted, in pixels (it is scaled to the header anyway)."""

_PROBE = """
import os, sys
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
import pygame
image = pygame.image.load(sys.argv[1])
print(image.get_width(), image.get_height())
"""


def check_image(path: Path, max_bytes: int) -> str | None:
    """Why ``path`` cannot be shown as a logo, or None when it loads with a sane size.

    >>> check_image(Path("/nonexistent.png"), 1000)
    'cannot read it (No such file or directory)'
    """
    try:
        size = path.stat().st_size
    except OSError as error:
        return f"cannot read it ({error.strerror or error})"
    if size > max_bytes:
        return f"{size} bytes, more than {max_bytes}"
    try:
        done = subprocess.run(
            [sys.executable, "-c", _PROBE, str(path)],
            capture_output=True,
            text=True,
            timeout=PROBE_SECONDS,
            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
            check=False,
        )
    except subprocess.TimeoutExpired:
        return f"loading it took more than {PROBE_SECONDS:g} s"
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["it does not load"])[-1]
        return last[:200]
    width, height = (int(v) for v in done.stdout.split()[:2])
    if not (0 < width <= MAX_SIDE and 0 < height <= MAX_SIDE):
        return f"{width}x{height} pixels, expected 1 to {MAX_SIDE} a side"
    return None
