"""Font files opened once per process: one font per file set to each size, or one per size.

A pygame font keeps its file open and FreeType's reading of it (a CJK font's
is large), and a renderer asks for its fonts at every size it measures.  The
kiosk builds a new renderer on each theme reload, and the reload draws two more
boards to check the theme first: opened per renderer, every reload opened both
fonts once per size again (issue 22: 40 files and tens of MB a reload).  Kept
here, a reload of the same theme opens nothing.

Opening a font costs about a millisecond of CPU and a megabyte of memory
(FreeType reads the file's tables anew), and a kiosk's start asked for about
65, fifty of them for the theme probe's three boards.  So boards drawn once (the
probe's, a screenshot) and a kiosk's first frame measure and draw with one font
per file (:func:`font`),
set to each size asked for: SDL_ttf's resize, a tenth of an open, measures and
draws as a font opened at that size does (``tests/test_start_up_cost.py``
compares them for the shipped fonts).  A resize forgets the glyphs the font had
ready, though, so a board that draws frame after frame, its sizes in turn,
draws with a font of its own per size (:func:`font_at`), which keeps them.  The
font :func:`font` returns is set to ``size`` until the next call for the same
file: use it before asking again.

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
"""How many fonts of each kind stay open; a text cache still using one keeps its own reference."""

FACE_SIZE = 12
"""The size of the FreeType face asked which glyphs a font has (any size gives the answer)."""

_Key = tuple[str, int, int]
_K = TypeVar("_K")
_V = TypeVar("_V")
_fonts: OrderedDict[_Key, pygame.font.Font] = OrderedDict()  # one per file, resized
_sized: OrderedDict[tuple[_Key, int], pygame.font.Font] = OrderedDict()  # one per file and size
_faces: OrderedDict[_Key, pygame.freetype.Font] = OrderedDict()


def version(path: Path) -> _Key:
    """The file's path and version (modification time and size): a file replaced is another."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):  # opening it says why, as before
        return (str(path), -1, -1)
    return (str(path), info.st_mtime_ns, info.st_size)


def font(path: Path, size: int) -> pygame.font.Font:
    """``path``'s one font, set to ``size`` pixels (the file opened the first time)."""
    key = version(path)
    found = _fonts.pop(key, None)
    if found is None or not alive(found.get_height):
        found = pygame.font.Font(str(path), size)
    _keep(_fonts, key, found)
    return sized(found, size)


def font_at(path: Path, size: int) -> pygame.font.Font:
    """A font of ``path``'s own at ``size`` pixels, opened the first time it is asked for."""
    key = (version(path), size)
    found = _sized.pop(key, None)
    if found is None or not alive(found.get_height):
        found = pygame.font.Font(str(path), size)
    _keep(_sized, key, found)
    return found


def sized(found: pygame.font.Font, size: int) -> pygame.font.Font:
    """``found`` set to ``size`` pixels (a font already at that size keeps its glyphs)."""
    if found.point_size != size:
        found.point_size = size
    return found


def metrics(path: Path, size: int, text: str) -> list[tuple[int, int, int, int, int] | None]:
    """``font(path, size).metrics(text)``: what a font opened at ``size`` answers."""
    return font(path, size).metrics(text)


def face(path: Path) -> pygame.freetype.Font:
    """A FreeType face of ``path``, to ask which characters it has a glyph for."""
    key = version(path)
    found = _faces.pop(key, None)
    if found is None or not alive(found.get_sized_ascender):
        if not pygame.freetype.get_init():
            pygame.freetype.init()
        found = pygame.freetype.Font(str(path), FACE_SIZE)
    _keep(_faces, key, found)
    return found


def opened() -> int:
    """How many fonts and faces are kept open (for tests and benchmarks)."""
    return len(_fonts) + len(_sized) + len(_faces)


def alive(ask: Callable[..., object]) -> bool:
    """False for a font whose module was quit since it was opened (pygame refuses it then)."""
    try:
        ask()
    except pygame.error:
        return False
    return True


def _keep(kept: OrderedDict[_K, _V], key: _K, value: _V) -> None:
    kept[key] = value  # (re)inserted last: the most recently asked for
    while len(kept) > MAX_OPEN:
        kept.popitem(last=False)
