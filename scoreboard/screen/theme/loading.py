"""Themes: YAML files validated into a frozen :class:`Theme`.

The renderer never reads raw dicts, so every key a theme may hold is checked
once, on load, and every mistake is reported at the same time as
``file: key.path: what was expected`` so a pit technician can fix a theme in
one edit.  Themes are looked up by name in the package ``scoreboard.themes``
(the repo's ``themes/`` folder, shipped in the wheel) or given as a file path.

This module finds and reads the file; the frozen values live in
:mod:`scoreboard.screen.theme.values`, the field readers and their bounds in
:mod:`scoreboard.screen.theme._fields`, the section and glyph checks in
:mod:`scoreboard.screen.theme._checks`.  Every public name of the three is importable
from here, and the rest of the package imports them from here.

>>> theme = load_theme("classic")
>>> theme.name, theme.colors.banker
('classic', (200, 16, 46))
"""

from __future__ import annotations

import dataclasses
import importlib.resources
import os
from collections.abc import Sequence
from pathlib import Path

from scoreboard.regular_file import check_regular
from scoreboard.screen.theme._checks import validate
from scoreboard.screen.theme.values import (
    Theme,
    ThemeError,
    ThemeNotFoundError,
)
from scoreboard.settings.yamlfile import YamlSyntaxError, load_yaml, parse_yaml

__all__ = ["available_themes", "load_theme", "parse_theme", "theme_path", "themes_dir"]


# -- locating ----------------------------------------------------------------
def themes_dir() -> Path:
    """The folder holding the shipped themes (a checkout's ``themes/`` or the wheel's)."""
    return Path(str(importlib.resources.files("scoreboard.themes")))


def available_themes() -> list[str]:
    """Names of the shipped themes, sorted."""
    return sorted(p.stem for p in themes_dir().glob("*.yaml"))


def theme_path(name_or_file: str | os.PathLike[str]) -> Path:
    """Resolve a theme name (``midnight``) or a path to its YAML file."""
    text = str(name_or_file)
    candidate = Path(text)
    if candidate.suffix in (".yaml", ".yml") or "/" in text:
        try:
            check_regular(candidate)
        except FileNotFoundError:
            raise ThemeNotFoundError([f"{text}: no such theme file"]) from None
        except (OSError, ValueError) as error:
            raise ThemeNotFoundError(
                [f"{text}: {getattr(error, 'strerror', None) or error}"]
            ) from None
        return candidate
    shipped = themes_dir() / f"{text}.yaml"
    if shipped.is_file():
        return shipped
    known = ", ".join(available_themes())
    raise ThemeNotFoundError([f"{text}: no such theme (known: {known})"])


def load_theme(name_or_file: str | os.PathLike[str], languages: Sequence[str] = ()) -> Theme:
    """Read and validate a theme; raise :class:`ThemeError` listing every problem.

    ``languages`` (``--languages``, ``display.languages``: shipped codes, main first)
    are shown instead of the theme's own list, and checked against its fonts as if
    the theme listed them.
    """
    path = theme_path(name_or_file)
    try:
        data = load_yaml(path)
    except OSError as error:
        raise ThemeError([f"{path}: cannot read ({error.strerror or error})"]) from None
    except YamlSyntaxError as error:
        raise ThemeError([str(error)]) from None
    if languages and isinstance(data, dict):
        data = {**data, "languages": list(languages)}
        return dataclasses.replace(_validate(data, path), chosen=tuple(languages))
    return _validate(data, path)


def parse_theme(text: str, path: Path) -> Theme:
    """Validate theme YAML ``text`` as if read from ``path`` (fonts are found beside it)."""
    try:
        data = parse_yaml(text, str(path))
    except YamlSyntaxError as error:
        raise ThemeError([str(error)]) from None
    return _validate(data, path)


def _validate(data: object, path: Path) -> Theme:
    """Check ``data``, looking up fonts beside the theme and then among the shipped ones."""
    return validate(data, path, themes_dir() / "fonts")
