"""The winner banner drawn for real: its colour, its text, its place and when it changes,
and frames of a whole scene counted for large luminance changes (WCAG 2.3.1)."""

from __future__ import annotations

import pygame
import pytest
from changed_pixels import changed_points
from colour_rows import rows_near

from scoreboard.game.cards import parse_cards
from scoreboard.game.notation import result_games
from scoreboard.game.rules import Coup, Game, Winner, record_coup, result_coup
from scoreboard.screen.board._banner import PaintedBanner, WinnerBanner
from scoreboard.screen.board._motion import Motion, MotionSettings
from scoreboard.screen.board._overlay import LARGE_TEXT_CONTRAST, NUMBER_CAP, contrast_ratio
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.loading import load_theme
from scoreboard.screen.theme.values import Theme
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState

THEMES = ("classic", "midnight", "contrast")
SIZES = ((1920, 1080), (1080, 1920))
SETTINGS = MotionSettings(enabled=True, deal_seconds=0.3, banner_seconds=3.0, draw_in_seconds=0.35)

BANKER_7_0 = record_coup(parse_cards(["2S", "3H", "5H"]), parse_cards(["3D", "2C", "2D"]))
PLAYER_9_7 = record_coup(parse_cards(["9S", "KH"]), parse_cards(["4D", "3C"]))
TIE_6_6 = record_coup(parse_cards(["4S", "2H"]), parse_cards(["3D", "3C"]))
PLAYER_8_2_RESULT = result_coup(Winner.PLAYER, player_total=8, banker_total=2)
BANKER_9_0_RESULT = result_coup(Winner.BANKER, banker_total=9, player_total=0)

pytestmark = pytest.mark.usefixtures("pygame_display")


@pytest.fixture(scope="module")
def themes() -> dict[str, Theme]:
    return {name: load_theme(name) for name in THEMES}


def board_renderer(theme: Theme, size: tuple[int, int]) -> Renderer:
    """A renderer of the board alone: the Motion under test draws the overlays itself."""
    try:
        return Renderer(theme, size, motion=False)
    except TypeError:  # a renderer from before motion was integrated (issue 10)
        return Renderer(theme, size)


class Scene:
    """A renderer, its table and a Motion, as the kiosk wires them."""

    def __init__(
        self,
        theme: Theme,
        size: tuple[int, int],
        settings: MotionSettings = SETTINGS,
        *,
        told: bool = True,
    ):
        """``told``: the renderer tells the Motion where the big road's newest cell is."""
        self.theme = theme
        self.renderer = board_renderer(theme, size)
        newest = self.newest_cell if told else None
        self.motion = Motion(settings, self.renderer.panels, self.renderer.layout, newest=newest)
        self.table = TableState()
        self.table.new_shoe("S1")
        for n, coup in enumerate((PLAYER_9_7, TIE_6_6, BANKER_7_0) * 5, start=1):
            self.table.add_game(Game(n, coup))
        self.renderer.render(self.table, FeedStatus.DEMO)

    def newest_cell(self) -> pygame.Rect | None:
        view = self.renderer.views.get("big_road")
        return None if view is None else view.newest

    @property
    def banner(self) -> WinnerBanner:
        return self.motion.banner

    def deal(self, coup: Coup, now: float, *, redraw: bool = True) -> None:
        """The coup joins the table; the board is redrawn (unless not ``redraw``) and told."""
        self.table.add_game(Game(self.table.last_number + 1, coup))
        if redraw:
            self.renderer.update(self.table, FeedStatus.DEMO, now=now)
        self.motion.coup_arrived(self.table, now)

    def painted(self, now: float) -> PaintedBanner:
        painted = self.banner.painted(now)
        assert painted is not None, f"no banner at {now}"
        return painted

    def frame(self, now: float) -> pygame.Surface:
        """The board with the overlays drawn over it, as the screen would show it at ``now``."""
        frame = self.renderer.frame.copy()
        for overlay in self.motion.overlays():
            overlay.draw(frame, now)
        return frame


def pixel(surface: pygame.Surface, point: tuple[int, int]) -> tuple[int, int, int]:
    return tuple(surface.get_at(point))[:3]


