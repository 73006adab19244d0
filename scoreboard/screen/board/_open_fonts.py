"""Font files opened once per process at each size, shared by every renderer.

A pygame font keeps its file open and FreeType's reading of it (a CJK font's
is large), and a renderer asks for its fonts at every size it measures.  The
kiosk builds a new renderer on each theme reload, and the reload draws two more
boards to check the theme first: opened per renderer, every reload opened both
fonts once per size again (issue 22: 40 files and tens of MB a reload).  Kept
here by file and size, a reload of the same theme opens nothing.

A renderer also asks the capitals' height at sizes it never draws at: finding
the size whose capitals fill a strip tries sizes one by one.  Those are read from
one font per file resized to each (:func:`metrics`), not from a font opened per
size (about 1 ms each: FreeType reads the file anew; a quarter of the sizes a
board's build opened were asked nothing else).

A file is known by its path and version (modification time and size), so a
font replaced on disk is opened anew, as the font check tries it anew.  The
fonts kept are bounded (:data:`MAX_OPEN`, least recently asked for closed first)
for a process that meets many themes; a board uses a few dozen sizes.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pygame
import pygame.freetype

MAX_OPEN = 256
"""How many (file, size) fonts stay open; a renderer still using one keeps its own reference."""

FACE_SIZE = 12
"""The size of the FreeType face asked which glyphs a font has (any size gives the answer)."""

_Key = tuple[str, int, int, int]
_V = TypeVar("_V")
_fonts: OrderedDict[_Key, pygame.font.Font] = OrderedDict()
_sizers: OrderedDict[_Key, pygame.font.Font] = OrderedDict()  # one per file, resized to ask
_faces: OrderedDict[_Key, pygame.freetype.Font] = OrderedDict()


def _key(path: Path, size: int) -> _Key:
    """The file's path and version, and the size."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):  # opening it says why, as before
        return (str(path), -1, -1, size)
    return (str(path), info.st_mtime_ns, info.st_size, size)


def font(path: Path, size: int) -> pygame.font.Font:
    """``path`` at ``size`` pixels, opened the first time it is asked for."""
    key = _key(path, size)
    found = _fonts.pop(key, None)
    if found is None or not _alive(found.get_height):
        found = pygame.font.Font(str(path), size)
    _keep(_fonts, key, found)
    return found


def metrics(path: Path, size: int, text: str) -> list[tuple[int, int, int, int, int] | None]:
    """``font(path, size).metrics(text)``, without opening the file at ``size``.

    Asked of the file's one sizer, set to ``size`` first.  The answer is the one a
    font opened at ``size`` gives: SDL_ttf sizes a font it opens by the same call
    as a resize (``tests/test_start_up_cost.py`` compares them for the shipped fonts).
    """
    key = _key(path, 0)
    sizer = _sizers.pop(key, None)
    if sizer is None or not _alive(sizer.get_height):
        sizer = pygame.font.Font(str(path), size)
    else:
        sizer.point_size = size
    _keep(_sizers, key, sizer)
    return sizer.metrics(text)


def face(path: Path) -> pygame.freetype.Font:
    """A FreeType face of ``path``, to ask which characters it has a glyph for."""
    key = _key(path, FACE_SIZE)
    found = _faces.pop(key, None)
    if found is None or not _alive(found.get_sized_ascender):
        if not pygame.freetype.get_init():
            pygame.freetype.init()
        found = pygame.freetype.Font(str(path), FACE_SIZE)
    _keep(_faces, key, found)
    return found


def opened() -> int:
    """How many fonts and faces are kept open (for tests and benchmarks)."""
    return len(_fonts) + len(_faces) + len(_sizers)


def _alive(ask: Callable[..., object]) -> bool:
    """False for a font whose module was quit since it was opened (pygame refuses it then)."""
    try:
        ask()
    except pygame.error:
        return False
    return True


def _keep(kept: OrderedDict[_Key, _V], key: _Key, value: _V) -> None:
    kept[key] = value  # (re)inserted last: the most recently asked for
    while len(kept) > MAX_OPEN:
        kept.popitem(last=False)
