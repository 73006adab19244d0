"""Font files, tried in a child process before the kiosk ever opens them.

A file that is not a font can abort the whole process inside SDL_ttf (a PNG
named ``.ttf`` does: SIGABRT), which no ``try`` in the kiosk can catch.  So a
theme's font is first loaded, drawn at a small and a large size, and asked
which characters it has no glyph for in a ``python -c`` child with a timeout;
only a font that passes reaches the renderer.  Results are kept per file
(path, modification time, size), so a theme reload or a second theme using
the same font starts no new child unless it asks about new characters.

Missing glyphs are found with ``pygame.freetype``: its ``Font.get_metrics``
gives None for a character the font has no glyph for, while
``pygame.font.Font.metrics`` (pygame-ce 2.5) gives the .notdef box's metrics.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from scoreboard.regular_file import check_regular

if TYPE_CHECKING:
    import pygame.freetype

PROBE_SECONDS = 10.0
"""How long a font may take to load and draw in the child before it is called unusable."""

MAX_FONT_BYTES = 64_000_000
"""The largest font file tried (the full Noto Sans CJK is about 20 MB)."""

SAMPLE = "Baccarat 0123456789 FINAL HAND"
"""Drawn by the child at two sizes: a font that cannot draw this is no font for the board."""

_CACHED_FILES = 32

_PROBE = """
import json, os, sys
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
import pygame, pygame.freetype
path, text = sys.argv[1], sys.stdin.read()
pygame.font.init()
for size in (6, 256):
    font = pygame.font.Font(path, size)
    surface = font.render(SAMPLE + text, True, (0, 0, 0))
    if font.get_height() <= 0 or font.size(SAMPLE)[0] <= 0 or surface.get_width() <= 0:
        raise SystemExit("it draws nothing")
pygame.freetype.init()
metrics = pygame.freetype.Font(path, 24).get_metrics(text)
missing = sorted({c for c, m in zip(text, metrics) if m is None and not c.isspace()})
print(json.dumps({"missing": "".join(missing)}))
""".replace("SAMPLE", repr(SAMPLE))


@dataclass(frozen=True, slots=True)
class FontCheck:
    """What trying a font file found: why it is unusable (or None), and the glyphs it lacks."""

    error: str | None = None
    missing: frozenset[str] = frozenset()

    @property
    def usable(self) -> bool:
        return self.error is None


@dataclass(slots=True)
class _Known:
    """What is known of one version of one file (mutable: it learns characters)."""

    tried: bool = False
    error: str | None = None
    present: set[str] = field(default_factory=set)
    absent: set[str] = field(default_factory=set)


_known: OrderedDict[tuple[str, int, int], _Known] = OrderedDict()
_lock = threading.Lock()


def check_font(path: Path, text: str = "") -> FontCheck:
    """Whether ``path`` is a font the board can draw with; which characters of ``text`` it lacks.

    Never raises and never lets the font library touch this process.

    >>> check_font(Path("/nonexistent.ttf")).error
    'cannot read it (No such file or directory)'
    """
    try:
        info = check_regular(path)  # a FIFO would hold the child until its timeout
    except (OSError, ValueError) as error:
        return FontCheck(error=f"cannot read it ({getattr(error, 'strerror', None) or error})")
    if info.st_size > MAX_FONT_BYTES:
        return FontCheck(error=f"{info.st_size} bytes, over {MAX_FONT_BYTES}")
    key = (str(path.resolve()), info.st_mtime_ns, info.st_size)
    chars = {c for c in text if not c.isspace()}
    with _lock:
        known = _known.pop(key, None) or _Known()
        _known[key] = known
        while len(_known) > _CACHED_FILES:
            _known.popitem(last=False)
        unknown = chars - known.present - known.absent
        if known.error is None and (unknown or not known.tried):
            _learn(known, path, "".join(sorted(unknown)))
        return FontCheck(error=known.error, missing=frozenset(chars & known.absent))


def _learn(known: _Known, path: Path, text: str) -> None:
    """Run the child on ``text`` and record what it found."""
    error, missing = probe(path, text)
    known.tried = True
    if error is not None:
        known.error = error
        return
    known.absent |= set(missing)
    known.present |= set(text) - set(missing)


def probe(path: Path, text: str, timeout: float = PROBE_SECONDS) -> tuple[str | None, str]:
    """Load and draw ``path`` in a child process: (why it is unusable or None, missing glyphs)."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", _PROBE, str(path)],
            input=text,
            capture_output=True,
            encoding="utf-8",
            errors="replace",
            timeout=timeout,
            env={**os.environ, "PYTHONIOENCODING": "utf-8"},
            check=False,
        )
    except subprocess.TimeoutExpired:
        return f"loading it took over {timeout:g} s", ""
    except OSError as error:
        return f"cannot start the font check ({error.strerror or error})", ""
    if done.returncode < 0:
        name = signal.Signals(-done.returncode).name
        return f"the font library crashed on it ({name})", ""
    if done.returncode != 0:
        return _last_line(done.stderr) or f"exit status {done.returncode}", ""
    try:
        return None, str(json.loads(done.stdout.strip().splitlines()[-1])["missing"])
    except (ValueError, LookupError, TypeError):
        return f"unexpected answer from the font check: {done.stdout[:60]!r}", ""


def _last_line(text: str, limit: int = 80) -> str:
    """The last non-empty line of a child's stderr, short (the exception, not the traceback).

    >>> _last_line("Traceback ...\\n  File x\\npygame.error: Passed a NULL pointer\\n")
    'pygame.error: Passed a NULL pointer'
    """
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    last = lines[-1] if lines else ""
    return last if len(last) <= limit else last[: limit - 1] + "…"


def absent_glyphs(font: pygame.freetype.Font, text: str) -> list[str]:
    """The characters of ``text`` (sorted, whitespace aside) ``font`` has no glyph for.

    In-process, for a font already known to be usable (the shipped ones).
    """
    metrics = font.get_metrics(text)
    absent = sorted({c for c, m in zip(text, metrics, strict=False) if m is None})
    return [c for c in absent if not c.isspace()]
