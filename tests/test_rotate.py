"""``--rotate``: the kiosk shows the upright frame turned onto a monitor mounted on its side.

Each screen is compared pixel for pixel with the renderer's upright frame turned
by pygame, after the first frame and after the dirty-rectangle update of a coup.
"""

from __future__ import annotations

import pygame
import pytest

from scoreboard.game.notation import result_games
from scoreboard.kiosk.loop import Kiosk
from scoreboard.kiosk.monitor import copy_rotated, logical_size, screen_rect
from scoreboard.screen.theme.loading import load_theme
from scoreboard.table.applied import FeedStatus
from scoreboard.table.health import JournalHealth, RenderHealth
from scoreboard.table.state import TableState

SCREEN = (640, 360)


class OneCoupAPoll:
    """Adds one game per poll, then nothing."""

    def __init__(self, results: str) -> None:
        self.games = result_games(results)

    def start(self, _wake) -> None: ...
    def poll(self, table: TableState, _now: float) -> None:
        if table.shoe_id is None:
            table.new_shoe("rotated")
        if self.games:
            table.add_game(self.games.pop(0))

    def status(self, _now: float) -> FeedStatus:
        return FeedStatus.LIVE

    def next_deadline(self, _now: float) -> None:
        return None

    def report(self, _render: RenderHealth) -> None: ...
    def journal_health(self) -> JournalHealth:
        return JournalHealth()

    def stop(self) -> None: ...


def turned(frame: pygame.Surface, angle: int) -> bytes:
    """The upright frame as a screen turned clockwise by ``angle`` shows it."""
    return pygame.image.tobytes(pygame.transform.rotate(frame, -angle), "RGB")


def shown(kiosk: Kiosk) -> bytes:
    return pygame.image.tobytes(kiosk.screen, "RGB")


@pytest.fixture(autouse=True)
def display():
    pygame.display.init()
    yield
    pygame.display.quit()


@pytest.mark.parametrize("angle", [0, 90, 180, 270])
def test_the_screen_is_the_upright_frame_turned_also_after_a_coup(angle):
    feed = OneCoupAPoll("BPBBTPPB")
    kiosk = Kiosk(
        feed, TableState(), load_theme("classic"), windowed=True, size=SCREEN, rotate=angle
    )
    assert kiosk.screen.get_size() == SCREEN
    assert kiosk.renderer.frame.get_size() == logical_size(SCREEN, angle)
    kiosk.step(0.0)
    first = shown(kiosk)
    assert first == turned(kiosk.renderer.frame, angle)
    for now in (1.0, 2.0, 3.0):
        kiosk.step(now)  # one coup each: only the changed rectangles are copied
    assert shown(kiosk) == turned(kiosk.renderer.frame, angle)
    assert shown(kiosk) != first  # the coups reached the screen


def test_a_quarter_turn_on_a_landscape_screen_lays_the_board_out_in_portrait():
    kiosk = Kiosk(
        OneCoupAPoll(""), TableState(), load_theme("classic"), windowed=True, size=SCREEN, rotate=90
    )
    from scoreboard.screen.board.layout import compute_layout

    portrait = compute_layout(load_theme("classic"), (360, 640))
    assert kiosk.renderer.frame.get_size() == (360, 640)
    assert {name: box.rect for name, box in kiosk.renderer.layout.panels.items()} == {
        name: box.rect for name, box in portrait.panels.items()
    }


def test_portrait_full_screen_on_a_landscape_screen_turns_the_picture(caplog):
    import logging

    with caplog.at_level(logging.INFO, logger="scoreboard"):
        kiosk = Kiosk(OneCoupAPoll("BP"), TableState(), load_theme("classic"), portrait=True)
    width, height = kiosk.screen.get_size()
    assert width > height, "the dummy driver's desktop is landscape"
    assert kiosk.rotate == 90 and kiosk.renderer.frame.get_size() == (height, width)
    assert "as --rotate 90" in caplog.text
    kiosk.step(0.0)
    assert shown(kiosk) == turned(kiosk.renderer.frame, 90)


def test_portrait_on_a_portrait_screen_needs_no_turn():
    kiosk = Kiosk(
        OneCoupAPoll(""),
        TableState(),
        load_theme("classic"),
        windowed=True,
        size=(360, 640),
        portrait=True,
    )
    assert kiosk.rotate == 0 and kiosk.renderer.frame.get_size() == (360, 640)


@pytest.mark.parametrize("angle", [90, 180, 270])
def test_a_rectangle_lands_where_the_turned_frame_has_it(angle):
    frame = pygame.Surface((50, 30))
    frame.fill((0, 0, 0))
    rect = pygame.Rect(3, 4, 10, 6)
    frame.fill((255, 0, 0), rect)
    screen = pygame.Surface(logical_size((50, 30), angle))
    screen.fill((0, 0, 0))
    target = copy_rotated(screen, frame, rect, angle)
    assert target == screen_rect(rect, (50, 30), angle)
    assert pygame.image.tobytes(screen, "RGB") == turned(frame, angle)
    red = pygame.mask.from_threshold(screen, (255, 0, 0), (1, 1, 1, 255))
    assert red.get_bounding_rects() == [target]  # nothing outside the mapped rectangle


def test_a_bad_angle_is_refused():
    with pytest.raises(ValueError, match="rotate must be one of 0, 90, 180, 270"):
        Kiosk(
            OneCoupAPoll(""),
            TableState(),
            load_theme("classic"),
            windowed=True,
            size=SCREEN,
            rotate=45,
        )


def test_a_rotated_screenshot_is_the_upright_frame_turned(tmp_path):
    from scoreboard.cli import main

    upright, turned_png = tmp_path / "upright.png", tmp_path / "turned.png"
    common = ["--seed", "1", "--coups", "20", "--clock", "12:00"]
    assert main(["screenshot", "-o", str(upright), "--size", "360x640", *common]) == 0
    assert (
        main(["screenshot", "-o", str(turned_png), "--size", "640x360", "--rotate", "90", *common])
        == 0
    )
    frame = pygame.image.load(str(upright))
    image = pygame.image.load(str(turned_png))
    assert image.get_size() == (640, 360)
    assert pygame.image.tobytes(image, "RGB") == turned(frame, 90)


@pytest.mark.parametrize("angle", [90, 180, 270])
def test_a_rectangle_larger_than_a_tile_is_turned_whole(angle):
    frame = pygame.Surface((600, 520))
    for x in range(0, 600, 7):
        pygame.draw.line(frame, (x % 256, (3 * x) % 256, 90), (x, 0), (600 - x, 519), 3)
    screen = pygame.Surface(logical_size((600, 520), angle))
    target = copy_rotated(screen, frame, frame.get_rect(), angle)
    assert target == screen.get_rect()
    assert pygame.image.tobytes(screen, "RGB") == turned(frame, angle)
