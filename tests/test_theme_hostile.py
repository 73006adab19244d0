"""Hostile themes: every number in range, every text drawable, every font usable, or an error.

A theme that check-theme calls OK must never crash or freeze the kiosk, so the
theme boundary refuses what the renderer could not draw, naming the key.
"""

from __future__ import annotations

import copy
import math
from pathlib import Path
from typing import Any

import pytest
import yaml

from scoreboard.cli import main
from scoreboard.screen.theme._fields import RANGES
from scoreboard.screen.theme.loading import load_theme
from scoreboard.screen.theme.values import ThemeError

ROOT = Path(__file__).resolve().parents[1]
CLASSIC = yaml.safe_load((ROOT / "themes" / "classic.yaml").read_text(encoding="utf-8"))
NOT_A_FONT = ROOT / "docs" / "images" / "classic-landscape.png"  # aborts SDL_ttf in-process


def theme_file(tmp_path: Path, changes: dict[str, Any], name: str = "hostile.yaml") -> Path:
    """Classic with ``changes`` ({"style.gap": 1e9, ...}) written as an ASCII YAML file."""
    data = copy.deepcopy(CLASSIC)
    for dotted, value in changes.items():
        *parents, last = dotted.split(".")
        node = data
        for part in parents:
            node = node.setdefault(part, {})
        node[last] = value
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, allow_unicode=False), encoding="ascii")
    return path


def errors_of(path: Path) -> list[str]:
    with pytest.raises(ThemeError) as caught:
        load_theme(path)
    return list(caught.value.errors)


WHOLE = {
    "roads.rows",
    "roads.empty_columns",
    *(k for k in RANGES if k.startswith("roads.columns.")),
}


@pytest.mark.parametrize("key", sorted(RANGES))
def test_each_number_at_its_bounds_is_accepted(tmp_path, key):
    low, high = RANGES[key]
    for value in (low, high):
        theme = load_theme(theme_file(tmp_path, {key: int(value) if key in WHOLE else value}))
        section, name, *item = key.split(".")
        if section == "layout":  # layout.<orientation>.derived_cell
            assert getattr(theme.layouts[name], item[0]) == value
            continue
        found = getattr(getattr(theme, section), name)
        assert (found[item[0]] if item else found) == value


@pytest.mark.parametrize("key", sorted(RANGES))
@pytest.mark.parametrize("value", [math.inf, -math.inf, math.nan, 1e9, -5, "wide"])
def test_each_number_out_of_range_or_not_finite_is_refused(tmp_path, key, value):
    path = theme_file(tmp_path, {key: value})
    (error,) = errors_of(path)
    low, high = RANGES[key]
    kind = "a whole number" if key in WHOLE else "a number"
    assert error.startswith(f"{path}: {key}: expected {kind} from {low:g} to {high:g}, got ")


def test_the_issue_s_numbers_are_refused_with_the_value_they_had(tmp_path):
    path = theme_file(
        tmp_path,
        {"style.text_scale": math.inf, "style.gap": 1e9, "roads.empty_columns": -5},
    )
    assert errors_of(path) == [
        f"{path}: roads.empty_columns: expected a whole number from 0 to 10, got -5",
        f"{path}: style.gap: expected a number from 0 to 0.05, got 1000000000.0",
        f"{path}: style.text_scale: expected a number from 0.5 to 2, got inf",
    ]


def test_a_whole_number_must_be_whole(tmp_path):
    (error,) = errors_of(theme_file(tmp_path, {"roads.rows": 6.5}))
    assert error.endswith("roads.rows: expected a whole number from 3 to 12, got 6.5")


@pytest.mark.parametrize(
    ("key", "text", "char"),
    [
        ("style.header_title", "Bac\x00carat", "U+0000 is a control character"),
        ("style.header_title", "Baccarat\n", "U+000A is a control character"),
        ("labels.en.banker", "Ban\x1bker", "U+001B is a control character"),
        ("labels.en.live", "LI\ud800VE", "U+D800 is a lone surrogate"),
        ("roads.letters.tie", "\x7f", "U+007F is a control character"),
        ("title", "Classic\x00", "U+0000 is a control character"),
    ],
)
def test_text_with_control_characters_or_lone_surrogates_is_refused(tmp_path, key, text, char):
    path = theme_file(tmp_path, {key: text})
    assert errors_of(path) == [f"{path}: {key}: {char}, not drawable text"]


