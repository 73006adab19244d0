"""The theme's logo and motion settings: validated on load, so the kiosk can use what passed."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from scoreboard.screen.theme.loading import load_theme
from scoreboard.screen.theme.values import ThemeError


def classic_with(tmp_path: Path, extra_style: str = "", extra: str = "") -> Path:
    source = load_theme("classic").source
    assert source is not None
    text = source.read_text(encoding="utf-8").replace("style:\n", f"style:\n{extra_style}", 1)
    path = tmp_path / "mine.yaml"
    path.write_text(text + extra, encoding="utf-8")
    return path


def test_a_logo_beside_the_theme_is_found_and_loads(tmp_path: Path) -> None:
    image = pygame.Surface((120, 40))
    image.fill((200, 20, 40))
    pygame.image.save(image, str(tmp_path / "logo.png"))
    theme = load_theme(classic_with(tmp_path, "  logo: logo.png\n"))
    assert theme.style.logo == (tmp_path / "logo.png").resolve()
    assert pygame.image.load(str(theme.style.logo)).get_size() == (120, 40)


def test_a_missing_or_broken_logo_is_refused_with_its_key(tmp_path: Path) -> None:
    with pytest.raises(ThemeError) as missing:
        load_theme(classic_with(tmp_path, "  logo: nowhere.png\n"))
    assert "style.logo: image file 'nowhere.png' not found beside the theme" in str(missing.value)
    (tmp_path / "fake.png").write_bytes(b"\x89PNG\r\n\x1a\nnot really an image" * 10)
    with pytest.raises(ThemeError) as broken:
        load_theme(classic_with(tmp_path, "  logo: fake.png\n"))
    assert "style.logo: fake.png is not a usable image" in str(broken.value)


def test_motion_settings_are_read_and_bounded(tmp_path: Path) -> None:
    theme = load_theme(
        classic_with(tmp_path, extra="motion:\n  enabled: false\n  banner_seconds: 5\n")
    )
    assert theme.motion.enabled is False and theme.motion.banner_seconds == 5.0
    assert load_theme("classic").motion.enabled is True
    with pytest.raises(ThemeError) as wrong:
        load_theme(classic_with(tmp_path, extra="motion:\n  deal_seconds: 9\n  flash: true\n"))
    errors = wrong.value.errors
    assert any("motion.deal_seconds: expected a number from 0 to 2, got 9" in e for e in errors)
    assert any("motion.flash: expected one of the keys" in e for e in errors)


def test_a_logo_claiming_a_huge_picture_is_refused_before_it_is_decoded(tmp_path: Path) -> None:
    """A 16000 x 16000 PNG header over a few bytes: refused from the header, never decoded."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = struct.pack(">I", zlib.crc32(kind + data))
        return struct.pack(">I", len(data)) + kind + data + crc

    header = struct.pack(">IIBBBBB", 16000, 16000, 8, 2, 0, 0, 0)
    (tmp_path / "bomb.png").write_bytes(
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IEND", b"")
    )
    with pytest.raises(ThemeError) as refused:
        load_theme(classic_with(tmp_path, "  logo: bomb.png\n"))
    assert "bomb.png is not a usable image (16000x16000 pixels, expected 1 to 4096" in str(
        refused.value
    )
