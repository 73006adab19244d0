"""A panel that fails to draw is contained, shown, counted and reported; text no font has is
replaced visibly.  Real frames under the dummy video driver, checked by their pixels."""

from __future__ import annotations

import logging

import pygame
import pytest

from scoreboard.cli import main
from scoreboard.game.limits import Limits
from scoreboard.game.notation import result_games
from scoreboard.kiosk.loop import FRAME, Kiosk
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.board.text import TextCache
from scoreboard.screen.theme.loading import load_theme
from scoreboard.table.applied import FeedStatus
from scoreboard.table.health import JournalHealth, JournalState, RenderHealth
from scoreboard.table.state import TableState
from tests.cli import scoreboard

SIZE = (1280, 720)
WALL = 1_700_000_000.0
CLASSIC = load_theme("classic")
COLORS = CLASSIC.colors


@pytest.fixture(autouse=True)
def display():
    pygame.display.init()
    pygame.font.init()
    yield
    pygame.display.quit()


class Breakable:
    """A panel drawer that raises while ``broken``: the renderer's documented test hook."""

    def __init__(self) -> None:
        self.broken = True

    def __call__(self, _surface, _body, _table) -> None:
        if self.broken:
            raise RuntimeError("this panel cannot be drawn")


def table_of(results: str) -> TableState:
    table = TableState(table_id="T1")
    table.new_shoe("containment")
    for game in result_games(results):
        table.add_game(game)
    return table


def pixels(surface: pygame.Surface, rect: pygame.Rect) -> bytes:
    return pygame.image.tobytes(surface.subsurface(rect), "RGB")


def count_near(surface: pygame.Surface, rect: pygame.Rect, color, tolerance: int = 12) -> int:
    """How many pixels of ``rect`` are within ``tolerance`` of ``color``."""
    area = surface.subsurface(rect)
    limit = (tolerance, tolerance, tolerance, 255)
    return pygame.mask.from_threshold(area, (*color, 255), limit).count()


