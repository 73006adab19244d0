"""What one tree's kiosk costs per frame, measured through ``Kiosk.step`` and ``Kiosk.draw``.

The measuring half of ``bench_frame.py``: it runs in the interpreter of the tree
under test (so ``scoreboard`` is that tree's) and prints its raw samples as JSON.
The kiosk is driven by this tree's ``scoreboard.bench.kiosk`` (see
``this_tree.py``): a scripted feed, a synthetic clock, each ``step`` and
``draw`` timed, the same code ``scoreboard bench`` measures frames with.  Here
are the comparison's own cases: early and late coups, a 1,000-coup shoe, theme
reloads, cold kiosks, the kiosk as shipped and rotated.

Only public names that exist before and after issue 10 are used; where the new
code adds a keyword (``Renderer(..., motion=False)``) it is used when present and
the JSON says whether it was.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame
import this_tree

import scoreboard
from scoreboard.game.events import CoupReceived
from scoreboard.kiosk.loop import Kiosk
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.loading import themes_dir
from scoreboard.table.state import TableState, apply_event

driving = this_tree.bench("kiosk")  # this tree's way of driving a kiosk, for either tree
Bench = driving.Bench
ScriptedFeed = driving.ScriptedFeed
Samples = driving.Samples
note = driving.note
takes_keyword = driving.takes_keyword
shoe_games = driving.shoe_games
shoe_events = driving.shoe_events
renderer_factory = driving.renderer_factory
Stopwatch = this_tree.bench("stats").Stopwatch


@dataclass(frozen=True, slots=True)
class Plan:
    """How much one round measures (``bench_frame.py``'s default; ``--rounds`` repeats it).

    ``shoes`` shoes of ``shoe`` coups each, ``repeat`` full frames and theme
    reloads, ``cold`` new kiosks, the last ``long_timed`` coups of a
    ``long_shoe``-coup shoe (the ``long_drawn`` before them drawn one by one,
    as an 80-coup shoe's are), ``shipped_shoes`` shoes with the kiosk as shipped.
    """

    shoe: int = 80
    shoes: int = 2
    repeat: int = 8
    cold: int = 2
    long_shoe: int = 1000
    long_timed: int = 10
    long_drawn: int = 70
    shipped_shoes: int = 1


def make_kiosk(
    feed: Any,
    table: TableState,
    theme_name: str,
    size: tuple[int, int],
    motion: bool | None,
    **extra: object,
) -> Any:
    """A windowed kiosk of this tree's ``Kiosk`` (``motion`` None: as shipped)."""
    return driving.make_kiosk(Kiosk, feed, table, theme_name, size, motion, **extra)


EARLY = "coup, early (1-10)"


def late_case(shoe: int, prefix: str = "") -> str:
    """The name of the last ten coups of a ``shoe``-coup shoe: ``coup, late (71-80)``."""
    return f"{prefix}coup, late ({shoe - 9}-{shoe})"


def per_coup_case(shoe: int) -> Callable[[int], str | None]:
    def case(number: int) -> str | None:
        if number <= 10:
            return EARLY
        return late_case(shoe) if number > shoe - 10 else None

    return case


def measure(theme: str, size: tuple[int, int], plan: Plan) -> dict[str, Any]:
    """Every case for one theme and size; raw samples in ms, and what the tree offered."""
    pygame.display.init()
    pygame.font.init()
    samples: Samples = {}
    first = cold_kiosk(theme, size, samples, plan.shoe)
    bench = Bench(first.kiosk, first.feed, samples=samples)
    for seed in range(1, plan.shoes + 1):
        bench.shoe(f"bench-{seed}", shoe_games(seed, plan.shoe), per_coup_case(plan.shoe))
    bench.full_frames(plan.repeat)
    theme_reloads(bench, plan.repeat)
    # Before the cold kiosks: each new Kiosk sets the display's mode again, after which
    # a kiosk drawing on the display (not turned: since perf14) maps its card faces and
    # texts anew, which a kiosk in service, the only one on its display, never does.
    long_games = long_shoe(bench, plan)
    for _ in range(plan.cold):
        cold_kiosk(theme, size, samples, plan.shoe, label="cold first frame (new Kiosk)")
    shipped = shipped_motion(theme, size, plan)
    shipped.update(rotated(theme, size, plan))
    pygame.display.quit()
    return {
        "scoreboard": scoreboard.__file__,
        "themes": str(themes_dir()),
        "motion_keyword": takes_keyword(Renderer, "motion"),
        "samples": samples,
        "shipped": shipped,
        "long_shoe_games": long_games,
    }


def cold_kiosk(
    theme: str,
    size: tuple[int, int],
    samples: Samples,
    coups: int,
    label: str = "cold first frame (first in process)",
) -> Bench:
    """A new kiosk over a ``coups``-coup table: its construction and first step, timed together."""
    table = TableState(table_id="T1")
    for event in shoe_events("cold", shoe_games(99, coups)):
        apply_event(table, event)  # type: ignore[arg-type]
    feed = ScriptedFeed()
    with Stopwatch() as watch:
        kiosk = make_kiosk(feed, table, theme, size, motion=False)
        kiosk.step(1000.0)
    note(samples, label, watch)
    bench = Bench(kiosk, feed, samples=samples)
    bench.settle(None)
    return bench


def theme_reloads(bench: Bench, repeat: int) -> None:
    """A forced reload (as on SIGHUP): the theme file read, a new renderer, its first frame."""
    for _ in range(repeat):
        before = bench.kiosk.renderer
        bench.kiosk.request_reload()
        cost = bench.step()
        if bench.kiosk.renderer is not before:
            note(bench.samples, "theme reload + first frame", cost)
        bench.settle(None)


def long_shoe(bench: Bench, plan: Plan) -> int:
    """The last coups of a ``long_shoe``-coup shoe, the rest dealt untimed.

    Most of the shoe comes in one step; the ``long_drawn`` coups before the
    timed ones are drawn one by one, as the 80-coup shoe's 70 before its timed
    coups are.  So both cases time coups of a renderer that drew the same
    number of coups before them, and the ratio is the shoe's length alone:
    this runs right after the theme reloads, on a new renderer whose kept
    layouts, card faces and texts would otherwise be cold (until 2026-12-01
    the whole untimed part was one step, and the ratio held that too).

    Returns how many games the table holds after it (``long_shoe`` unless refused).
    """
    games = shoe_games(7, plan.long_shoe)
    untimed = len(games) - plan.long_timed
    drawn = max(0, untimed - plan.long_drawn)
    bench.step(*shoe_events("long", games[:drawn]))
    bench.settle(None)
    for game in games[drawn:untimed]:
        bench.step(CoupReceived("long", game))
        bench.settle(None)
    label = f"coup, late in a {plan.long_shoe}-coup shoe"
    for game in games[untimed:]:
        note(bench.samples, label, bench.step(CoupReceived("long", game)))
        bench.settle()
    return len(bench.kiosk.table.games)


def shipped_motion(theme: str, size: tuple[int, int], plan: Plan) -> Samples:
    """The kiosk as shipped (the renderer's default motion): late coups and their frames."""
    samples: Samples = {}
    feed = ScriptedFeed()
    bench = Bench(make_kiosk(feed, TableState(), theme, size, None), feed, samples=samples)

    def late(number: int) -> str | None:
        return late_case(plan.shoe, "as shipped: ") if number > plan.shoe - 10 else None

    for seed in range(1, plan.shipped_shoes + 1):
        bench.shoe(f"shipped-{seed}", shoe_games(seed, plan.shoe), late)
    samples["as shipped: animation frame"] = samples.pop("animation frame", {})
    return samples


def rotated(theme: str, size: tuple[int, int], plan: Plan) -> Samples:
    """The same picture on a screen mounted on its side (``rotate=90``), where the kiosk can.

    The screen is ``size`` turned (1080x1920 for a 1920x1080 picture); each dirty
    rectangle is copied onto it turned.  Empty when the tree's ``Kiosk`` has no ``rotate``.
    """
    samples: Samples = {}
    if not takes_keyword(Kiosk, "rotate") or plan.shipped_shoes < 1:
        return samples
    feed = ScriptedFeed()
    screen = (size[1], size[0])
    kiosk = make_kiosk(feed, TableState(), theme, screen, False, rotate=90)
    bench = Bench(kiosk, feed, samples=samples)

    def late(number: int) -> str | None:
        return late_case(plan.shoe, "rotated 90: ") if number > plan.shoe - 10 else None

    bench.shoe("rotated", shoe_games(1, plan.shoe), late)
    for _ in range(max(2, plan.repeat // 2)):
        bench.kiosk.renderer.invalidate()
        note(samples, "rotated 90: full frame", bench.step())
        bench.settle(None)
    samples.pop("animation frame", None)
    return samples
