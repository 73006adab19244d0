"""The shuffle screen drawn for real: it covers the board under the header with the
finished shoe's summary, in text sizes readable from the seats, nothing overflowing."""

from __future__ import annotations

import itertools

import pygame
import pytest
from colour_rows import rows_near

from scoreboard.game.events import NewShoe
from scoreboard.game.shoe import Dealer
from scoreboard.game.variants import VARIANTS
from scoreboard.screen.board._overlay import (
    LABEL_CAP,
    NUMBER_CAP,
    SMALLEST_CAP,
    ShownText,
    ShuffleView,
    board_area,
    draw_shuffle_screen,
    shuffle_screen,
)
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.loading import load_theme
from scoreboard.screen.theme.values import Theme
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState, apply_event

THEMES = ("classic", "midnight", "contrast")
SIZES = ((1920, 1080), (1080, 1920), (1280, 720), (1024, 768))

pytestmark = pytest.mark.usefixtures("pygame_display")


@pytest.fixture(scope="module")
def themes() -> dict[str, Theme]:
    return {name: load_theme(name) for name in THEMES}


def finished_shoe(variant: str = "commission", seed: int = 1) -> TableState:
    """A whole dealt shoe, now shuffling for the next one."""
    table = TableState(variant=VARIANTS[variant])
    shoes = 0
    for event in Dealer(decks=8, seed=seed).shoe():
        shoes += isinstance(event, NewShoe)
        apply_event(table, event)
    table.set_shuffling(True)
    return table


@pytest.fixture(scope="module")
def shoe() -> TableState:
    return finished_shoe()


def drawn_screen(theme: Theme, size: tuple[int, int], table: TableState):
    renderer = Renderer(theme, size)
    frame = renderer.render(table, FeedStatus.DEMO, clock="21:45")
    board = frame.copy()
    view = shuffle_screen(renderer.panels, frame, table)
    return renderer, board, frame, view


def pixel(surface: pygame.Surface, point: tuple[int, int]) -> tuple[int, int, int]:
    return tuple(surface.get_at(point))[:3]


def close(a: tuple[int, ...], b: tuple[int, ...], tolerance: int) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def ink(renderer: Renderer, shown: ShownText) -> pygame.Rect:
    """The rectangle the text's glyphs cover on the screen."""
    drawn = shown.drawn
    glyphs = renderer.text.render(drawn.text, drawn.size, drawn.color, bold=drawn.bold)
    return glyphs.get_bounding_rect().move(drawn.rect.topleft)


def ink_height_on_screen(frame: pygame.Surface, shown: ShownText) -> int:
    """Rows of the drawn text's rectangle holding a pixel of its colour, read off the frame."""
    rows = rows_near(frame, shown.drawn.rect, shown.drawn.color, 48)
    return rows[-1] - rows[0] + 1 if rows else 0


CASES = [(name, size) for name in THEMES for size in SIZES]
IDS = [f"{name}-{w}x{h}" for name, (w, h) in CASES]


@pytest.mark.parametrize(("name", "size"), CASES, ids=IDS)
def test_the_shuffle_screen_covers_the_whole_board_under_the_header(themes, shoe, name, size):
    renderer, board, frame, view = drawn_screen(themes[name], size, shoe)
    header = renderer.layout.panels["header"].rect
    assert view.rect == board_area(renderer.layout)
    assert view.rect.top == header.bottom and view.rect.width == size[0]
    for panel in ("big_road", "bead_plate", "counters", "last_coup", "limits"):
        assert view.rect.contains(renderer.layout.panels[panel].rect), panel
    other = pygame.Surface(size)
    other.fill((255, 0, 255))
    draw_shuffle_screen(renderer.panels, other, shoe)  # the same screen over a magenta board
    covered = frame.subsurface(view.rect)
    assert pygame.image.tobytes(other.subsurface(view.rect), "RGB") == pygame.image.tobytes(
        covered, "RGB"
    )  # nothing of what lay under it shows through
    assert pygame.image.tobytes(frame.subsurface(header), "RGB") == pygame.image.tobytes(
        board.subsurface(header), "RGB"
    )  # the header stays as it was


def test_draw_shuffle_screen_returns_the_rectangle_it_covered(themes, shoe):
    renderer = Renderer(themes["classic"], (1920, 1080))
    frame = renderer.render(shoe, FeedStatus.DEMO)
    assert draw_shuffle_screen(renderer.panels, frame, shoe) == board_area(renderer.layout)


def summary_texts(theme: Theme, table: TableState) -> list[str]:
    """What the screen must say about the finished shoe (label words as the theme shows them)."""

    def words(key: str) -> str:
        return " ".join(dict.fromkeys(theme.label(key)))

    counts, streaks = table.roads.counts, table.roads.streaks
    letters = theme.roads.letters
    return [
        str(counts.banker),
        str(counts.player),
        str(counts.tie),
        f"{counts.percent('banker'):.1f}%",
        f"{counts.percent('player'):.1f}%",
        f"{counts.percent('tie'):.1f}%",
        str(counts.games),
        str(counts.banker_pairs),
        str(counts.player_pairs),
        str(counts.naturals),
        f"{letters['banker']} {streaks.longest_banker} · {letters['player']} "
        f"{streaks.longest_player}",
        words("banker"),
        words("player"),
        words("tie"),
        words("games"),
        words("banker_pair"),
        words("natural"),
        words("longest"),
    ]


