"""The venue's own images between shoes: a folder of PNG or JPEG files on the shuffle screen.

``display.promo: {folder: DIR, seconds: N}`` in the config.  While the table
shuffles, the shuffle screen shows the finished shoe's summary for ``seconds``,
then each image for ``seconds``, in file-name order, and again from the summary
(:class:`~scoreboard.screen.board.shuffle_overlay.ShuffleOverlay`).  Only the shuffle
switches it, an event the controller sends; nothing here senses play at the table.

Each image is checked like a theme's logo (:mod:`scoreboard.screen.theme.images`: size
limits, decoded first in a child process) when the kiosk starts: a bad one is
refused with its path and why, logged and counted; the others are shown.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pygame

from scoreboard.screen.board.shuffle_overlay import Promo
from scoreboard.screen.theme.images import check_image
from scoreboard.settings.config import PromoConfig

log = logging.getLogger(__name__)

SUFFIXES = (".png", ".jpg", ".jpeg")
MAX_BYTES = 8 * 1024 * 1024
"""The largest promo file accepted (a 4096 x 4096 PNG photo is under this)."""
MAX_IMAGES = 24
"""Images shown at most (in file-name order): each is decoded and kept in memory."""


def promo_files(folder: Path) -> list[Path]:
    """The PNG and JPEG files of ``folder`` in name order (not its subfolders);
    raises OSError when the folder cannot be listed."""
    found = [
        entry
        for entry in folder.iterdir()
        if entry.suffix.lower() in SUFFIXES and not entry.name.startswith(".")
    ]
    return sorted(found, key=lambda path: path.name)


def load_promo(config: PromoConfig) -> Promo:
    """Check and load the folder's images; a bad one is logged with its path and left out."""
    try:
        files = promo_files(config.folder)
    except OSError as error:
        log.warning("promo folder %s cannot be read: %s", config.folder, error.strerror or error)
        return Promo((), config.seconds, refused=1)
    if len(files) > MAX_IMAGES:
        log.warning(
            "promo folder %s: only its first %d images are shown", config.folder, MAX_IMAGES
        )
    images: list[pygame.Surface] = []
    refused = len(files[MAX_IMAGES:])
    for path in files[:MAX_IMAGES]:
        problem = image_problem(path)
        if problem is None:
            try:
                images.append(rgba(pygame.image.load(str(path))))
                continue
            except (pygame.error, OSError) as error:
                problem = f"cannot load it ({error})"
        log.warning("promo image %s refused: %s", path, problem)
        refused += 1
    if files and not images:
        log.warning("promo folder %s: no image can be shown", config.folder)
    log.info("promo: %d images from %s, %d refused", len(images), config.folder, refused)
    return Promo(tuple(images), config.seconds, refused)


def rgba(image: pygame.Surface) -> pygame.Surface:
    """``image`` as 32-bit pixels with alpha (a palette PNG too), which scaling needs."""
    copy = pygame.Surface(image.get_size(), pygame.SRCALPHA, 32)
    copy.blit(image, (0, 0))
    return copy


def image_problem(path: Path) -> str | None:
    """Why ``path`` cannot be shown (the logo's checks), or None."""
    check = check_image(path, MAX_BYTES)
    return check.error or check.unchecked
