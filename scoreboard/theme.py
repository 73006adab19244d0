"""Themes: YAML files validated into a frozen :class:`Theme`.

The renderer never reads raw dicts, so every key a theme may hold is checked
here, once, and every mistake is reported at the same time as
``file: key.path: what was expected`` so a pit technician can fix a theme in
one edit.  Themes are looked up by name in the package ``scoreboard.themes``
(the repo's ``themes/`` folder, shipped in the wheel) or given as a file path.

>>> theme = load_theme("classic")
>>> theme.name, theme.colors.banker
('classic', (200, 16, 46))
"""

from __future__ import annotations

import dataclasses
import importlib.resources
import math
import os
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from scoreboard.fonts import check_font
from scoreboard.yamlfile import YamlSyntaxError, excerpt, load_yaml, parse_yaml

RGB = tuple[int, int, int]

PANELS = (
    "header",
    "bead_plate",
    "big_road",
    "big_eye_boy",
    "small_road",
    "cockroach_pig",
    "predictions",
    "counters",
    "last_coup",
    "limits",
    "footer",
)
ROAD_PANELS = ("bead_plate", "big_road", "big_eye_boy", "small_road", "cockroach_pig")
ORIENTATIONS = ("landscape", "portrait")
SHAPES = ("circle", "square", "diamond")
_DEFAULT_REGULAR = "NotoSansCJK-Regular-subset.otf"
_DEFAULT_BOLD = "NotoSansCJK-Bold-subset.otf"

