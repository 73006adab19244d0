"""The theme's logo in the header: scaled to it, and a broken file never breaks the header."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pygame
import pytest

from scoreboard.screen.board._chrome import draw_header
from scoreboard.screen.board.panels import DrawnText
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.loading import load_theme
from scoreboard.screen.theme.values import Theme
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState

LOGO = (200, 20, 160)

pytestmark = pytest.mark.usefixtures("pygame_display")


def with_logo(path: Path | None) -> Theme:
    theme = load_theme("classic")
    return dataclasses.replace(theme, style=dataclasses.replace(theme.style, logo=path))


def header(theme: Theme, size=(1920, 1080)) -> tuple[Renderer, pygame.Surface, list[DrawnText]]:
    renderer = Renderer(theme, size)
    surface = renderer.static.copy()
    log: list[DrawnText] = []
    renderer.panels.log = log
    draw_header(renderer.panels, surface, TableState(table_id="T1"), FeedStatus.LIVE, "21:45")
    return renderer, surface, log


def logo_pixels(
    renderer: Renderer, surface: pygame.Surface, color: tuple[int, ...] = LOGO
) -> pygame.Rect | None:
    box = renderer.layout.panels["header"].body
    found = [
        (x, y)
        for x in range(box.left, box.left + box.width // 2, 2)
        for y in range(box.top, box.bottom)
        if all(abs(a - b) <= 6 for a, b in zip(surface.get_at((x, y))[:3], color, strict=True))
    ]
    if not found:
        return None
    xs, ys = [x for x, _ in found], [y for _, y in found]
    return pygame.Rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)


@pytest.mark.parametrize("size", [(1920, 1080), (1080, 1920), (3840, 2160)])
@pytest.mark.parametrize("depth", [32, 8])
def test_the_logo_replaces_the_title_scaled_to_the_header(tmp_path, size, depth):
    image = pygame.Surface((300, 100), depth=depth)
    image.fill(LOGO)
    shown = tuple(image.get_at((0, 0)))[:3]  # a palette may round the colour
    path = tmp_path / "logo.png"
    pygame.image.save(image, str(path))
    renderer, surface, log = header(with_logo(path), size)
    drawn = logo_pixels(renderer, surface, shown)
    box = renderer.layout.panels["header"].body
    assert drawn is not None, "no logo in the header"
    assert box.contains(drawn)
    assert drawn.height >= box.height * 0.6  # scaled to the header, not drawn at 100 px
    assert abs(drawn.width / drawn.height - 3) < 0.3  # its proportions kept
    assert "Baccarat" not in [text.text for text in log]


@pytest.mark.parametrize("content", [b"", b"not an image at all", None])
def test_a_logo_that_fails_to_load_leaves_the_title(tmp_path, content):
    path = tmp_path / "logo.png"
    if content is not None:
        path.write_bytes(content)  # else: the file vanished after check-theme passed it
    renderer, surface, log = header(with_logo(path))
    assert logo_pixels(renderer, surface) is None
    assert "Baccarat" in [text.text for text in log]


def test_an_edited_logo_shows_on_the_next_draw(tmp_path):
    path = tmp_path / "logo.png"
    image = pygame.Surface((200, 100))
    image.fill((10, 200, 10))
    pygame.image.save(image, str(path))
    header(with_logo(path))
    image.fill(LOGO)
    pygame.image.save(image, str(path))
    import os

    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))
    renderer, surface, _ = header(with_logo(path))
    assert logo_pixels(renderer, surface) is not None
