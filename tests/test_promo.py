"""The promo slot (issue 25): the venue's images from ``display.promo``'s folder, checked
like the theme's logo, shown in turn with the shoe's summary on the shuffle screen, and
never while the table plays.  Real PNG files, written by the tests."""

from __future__ import annotations

import logging
from pathlib import Path

import pygame
import pytest

from scoreboard.cli.commands.screenshot import dealt_table
from scoreboard.feeds.simulated import SimulatedFeed
from scoreboard.game.shoe import Dealer
from scoreboard.kiosk._promo import load_promo
from scoreboard.kiosk.loop import run_kiosk
from scoreboard.screen.board._overlay import board_area
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.board.shuffle_overlay import Promo
from scoreboard.screen.theme.images import MAX_SIDE
from scoreboard.screen.theme.loading import load_theme
from scoreboard.settings.config import PromoConfig, config_from_mapping
from scoreboard.settings.reader import ConfigError
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState

pytestmark = pytest.mark.usefixtures("pygame_display")

MAGENTA = (230, 20, 200)
SIZE = (1920, 1080)


def png(path: Path, color: tuple[int, int, int] = MAGENTA, size: tuple[int, int] = (320, 180)):
    image = pygame.Surface(size)
    image.fill(color)
    pygame.image.save(image, str(path))
    return path


# -- the config ----------------------------------------------------------------------------
def test_the_config_names_the_folder_and_the_seconds(tmp_path):
    config = config_from_mapping({"display": {"promo": {"folder": str(tmp_path), "seconds": 5}}})
    assert config.promo == PromoConfig(tmp_path, 5)
    assert config_from_mapping({}).promo is None


@pytest.mark.parametrize(
    ("promo", "key"),
    [
        ({"seconds": 5}, "display.promo.folder"),
        ({"folder": "/x", "seconds": 0}, "display.promo.seconds"),
        ({"folder": "/x", "seconds": "soon"}, "display.promo.seconds"),
        ({"folder": "/x", "every": 3}, "display.promo"),
        ("/x", "display.promo"),
    ],
)
def test_a_bad_promo_section_is_refused_with_its_key(promo, key):
    with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
        config_from_mapping({"display": {"promo": promo}})


# -- the images ----------------------------------------------------------------------------
def test_good_images_load_in_name_order_and_bad_ones_are_refused_with_their_path(tmp_path, caplog):
    png(tmp_path / "b.png", (10, 200, 10))
    png(tmp_path / "a.png", MAGENTA)
    (tmp_path / "c.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"garbage" * 40)
    bomb = bytearray((tmp_path / "a.png").read_bytes())
    bomb[16:24] = (MAX_SIDE * 4).to_bytes(4, "big") + (MAX_SIDE * 4).to_bytes(4, "big")
    (tmp_path / "d.png").write_bytes(bytes(bomb))
    (tmp_path / "e.jpg").write_text("not a picture")
    (tmp_path / "notes.txt").write_text("ignored: not an image")
    with caplog.at_level(logging.WARNING, logger="scoreboard.kiosk._promo"):
        promo = load_promo(PromoConfig(tmp_path, 6))
    assert [image.get_at((5, 5))[:3] for image in promo.images] == [MAGENTA, (10, 200, 10)]
    assert promo.seconds == 6 and promo.refused == 3
    refused = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert len(refused) == 3
    for name in ("c.png", "d.png", "e.jpg"):
        assert any(str(tmp_path / name) in line for line in refused), name


def test_a_missing_folder_is_logged_not_a_crash(tmp_path, caplog):
    with caplog.at_level(logging.WARNING, logger="scoreboard.kiosk._promo"):
        promo = load_promo(PromoConfig(tmp_path / "nowhere", 8))
    assert promo.images == ()
    assert str(tmp_path / "nowhere") in caplog.text


# -- on the board --------------------------------------------------------------------------
def centre(renderer: Renderer) -> tuple[int, int, int]:
    return tuple(renderer.frame.get_at(board_area(renderer.layout).center)[:3])


def shuffling_board(promo: Promo | None):
    renderer = Renderer(load_theme("classic"), SIZE, promo=promo)
    table = dealt_table(5, 30)
    renderer.render(table, FeedStatus.LIVE, now=100.0)
    return renderer, table


def test_the_shuffle_screen_takes_turns_with_the_images(tmp_path):
    promo = load_promo(PromoConfig(png(tmp_path / "a.png").parent, 5))
    renderer, table = shuffling_board(promo)
    plain, _ = shuffling_board(None)
    table.set_shuffling(True)
    renderer.update(table, FeedStatus.LIVE, now=200.0)
    plain.update(table, FeedStatus.LIVE, now=200.0)
    summary = pygame.image.tobytes(plain.frame, "RGB")
    assert pygame.image.tobytes(renderer.frame, "RGB") == summary  # the summary first
    assert renderer.next_blink(200.0) == pytest.approx(205.0)
    renderer.blink(205.0)
    assert centre(renderer) == MAGENTA  # then the venue's image, as large as fits
    renderer.blink(209.9)
    assert centre(renderer) == MAGENTA
    renderer.blink(210.0)
    assert pygame.image.tobytes(renderer.frame, "RGB") == summary  # and the summary again
    table.set_shuffling(False)
    renderer.update(table, FeedStatus.LIVE, now=211.0)
    for now in (215.0, 220.0, 300.0):  # play: no image, whatever the time
        renderer.blink(now)
        assert centre(renderer) != MAGENTA
    assert renderer.shuffle.next_change(300.0) is None


def test_a_new_shuffle_opens_on_the_summary(tmp_path):
    promo = load_promo(PromoConfig(png(tmp_path / "a.png").parent, 5))
    renderer, table = shuffling_board(promo)
    table.set_shuffling(True)
    renderer.update(table, FeedStatus.LIVE, now=200.0)
    renderer.blink(206.0)
    assert centre(renderer) == MAGENTA
    table.set_shuffling(False)
    renderer.update(table, FeedStatus.LIVE, now=207.0)
    table.set_shuffling(True)
    renderer.update(table, FeedStatus.LIVE, now=230.0)
    assert centre(renderer) != MAGENTA
    assert renderer.shuffle.turn(230.0) == 0


def test_the_kiosk_runs_across_a_shuffle_with_a_bad_image_in_the_folder(tmp_path, caplog):
    png(tmp_path / "a.png")
    (tmp_path / "b.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(64))
    table = TableState()
    feed = SimulatedFeed(Dealer(decks=1, seed=7, cut_card=(12, 13)), pace=0.01)
    with caplog.at_level(logging.INFO, logger="scoreboard.kiosk._promo"):
        done = run_kiosk(
            feed,
            table,
            "classic",
            windowed=True,
            size=(640, 360),
            run_for=1.5,
            promo=PromoConfig(tmp_path, 2),
        )
    assert done == 0 and table.shoe_number >= 2
    assert f"promo image {tmp_path / 'b.png'} refused" in caplog.text
    assert "promo: 1 images" in caplog.text