def rgb(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGB")


def close(a: tuple[int, ...], b: tuple[int, ...], tolerance: int) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def fill_of(theme: Theme, winner: Winner) -> tuple[int, int, int]:
    colors = theme.colors
    return {Winner.BANKER: colors.banker, Winner.PLAYER: colors.player}.get(winner, colors.tie)


def ink_rows(surface: pygame.Surface, box: pygame.Rect, ink: tuple[int, int, int]) -> int:
    """How many pixel rows of ``box`` hold a pixel of the text colour: the text's height."""
    return len(rows_near(surface, box, ink, 40, step=2))


# -- the plate ------------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES, ids=["landscape", "portrait"])
@pytest.mark.parametrize("name", THEMES)
@pytest.mark.parametrize("coup", [BANKER_7_0, PLAYER_9_7, TIE_6_6], ids=["banker", "player", "tie"])
def test_the_banner_is_the_winners_colour_with_text_readable_from_the_seats(
    themes, name, size, coup
):
    scene = Scene(themes[name], size)
    scene.deal(coup, 0.0)
    now = 2.0  # after the last card
    frame = scene.frame(now)
    plate = scene.painted(now).plate
    fill = fill_of(scene.theme, coup.winner)
    inside = (plate.left + plate.height // 6, plate.centery)  # the padding, left of the text
    assert close(pixel(frame, inside), fill, 24)
    words = scene.painted(now).drawn[0]
    assert words.text.startswith({Winner.BANKER: "BANKER", Winner.PLAYER: "PLAYER"}.get(
        coup.winner, "TIE"))  # fmt: skip
    assert contrast_ratio(words.color, fill) >= LARGE_TEXT_CONTRAST
    unit = min(size)
    assert ink_rows(frame, words.rect, words.color) >= NUMBER_CAP * unit
    assert plate.contains(words.rect.clip(plate)) and plate.contains(
        pygame.Rect(words.rect.x, plate.y, words.rect.width, 1)
    )  # the text's width stays on the plate


@pytest.mark.parametrize("size", SIZES, ids=["landscape", "portrait"])
@pytest.mark.parametrize("name", THEMES)
def test_the_banner_sits_on_the_big_road_inside_its_area(themes, name, size):
    scene = Scene(themes[name], size)
    scene.deal(BANKER_7_0, 0.0)
    before, after = scene.frame(1.0), scene.frame(2.0)
    area = scene.banner.area(2.0)
    assert area is not None
    big_road = scene.renderer.layout.panels["big_road"].rect
    assert big_road.contains(scene.painted(2.0).plate)
    changed = changed_points(before, after, 4)
    assert changed  # the banner did draw
    assert all(area.collidepoint(point) for point in changed)  # and only inside its area


@pytest.mark.parametrize("size", SIZES, ids=["landscape", "portrait"])
@pytest.mark.parametrize("name", THEMES)
@pytest.mark.parametrize("games", [3, 40, 70])
def test_the_banner_leaves_the_newest_big_road_cell_in_sight(themes, name, size, games):
    scene = Scene(themes[name], size)
    for n, game in enumerate(result_games("BP" * games), start=scene.table.last_number + 1):
        scene.table.add_game(Game(n, game.coup))
    scene.renderer.render(scene.table, FeedStatus.DEMO)
    scene.deal(BANKER_7_0, 0.0)
    newest = scene.renderer.views["big_road"].newest
    assert newest is not None
    painted = scene.painted(2.0)
    assert not painted.rect.colliderect(newest)
    board, frame = scene.renderer.frame, scene.frame(2.0)
    assert rgb(frame.subsurface(newest)) == rgb(board.subsurface(newest))
    if games == 3:
        assert painted.plate.left > newest.right  # over the empty road after the newest cell
    else:
        # After the newest cell, or off the big road (over the last hand): never over history.
        road = scene.renderer.layout.panels["big_road"].rect
        assert painted.plate.left > newest.right or not painted.rect.colliderect(road)
    assert all(text.size >= painted.drawn[0].size for text in painted.drawn)
    assert all(painted.plate.contains(text.rect) for text in painted.drawn)  # no text cut off


@pytest.mark.parametrize("name", ["midnight", "classic"])
def test_a_banner_short_of_room_puts_the_score_on_a_second_line(themes, name):
    scene = Scene(themes[name], (1080, 1920))
    columns = scene.renderer.layout.grids["big_road"].cols
    while scene.table.roads.big_road[-1].col < columns // 2 - 2:  # the newest cell: the middle
        winner = "P" if scene.table.roads.big_road[-1].winner is Winner.BANKER else "B"
        scene.table.add_game(Game(scene.table.last_number + 1, result_games(winner)[0].coup))
    scene.renderer.render(scene.table, FeedStatus.DEMO)
    scene.deal(BANKER_7_0, 0.0)
    painted = scene.painted(2.0)
    words, score, *others = painted.drawn
    assert words.text == "BANKER WINS" and score.text == "7 – 0"
    assert score.rect.top >= words.rect.centery  # below the words
    for other in others:  # the other languages beside the score
        assert other.rect.centery == pytest.approx(score.rect.centery, abs=2)
        assert other.rect.left > score.rect.right
    assert [other.text for other in others] == (["莊贏"] if name == "midnight" else [])
    assert painted.plate.width < scene.renderer.layout.panels["big_road"].rect.width / 2


@pytest.mark.parametrize("size", SIZES, ids=["landscape", "portrait"])
def test_untold_the_banner_finds_the_newest_cell_from_the_table(themes, size):
    scene = Scene(themes["classic"], size, told=False)
    scene.deal(BANKER_7_0, 0.0)
    newest = scene.renderer.views["big_road"].newest
    painted = scene.painted(2.0)
    assert newest is not None and painted.plate.left > newest.right


def test_told_the_banner_stays_clear_of_the_cell_it_was_told(themes):
    scene = Scene(themes["midnight"], (1920, 1080), told=False)
    road = scene.renderer.layout.panels["big_road"].rect
    grid = scene.renderer.layout.grids["big_road"]
    middle = grid.cell(grid.cols // 2, 0)
    told = Motion(SETTINGS, scene.renderer.panels, scene.renderer.layout, newest=lambda: middle)
    scene.motion = told
    scene.deal(BANKER_7_0, 0.0)
    plate = scene.painted(2.0).plate
    assert plate.left > middle.right  # the stretch after it, though the table's cell is left
    assert road.contains(plate)


def test_the_banner_disappears_after_banner_seconds(themes):
    scene = Scene(themes["classic"], (1920, 1080))
    scene.deal(PLAYER_9_7, 0.0)  # four cards: up at 1.2 s, down at 4.2 s
    board = pygame.image.tobytes(scene.renderer.frame, "RGB")
    assert scene.banner.area(4.19) is not None
    assert pygame.image.tobytes(scene.frame(4.19), "RGB") != board
    assert scene.banner.area(4.2) is None
    assert pygame.image.tobytes(scene.frame(4.2), "RGB") == board


def test_the_score_sits_on_a_chip_of_the_text_colour(themes):
    scene = Scene(themes["midnight"], (1920, 1080))
    scene.deal(BANKER_7_0, 0.0)
    frame = scene.frame(2.0)
    words, score, zh = scene.painted(2.0).drawn
    assert score.text == "7 – 0"
    assert score.rect.left > words.rect.right
    chip = (score.rect.left + 2, score.rect.centery)  # left of the digits, on the chip
    assert close(pixel(frame, chip), words.color, 24)
    assert zh.text == "".join(themes["midnight"].label(key)[1] for key in ("banker", "wins"))


def test_the_banners_version_changes_exactly_when_its_look_changes(themes):
    scene = Scene(themes["contrast"], (1280, 720))
    arrivals = [(0.0, PLAYER_9_7), (5.0, BANKER_9_0_RESULT), (5.5, TIE_6_6), (5.6, PLAYER_9_7)]
    last_version, last_image = None, None
    changes = 0
    for i in range(0, 1000):
        now = i * 0.01
        while arrivals and arrivals[0][0] <= now:
            scene.deal(arrivals.pop(0)[1], now, redraw=False)  # only the banner changes
        version = scene.banner.version(now)
        image = pygame.image.tobytes(scene.frame(now), "RGB")
        if last_image is not None:
            assert (version != last_version) == (image != last_image), now
            changes += version != last_version
        last_version, last_image = version, image
    assert changes >= 4  # up, down, up (results only), the tie's text in place, down


# -- flashes on real frames -------------------------------------------------------------------
def luminance_table() -> list[float]:
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    return [linear(v / 255) for v in range(256)]


LINEAR = luminance_table()


def cell_colours(frame: pygame.Surface, cells: tuple[int, int]) -> bytes:
    """The RGB colour of each cell of ``frame`` averaged over ``cells`` (width, height)."""
    return pygame.image.tobytes(pygame.transform.smoothscale(frame, cells), "RGB")


def luminances(data: bytes, start: int, stop: int) -> list[float]:
    """Relative luminance of each RGB cell of ``data[start:stop]``."""
    return [
        0.2126 * LINEAR[data[i]] + 0.7152 * LINEAR[data[i + 1]] + 0.0722 * LINEAR[data[i + 2]]
        for i in range(start, stop, 3)
    ]


def cells_moved(shown: bytes, last: bytes, row: int) -> int:
    """How many cells changed by 10 % of luminance or more between two frames' cells.

    A cell's luminance is a function of its colour alone, so only the rows
    (``row`` bytes each) whose colours differ are computed: the others moved 0.
    """
    moved = 0
    for start in range(0, len(shown) if shown != last else 0, row):
        stop = start + row
        if shown[start:stop] != last[start:stop]:
            now, before = luminances(shown, start, stop), luminances(last, start, stop)
            moved += sum(1 for a, b in zip(now, before, strict=True) if abs(a - b) >= 0.1)
    return moved


def large_changes(
    scene: Scene, arrivals: list[tuple[float, Coup]], end: float, *, redraw: bool = True
) -> list[float]:
    """When the screen changed by 10 % of luminance or more over at least 1 % of its area.

    WCAG 2.3.1 counts such changes over a quarter of a 10° field of view (about
    10 % of a 43" screen seen from 3 m): 1 % is ten times stricter.  Frames every
    1/30 s; ``redraw=False`` leaves the board as it is, so only the motion moves.
    """
    cells = (128, 72)
    pending = sorted(arrivals, key=lambda arrival: arrival[0])
    times, last = [], None
    for i in range(round(end * 30) + 1):
        now = i / 30
        while pending and pending[0][0] <= now:
            scene.deal(pending.pop(0)[1], now, redraw=redraw)
        shown = cell_colours(scene.frame(now), cells)
        moved = 0 if last is None else cells_moved(shown, last, 3 * cells[0])
        if moved >= 0.01 * cells[0] * cells[1]:
            times.append(now)
        last = shown
    return times


def most_in_one_second(times: list[float]) -> int:
    return max((sum(1 for u in times if t <= u < t + 1.0) for t in times), default=0)


@pytest.mark.parametrize("name", THEMES)
def test_a_normal_game_changes_the_screen_little_and_slowly(themes, name):
    scene = Scene(themes[name], (1280, 720))
    arrivals = [(0.0, BANKER_7_0), (6.0, PLAYER_9_7), (9.0, result_coup(Winner.TIE))]
    changes = large_changes(scene, arrivals, 14.0)
    assert len(changes) >= 6  # three banners, up and down: the measure does see them
    assert most_in_one_second(changes) <= 3


@pytest.mark.parametrize("pace", [0.01, 0.05, 0.1, 0.35, 0.7])
def test_the_motion_of_a_burst_never_flashes_over_three_times_a_second(themes, pace):
    """A backlog (20 coups in 0.2 s), a fast demo: the board's own redraws left out.

    The first coup is results only, so its banner is up when the burst comes
    and the burst changes its text in place.
    """
    scene = Scene(themes["midnight"], (1280, 720))
    coups = (BANKER_7_0, PLAYER_9_7, TIE_6_6, PLAYER_8_2_RESULT, BANKER_9_0_RESULT)
    arrivals = [(0.5, result_coup(Winner.TIE))]
    arrivals += [(0.6 + i * pace, coups[i % 5]) for i in range(20)]
    changes = large_changes(scene, arrivals, 0.6 + 20 * pace + 4.0, redraw=False)
    assert changes  # the banner went up at least
    assert most_in_one_second(changes) <= 3, changes