def dash_shown(surface: pygame.Surface, renderer: Renderer, panel: str) -> bool:
    """The placeholder's dash: muted pixels at the body's centre, panel colour around them."""
    body = renderer.layout.panels[panel].body
    centre = tuple(surface.get_at(body.center))[:3]
    above = tuple(surface.get_at((body.centerx, body.centery - body.height // 4)))[:3]
    return centre == COLORS.muted and above == COLORS.panel


def test_a_failing_panel_shows_a_dash_and_the_others_go_on_updating():
    counters = Breakable()
    # Motion off: the new big-road cell is drawn at once rather than grown in.
    renderer = Renderer(CLASSIC, SIZE, drawers={"counters": counters}, motion=False)
    table = table_of("BPB")
    frame = renderer.render(table, FeedStatus.DEMO)
    assert dash_shown(frame, renderer, "counters")
    assert renderer.failing == ("counters",) and renderer.failures == 1
    big_road = renderer.layout.panels["big_road"].rect
    before = pixels(frame, big_road)
    assert table.add_game(result_games("BPBP")[3]).changed  # game 4
    dirty = renderer.update(table, FeedStatus.DEMO)
    assert any(big_road.contains(rect) for rect in dirty)  # the new big-road cell
    assert pixels(frame, big_road) != before  # the roads follow the table
    assert dash_shown(frame, renderer, "counters")
    assert renderer.failing == ("counters",) and renderer.failures == 2  # tried again, failed


def test_the_feed_mark_says_display_fault_while_a_panel_fails_and_recovers_by_itself():
    counters = Breakable()
    renderer = Renderer(CLASSIC, SIZE, drawers={"counters": counters})
    table = table_of("BPB")
    header = renderer.layout.panels["header"].rect
    frame = renderer.render(table, FeedStatus.LIVE)
    assert count_near(frame, header, COLORS.error) > 200  # the red DISPLAY FAULT pill
    assert count_near(frame, header, COLORS.ok) == 0  # never LIVE over a broken board
    counters.broken = False
    renderer.update(table, FeedStatus.LIVE)  # the same table: the panel is simply tried again
    assert renderer.failing == () and renderer.failures == 1
    assert not dash_shown(frame, renderer, "counters")
    assert count_near(frame, header, COLORS.error) == 0
    assert count_near(frame, header, COLORS.ok) > 200  # LIVE again


def test_data_a_panel_cannot_draw_breaks_only_that_panel():
    """Limits no protocol message could carry (a maximum that is text) reach the table."""
    renderer = Renderer(CLASSIC, SIZE)
    table = table_of("BB")
    table.set_limits(Limits(currency="EUR", bets={"banker": (25, "lots")}))  # type: ignore[dict-item]
    frame = renderer.render(table, FeedStatus.DEMO)
    assert renderer.failing == ("limits",)
    assert dash_shown(frame, renderer, "limits")
    assert renderer.panel_views["counters"].value("games").text == "2"


def test_a_failing_panel_is_logged_with_its_traceback_once_a_minute(caplog):
    renderer = Renderer(CLASSIC, SIZE, drawers={"predictions": Breakable()})
    table = table_of("B")
    with caplog.at_level(logging.ERROR):
        for now in (0.0, 1.0, 30.0, 59.0):
            renderer.render(table, FeedStatus.DEMO, now=now)
        assert caplog.text.count("panel predictions failed to draw") == 1
        assert "Traceback" in caplog.text and "this panel cannot be drawn" in caplog.text
        renderer.render(table, FeedStatus.DEMO, now=60.0)
    assert caplog.text.count("panel predictions failed to draw") == 2
    assert renderer.failures == 5


# -- the kiosk reports what the screen shows --------------------------------------------------
class ReportingFeed:
    """Adds one game per poll; keeps every RenderHealth the kiosk reports."""

    def __init__(self, results: str = "BPBPBPBP") -> None:
        self.games = result_games(results)
        self.reports: list[RenderHealth] = []
        self.journal = JournalHealth(JournalState.OK)

    def start(self, _wake):
        pass

    def poll(self, table, _now):
        if table.shoe_id is None:
            table.new_shoe("reporting")
        if self.games:
            table.add_game(self.games.pop(0))

    def status(self, _now):
        return FeedStatus.LIVE

    def next_deadline(self, _now):
        return None

    def report(self, render):
        self.reports.append(render)

    def journal_health(self):
        return self.journal

    def stop(self):
        pass


class BrokenFeedHealth(ReportingFeed):
    """A feed whose report and journal_health raise: the loop must not care."""

    def report(self, _render):
        raise RuntimeError("report exploded")

    def journal_health(self):
        raise RuntimeError("journal_health exploded")


def kiosk_with(feed, renderer=Renderer, wall=lambda: WALL) -> Kiosk:
    return Kiosk(
        feed, TableState(), CLASSIC, windowed=True, size=SIZE, renderer=renderer, wall_clock=wall
    )


def test_the_kiosk_reports_the_failing_panel_and_the_recovery_to_the_feed():
    feed, counters = ReportingFeed(), Breakable()
    kiosk = kiosk_with(
        feed, lambda theme, size: Renderer(theme, size, drawers={"counters": counters})
    )
    screen = pygame.display.get_surface()
    kiosk.step(0.0)
    assert feed.reports[-1] == RenderHealth(("counters",), failures=1, last_frame=WALL)
    big_road = kiosk.renderer.layout.panels["big_road"].rect
    before = pixels(screen, big_road)
    kiosk.step(1.0)  # one more game
    assert pixels(screen, big_road) != before  # the screen itself follows the table
    assert dash_shown(screen, kiosk.renderer, "counters")
    assert feed.reports[-1].failing == ("counters",) and feed.reports[-1].failures == 2
    counters.broken = False
    kiosk.step(2.0)
    assert feed.reports[-1] == RenderHealth((), failures=2, last_frame=WALL)
    assert not dash_shown(screen, kiosk.renderer, "counters")


class ExplodingRenderer(Renderer):
    """A renderer whose whole frame fails while ``broken``."""

    broken = False

    def update(self, *args, **kwargs):
        if ExplodingRenderer.broken:
            raise ZeroDivisionError("the frame cannot be drawn")
        return super().update(*args, **kwargs)


def test_a_frame_that_fails_keeps_the_last_good_frame_and_is_reported_as_frame():
    feed, wall = ReportingFeed(), [WALL]
    kiosk = kiosk_with(feed, ExplodingRenderer, wall=lambda: wall[0])
    screen = pygame.display.get_surface()
    try:
        kiosk.step(0.0)
        good = pygame.image.tobytes(screen, "RGB")
        ExplodingRenderer.broken = True
        wall[0] = WALL + 5
        kiosk.step(1.0)
        assert pygame.image.tobytes(screen, "RGB") == good
        assert feed.reports[-1] == RenderHealth((FRAME,), failures=1, last_frame=WALL)
        ExplodingRenderer.broken = False
        wall[0] = WALL + 9
        kiosk.step(2.0)
        assert feed.reports[-1] == RenderHealth((), failures=1, last_frame=WALL + 9)
    finally:
        ExplodingRenderer.broken = False


def test_a_feed_whose_health_calls_fail_does_not_stop_the_board(caplog):
    feed = BrokenFeedHealth()
    kiosk = kiosk_with(feed)
    with caplog.at_level(logging.ERROR):
        for now in range(4):
            kiosk.step(float(now))
    assert kiosk.table.last_number == 4  # every step polled and drew
    assert caplog.text.count("reporting the render health to the feed failed") == 1
    assert caplog.text.count("asking the feed for the journal's health failed") == 1


def test_a_failing_journal_shows_the_journal_warning_until_it_is_ok_again():
    feed = ReportingFeed("")
    kiosk = kiosk_with(feed)
    screen = pygame.display.get_surface()
    header = kiosk.renderer.layout.panels["header"].rect
    kiosk.step(0.0)
    ok = pixels(screen, header)
    assert count_near(screen, header, COLORS.warning) == 0
    feed.journal = JournalHealth(JournalState.FAILING, "No space left on device")
    kiosk.step(1.0)
    assert pixels(screen, header) != ok
    assert count_near(screen, header, COLORS.warning) > 200  # the JOURNAL pill
    assert count_near(screen, header, COLORS.ok) > 200  # beside the feed mark, not instead
    feed.journal = JournalHealth(JournalState.OK)
    kiosk.step(2.0)
    assert pixels(screen, header) == ok


def test_the_screenshot_command_shows_the_journal_warning_and_a_failed_panel(tmp_path):
    plain, faulty = tmp_path / "plain.png", tmp_path / "faulty.png"
    common = ["--seed", "5", "--coups", "20", "--clock", "21:30", "--size", "1280x720"]
    assert main(["screenshot", "-o", str(plain), *common]) == 0
    flags = ["--journal-failing", "--fault", "counters"]
    assert main(["screenshot", "-o", str(faulty), *common, *flags]) == 0
    pygame.display.init()
    before, after = pygame.image.load(plain), pygame.image.load(faulty)
    renderer = Renderer(CLASSIC, SIZE)
    header = renderer.layout.panels["header"].rect
    assert count_near(before, header, COLORS.warning) == 0
    assert count_near(after, header, COLORS.warning) > 200
    assert count_near(after, header, COLORS.error) > 200
    assert not dash_shown(before, renderer, "counters") and dash_shown(after, renderer, "counters")


# -- text no font can draw ---------------------------------------------------------------------
ETHIOPIC = "\u1200"  # in no shipped font (Thai was, until the font chain drew it)
EMOJI = "\U0001f600"


def test_a_character_the_font_lacks_is_replaced_by_a_mark_it_has():
    cache = TextCache(CLASSIC.fonts)
    assert cache.has_glyph("A") and not cache.has_glyph(ETHIOPIC) and not cache.has_glyph("\x00")
    shown = cache.drawable(f"T{ETHIOPIC}1{EMOJI}")
    assert shown[0] == "T" and shown[2] == "1"
    assert shown[1] == shown[3] and cache.has_glyph(shown[1]) and shown[1] != ETHIOPIC
    assert cache.drawable("Salon Privé") == "Salon Privé"  # drawable text is left alone


@pytest.mark.parametrize("bad", ["\x00", "\ud800", "\x1b[2J", "\x7f", ETHIOPIC, EMOJI])
def test_undrawable_text_from_the_feed_is_drawn_visibly_without_a_failing_panel(bad):
    renderer = Renderer(CLASSIC, SIZE)
    table = table_of("BP")
    table.table_name = f"Salon{bad}"
    table.set_limits(Limits(currency=f"E{bad}", bets={f"side{bad}": (5, 50)}, pays={}))
    frame = renderer.render(table, FeedStatus.DEMO)
    assert renderer.failing == ()
    header = renderer.layout.panels["header"].rect
    with_mark = pixels(frame, header)
    table.table_name = "Salon"
    renderer.render(table, FeedStatus.DEMO)
    assert pixels(frame, header) != with_mark  # the replacement was drawn, not dropped


def test_a_simulated_fault_is_one_log_line_without_a_traceback(tmp_path):
    """A fault shown on purpose is a demonstration: a traceback would read as a defect."""
    out = tmp_path / "faulty.png"
    result = scoreboard("screenshot", "-o", str(out), "--fault", "counters", "--size", "640x360")
    assert result.returncode == 0 and out.stat().st_size > 0
    assert "Traceback" not in result.stderr
    assert "panel counters shows a placeholder" in result.stderr
