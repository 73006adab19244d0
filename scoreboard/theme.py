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
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from scoreboard.yamlfile import YamlSyntaxError, parse_yaml

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
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ThemeError([f"{path}: cannot read: {error}"]) from None
    return parse_theme(text, path)


def parse_theme(text: str, path: Path) -> Theme:
    try:
        data = parse_yaml(text, str(path))
    except YamlSyntaxError as error:
        raise ThemeError([str(error)]) from None
    checker = _Checker(path)
    theme = checker.theme(data)
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


class _Checker:
    """Walks the YAML tree collecting every error with its key path."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.errors: list[str] = []

    def error(self, key: str, expected: str) -> None:
        self.errors.append(f"{self.path}: {key}: {expected}")

    def mapping(self, value: Any, key: str, allowed: tuple[str, ...] | None) -> dict[str, Any]:
        if value is None:
            return {}
        if not isinstance(value, dict):
            self.error(key, f"expected a mapping, got {type(value).__name__}")
            return {}
        if allowed is not None:
            for name in value:
                if name not in allowed:
                    prefix = f"{key}." if key else ""
                    self.error(
                        f"{prefix}{name}", f"unknown key (expected one of {', '.join(allowed)})"
                    )
        return {k: v for k, v in value.items() if allowed is None or k in allowed}

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

    def string(self, value: Any, key: str) -> str:
        if not isinstance(value, str):
            self.error(key, f"expected text, got {value!r}")
            return ""
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
        self.error(key, f"expected a colour like '#c81e2d' or [200, 30, 45], got {value!r}")
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
                    f"font file {text!r} not found beside the theme or in {themes_dir() / 'fonts'}",
                )
            found[key] = path or Path(text)
        return Fonts(regular=found["regular"], bold=found["bold"])

    def font_file(self, name: str) -> Path | None:
        for base in (self.path.parent, self.path.parent / "fonts", themes_dir() / "fonts"):
            candidate = base / name
            if candidate.is_file():
                return candidate.resolve()
        return None

    def labels(self, languages: Any, value: Any) -> tuple[tuple[str, ...], Mapping[str, Labels]]:
        if not (
            isinstance(languages, list)
            and languages
            and all(isinstance(x, str) and x for x in languages)
        ):
            self.error(
                "languages", f"expected a list of language codes like [en, zh], got {languages!r}"
            )
            languages = ["en"]
        given = self.mapping(value, "labels", None)
        result: dict[str, Labels] = {}
        for lang in {*languages, *given}:
            if lang not in given and lang != "en":
                self.error(f"labels.{lang}", "missing: languages lists it but it has no labels")
                continue
            result[lang] = self.dataclass(Labels, given.get(lang), f"labels.{lang}")
        return tuple(languages), MappingProxyType(result)

    def roads(self, value: Any) -> RoadStyle:
        given = dict(
            self.mapping(value, "roads", tuple(f.name for f in dataclasses.fields(RoadStyle)))
        )
        letters = given.pop("letters", None)
        style = self.dataclass(RoadStyle, given, "roads")
        if not 3 <= style.rows <= 12:
            self.error("roads.rows", f"expected 3 to 12 rows, got {style.rows}")
        if style.bead_text not in ("letter", "total"):
            self.error("roads.bead_text", f"expected 'letter' or 'total', got {style.bead_text!r}")
        if letters is not None:
            merged = dict(style.letters)
            for key, text in self.mapping(
                letters, "roads.letters", ("banker", "player", "tie")
            ).items():
                merged[key] = self.string(text, f"roads.letters.{key}")
            style = dataclasses.replace(style, letters=MappingProxyType(merged))
        return style

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
                self.error(key, f"expected one of {', '.join(SHAPES)}, got {raw!r}")
        return Symbols(**shapes)

    def dataclass(self, cls: type, value: Any, key: str) -> Any:
        """Fill a dataclass of plain fields, checking each value against its default's type."""
        fields = {f.name: f for f in dataclasses.fields(cls)}
        given = self.mapping(value, key, tuple(fields))
        accepted: dict[str, Any] = {}
        instance_defaults = cls()
        for name, raw in given.items():
            default = getattr(instance_defaults, name)
            path = f"{key}.{name}"
            if isinstance(default, bool):
                ok = isinstance(raw, bool)
                want = "true or false"
            elif isinstance(default, int):
                ok = isinstance(raw, int) and not isinstance(raw, bool)
                want = "a whole number"
            elif isinstance(default, float):
                ok = isinstance(raw, int | float) and not isinstance(raw, bool) and raw >= 0
                want = "a non-negative number"
                raw = float(raw) if ok else raw
            else:
                ok = isinstance(raw, str)
                want = "text"
            if ok:
                accepted[name] = raw
            else:
                self.error(path, f"expected {want}, got {raw!r}")
        return cls(**accepted)

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
                f"{key}.name", f"unknown panel {name!r} (expected one of {', '.join(PANELS)})"
            )
            ok = False
        if rect is None:
            self.error(
                f"{key}.rect",
                "expected [x, y, width, height] as screen fractions within 0..1, "
                f"got {spec.get('rect')!r}",
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
        fits = 0 <= x < 1 and 0 <= y < 1 and width > 0 and height > 0
        if not (fits and x + width <= 1.0001 and y + height <= 1.0001):
            return None
        return (x, y, width, height)
