"""Validation of a whole theme: each section of the YAML tree checked into its frozen value.

Every key a theme may hold is checked here, once, against what the renderer
needs: known panels whose rectangles fit the screen, one of the known shapes, and
fonts that load and hold a glyph for every character the board will draw.
:mod:`scoreboard.screen.theme.loading` finds and reads the file and calls :func:`validate`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from scoreboard.roads.good_roads import NAMES, good_road_name
from scoreboard.screen.theme._fields import FieldReader
from scoreboard.screen.theme.fonts import CHAIN, check_font
from scoreboard.screen.theme.images import check_image
from scoreboard.screen.theme.values import (
    COLUMNS,
    ORIENTATIONS,
    PANELS,
    PLACEHOLDERS,
    SHAPES,
    Colors,
    Fonts,
    Labels,
    Layout,
    MotionStyle,
    Panel,
    RoadStyle,
    Style,
    Symbols,
    Theme,
    ThemeError,
)
from scoreboard.settings.reader import key_name
from scoreboard.settings.translations import MAX_SHOWN, TRANSLATIONS, canonical
from scoreboard.settings.yamlfile import excerpt

_DEFAULT_REGULAR = "NotoSansCJK-Regular-subset.otf"
_DEFAULT_BOLD = "NotoSansCJK-Bold-subset.otf"

MAX_LANGUAGES = MAX_SHOWN

MIN_PANEL = 0.02
"""A panel's smallest width or height, as a fraction of the screen."""

BOARD_TEXT = "0123456789%:.,-–·♠♥♦♣AJQK…×→"
"""Characters the board draws whatever the theme says (numbers, card ranks and suits, dashes)."""

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
    "motion",
    "layout",
)

MAX_LOGO_BYTES = 8_000_000
"""The largest logo image a theme may name (a 4K-wide PNG is well under this)."""


_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")

_LANGUAGE = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,15}$")


def validate(data: Any, path: Path, shipped_fonts: Path) -> Theme:
    """The theme in ``data`` read from ``path``; raise :class:`ThemeError` listing every problem.

    Font files are looked up beside the theme, in its ``fonts/`` folder, then in
    ``shipped_fonts`` (the shipped themes' fonts: :mod:`~scoreboard.screen.theme.loading` knows
    where).

    >>> try:
    ...     validate([], Path("mine.yaml"), Path("fonts"))
    ... except ThemeError as error:
    ...     print(error)
    mine.yaml: (top level): expected a mapping of theme settings, got []
    """
    checker = _Checker(path, shipped_fonts)
    theme = checker.theme(data)
    if theme is not None:
        checker.glyphs(theme.fonts)
    if checker.errors:
        raise ThemeError(checker.errors)
    assert theme is not None
    return theme


