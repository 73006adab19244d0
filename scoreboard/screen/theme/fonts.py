"""Font files, tried in a child process before the kiosk ever opens them.

A file that is not a font can abort the whole process inside SDL_ttf (a PNG
named ``.ttf`` does: SIGABRT), which no ``try`` in the kiosk can catch.  So a
theme's font is first loaded, drawn at a small and a large size, and asked
which characters it has no glyph for in a ``python -c`` child with a timeout;
only a font that passes reaches the renderer.  Results are kept per file
(path, modification time, size), so a theme reload or a second theme using
the same font starts no new child unless it asks about new characters.

The shipped fonts were tried when the release was made: a file whose SHA-256
is in :data:`SHIPPED_FONTS` is trusted without a child (only asked, in this
process, which glyphs it lacks), so the kiosk's own themes load where no child
can start.  A check that cannot run (no process can start: a process limit, low
memory, too many open files) is tried again, then reported as such
(``FontCheck.unchecked``), never as a bad font, and nothing of it is kept
(:mod:`scoreboard.screen.theme._child_check`, shared with the logo's check).

Missing glyphs are found with ``pygame.freetype``: its ``Font.get_metrics``
gives None for a character the font has no glyph for, while
``pygame.font.Font.metrics`` (pygame-ce 2.5) gives the .notdef box's metrics.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from scoreboard.regular_file import check_regular
from scoreboard.screen.theme._child_check import CANNOT_RUN, ChildRun, run_child, run_child_tries

if TYPE_CHECKING:
    import pygame.freetype

PROBE_SECONDS = 10.0
"""How long a font may take to load and draw in the child before it is called unusable."""

MAX_FONT_BYTES = 64_000_000
"""The largest font file tried (the full Noto Sans CJK is about 20 MB)."""

SAMPLE = "Baccarat 0123456789 FINAL HAND"
"""Drawn by the child at two sizes: a font that cannot draw this is no font for the board."""

SHIPPED_FONTS: Mapping[str, str] = MappingProxyType(
    {
        "NotoSansCJK-Bold-subset.otf": (
            "8d944552acc40efeae859b28ca91f445bd0b86c0dc8a94c1f6c714d28af3e849"
        ),
        "NotoSansCJK-Regular-subset.otf": (
            "61cd1f78f3e1b4cd794cf028bd9656d57852f91df45c71e28957525a849866ff"
        ),
        "NotoSansCJK-Bold-kana-hangul-subset.otf": (
            "843843ab2cde8f31a16b3f67472623db700ee026af9b473e35692fc9c01a46c2"
        ),
        "NotoSansCJK-Regular-kana-hangul-subset.otf": (
            "6531d24ea3cad948ab45ab665dd1e6b75fd067b84436d1e60283b5a036f4e7e3"
        ),
        "NotoSans-Bold-subset.ttf": (
            "ca4425ca0aedec71e8976ff5a37527af7bdbee9466a5bcffe3ae7a087ec80c49"
        ),
        "NotoSans-Regular-subset.ttf": (
            "3e699554bc574a02fae06290aab24bf4b98ae194df4f4135c2a71b1337a2d05b"
        ),
        "NotoSansThai-Bold-subset.ttf": (
            "e8a5f56d1d8509c33c44bec0a7ac8a0323be41ff94a059114e48862b1d3e72cf"
        ),
        "NotoSansThai-Regular-subset.ttf": (
            "8c61d35e6aca657aa01f343c3deea77606f1829ed82e7cd1a38296e80afd2e52"
        ),
    }
)
"""The SHA-256 of each font file in ``themes/fonts/``: a file with one of them is trusted.

A shipped file whose checksum differs (edited, damaged) is tried in a child
like any other font.  ``tests/test_font_check_spawn.py`` checks the table
against the files."""

CHAIN: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "regular": (
            "NotoSansCJK-Regular-kana-hangul-subset.otf",
            "NotoSans-Regular-subset.ttf",
            "NotoSansThai-Regular-subset.ttf",
        ),
        "bold": (
            "NotoSansCJK-Bold-kana-hangul-subset.otf",
            "NotoSans-Bold-subset.ttf",
            "NotoSansThai-Bold-subset.ttf",
        ),
    }
)
"""The shipped fonts (``themes/fonts/``) after a theme's own, per weight: kana and Hangul,
Vietnamese and other Latin, Thai (``tools/build_chain_fonts.py`` cuts them)."""

_CACHED_FILES = 32

_PROBE = """
import json, os, sys
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
try:
    import pygame, pygame.freetype
    path, text = sys.argv[1], sys.stdin.read()
    pygame.font.init()
except Exception as error:
    sys.stderr.write(f"{type(error).__name__}: {error}\\n")
    raise SystemExit(CANNOT_RUN)
