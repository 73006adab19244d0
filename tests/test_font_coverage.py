"""The shipped fonts draw every theme label and everyday Chinese, Traditional and Simplified."""

from __future__ import annotations

import unicodedata

import pygame.freetype
import pytest

from scoreboard.cli.commands.check_theme import missing_glyphs
from scoreboard.screen.theme.fonts import absent_glyphs
from scoreboard.screen.theme.loading import available_themes, load_theme, themes_dir

FONTS = themes_dir() / "fonts"
FILES = ("NotoSansCJK-Regular-subset.otf", "NotoSansCJK-Bold-subset.otf")
SAMPLES = (
    "澳門永利 贵宾厅 百家樂 庄闲和 €1,000 ♠♥♦♣",
    "莊閒和 庄闲和 龍虎 龙虎 好路 贵宾 貴賓 赌场 賭場",
    "♤♡♢♧ × • – — ¥500 £20 ₩10,000 ₫ ¢ HK$1,000 MOP 5,000",
    "０１２３ＡＢＣ（）！？「」『』〈〉、。・",
)


@pytest.fixture(scope="module", params=FILES)
def font(request):
    # pygame.freetype, as check-theme uses: pygame.font.Font.metrics (pygame-ce
    # 2.5) gives the .notdef box's metrics for a missing glyph, never None.
    pygame.freetype.init()
    return pygame.freetype.Font(str(FONTS / request.param), 24)


def absent(font: pygame.freetype.Font, text: str) -> str:
    """The characters of ``text`` the font has no glyph for, as check-theme finds them."""
    return "".join(absent_glyphs(font, text))


def ideographs(codec: str, leads: range, trails: tuple[range, ...]) -> str:
    """Every CJK ideograph of a double-byte encoding, by decoding each byte pair."""
    found = set()
    for lead in leads:
        for trail in (t for r in trails for t in r):
            try:
                char = bytes((lead, trail)).decode(codec)
            except UnicodeDecodeError:
                continue
            if unicodedata.name(char, "").startswith("CJK"):
                found.add(char)
    return "".join(sorted(found))


@pytest.mark.parametrize("name", available_themes())
def test_every_shipped_theme_label_has_glyphs(name):
    assert missing_glyphs(load_theme(name)) == []


@pytest.mark.parametrize("text", SAMPLES)
def test_sample_strings_render_without_missing_glyphs(font, text):
    assert absent(font, text) == ""
    _surface, rect = font.render(text, (0, 0, 0))
    assert rect.width > 0


def test_gb2312_simplified_characters_are_covered(font):
    chars = ideographs("gb2312", range(0xB0, 0xF8), (range(0xA1, 0xFF),))
    assert len(chars) == 6763  # level 1 (3755) and level 2 (3008)
    assert absent(font, chars) == ""


def test_big5_traditional_characters_are_covered(font):
    chars = ideographs("big5", range(0xA4, 0xFA), (range(0x40, 0x7F), range(0xA1, 0xFF)))
    assert len(chars) == 13053  # 5401 frequent and 7652 less frequent
    assert absent(font, chars) == ""


def test_subset_chars_list_matches_the_font(font):
    text = "".join((FONTS / "subset-chars.txt").read_text(encoding="utf-8").split())
    assert len(text) > 16000
    assert absent(font, text) == ""


@pytest.mark.parametrize("name", FILES)
def test_font_files_stay_modest(name):
    assert (FONTS / name).stat().st_size < 5_000_000
