"""A theme drawn once for real, to prove that what validation passed the kiosk can show.

Validation checks each value of a theme on its own (a number in range, a font
with the glyphs); it cannot see that a limits panel 5 % wide has no room for
"10,000", or that ``text_scale: 2`` with tall titles pushes text onto the
grids.  :func:`draw_problems` renders a full sample board (a dealt 8-deck shoe,
the table's limits, the EZ pays' footnote) at each of the theme's orientations,
reads every text the panels drew (``PanelPainter.log``) and reports, as theme
errors, a panel that failed to draw, a text that leaves its panel, two texts
printed over each other, a text below its role's size floor (docs/display.md,
"Readable from the seats"), and road cells too small to read (``roads.columns``
asking for more columns than a panel has room for).  ``scoreboard
check-theme`` and the kiosk (on start and on every reload) refuse a theme with
any: a theme that passes is one the board draws cleanly.
"""

from __future__ import annotations

import functools
import itertools

import pygame

from scoreboard.game.limits import Limits
from scoreboard.game.shoe import Dealer, opening
from scoreboard.game.variants import VARIANTS
from scoreboard.screen.board.layout import ScreenLayout
from scoreboard.screen.board.panels import DrawnText
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.board.text import CAP_FLOORS, shared_cache
from scoreboard.screen.theme.values import DERIVED_PANELS, Theme, ThemeError
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState, apply_event

SIZES = {"landscape": (1920, 1080), "portrait": (1080, 1920), "wide": (2560, 1080)}
"""Where the board is tried: the sizes a whole shoe and the size rule are promised at."""

SAMPLE_COUPS = 80
ROAD_CELL_FLOOR = CAP_FLOORS["text"]
"""The smallest bead-plate or big-road cell, as a fraction of the shorter screen side: a
mark is read like the smallest text (16 px at 1080); a derived road's cell may be half
of it, as real boards draw them (2x2 in a big-road cell)."""
OVERLAP = 0.2
"""Two texts whose glyphs share more than this part of the smaller one are printed over each
other (glyph boxes of neighbouring lines may touch; a number on a caption covers a fifth)."""


def sample_table() -> TableState:
    """An EZ table 80 coups into a seeded shoe, with limits: every panel has its longest texts."""
    variant = VARIANTS["ez"]
    table = TableState(table_id="T1", variant=variant, limits=Limits.default_for(variant))
    for event in opening(Dealer(seed=1), SAMPLE_COUPS):
        apply_event(table, event)
    return table


@functools.cache
def _sample() -> TableState:
    """The sample table, dealt once per process: the boards only read it (one table of 80
    coups kept; each reload's check and each theme ``check-theme`` reads draws it again)."""
    return sample_table()


def draw_problems(theme: Theme) -> list[str]:
    """What is wrong with the board this theme draws, one line each (empty: it draws cleanly).

    Needs pygame's font module (initialised here) but no display.
    """
    if not pygame.font.get_init():
        pygame.font.init()
    problems: list[str] = []
    table = _sample()
    with shared_cache(theme.fonts, theme.style.text_scale).one_font_per_file():
        for orientation, size in SIZES.items():
            if orientation not in theme.layouts:
                continue
            where = f"layout.{orientation} at {size[0]}x{size[1]}"
            problems += [f"{where}: {line}" for line in _drawn(theme, size, table)]
    return problems


