"""Image files (a theme's logo), tried in a child process before the kiosk opens them.

An image decoder fed a hostile file is as able to abort the process as a font
loader (see :mod:`scoreboard.screen.theme.fonts`), so a logo is first loaded in a
``python -c`` child with a timeout; only an image that loads there, with a sane
size, is handed to the renderer.  A child that cannot start (a process limit,
low memory, too many open files) is tried again, then reported as no verdict
(``ImageCheck.unchecked``), never as a bad image (:mod:`scoreboard.screen.theme._child_check`,
shared with the fonts).  No image is shipped, so none is trusted unchecked.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from scoreboard.regular_file import check_regular, open_regular
from scoreboard.screen.theme._child_check import CANNOT_RUN, run_child_tries

PROBE_SECONDS = 10.0
MAX_SIDE = 4096
"""The widest or tallest logo accepted, in pixels (it is scaled to the header anyway).

Read from the file's header before anything decodes it, so a small file
claiming a huge picture (a "decompression bomb") is refused without
allocating it: 4096 x 4096 is at most 64 MB decoded."""

_PROBE = """
import os, sys
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
try:
    import pygame
except Exception as error:
    sys.stderr.write(f"{type(error).__name__}: {error}\\n")
    raise SystemExit(CANNOT_RUN)
image = pygame.image.load(sys.argv[1])
print(image.get_width(), image.get_height())
""".replace("CANNOT_RUN", str(CANNOT_RUN))


@dataclass(frozen=True, slots=True)
class ImageCheck:
    """Why an image cannot be shown as a logo (``error``), or why it could not be tried at
    all (``unchecked``: no child could start; nothing is known of it); neither: usable."""

    error: str | None = None
    unchecked: str | None = None

    @property
    def usable(self) -> bool:
        return self.error is None and self.unchecked is None


def check_image(path: Path, max_bytes: int) -> ImageCheck:
    """Whether ``path`` can be shown as a logo: it loads, with a sane size.

    >>> check_image(Path("/nonexistent.png"), 1000).error
    'cannot read it (No such file or directory)'
    """
    try:
        size = check_regular(path).st_size
    except OSError as error:
        return ImageCheck(error=f"cannot read it ({error.strerror or error})")
    if size > max_bytes:
        return ImageCheck(error=f"{size} bytes, more than {max_bytes}")
    try:
        with open_regular(path) as file:  # a FIFO put here meanwhile is refused, not waited on
            head = file.read(256 * 1024)
    except OSError as error:
        return ImageCheck(error=f"cannot read it ({error.strerror or error})")
    declared = header_size(head)
    if declared is None:
        return ImageCheck(error="not a PNG or JPEG file (or its header is damaged)")
    if not all(0 < side <= MAX_SIDE for side in declared):
        return ImageCheck(error=_sides(*declared))
    run = run_child_tries(_PROBE, path, library="image", timeout=PROBE_SECONDS)
    if run.error is not None or run.unchecked is not None:
        return ImageCheck(error=run.error, unchecked=run.unchecked)
    try:
        width, height = (int(v) for v in run.stdout.split()[:2])
    except ValueError:
        return ImageCheck(error=f"unexpected answer from the image check: {run.stdout[:60]!r}")
    if not (0 < width <= MAX_SIDE and 0 < height <= MAX_SIDE):
        return ImageCheck(error=_sides(width, height))
    return ImageCheck()


def _sides(width: int, height: int) -> str:
    return f"{width}x{height} pixels, expected 1 to {MAX_SIDE} a side"


_PNG = b"\x89PNG\r\n\x1a\n"
_JPEG_FRAMES = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}  # SOF markers


def header_size(head: bytes) -> tuple[int, int] | None:
    """(width, height) a PNG or JPEG file says it has, read from its first bytes; else None.

    >>> ihdr = bytes(4) + b"IHDR" + (640).to_bytes(4, "big") + (80).to_bytes(4, "big")
    >>> header_size(_PNG + ihdr)
    (640, 80)
    >>> header_size(b"GIF89a") is None
    True
    """
    if head.startswith(_PNG) and head[12:16] == b"IHDR" and len(head) >= 24:
        return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
    if not head.startswith(b"\xff\xd8"):
        return None
    at = 2
    while at + 9 <= len(head):
        if head[at] != 0xFF:
            return None
        marker = head[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        length = int.from_bytes(head[at + 2 : at + 4], "big")
        if marker in _JPEG_FRAMES:
            height = int.from_bytes(head[at + 5 : at + 7], "big")
            width = int.from_bytes(head[at + 7 : at + 9], "big")
            return width, height
        if length < 2:
            return None
        at += 2 + length
    return None