@pytest.mark.parametrize("name", THEMES)
def test_the_summary_tells_the_finished_shoe(themes, shoe, name):
    theme = themes[name]
    _, _, _, view = drawn_screen(theme, (1920, 1080), shoe)
    texts = [shown.drawn.text for shown in view.texts]
    assert texts[0] == "  ·  ".join(dict.fromkeys(theme.label("shuffling")))
    assert any(text.startswith(theme.label("shuffle_note")[0]) for text in texts)
    heading = next(t for t in texts if t.startswith(theme.label("shoe_summary")[0]))
    assert heading.endswith(f" {shoe.shoe_number}")
    for expected in summary_texts(theme, shoe):
        assert expected in texts, expected
    assert shoe.roads.counts.games > 60  # a real shoe, not an empty one


def test_the_variants_counters_join_the_summary(themes):
    table = finished_shoe("ez", seed=3)
    _, _, _, view = drawn_screen(themes["classic"], (1920, 1080), table)
    counts = table.roads.counts
    texts = [shown.drawn.text for shown in view.texts]
    assert "Dragon 7" in texts and "Panda 8" in texts
    assert texts[texts.index("Dragon 7") + 1] == str(counts.dragon7)
    assert texts[texts.index("Panda 8") + 1] == str(counts.panda8)


def cases_with_variants() -> list[tuple[str, tuple[int, int], str]]:
    return [(name, size, variant) for name, size in CASES for variant in ("commission", "ez")]


@pytest.fixture(scope="module")
def ez_shoe() -> TableState:
    return finished_shoe("ez", seed=3)


@pytest.mark.parametrize(
    ("name", "size", "variant"),
    cases_with_variants(),
    ids=[f"{n}-{w}x{h}-{v}" for n, (w, h), v in cases_with_variants()],
)
def test_text_is_readable_from_the_seats_and_stays_in_its_box(
    themes, shoe, ez_shoe, name, size, variant
):
    table = shoe if variant == "commission" else ez_shoe
    renderer, _, _, view = drawn_screen(themes[name], size, table)
    unit = min(size)
    floors = {"number": NUMBER_CAP, "label": LABEL_CAP, "title": LABEL_CAP}
    glyphs = []
    for shown in view.texts:
        rect = ink(renderer, shown)
        glyphs.append(rect)
        floor = floors.get(shown.role, SMALLEST_CAP) * unit
        assert rect.height >= floor, (shown.drawn.text, rect.height, floor)
        assert shown.box.contains(rect), (shown.drawn.text, shown.box, rect)
        assert view.rect.contains(shown.box), shown.drawn.text
    for a, b in itertools.combinations(range(len(glyphs)), 2):
        assert not glyphs[a].colliderect(glyphs[b]), (
            view.texts[a].drawn.text,
            view.texts[b].drawn.text,
        )


@pytest.mark.parametrize(("name", "size"), [("midnight", (1920, 1080)), ("contrast", (1080, 1920))])
def test_the_counts_are_drawn_big_on_tiles_of_the_sides_colours(themes, shoe, name, size):
    theme = themes[name]
    _, _, frame, view = drawn_screen(theme, size, shoe)
    counts = shoe.roads.counts
    unit = min(size)
    for key in ("banker", "player", "tie"):
        count = next(
            s
            for s in view.texts
            if s.role == "number" and s.drawn.text == str(getattr(counts, key))
        )
        assert ink_height_on_screen(frame, count) >= 0.06 * unit  # twice the readable minimum
        beside = (count.box.left + 2, count.box.centery)  # the tile, left of the digits
        assert close(pixel(frame, beside), getattr(theme.colors, key), 40)


def test_an_empty_shoe_shuffles_with_zeros_not_errors(themes):
    table = TableState()
    table.new_shoe("S1")
    table.set_shuffling(True)
    _, _, _, view = drawn_screen(themes["midnight"], (1280, 720), table)
    assert isinstance(view, ShuffleView)
    assert "0.0%" in [shown.drawn.text for shown in view.texts]


def test_the_shuffle_screen_tells_the_table_s_limits_when_known(themes):
    """New players sit down during the shuffle: the minimum and maximum bet stay on view."""
    from scoreboard.game.limits import Limits

    def shown(table: TableState) -> list[str]:
        *_, view = drawn_screen(themes["classic"], (1920, 1080), table)
        return [text.drawn.text for text in view.texts]

    table = finished_shoe()
    assert "Minimum bet" not in shown(table)  # unknown limits: none made up
    table.set_limits(Limits.default_for(table.variant))
    texts = shown(table)
    assert "Minimum bet" in texts and "25" in texts
    assert "Maximum bet" in texts and "10,000" in texts