def test_a_character_the_font_lacks_is_refused_naming_key_and_code_point(tmp_path):
    path = theme_file(
        tmp_path, {"languages": ["en", "zh"], "labels.zh": {"banker": "莊\U0001f48e"}}
    )
    nor = ", nor any font after it in the chain"  # the kana, Hangul, Latin and Thai fonts
    assert errors_of(path) == [
        f"{path}: labels.zh.banker: NotoSansCJK-Regular-subset.otf has no glyph for U+1F48E '💎'"
        + nor,
        f"{path}: labels.zh.banker: NotoSansCJK-Bold-subset.otf has no glyph for U+1F48E '💎'"
        + nor,
    ]


def test_labels_of_a_language_not_shown_need_no_glyphs(tmp_path):
    path = theme_file(tmp_path, {"labels.xx": {"banker": "\U0001f48e"}})
    assert load_theme(path).languages == ("en",)


def test_a_file_that_is_not_a_font_is_a_theme_error_not_a_crash(tmp_path, capsys):
    path = theme_file(tmp_path, {"fonts.bold": str(NOT_A_FONT)})
    (error,) = errors_of(path)
    assert error.startswith(f"{path}: fonts.bold: {NOT_A_FONT} is not a usable font (")
    assert main(["check-theme", str(path)]) == 1
    assert capsys.readouterr().out == error + "\n"


def test_an_empty_font_file_is_a_theme_error(tmp_path):
    (tmp_path / "empty.ttf").write_bytes(b"")
    path = theme_file(tmp_path, {"fonts.regular": "empty.ttf"})
    (error,) = errors_of(path)
    assert f"fonts.regular: {tmp_path / 'empty.ttf'} is not a usable font (" in error


def test_a_font_name_with_a_nul_or_too_long_is_an_error_not_an_exception(tmp_path):
    for name in ("a\x00b.ttf", "x" * 5000 + ".ttf"):
        (error,) = errors_of(theme_file(tmp_path, {"fonts.regular": name}))
        assert "fonts.regular: " in error and len(error) < len(str(tmp_path)) + 200


def test_an_error_quotes_at_most_a_short_excerpt_of_a_value(tmp_path):
    path = theme_file(tmp_path, {"colors.banker": "#" + "f" * 100_000, "style.clock": "y" * 10_000})
    for error in errors_of(path):
        assert len(error) < len(str(path)) + 120, error
        assert error.endswith("…")


def test_text_longer_than_the_screen_can_hold_is_refused(tmp_path):
    (error,) = errors_of(theme_file(tmp_path, {"style.header_title": "B" * 201}))
    assert "style.header_title: expected at most 200 characters, got 201: 'BBB" in error


def test_a_key_with_control_characters_is_quoted_not_printed(tmp_path):
    (error,) = errors_of(theme_file(tmp_path, {"style": {**CLASSIC["style"], "x\x00y": 1}}))
    assert "style.'x\\x00y': expected one of the keys" in error


def test_a_panel_too_small_to_draw_is_refused(tmp_path):
    panels = [dict(p) for p in CLASSIC["layout"]["landscape"]["panels"]]
    panels[1]["rect"] = [0.1, 0.1, 1e-300, 0.3]
    path = theme_file(tmp_path, {"layout.landscape.panels": panels})
    (error,) = errors_of(path)
    assert "layout.landscape.panels[1].rect: expected [x, y, width, height]" in error


def test_at_most_three_languages_are_shown(tmp_path):
    labels = {lang: {"banker": "B"} for lang in ("zh", "fr", "de")}
    path = theme_file(tmp_path, {"languages": ["en", "zh", "fr", "de"], "labels": labels})
    (error,) = errors_of(path)
    assert "languages: expected a list of 1 to 3 language codes" in error
