"""Reading one theme field at a time: numbers in range, drawable text, colours, plain dataclasses.

:class:`FieldReader` is the settings reader (:class:`scoreboard.settings.reader.Reader`:
every mistake collected as ``file: key.path: what was expected``, so a pit
technician fixes a theme in one edit) with the theme's own kinds of field;
:mod:`scoreboard.screen.theme._checks` builds the theme's sections on it.  The bounds
here are the promise the renderer relies on.
"""

from __future__ import annotations

import dataclasses
import math
import re
import unicodedata
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from scoreboard.screen.theme.values import RGB
from scoreboard.settings.reader import Reader
from scoreboard.settings.yamlfile import excerpt

RANGES: Mapping[str, tuple[float, float]] = MappingProxyType(
    {
        "roads.rows": (3, 12),
        "roads.empty_columns": (0, 10),
        "roads.blink_seconds": (0, 60),
        "roads.derived_cell": (0.25, 1),
        "layout.landscape.derived_cell": (0.25, 1),
        "layout.portrait.derived_cell": (0.25, 1),
        "layout.wide.derived_cell": (0.25, 1),
        "roads.columns.bead_plate": (1, 200),
        "roads.columns.big_road": (1, 200),
        "roads.columns.derived": (1, 200),
        "motion.deal_seconds": (0, 2),
        "motion.banner_seconds": (0, 30),
        "motion.draw_in_seconds": (0, 2),
        "motion.notice_seconds": (1, 30),
        "style.gap": (0, 0.05),
        "style.corner_radius": (0, 0.05),
        "style.border_width": (0, 0.01),
        "style.title_height": (0.01, 0.08),
        "style.text_scale": (0.5, 2),
    }
)
"""Every number a theme may set, with the range a real screen can draw (docs/display.md).

Panel rectangles are fractions of the screen (0 to 1) and colour channels 0 to 255.
"""

MAX_TEXT = 200
"""The longest text a theme may put on screen (the default disclaimer is 44 characters)."""

_HEX = re.compile(r"^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
_UNDRAWABLE = {"Cc": "a control character", "Cs": "a lone surrogate"}


def text_problem(text: str, limit: int = MAX_TEXT) -> str | None:
    """Why ``text`` cannot be drawn whatever the font (None when it can).

    >>> text_problem("Baccarat"), text_problem("Bac\\x00carat")
    (None, 'U+0000 is a control character, not drawable text')
    """
    if len(text) > limit:
        return f"expected at most {limit} characters, got {len(text)}: {excerpt(text)}"
    for char in text:
        kind = _UNDRAWABLE.get(unicodedata.category(char))
        if kind:
            return f"U+{ord(char):04X} is {kind}, not drawable text"
    return None


def _number(raw: Any, whole: bool, bounds: tuple[float, float]) -> int | float | None:
    """``raw`` when it is a finite number of the right kind within ``bounds``, else None."""
    if isinstance(raw, bool) or not isinstance(raw, int | float):
        return None
    if whole and not isinstance(raw, int):
        return None
    low, high = bounds
    if not (math.isfinite(raw) and low <= raw <= high):
        return None
    return raw if whole else float(raw)


class FieldReader(Reader):
    """The settings reader with a theme's fields: drawable text, colours, numbers in range.

    ``drawn`` keeps the text the board draws, by key path, for the glyph check.
    """

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.file = path
        self.drawn: dict[str, str] = {}  # key path -> text the board draws

    def string(self, value: Any, key: str, *, drawn: bool = False) -> str:
        """Text without control characters or lone surrogates; ``drawn`` text is glyph-checked."""
        if not isinstance(value, str):
            self.expected(key, "text", value)
            return ""
        problem = text_problem(value)
        if problem:
            self.error(key, problem)
            return ""
        if drawn:
            self.drawn[key] = value
        return value

    def color(self, value: Any, key: str) -> RGB:
        if isinstance(value, str) and _HEX.match(value):
            digits = value[1:]
            if len(digits) == 3:
                digits = "".join(d * 2 for d in digits)
            return (int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16))
        if (
            isinstance(value, list)
            and len(value) == 3
            and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 255 for v in value)
        ):
            return (value[0], value[1], value[2])
        self.expected(key, "a colour like '#c81e2d' or [200, 30, 45]", value)
        return (0, 0, 0)

    def dataclass(self, cls: type, value: Any, key: str, *, drawn: bool = True) -> Any:
        """Fill a dataclass of plain fields, checking each value against its default's type.

        Numbers must lie in their :data:`RANGES`; text must be drawable.
        """
        fields = {f.name: f for f in dataclasses.fields(cls)}
        given = self.mapping(value, key, tuple(fields))
        accepted: dict[str, Any] = {}
        instance_defaults = cls()
        for name, raw in given.items():
            default = getattr(instance_defaults, name)
            path = f"{key}.{name}"
            if isinstance(default, bool):
                if isinstance(raw, bool):
                    accepted[name] = raw
                else:
                    self.expected(path, "true or false", raw)
            elif isinstance(default, int | float):
                number = self.number(raw, path, whole=isinstance(default, int))
                if number is not None:
                    accepted[name] = number
            else:
                accepted[name] = self.string(raw, path, drawn=drawn)
        if drawn:  # the defaults are drawn too: a theme's own font must have their glyphs
            for name in fields:
                text = accepted.get(name, getattr(instance_defaults, name))
                if isinstance(text, str):
                    self.drawn.setdefault(f"{key}.{name}", text)
        return cls(**accepted)

    def number(self, raw: Any, key: str, *, whole: bool) -> int | float | None:
        """``raw`` if it is a finite number within the key's range, else an error and None."""
        bounds = RANGES[key]
        number = _number(raw, whole, bounds)
        if number is None:
            kind = "a whole number" if whole else "a number"
            low, high = bounds
            self.expected(key, f"{kind} from {low:g} to {high:g}", raw)
        return number