def _drawn(theme: Theme, size: tuple[int, int], table: TableState) -> list[str]:
    # The boards' texts are measured and drawn in the process's cache of the theme's
    # (text.shared_cache): the same texts at the same sizes, on each board and the kiosk's.
    renderer = Renderer(theme, size, motion=False, ahead=False, pixels=False)
    renderer.panels.log = []
    renderer.render(table, FeedStatus.LIVE, clock="21:45")
    found = [f"panel {name} failed to draw" for name in renderer.failing]
    found += road_cell_problems(theme, renderer.layout)
    unit = renderer.layout.unit
    placed: dict[str, list[tuple[DrawnText, pygame.Rect]]] = {}
    for text in renderer.panels.log or []:
        glyphs = _ink(renderer, text)
        if glyphs.width == 0 or glyphs.height == 0:
            continue
        owner = _owner(renderer, glyphs)
        if owner is None or not renderer.layout.panels[owner].rect.contains(glyphs):
            found.append(f"{text.text!r} leaves its panel {owner or ''}".rstrip())
        floor = CAP_FLOORS.get(getattr(text, "role", "text"), CAP_FLOORS["text"]) * unit
        cap = renderer.text.cap_height(text.size, bold=text.bold)
        if cap < floor - 0.5:
            found.append(f"{text.text!r} is {cap} px tall, below the {floor:.0f} px floor")
        placed.setdefault(owner or "", []).append((text, glyphs))
    for owner, texts in placed.items():
        for (a, ink_a), (b, ink_b) in itertools.combinations(texts, 2):
            common = ink_a.clip(ink_b)
            smaller = min(ink_a.width * ink_a.height, ink_b.width * ink_b.height)
            if common.width * common.height > OVERLAP * smaller:
                found.append(f"{a.text!r} and {b.text!r} are drawn over each other in {owner}")
    return list(dict.fromkeys(found))


def road_cell_problems(theme: Theme, layout: ScreenLayout) -> list[str]:
    """A line per road whose cells are below :data:`ROAD_CELL_FLOOR`, naming the size and why.

    A theme's ``roads.columns`` is a floor on the columns each road shows: on a
    panel too narrow for them the cells shrink until they fit, down to marks
    nobody can read from the seats.
    """
    found = []
    for name, grid in layout.grids.items():
        derived = name in DERIVED_PANELS
        floor = ROAD_CELL_FLOOR * layout.unit * (layout.derived_cell if derived else 1.0)
        cell = min(grid.cell_width, grid.cell_height)
        if cell >= floor - 0.5:
            continue
        body = layout.panels[name].body
        key = "derived" if derived else name
        big = layout.grids.get("big_road")
        if body.height / grid.rows < floor - 0.5:
            why = f"its panel is {body.height} px tall for {grid.rows} rows"
        elif derived and big is not None and big.cell_height * layout.derived_cell < floor:
            why = f"its cells are {layout.derived_cell:g} of the big road's"
        else:
            room = int(body.width // floor)
            why = (
                f"roads.columns.{key} {theme.roads.columns[key]} asks for more columns than "
                f"its {body.width} px wide panel holds at {floor:.0f} px ({room})"
            )
        found.append(f"road {name} has {cell:.0f} px cells, below the {floor:.0f} px floor: {why}")
    return found


def _ink(renderer: Renderer, text: DrawnText) -> pygame.Rect:
    """Where the glyphs of ``text`` are (its line box is taller than its ink)."""
    glyphs = renderer.text.render(text.text, text.size, text.color, bold=text.bold)
    return glyphs.get_bounding_rect().move(text.rect.topleft)


def _owner(renderer: Renderer, glyphs: pygame.Rect) -> str | None:
    """The panel the text was drawn for: the one under the middle of its glyphs."""
    for name, box in renderer.layout.panels.items():
        if box.rect.collidepoint(glyphs.center):
            return name
    return None


def require_drawable(theme: Theme) -> Theme:
    """``theme`` when it draws cleanly; else :class:`ThemeError` listing what is wrong.

    Each line reads like the validator's, ``file: where: what``, at most
    :data:`SHOWN` of them (the rest counted), so the kiosk and ``check-theme``
    refuse such a theme with the same words.
    """
    problems = draw_problems(theme)
    if not problems:
        return theme
    source = theme.source or theme.name
    lines = [f"{source}: {line}" for line in problems[:SHOWN]]
    if len(problems) > SHOWN:
        lines.append(f"{source}: and {len(problems) - SHOWN} more problems drawing it")
    raise ThemeError(lines)


SHOWN = 12
