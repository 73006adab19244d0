"""Seven languages ship, drawn by a font chain: labels, --languages, display.languages.

Issue 25: only English and Traditional Chinese shipped; Japanese, Korean,
Vietnamese and Thai were refused by ``check-theme`` (the theme's font lacks
their glyphs), and a partial translation repeated titles ("Ask Road Ask Road").
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pygame
import pytest

from scoreboard.screen.board.text import TextCache
from scoreboard.screen.theme.loading import load_theme, parse_theme
from scoreboard.screen.theme.values import Labels, ThemeError
from scoreboard.settings.config import load_config
from scoreboard.settings.reader import ConfigError
from tests.cli import scoreboard

SHIPPED = ("en", "zh-Hant", "zh-Hans", "ja", "ko", "vi", "th")
CLASSIC = (Path(__file__).parent.parent / "themes" / "classic.yaml").read_text(encoding="utf-8")


def classic_with(languages: str, labels: str) -> str:
    """classic.yaml showing ``languages``, with ``labels`` (YAML under ``labels:``) added."""
    text = CLASSIC.replace("languages: [en]", f"languages: {languages}", 1)
    return text.replace("labels:\n", "labels:\n" + labels, 1)


BLACK = (0, 0, 0)


@pytest.mark.parametrize("code", SHIPPED)
def test_every_shipped_label_draws_with_the_chain_and_passes_check_theme(code: str) -> None:
    theme = load_theme(
        "classic", tuple(dict.fromkeys(("en", code)))
    )  # check-theme's checks: raises when a glyph lacks
    labels = theme.labels[code]
    if code != "en":
        assert labels.banker != Labels().banker  # its own word, not the English fallback
    pygame.font.init()
    cache = TextCache(theme.fonts)
    for field in dataclasses.fields(Labels):
        text = getattr(labels, field.name)
        for bold in (False, True):
            assert cache.drawable(text, bold=bold) == text, (code, field.name)


def test_the_floor_terms_are_the_shipped_words() -> None:
    words = {
        code: load_theme("classic", (code,)).label("banker")
        + load_theme("classic", (code,)).label("player")
        for code in SHIPPED
    }
    assert words["zh-Hant"] == ("莊", "閒")
    assert words["zh-Hans"] == ("庄", "闲")
    assert words["ja"] == ("バンカー", "プレイヤー")
    assert words["ko"] == ("뱅커", "플레이어")
    assert words["vi"] == ("Nhà cái", "Người chơi")
    assert words["th"] == ("เจ้ามือ", "ผู้เล่น")


def test_zh_stays_an_alias_of_zh_hant_and_a_theme_overrides_single_words(tmp_path: Path) -> None:
    text = classic_with("[en, zh]", "  zh:\n    banker: 莊家\n")
    theme = parse_theme(text, tmp_path / "mine.yaml")
    assert theme.languages == ("en", "zh-Hant")
    assert theme.label("banker") == ("Banker", "莊家")  # the theme's own word
    assert theme.label("big_road") == ("Big Road", "大路")  # the shipped one


def test_a_missing_translation_falls_back_to_english_once(tmp_path: Path) -> None:
    text = classic_with("[en, fil]", "  fil:\n    banker: Bangkero\n")
    theme = parse_theme(text, tmp_path / "mine.yaml")
    assert theme.label("banker") == ("Banker", "Bangkero")
    assert theme.label("predictions") == ("Ask Road",)  # never "Ask Road Ask Road"
    assert theme.filled("game_voided", game="17") == ("Game 17 voided",)


def test_check_theme_names_the_key_and_the_characters_no_font_of_the_chain_has(
    tmp_path: Path,
) -> None:
    path = tmp_path / "mine.yaml"
    hieroglyph = "  en:\n    banker: Banker \U00013000\n"
    path.write_text(CLASSIC.replace("  en:\n", hieroglyph, 1), encoding="utf-8")
    with pytest.raises(ThemeError) as raised:
        load_theme(path)
    assert any("labels.en.banker" in line and "U+13000" in line for line in raised.value.errors)


@pytest.mark.parametrize("text", ["เจ้ามือ", "뱅커", "プレイヤー", "Người chơi"])
def test_thai_hangul_kana_and_vietnamese_are_drawn_with_real_glyphs(text: str) -> None:
    pygame.font.init()
    cache = TextCache(load_theme("classic").fonts)
    drawn = cache.render(text, 48, BLACK)
    ink = pygame.mask.from_surface(drawn).count()
    assert ink > 0
    for mark in ("\ufffd", "\u25a1", "?"):  # the replacement marks, as many as characters
        boxes = cache.font(48).render(mark * len(text), True, BLACK)
        same = drawn.get_size() == boxes.get_size()
        assert not same or pygame.mask.from_surface(boxes).count() != ink
    thai = cache.render("ผู้เล่น", 48, BLACK)
    digits = cache.render("ผู้เล่น 9", 48, BLACK)
    assert digits.get_height() == thai.get_height()  # one line box: the runs share a baseline


def test_languages_flag_refuses_an_unknown_code_in_one_line(tmp_path: Path) -> None:
    out = tmp_path / "board.png"
    result = scoreboard("screenshot", "-o", str(out), "--languages", "en,xx")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "'xx'" in lines[0] and "--languages" in lines[0], lines
    assert not out.exists()


def test_languages_flag_picks_the_shown_languages(tmp_path: Path) -> None:
    out = tmp_path / "board.png"
    result = scoreboard("screenshot", "-o", str(out), "--languages", "th,EN", "--size", "640x360")
    assert result.returncode == 0, result.stderr
    assert out.stat().st_size > 0


@pytest.mark.parametrize(
    ("codes", "why"),
    [("en,en", "twice"), ("en,th,ko,vi", "1 to 3"), ("", "unknown language ''")],
)
def test_languages_flag_refusals(codes: str, why: str) -> None:
    result = scoreboard("demo", "--languages", codes)
    assert result.returncode == 2
    assert why in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_display_languages_in_the_config(tmp_path: Path) -> None:
    path = tmp_path / "display.yaml"
    path.write_text("display:\n  languages: [ko, en]\n", encoding="utf-8")
    assert load_config(path).languages == ("ko", "en")
    path.write_text("display:\n  languages: en, zh\n", encoding="utf-8")
    assert load_config(path).languages == ("en", "zh-Hant")


@pytest.mark.parametrize(
    ("value", "said"),
    [("[en, klingon]", "'klingon'"), ("7", "language codes"), ("[en, EN]", "twice")],
)
def test_display_languages_refusals_name_the_key(tmp_path: Path, value: str, said: str) -> None:
    path = tmp_path / "display.yaml"
    path.write_text(f"display:\n  languages: {value}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_config(path)
    message = str(raised.value)
    assert "display.languages" in message and said in message and "\n" not in message


def test_a_vietnamese_word_is_drawn_by_one_font_and_a_label_with_digits_in_runs() -> None:
    pygame.font.init()
    cache = TextCache(load_theme("classic").fonts)
    word = cache.runs("Người")
    assert len(word) == 1 and word[0][0] > 0  # the Latin font after the theme's, whole
    assert [at for at, _ in cache.runs("Nhà cái")] == [0]  # the theme's font has every letter
    thai = cache.runs("ตา 82")
    assert thai[0] == (3, "ตา") and thai[-1] == (0, " 82")  # the digits are the theme's


def test_the_second_language_rotates_on_the_kiosk_and_the_main_one_stays() -> None:
    from scoreboard.feeds.simulated import SimulatedFeed
    from scoreboard.game.shoe import Dealer
    from scoreboard.kiosk.loop import Kiosk
    from scoreboard.table.state import TableState

    theme = load_theme("classic", ("en", "th", "ko"))
    kiosk = Kiosk(
        SimulatedFeed(Dealer(seed=1)), TableState(), theme, windowed=True, size=(640, 360),
        rotate_languages=10,
    )  # fmt: skip
    try:
        shown = []
        for now in (1.0, 9.0, 11.0, 21.0):
            kiosk.step(now)
            shown.append(kiosk.renderer.theme.languages)
        assert shown == [("en", "th"), ("en", "th"), ("en", "ko"), ("en", "th")]
        assert kiosk.timeout(11.0) <= 9.0  # woken for the next turn
    finally:
        pygame.display.quit()


@pytest.mark.parametrize(
    ("display", "said"),
    [
        ("languages: [en, th]\n  rotate_languages: 10", "two or more to rotate"),
        ("languages: [en, th, ko]\n  rotate_languages: 1", "3 to 3600 seconds"),
        ("languages: [en, th, ko]\n  rotate_languages: yes", "3 to 3600 seconds"),
    ],
)
def test_rotate_languages_refusals_name_the_key(tmp_path: Path, display: str, said: str) -> None:
    path = tmp_path / "display.yaml"
    path.write_text(f"display:\n  {display}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_config(path)
    assert "display.rotate_languages" in str(raised.value) and said in str(raised.value)
    path.write_text("display:\n  languages: [en, th, ko]\n  rotate_languages: 8\n", "utf-8")
    assert load_config(path).rotate_languages == 8.0


def test_run_refuses_an_unknown_config_language_in_one_line(tmp_path: Path) -> None:
    config = tmp_path / "display.yaml"
    config.write_text("display:\n  languages: [en, xx]\n", encoding="utf-8")
    state = tmp_path / "state"
    result = scoreboard("run", "--config", str(config), "--headless", "--state-dir", str(state))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "display.languages" in lines[0] and "'xx'" in lines[0], lines
    assert not state.exists()
