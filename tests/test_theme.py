"""Themes: the shipped ones load; a bad theme names file, key path and expectation."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from scoreboard.cli import main
from scoreboard.screen.theme.loading import available_themes, load_theme, parse_theme, themes_dir
from scoreboard.screen.theme.values import PANELS, ThemeError, ThemeNotFoundError

ROOT = Path(__file__).resolve().parents[1]
CLASSIC = (ROOT / "themes" / "classic.yaml").read_text(encoding="utf-8")


def write(tmp_path: Path, text: str, name: str = "mine.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def errors_of(path: Path) -> list[str]:
    with pytest.raises(ThemeError) as caught:
        load_theme(path)
    return list(caught.value.errors)


def test_the_shipped_themes_are_classic_midnight_and_contrast_with_every_orientation():
    assert {"classic", "midnight", "contrast"} <= set(available_themes())
    for name in available_themes():
        theme = load_theme(name)
        assert set(theme.layouts) == {"landscape", "portrait", "wide"}
        assert theme.fonts.regular.is_file() and theme.fonts.bold.is_file()
        for layout in theme.layouts.values():
            assert {p.name for p in layout.panels} == set(PANELS)


def test_midnight_is_bilingual_with_chinese_bead_letters():
    theme = load_theme("midnight")
    assert theme.label("banker") == ("Banker", "莊")
    assert dict(theme.roads.letters) == {"banker": "莊", "player": "閒", "tie": "和"}


def test_contrast_tells_banker_from_player_by_shape_too():
    theme = load_theme("contrast")
    assert theme.symbols.banker != theme.symbols.player
    assert theme.symbols.red != theme.symbols.blue


def test_a_theme_is_frozen():
    theme = load_theme("classic")
    with pytest.raises(AttributeError):
        theme.name = "other"


def test_a_wrong_colour_is_reported_with_its_key_path(tmp_path):
    path = write(tmp_path, CLASSIC.replace('banker: "#c8102e"', 'banker: "#c8102"'))
    assert errors_of(path) == [
        f"{path}: colors.banker: expected a colour like '#c81e2d' or [200, 30, 45], got '#c8102'"
    ]


def test_a_missing_font_is_reported(tmp_path):
    path = write(tmp_path, CLASSIC.replace("bold: NotoSansCJK-Bold-subset.otf", "bold: Nope.ttf"))
    (error,) = errors_of(path)
    assert error.startswith(f"{path}: fonts.bold: font file 'Nope.ttf' not found")


def test_an_unknown_panel_is_reported_with_its_index(tmp_path):
    path = write(tmp_path, CLASSIC.replace("{name: small_road,", "{name: smal_road,", 1))
    (error,) = errors_of(path)
    assert error.startswith(
        f"{path}: layout.landscape.panels[5].name: unknown panel 'smal_road' (expected one of"
    )


def test_a_yaml_syntax_error_gives_its_line(tmp_path):
    lines = CLASSIC.splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith("colors:"))
    lines.insert(index + 1, "\tpanel: '#ffffff'")  # a tab cannot indent YAML
    path = write(tmp_path, "\n".join(lines))
    (error,) = errors_of(path)
    assert error.startswith(f"{path}: line {index + 2}, column 1: ")
    assert "YAML syntax error" in error


def test_every_error_is_reported_at_once(tmp_path):
    text = CLASSIC.replace('grid: "#d6cdb9"', "grid: blue").replace("rows: 6", "rows: six")
    text = text.replace("clock: true", "clock: yes please")
    path = write(tmp_path, text + "\nsparkles: true\n")
    keys = [error.split(": ")[1] for error in errors_of(path)]
    assert keys == ["sparkles", "colors.grid", "roads.rows", "style.clock"]


def test_a_minimal_theme_takes_defaults(tmp_path):
    path = write(
        tmp_path,
        "layout:\n  landscape:\n    panels:\n      - {name: big_road, rect: [0, 0, 1, 1]}\n",
    )
    theme = load_theme(path)
    assert theme.name == "mine" and theme.roads.rows == 6
    assert theme.layout(720, 1280).panels[0].name == "big_road"  # no portrait: landscape


def test_an_unknown_theme_name_lists_the_known_ones():
    with pytest.raises(ThemeNotFoundError, match=r"known: .*classic"):
        load_theme("disco")


def test_check_theme_prints_ok_or_the_errors(tmp_path, capsys):
    bad = write(tmp_path, CLASSIC.replace('tie: "#13893a"', "tie: 12"), "bad.yaml")
    assert main(["check-theme", str(ROOT / "themes" / "midnight.yaml")]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith("midnight.yaml: OK")
    assert main(["check-theme", "classic", str(bad)]) == 1
    out = [line for line in capsys.readouterr().out.splitlines() if not line.startswith("  ")]
    assert out[0].endswith("classic.yaml: OK")
    assert out[1].startswith(f"{bad}: colors.tie: expected a colour")


def test_check_theme_refuses_glyphs_the_font_lacks(tmp_path, capsys):
    text = CLASSIC.replace("letters: {banker: B,", "letters: {banker: 💎,")
    path = write(tmp_path, text)
    assert main(["check-theme", str(path)]) == 1
    assert (
        f"{path}: roads.letters.banker: NotoSansCJK-Bold-subset.otf has no glyph for U+1F48E"
        in capsys.readouterr().out
    )


def test_themes_command_lists_the_shipped_themes(capsys):
    assert main(["themes"]) == 0
    out = capsys.readouterr().out
    assert "classic" in out and "midnight" in out and "landscape+portrait" in out


def test_themes_ship_inside_the_package():
    """pyproject maps themes/ to scoreboard.themes with its yaml and fonts."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    setuptools = project["tool"]["setuptools"]
    assert setuptools["package-dir"]["scoreboard.themes"] == "themes"
    assert "scoreboard.themes" in setuptools["packages"]
    assert "scoreboard.themes.fonts" in setuptools["packages"]
    assert "*.yaml" in setuptools["package-data"]["scoreboard.themes"]
    assert "*.otf" in setuptools["package-data"]["scoreboard.themes.fonts"]
    assert (themes_dir() / "classic.yaml").is_file()
    assert (themes_dir() / "fonts" / "OFL.txt").is_file()


def test_parse_theme_reports_a_non_mapping():
    with pytest.raises(ThemeError, match="expected a mapping"):
        parse_theme("- just\n- a list\n", Path("list.yaml"))


@pytest.mark.parametrize("name", ["classic", "midnight", "contrast"])
def test_shipped_layouts_keep_panels_apart_and_on_screen(name):
    from scoreboard.screen.board.layout import compute_layout

    theme = load_theme(name)
    for size in ((1280, 720), (1920, 1080), (3840, 2160), (1080, 1920)):
        layout = compute_layout(theme, size)
        screen = (0, 0, *size)
        boxes = [box.rect for box in layout.panels.values()]
        for i, rect in enumerate(boxes):
            assert rect.clamp(screen) == rect, (name, size, rect)
            assert rect.collidelist(boxes[i + 1 :]) == -1, (name, size, rect)
        for grid in layout.grids.values():
            assert 0.85 < grid.cell_width / grid.cell_height < 1.15  # nearly square cells