class _Checker(FieldReader):
    """Checks each section of a theme; the field readers it calls collect the errors."""

    def __init__(self, path: Path, shipped_fonts: Path) -> None:
        super().__init__(path)
        self.shipped_fonts = shipped_fonts

    def theme(self, data: Any) -> Theme | None:
        if not isinstance(data, dict):
            self.expected("", "a mapping of theme settings", data)
            return None
        data = self.mapping(data, "", _TOP_KEYS)
        name = self.string(data.get("name", self.file.stem), "name")
        title = self.string(data.get("title", name.title()), "title")
        colors = self.colors(data.get("colors"))
        fonts = self.fonts(data.get("fonts"))
        languages, labels = self.labels(data.get("languages", ["en"]), data.get("labels"))
        symbols = self.symbols(data.get("symbols"))
        roads = self.roads(data.get("roads"))
        style = self.style(data.get("style"))
        motion = self.dataclass(MotionStyle, data.get("motion"), "motion", drawn=False)
        layouts = self.layouts(data.get("layout"))
        if self.errors:
            return None
        return Theme(
            name=name,
            title=title,
            source=self.file,
            colors=colors,
            fonts=fonts,
            languages=languages,
            labels=labels,
            symbols=symbols,
            roads=roads,
            style=style,
            layouts=layouts,
            motion=motion,
        )

    def style(self, value: Any) -> Style:
        given = dict(self.mapping(value, "style", tuple(f.name for f in dataclasses.fields(Style))))
        logo = given.pop("logo", None)
        style = self.dataclass(Style, given, "style")
        if logo is None:
            return style
        name = self.string(logo, "style.logo")
        path = self.font_file(name) if name else None  # found like a font: beside the theme
        if name and path is None:
            self.error("style.logo", f"image file {excerpt(name)} not found beside the theme")
            return style
        if path is None:
            return style
        check = check_image(path, MAX_LOGO_BYTES)
        if check.unchecked is not None:  # no verdict on the image: it could not be tried
            self.error("style.logo", f"cannot check images: {check.unchecked}")
            return style
        if check.error is not None:
            self.error("style.logo", f"{path.name} is not a usable image ({check.error})")
            return style
        return dataclasses.replace(style, logo=path)

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
                    f"or in {self.shipped_fonts}",
                )
            found[key] = path or Path(text)
        chain = {
            key: tuple(p for p in (self.shipped_fonts / n for n in CHAIN[key]) if p.is_file())
            for key in CHAIN
        }
        return Fonts(found["regular"], found["bold"], chain["regular"], chain["bold"])

    def font_file(self, name: str) -> Path | None:
        """The first file of that name beside the theme, in its fonts/, then the shipped fonts.

        Whatever is there is found, a FIFO or a directory too, so that the check of
        the font or the image says what it is rather than "not found".
        """
        for base in (self.file.parent, self.file.parent / "fonts", self.shipped_fonts):
            candidate = base / name
            try:
                if candidate.exists():
                    return candidate.resolve()
            except (OSError, ValueError):  # a name too long for the file system
                return None
        return None

    def glyphs(self, fonts: Fonts) -> None:
        """Each font loads and draws (tried in a child process), and each drawn glyph is in
        some font of its chain (the theme's font, then the shipped ones after it)."""
        text = BOARD_TEXT + "".join(self.drawn.values())
        for key in ("regular", "bold"):
            path: Path = getattr(fonts, key)
            check = check_font(path, text)
            if check.unchecked is not None:  # no verdict on the font: it could not be tried
                self.error(f"fonts.{key}", f"cannot check fonts: {check.unchecked}")
                continue
            if check.error is not None:
                self.error(f"fonts.{key}", f"{path} is not a usable font ({check.error})")
                continue
            missing = set(check.missing)
            for later in fonts.chain(bold=key == "bold")[1:]:
                if missing:
                    missing &= self.chain_font(later, "".join(sorted(missing)), key)
            nor = (
                ", nor any font after it in the chain"
                if fonts.chain(bold=key == "bold")[1:]
                else ""
            )
            board = "".join(sorted(set(BOARD_TEXT) & missing))
            if board:
                self.error(f"fonts.{key}", f"{path.name} {_lacks(board)} (the board draws it){nor}")
            for where, drawn in self.drawn.items():
                absent = "".join(sorted(set(drawn) & missing))
                if absent:
                    self.error(where, f"{path.name} {_lacks(absent)}{nor}")

    def chain_font(self, path: Path, text: str, key: str) -> set[str]:
        """The characters of ``text`` a shipped font after the theme's lacks (all of them
        when it cannot be used: then the theme's font alone is judged)."""
        check = check_font(path, text)
        if check.usable:
            return set(check.missing)
        self.error(
            f"fonts.{key}",
            f"{path.name} (after it in the chain) is not usable: {check.error or check.unchecked}",
        )
        return set(text)

    def labels(self, languages: Any, value: Any) -> tuple[tuple[str, ...], Mapping[str, Labels]]:
        if not (
            isinstance(languages, list)
            and 0 < len(languages) <= MAX_LANGUAGES
            and all(isinstance(x, str) and _LANGUAGE.match(x) for x in languages)
        ):
            self.expected(
                "languages",
                f"a list of 1 to {MAX_LANGUAGES} language codes like [en, th]",
                languages,
            )
            languages = ["en"]
        languages = list(dict.fromkeys(canonical(lang) for lang in languages))  # each once
        given: dict[str, Any] = {}
        spelt: dict[str, str] = {}  # errors name the key as the theme wrote it: labels.zh
        for lang, raw in self.mapping(value, "labels", None).items():
            if canonical(lang) in given:
                self.error(f"labels.{key_name(lang)}", "given twice (zh is zh-Hant)")
            given[canonical(lang)] = raw
            spelt[canonical(lang)] = lang
        result: dict[str, Labels] = {}
        for lang in dict.fromkeys([*languages, *given, *TRANSLATIONS]):
            if not _LANGUAGE.match(lang):
                self.error(f"labels.{key_name(lang)}", "expected a language code like en or th")
                continue
            if lang not in given and lang not in TRANSLATIONS:
                self.error(f"labels.{lang}", "missing: languages lists it but it has no labels")
                continue
            # the shipped words first, the theme's own over them; the rest stay English
            own = given.get(lang)
            words = own
            if own is None or isinstance(own, dict):
                words = {**TRANSLATIONS.get(lang, {}), **(own or {})}
            drawn = lang in languages
            where = f"labels.{spelt.get(lang, lang)}"
            result[lang] = self.dataclass(Labels, words, where, drawn=drawn)
            self.placeholders(result[lang], where)
            self.not_blank(result[lang], where)
        # The good roads' names (the lobby's tiles, the display's plate)
        self.drawn["languages"] = "".join(
            "".join(good_road_name(pattern, lang) for pattern in NAMES) for lang in languages
        )
        return tuple(languages), MappingProxyType(result)

    def not_blank(self, labels: Labels, key: str) -> None:
        """Every label says something: a blank one leaves a hole where a word goes.

        An empty ``lobby_offline`` left the header silent while the feed was down,
        an empty badge a blank plate; the kiosk would have drawn what the check passed.
        """
        for field in dataclasses.fields(labels):
            text, where = getattr(labels, field.name), f"{key}.{field.name}"
            refused = any(line.startswith(f"{self.file}: {where}: ") for line in self.errors)
            if isinstance(text, str) and not text.strip() and not refused:  # said once
                self.expected(where, "a word to show", text)

    def placeholders(self, labels: Labels, key: str) -> None:
        """Each filled-in label holds exactly its ``{name}`` placeholders, each once at least.

        A label's text is filled in by plain replacement, never ``str.format``, but a
        stray ``{0.__class__}`` would still show on the board as written: refused here.
        """
        for name, wanted in PLACEHOLDERS.items():
            text = getattr(labels, name)
            found = _PLACEHOLDER.findall(text)
            expected = ", ".join("{" + w + "}" for w in wanted)
            unknown = [f for f in dict.fromkeys(found) if f not in wanted]
            if unknown:
                shown = ", ".join(excerpt("{" + f + "}") for f in unknown)
                self.error(f"{key}.{name}", f"unknown placeholder {shown} (expected {expected})")
            missing = [w for w in wanted if w not in found]
            if missing:
                self.error(
                    f"{key}.{name}",
                    f"expected {expected} in the text, got {excerpt(text)} "
                    f"(missing {', '.join('{' + m + '}' for m in missing)})",
                )

    def roads(self, value: Any) -> RoadStyle:
        given = dict(
            self.mapping(value, "roads", tuple(f.name for f in dataclasses.fields(RoadStyle)))
        )
        letters = given.pop("letters", None)
        columns = given.pop("columns", None)
        style = self.dataclass(RoadStyle, given, "roads", drawn=False)
        counts = dict(COLUMNS)
        for key, raw in self.mapping(columns, "roads.columns", tuple(COLUMNS)).items():
            number = self.number(raw, f"roads.columns.{key}", whole=True)
            if number is not None:
                counts[key] = int(number)
        style = dataclasses.replace(style, columns=MappingProxyType(counts))
        if style.bead_text not in ("letter", "total"):
            self.expected("roads.bead_text", "'letter' or 'total'", style.bead_text)
        merged = dict(style.letters)
        for key, raw in self.mapping(letters, "roads.letters", ("banker", "player", "tie")).items():
            before = len(self.errors)
            text = self.string(raw, f"roads.letters.{key}")
            merged[key] = text if len(self.errors) == before else merged[key]
        for key, text in merged.items():
            if not 0 < len(text) <= 3:
                self.expected(f"roads.letters.{key}", "1 to 3 characters", text)
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
                self.expected(key, f"one of {', '.join(SHAPES)}", raw)
        return Symbols(**shapes)

    def layouts(self, value: Any) -> Mapping[str, Layout]:
        given = self.mapping(value, "layout", ORIENTATIONS)
        if not given:
            self.error("layout", "expected a landscape, portrait and/or wide layout")
        result: dict[str, Layout] = {}
        for orientation, spec in given.items():
            key = f"layout.{orientation}"
            spec = self.mapping(spec, key, ("panels", "derived_cell"))
            panels = spec.get("panels")
            derived = None
            if "derived_cell" in spec:
                derived = self.number(spec["derived_cell"], f"{key}.derived_cell", whole=False)
            if not isinstance(panels, list) or not panels:
                self.error(f"{key}.panels", "expected a list of panels")
                continue
            result[orientation] = Layout(
                tuple(
                    p
                    for i, item in enumerate(panels)
                    if (p := self.panel(item, f"{key}.panels[{i}]"))
                ),
                None if derived is None else float(derived),
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
            self.expected(
                f"{key}.rect",
                "[x, y, width, height] as screen fractions within 0..1 "
                f"(width and height at least {MIN_PANEL:g})",
                spec.get("rect"),
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
