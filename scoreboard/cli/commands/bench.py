"""``scoreboard bench``: the benchmarks a technician runs on the box before it goes to the floor.

Road append, a coup's update, an animation frame and a full frame at the
screen's size and at 1920x1080 and 3840x2160 (through the kiosk's own loop,
the copy to the display included), idle CPU of the display loop, memory over
shoes, and publish -> flip through a private mosquitto when one is installed;
then one verdict line against what the board needs (see
:mod:`scoreboard.bench.verdict`).  Progress goes to stderr, the report (or
with ``--json`` one JSON object) to stdout.  Exit status: 0 PASS, 1 FAIL (or
the display cannot be opened), 2 bad arguments, 130 interrupted (SIGTERM or Ctrl-C:
the figure under way ends at its next frame, the broker and the files are removed).

Without a display (no ``DISPLAY`` or ``WAYLAND_DISPLAY``, no ``SDL_VIDEODRIVER``)
it draws with SDL's dummy driver and says so: the copy to a real screen is
then not in the figures.  Everything it writes (the broker's config and log,
the journal) is in a temporary directory it removes, Ctrl-C included.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import tempfile
from collections.abc import MutableMapping
from pathlib import Path
from typing import TYPE_CHECKING

from scoreboard.cli import CommandError
from scoreboard.cli.options import display_from_args
from scoreboard.service.stopping import Stop, stop_on_signals

if TYPE_CHECKING:
    from scoreboard.kiosk.loop import Kiosk
    from scoreboard.table.applied import FeedStatus

FALLBACK_SCREEN = (1920, 1080)


def choose_driver(environ: MutableMapping[str, str]) -> None:
    """SDL's dummy driver when nothing says where a screen is; otherwise leave SDL to choose.

    >>> env = {}; choose_driver(env); env
    {'SDL_VIDEODRIVER': 'dummy'}
    >>> env = {"DISPLAY": ":0"}; choose_driver(env); env
    {'DISPLAY': ':0'}
    """
    if not any(environ.get(name) for name in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY")):
        environ["SDL_VIDEODRIVER"] = "dummy"


class Interrupted(Exception):
    """Asked to stop (SIGTERM, Ctrl-C): raised at the bench's next step, never in a handler."""


def checked(stop: Stop | None) -> None:
    """Raises :class:`Interrupted` once ``stop`` was asked: the run ends at this point of it."""
    if stop is not None and stop.requested:
        raise Interrupted


def progress(line: str, stop: Stop | None = None) -> None:
    """A line of progress between two figures, where a stop asked meanwhile ends the run."""
    checked(stop)
    print(f"bench: {line}", file=sys.stderr, flush=True)


def stoppable(kiosk_class: type[Kiosk], stop: Stop) -> type[Kiosk]:
    """The kiosk measured, ended by ``stop``: its loop quits, and its next frame raises.

    A subclass, so the bench still reads the kiosk's own keywords off its signature.
    """

    class StoppableKiosk(kiosk_class):  # type: ignore[valid-type,misc]
        def run(self, run_for: float | None = None) -> int:
            stop.on_stop(self.quit)
            return int(super().run(run_for))

        def quit(self) -> None:
            self.running = False
            self.wake()

        def step(self, now: float) -> None:
            checked(stop)
            super().step(now)

        def draw(self, status: FeedStatus, now: float) -> bool:
            checked(stop)
            return bool(super().draw(status, now))

    return StoppableKiosk


def run(args: argparse.Namespace) -> int:
    display = display_from_args(args)  # a bad --size or --theme: one line, exit 2
    choose_driver(os.environ)
    if not args.verbose:
        logging.getLogger("scoreboard").setLevel(logging.WARNING)  # the kiosk's own chatter
    import pygame

    from scoreboard.bench.kiosk import Board
    from scoreboard.bench.report import DUMMY_NOTE, as_json, as_text
    from scoreboard.bench.suite import QUICK, Plan, run_suite
    from scoreboard.bench.verdict import checks, verdict
    from scoreboard.kiosk.loop import Kiosk
    from scoreboard.kiosk.monitor import NoDisplayError, check_display

    try:
        pygame.display.init()
        check_display(pygame.display.get_driver(), os.environ.get("SDL_VIDEODRIVER"))
        screen = display.size or desktop_size()
    except pygame.error as error:
        raise CommandError(f"cannot open the display ({error}); SDL_VIDEODRIVER=dummy "
                           "measures without it") from None  # fmt: skip
    except NoDisplayError as error:  # DISPLAY set, nobody answering: SDL fell back
        raise CommandError(str(error)) from None
    if pygame.display.get_driver() in ("dummy", "offscreen"):
        progress(DUMMY_NOTE)
    motion = None if display.motion else False  # None: as shipped, the theme decides
    rotate = 90 if display.portrait and screen[0] > screen[1] else display.rotate  # as the kiosk
    try:
        with (
            stop_on_signals() as stop,
            tempfile.TemporaryDirectory(prefix="scoreboard-bench-") as work,
        ):
            board = Board(stoppable(Kiosk, stop), display.theme, screen, rotate, motion)
            plan = QUICK if args.quick else Plan()
            results = run_suite(
                board, plan, Path(work), lambda line: progress(line, stop), lambda: checked(stop)
            )
    except Interrupted:
        print("bench: interrupted", file=sys.stderr, flush=True)
        return 130
    except NoDisplayError as error:
        raise CommandError(str(error)) from None
    except pygame.error as error:  # the screen's own size refused, the display gone
        raise CommandError(f"the display failed at {screen[0]}x{screen[1]}: {error}") from None
    finally:
        pygame.display.quit()
    found = checks(results)
    judged = verdict(found)
    if args.json:
        print(json.dumps(as_json(results, found, judged), indent=2, ensure_ascii=False))
    else:
        print(as_text(results, found, judged))
    return 0 if judged.passed else 1


def desktop_size() -> tuple[int, int]:
    """The first screen's size under a real driver; 1920x1080 where there is none."""
    import pygame

    sizes = pygame.display.get_desktop_sizes()
    if pygame.display.get_driver() in ("dummy", "offscreen") or not sizes:
        return FALLBACK_SCREEN
    width, height = sizes[0]
    return (width, height) if width > 0 and height > 0 else FALLBACK_SCREEN