RANGES: Mapping[str, tuple[float, float]] = MappingProxyType(
    {
        "roads.rows": (3, 12),
        "roads.empty_columns": (0, 10),
        "roads.blink_seconds": (0, 60),
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

MAX_LANGUAGES = 3

MIN_PANEL = 0.02
"""A panel's smallest width or height, as a fraction of the screen."""

BOARD_TEXT = "0123456789%:.,-–·♠♥♦♣AJQK"
"""Characters the board draws whatever the theme says (numbers, card ranks and suits, dashes)."""


class ThemeError(Exception):
    """A theme that cannot be used; ``errors`` holds one line per problem."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__("\n".join(errors))
        self.errors = tuple(errors)


class ThemeNotFoundError(ThemeError):
    """No theme file by that name or path."""


@dataclass(frozen=True, slots=True)
class Colors:
    """Every colour the board uses; road colours keep their meaning in every theme."""

    background: RGB = (244, 239, 227)
    panel: RGB = (255, 255, 255)
    border: RGB = (190, 182, 165)
    grid: RGB = (214, 208, 196)
    title: RGB = (60, 55, 50)
    text: RGB = (30, 30, 32)
    muted: RGB = (110, 106, 100)
    accent: RGB = (166, 124, 0)
    header_background: RGB = (40, 36, 32)
    header_text: RGB = (250, 246, 236)
    banker: RGB = (200, 30, 45)
    player: RGB = (30, 80, 200)
    tie: RGB = (20, 150, 60)
    bead_text: RGB = (255, 255, 255)
    card_face: RGB = (255, 255, 255)
    card_edge: RGB = (150, 150, 150)
    card_red: RGB = (200, 30, 45)
    card_black: RGB = (20, 20, 20)
    ok: RGB = (20, 150, 60)
    warning: RGB = (220, 140, 0)
    error: RGB = (200, 30, 45)


@dataclass(frozen=True, slots=True)
class Fonts:
    """Absolute paths of the regular and bold font files."""

    regular: Path
    bold: Path


@dataclass(frozen=True, slots=True)
class Labels:
    """Every word on screen in one language; English defaults."""

    banker: str = "Banker"
    player: str = "Player"
    tie: str = "Tie"
    banker_pair: str = "B Pair"
    player_pair: str = "P Pair"
    natural: str = "Natural"
    games: str = "Games"
    bead_plate: str = "Bead Plate"
    big_road: str = "Big Road"
    big_eye_boy: str = "Big Eye Boy"
    small_road: str = "Small Road"
    cockroach_pig: str = "Cockroach Pig"
    predictions: str = "Ask Road"
    counters: str = "Statistics"
    last_coup: str = "Last Hand"
    limits: str = "Table Limits"
    table: str = "Table"
    game: str = "Game"
    shoe: str = "Shoe"
    streak: str = "Streak"
    longest: str = "Longest"
    minimum: str = "Min"
    maximum: str = "Max"
    pays: str = "Pays"
    shuffling: str = "Shuffling"
    shuffle_note: str = "A new shoe is being prepared"
    waiting: str = "Waiting for the first hand"
    disclaimer: str = "Past results do not predict future results."
    demo: str = "DEMO"
    live: str = "LIVE"
    connecting: str = "CONNECTING"
    offline: str = "OFFLINE"
    controller_offline: str = "SHOE OFFLINE"
    missing_games: str = "MISSING GAMES"
    cut_card_out: str = "FINAL HAND"  # the cut card is out: the next coup ends the shoe
    banker_six: str = "Banker 6"
    dragon7: str = "Dragon 7"
    panda8: str = "Panda 8"
    display_fault: str = "DISPLAY FAULT"  # a panel failed to draw: the board says so
    journal_failing: str = "JOURNAL"  # the journal cannot write: running from memory


@dataclass(frozen=True, slots=True)
class Symbols:
    """Shape per side, so a colour-blind viewer can tell Banker from Player."""

    banker: str = "circle"
    player: str = "circle"
    red: str = "circle"
    blue: str = "circle"


@dataclass(frozen=True, slots=True)
class RoadStyle:
    """How the roads look: rows, blink, scroll margin, what a bead shows."""

    rows: int = 6
    empty_columns: int = 2
    blink_seconds: float = 4.0
    bead_text: str = "letter"  # or "total"
    natural_mark: bool = True
    letters: Mapping[str, str] = field(
        default_factory=lambda: MappingProxyType({"banker": "B", "player": "P", "tie": "T"})
    )


@dataclass(frozen=True, slots=True)
class Style:
    """Proportions (of the shorter screen side) for the frame's furniture."""

    gap: float = 0.008  # reserved: themes may set it, but the layout does not use it yet
    corner_radius: float = 0.006
    border_width: float = 0.0015
    title_height: float = 0.032
    text_scale: float = 1.0
    header_title: str = ""
    clock: bool = True
    disclaimer: bool = True
    split_naturals: bool = False  # the naturals counter per side: "B 3 · P 4"


@dataclass(frozen=True, slots=True)
class Panel:
    """A panel and its rectangle as fractions of the screen: x, y, width, height."""

    name: str
    rect: tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class Layout:
    panels: tuple[Panel, ...]


@dataclass(frozen=True, slots=True)
class Theme:
    """A validated theme; build with :func:`load_theme` or :func:`parse_theme`."""

    name: str
    title: str
    source: Path | None
    colors: Colors
    fonts: Fonts
    languages: tuple[str, ...]
    labels: Mapping[str, Labels]
    symbols: Symbols
    roads: RoadStyle
    style: Style
    layouts: Mapping[str, Layout]

    def label(self, key: str) -> tuple[str, ...]:
        """The label in each shown language, primary first: ``("Banker", "莊")``."""
        return tuple(getattr(self.labels[lang], key) for lang in self.languages)

    def layout(self, width: int, height: int) -> Layout:
        """Portrait layout for a tall screen when the theme has one, else landscape."""
        if height > width and "portrait" in self.layouts:
            return self.layouts["portrait"]
        return self.layouts.get("landscape") or next(iter(self.layouts.values()))


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
        if candidate.is_file():
            return candidate
        raise ThemeNotFoundError([f"{text}: no such theme file"])
    shipped = themes_dir() / f"{text}.yaml"
    if shipped.is_file():
        return shipped
    known = ", ".join(available_themes())
    raise ThemeNotFoundError([f"{text}: no such theme (known: {known})"])


def load_theme(name_or_file: str | os.PathLike[str]) -> Theme:
    """Read and validate a theme; raise :class:`ThemeError` listing every problem."""
    path = theme_path(name_or_file)
    try:
        data = load_yaml(path)
    except OSError as error:
        raise ThemeError([f"{path}: cannot read: {error.strerror or error}"]) from None
    except YamlSyntaxError as error:
        raise ThemeError([str(error)]) from None
    return _validate(data, path)


def parse_theme(text: str, path: Path) -> Theme:
    """Validate theme YAML ``text`` as if read from ``path`` (fonts are found beside it)."""
    try:
        data = parse_yaml(text, str(path))
    except YamlSyntaxError as error:
        raise ThemeError([str(error)]) from None
    return _validate(data, path)


def _validate(data: Any, path: Path) -> Theme:
    checker = _Checker(path)
    theme = checker.theme(data)
    if theme is not None:
        checker.glyphs(theme.fonts)
    if checker.errors:
        raise ThemeError(checker.errors)
    assert theme is not None
    return theme


# -- validation ----------------------------------------------------------------
_HEX = re.compile(r"^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
_TOP_KEYS = (
    "name",
    "title",
    "colors",
    "fonts",
    "languages",
    "labels",
    "symbols",
    "roads",
    "style",
    "layout",
)


_LANGUAGE = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,15}$")
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


def _key_name(name: object) -> str:
    """A key as it may appear in an error line: itself when short plain text, else an excerpt."""
    if isinstance(name, str) and len(name) <= 40 and name.isprintable():
        return name
    return excerpt(name)


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


class _Checker:
    """Walks the YAML tree collecting every error with its key path."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.errors: list[str] = []
        self.drawn: dict[str, str] = {}  # key path -> text the board draws

    def error(self, key: str, expected: str) -> None:
        self.errors.append(f"{self.path}: {key}: {expected}")

    def mapping(self, value: Any, key: str, allowed: tuple[str, ...] | None) -> dict[str, Any]:
        if value is None:
            return {}
        if not isinstance(value, dict):
            self.error(key, f"expected a mapping, got {type(value).__name__}")
            return {}
        prefix = f"{key}." if key else ""
        for name in value:
            if allowed is not None and name not in allowed:
                self.error(
                    f"{prefix}{_key_name(name)}",
                    f"unknown key (expected one of {', '.join(allowed)})",
                )
            elif not isinstance(name, str):
                self.error(f"{prefix}{_key_name(name)}", "expected a name as key")
        return {
            k: v
            for k, v in value.items()
            if isinstance(k, str) and (allowed is None or k in allowed)
        }

    def theme(self, data: Any) -> Theme | None:
        if not isinstance(data, dict):
            self.error("(top)", "expected a mapping of theme settings")
            return None
        data = self.mapping(data, "", _TOP_KEYS)
        name = self.string(data.get("name", self.path.stem), "name")
        title = self.string(data.get("title", name.title()), "title")
        colors = self.colors(data.get("colors"))
        fonts = self.fonts(data.get("fonts"))
        languages, labels = self.labels(data.get("languages", ["en"]), data.get("labels"))
        symbols = self.symbols(data.get("symbols"))
        roads = self.roads(data.get("roads"))
        style = self.dataclass(Style, data.get("style"), "style")
        layouts = self.layouts(data.get("layout"))
        if self.errors:
            return None
        return Theme(
            name=name,
            title=title,
            source=self.path,
            colors=colors,
            fonts=fonts,
            languages=languages,
            labels=labels,
            symbols=symbols,
            roads=roads,
            style=style,
            layouts=layouts,
        )

    def string(self, value: Any, key: str, *, drawn: bool = False) -> str:
        """Text without control characters or lone surrogates; ``drawn`` text is glyph-checked."""
        if not isinstance(value, str):
            self.error(key, f"expected text, got {excerpt(value)}")
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
        self.error(key, f"expected a colour like '#c81e2d' or [200, 30, 45], got {excerpt(value)}")
        return (0, 0, 0)

    def colors(self, value: Any) -> Colors:
        names = tuple(f.name for f in dataclasses.fields(Colors))
        given = self.mapping(value, "colors", names)
        return Colors(**{k: self.color(v, f"colors.{k}") for k, v in given.items()})

    def fonts(self, value: Any) -> Fonts:
        given = self.mapping(value, "fonts", ("regular", "bold"))
        found: dict[str, Path] = {}
        for key, default in (("regular", _DEFAULT_REGULAR), ("bold", _DEFAULT_BOLD)):
            name = given.get(key, default)
            text = self.string(name, f"fonts.{key}")
            path = self.font_file(text) if text else None
            if text and path is None:
                self.error(
                    f"fonts.{key}",
                    f"font file {excerpt(text)} not found beside the theme "
                    f"or in {themes_dir() / 'fonts'}",
                )
            found[key] = path or Path(text)
        return Fonts(regular=found["regular"], bold=found["bold"])

    def font_file(self, name: str) -> Path | None:
        for base in (self.path.parent, self.path.parent / "fonts", themes_dir() / "fonts"):
            candidate = base / name
            try:
                if candidate.is_file():
                    return candidate.resolve()
            except (OSError, ValueError):  # a name too long for the file system
                return None
        return None

    def glyphs(self, fonts: Fonts) -> None:
        """Each font loads and draws (tried in a child process) and has every drawn glyph."""
        text = BOARD_TEXT + "".join(self.drawn.values())
        for key in ("regular", "bold"):
            path: Path = getattr(fonts, key)
            check = check_font(path, text)
            if check.error is not None:
                self.error(f"fonts.{key}", f"{path} is not a usable font ({check.error})")
                continue
            board = "".join(sorted(set(BOARD_TEXT) & check.missing))
            if board:
                self.error(f"fonts.{key}", f"{path.name} {_lacks(board)} (the board draws it)")
            for where, drawn in self.drawn.items():
                absent = "".join(sorted(set(drawn) & check.missing))
                if absent:
                    self.error(where, f"{path.name} {_lacks(absent)}")

    def labels(self, languages: Any, value: Any) -> tuple[tuple[str, ...], Mapping[str, Labels]]:
        if not (
            isinstance(languages, list)
            and 0 < len(languages) <= MAX_LANGUAGES
            and all(isinstance(x, str) and _LANGUAGE.match(x) for x in languages)
        ):
            self.error(
                "languages",
                f"expected a list of 1 to {MAX_LANGUAGES} language codes like [en, zh], "
                f"got {excerpt(languages)}",
            )
            languages = ["en"]
        given = self.mapping(value, "labels", None)
        result: dict[str, Labels] = {}
        for lang in {*languages, *given}:
            if not _LANGUAGE.match(lang):
                self.error(f"labels.{_key_name(lang)}", "expected a language code like en or zh")
                continue
            if lang not in given and lang != "en":
                self.error(f"labels.{lang}", "missing: languages lists it but it has no labels")
                continue
            drawn = lang in languages
            result[lang] = self.dataclass(Labels, given.get(lang), f"labels.{lang}", drawn=drawn)
        return tuple(languages), MappingProxyType(result)

    def roads(self, value: Any) -> RoadStyle:
        given = dict(
            self.mapping(value, "roads", tuple(f.name for f in dataclasses.fields(RoadStyle)))
        )
        letters = given.pop("letters", None)
        style = self.dataclass(RoadStyle, given, "roads", drawn=False)
        if style.bead_text not in ("letter", "total"):
            self.error(
                "roads.bead_text", f"expected 'letter' or 'total', got {excerpt(style.bead_text)}"
            )
        merged = dict(style.letters)
        for key, raw in self.mapping(letters, "roads.letters", ("banker", "player", "tie")).items():
            before = len(self.errors)
            text = self.string(raw, f"roads.letters.{key}")
            merged[key] = text if len(self.errors) == before else merged[key]
        for key, text in merged.items():
            if not 0 < len(text) <= 3:
                self.error(
                    f"roads.letters.{key}", f"expected 1 to 3 characters, got {excerpt(text)}"
                )
            self.drawn[f"roads.letters.{key}"] = text
        return dataclasses.replace(style, letters=MappingProxyType(merged))

    def symbols(self, value: Any) -> Symbols:
        """Each side's shape: text, and one of :data:`SHAPES`."""
        given = self.mapping(value, "symbols", tuple(f.name for f in dataclasses.fields(Symbols)))
        shapes: dict[str, str] = {}
        for name, raw in given.items():
            key = f"symbols.{name}"
            shape = self.string(raw, key)  # an error for anything but text
            if shape in SHAPES:
                shapes[name] = shape
            elif isinstance(raw, str):
                self.error(key, f"expected one of {', '.join(SHAPES)}, got {excerpt(raw)}")
        return Symbols(**shapes)

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
                    self.error(path, f"expected true or false, got {excerpt(raw)}")
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
            self.error(key, f"expected {kind} from {low:g} to {high:g}, got {excerpt(raw)}")
        return number

    def layouts(self, value: Any) -> Mapping[str, Layout]:
        given = self.mapping(value, "layout", ORIENTATIONS)
        if not given:
            self.error("layout", "expected a landscape and/or portrait layout")
        result: dict[str, Layout] = {}
        for orientation, spec in given.items():
            key = f"layout.{orientation}"
            spec = self.mapping(spec, key, ("panels",))
            panels = spec.get("panels")
            if not isinstance(panels, list) or not panels:
                self.error(f"{key}.panels", "expected a list of panels")
                continue
            result[orientation] = Layout(
                tuple(
                    p
                    for i, item in enumerate(panels)
                    if (p := self.panel(item, f"{key}.panels[{i}]"))
                )
            )
        return MappingProxyType(result)

    def panel(self, item: Any, key: str) -> Panel | None:
        spec = self.mapping(item, key, ("name", "rect"))
        name, rect = spec.get("name"), self.rect(spec.get("rect"))
        ok = True
        if name not in PANELS:
            self.error(
                f"{key}.name",
                f"unknown panel {excerpt(name)} (expected one of {', '.join(PANELS)})",
            )
            ok = False
        if rect is None:
            self.error(
                f"{key}.rect",
                "expected [x, y, width, height] as screen fractions within 0..1 "
                f"(width and height at least {MIN_PANEL:g}), "
                f"got {excerpt(spec.get('rect'))}",
            )
            ok = False
        return Panel(str(name), rect) if ok and rect is not None else None

    @staticmethod
    def rect(value: Any) -> tuple[float, float, float, float] | None:
        """``[x, y, width, height]`` as screen fractions that fit the screen, else None.

        >>> _Checker.rect([0, 0.5, 1, 0.5]), _Checker.rect([0.5, 0, 0.6, 1])
        ((0.0, 0.5, 1.0, 0.5), None)
        """
        if not (isinstance(value, list) and len(value) == 4):
            return None
        if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value):
            return None
        x, y, width, height = (float(v) for v in value)
        fits = 0 <= x < 1 and 0 <= y < 1 and width >= MIN_PANEL and height >= MIN_PANEL
        if not (fits and x + width <= 1.0001 and y + height <= 1.0001):
            return None
        return (x, y, width, height)


def _lacks(chars: str, shown: int = 5) -> str:
    """``has no glyph for U+1F48E '💎'``: the first few characters, by code point.

    >>> _lacks("ab")
    "has no glyph for U+0061 'a', U+0062 'b'"
    """
    named = ", ".join(f"U+{ord(c):04X} {c!r}" for c in chars[:shown])
    more = f" and {len(chars) - shown} more" if len(chars) > shown else ""
    return f"has no glyph for {named}{more}"
