"""A theme promises the good roads' names too: the lobby's tiles and the plate draw them."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest
import yaml

from scoreboard.screen.theme.loading import load_theme, themes_dir
from scoreboard.screen.theme.values import ThemeError

#: pygame's own font: Latin only, no Chinese.
LATIN = Path(pygame.__file__).parent / pygame.font.get_default_font()


def theme_with(tmp_path: Path, languages: list[str]) -> Path:
    data = yaml.safe_load((themes_dir() / "midnight.yaml").read_text(encoding="utf-8"))
    data["fonts"] = {"regular": str(LATIN), "bold": str(LATIN)}
    data["languages"] = languages
    data["labels"] = {"en": {}, "zh": {}}  # the zh words default to English: drawable
    data["roads"]["letters"] = {"banker": "B", "player": "P", "tie": "T"}
    data["style"]["header_title"] = "Baccarat"
    path = tmp_path / "latin.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def test_a_font_without_the_chinese_names_is_refused_when_the_theme_shows_zh(tmp_path):
    path = theme_with(tmp_path, ["en", "zh"])
    with pytest.raises(ThemeError) as caught:
        load_theme(path)
    errors = caught.value.errors
    assert any(
        e.startswith(f"{path}: languages: ") and "no glyph for U+4E00 '一'" in e for e in errors
    ), errors