for size in (6, 256):
    font = pygame.font.Font(path, size)
    surface = font.render(SAMPLE + text, True, (0, 0, 0))
    if font.get_height() <= 0 or font.size(SAMPLE)[0] <= 0 or surface.get_width() <= 0:
        raise SystemExit("it draws nothing")
pygame.freetype.init()
metrics = pygame.freetype.Font(path, 24).get_metrics(text)
missing = sorted({c for c, m in zip(text, metrics) if m is None and not c.isspace()})
print(json.dumps({"missing": "".join(missing)}))
""".replace("SAMPLE", repr(SAMPLE)).replace("CANNOT_RUN", str(CANNOT_RUN))


@dataclass(frozen=True, slots=True)
class FontCheck:
    """What trying a font file found: why it is unusable (or None), and the glyphs it lacks.

    ``unchecked``: why the font could not be tried at all (no child process could
    start); then nothing is known of it, neither good nor bad.
    """

    error: str | None = None
    missing: frozenset[str] = frozenset()
    unchecked: str | None = None

    @property
    def usable(self) -> bool:
        return self.error is None and self.unchecked is None


@dataclass(slots=True)
class _Known:
    """What is known of one version of one file (mutable: it learns characters)."""

    tried: bool = False
    trusted: bool | None = None  # a shipped file (None: not yet read)
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
        if known.trusted is None:
            known.trusted = sha256_of(path) in SHIPPED_FONTS.values()
        unknown = chars - known.present - known.absent
        if known.error is None and (unknown or not known.tried):
            found = _learn(known, path, "".join(sorted(unknown)))
            if found.unchecked is not None:
                return found
        return FontCheck(error=known.error, missing=frozenset(chars & known.absent))


def sha256_of(path: Path) -> str:
    """The file's SHA-256 in hex ("" when it cannot be read: then it is no shipped font)."""
    try:
        with path.open("rb") as file:  # read into one reused buffer: no megabyte per block
            return hashlib.file_digest(file, "sha256").hexdigest()
    except OSError:
        return ""


def _learn(known: _Known, path: Path, text: str) -> FontCheck:
    """Find out what ``known`` lacks of ``text`` and record it; what was found.

    A shipped font is asked in this process; any other in a child, tried again when
    no child could start.  A check that could not run records nothing.
    """
    found = _absent_here(path, text) if known.trusted else _probe_tries(path, text)
    if found.unchecked is not None:
        return found
    known.tried = True
    if found.error is not None:
        known.error = found.error
        return found
    known.absent |= found.missing
    known.present |= set(text) - found.missing
    return found


def _absent_here(path: Path, text: str) -> FontCheck:
    """A trusted font's missing glyphs, asked in this process (FreeType, no drawing)."""
    import pygame.freetype  # here only: most commands never load a font

    if not pygame.freetype.get_init():
        pygame.freetype.init()
    try:
        face = pygame.freetype.Font(str(path), 24)
    except (OSError, pygame.error) as error:
        return FontCheck(unchecked=f"{path.name}: cannot open it ({error})")
    return FontCheck(missing=frozenset(absent_glyphs(face, text)))


def _probe_tries(path: Path, text: str) -> FontCheck:
    """:func:`probe`, tried again (:func:`~scoreboard.screen.theme._child_check.run_child_tries`)
    while the child cannot run."""
    return _font_check(run_child_tries(_PROBE, path, **_child(text)))


def probe(path: Path, text: str, timeout: float = PROBE_SECONDS) -> FontCheck:
    """Load and draw ``path`` in a child process, once: why it is unusable, or the glyphs it
    lacks, or why the child could not run (``unchecked``)."""
    return _font_check(run_child(_PROBE, path, **_child(text, timeout)))


def _child(text: str, timeout: float = PROBE_SECONDS) -> dict[str, Any]:
    return {"library": "font", "timeout": timeout, "text": text}


def _font_check(run: ChildRun) -> FontCheck:
    """The child's answer as a :class:`FontCheck`: the glyphs it lacks, or no verdict."""
    if run.error is not None or run.unchecked is not None:
        return FontCheck(error=run.error, unchecked=run.unchecked)
    try:
        missing = str(json.loads(run.stdout.strip().splitlines()[-1])["missing"])
    except (ValueError, LookupError, TypeError):
        return FontCheck(error=f"unexpected answer from the font check: {run.stdout[:60]!r}")
    return FontCheck(missing=frozenset(missing))


def absent_glyphs(font: pygame.freetype.Font, text: str) -> list[str]:
    """The characters of ``text`` (sorted, whitespace aside) ``font`` has no glyph for.

    In-process, for a font already known to be usable (the shipped ones).
    """
    metrics = font.get_metrics(text)
    absent = sorted({c for c, m in zip(text, metrics, strict=False) if m is None})
    return [c for c in absent if not c.isspace()]
