"""The kiosk loop under the dummy video driver: feeds, errors, hot reload."""

from __future__ import annotations

import logging
import time
from pathlib import Path

import pygame
import pytest

from scoreboard.feeds.simulated import SimulatedFeed
from scoreboard.game.notation import result_games
from scoreboard.game.shoe import Dealer
from scoreboard.kiosk.loop import THEME_CHECK_SECONDS, Kiosk, run_kiosk
from scoreboard.kiosk.theme_watch import ThemeWatcher
from scoreboard.screen.theme.loading import load_theme
from scoreboard.table.applied import FeedStatus
from scoreboard.table.health import JournalHealth, JournalState, RenderHealth
from scoreboard.table.state import TableState

ROOT = Path(__file__).resolve().parents[1]
SIZE = (640, 360)


class ScriptedFeed:
    """Adds one game per poll from a results string; can be told to fail."""

    def __init__(self, results: str, fail: bool = False) -> None:
        self.games = result_games(results)
        self.fail = fail
        self.started = self.stopped = False
        self.reports: list[RenderHealth] = []
        self.journal = JournalHealth(JournalState.OK)

    def start(self, _wake):
        self.started = True

    def poll(self, table, _now):
        if self.fail:
            raise RuntimeError("feed exploded")
        if table.shoe_id is None:
            table.new_shoe("scripted")
        if self.games:
            table.add_game(self.games.pop(0))

    def status(self, _now):
        return FeedStatus.LIVE

    def next_deadline(self, now):
        return now + 0.01 if self.games else None

    def report(self, render):
        self.reports.append(render)

    def journal_health(self):
        return self.journal

    def stop(self):
        self.stopped = True


@pytest.fixture
def theme_file(tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text((ROOT / "themes" / "classic.yaml").read_text(encoding="utf-8"))
    return path


def test_the_demo_feed_deals_across_a_shoe_change():
    table = TableState()
    feed = SimulatedFeed(Dealer(decks=1, seed=7, cut_card=(12, 13)), pace=0.01)
    assert run_kiosk(feed, table, "classic", windowed=True, size=SIZE, run_for=1.5) == 0
    assert table.shoe_number >= 2
    assert feed.coups_dealt > table.last_number


def test_a_scripted_feed_reaches_the_screen():
    table = TableState()
    feed = ScriptedFeed("BPPT")
    kiosk = Kiosk(feed, table, load_theme("classic"), windowed=True, size=SIZE)
    try:
        kiosk.run(run_for=0.5)
        assert feed.started and feed.stopped
        assert table.last_number == 4
        cell = kiosk.renderer.views["big_road"].newest
        assert cell is not None
        screen = pygame.display.get_surface()
        assert screen.get_at(cell.center)[:3] == kiosk.renderer.frame.get_at(cell.center)[:3]
    finally:
        pygame.display.quit()


def test_a_failing_feed_is_logged_and_the_loop_goes_on(caplog):
    feed = ScriptedFeed("B", fail=True)
    with caplog.at_level(logging.ERROR):
        assert run_kiosk(feed, TableState(), "classic", windowed=True, size=SIZE, run_for=0.3) == 0
    assert caplog.text.count("feed poll failed") == 1  # a repeating failure: once a minute


def test_a_failing_frame_keeps_the_last_good_frame(caplog, monkeypatch):
    table = TableState()
    feed = ScriptedFeed("BP")
    kiosk = Kiosk(feed, table, load_theme("classic"), windowed=True, size=SIZE)
    try:
        kiosk.step(0.0)
        screen = pygame.display.get_surface()
        before = pygame.image.tobytes(screen, "RGB")

        def explode(*_args, **_kwargs):
            raise ZeroDivisionError("bad frame")

        monkeypatch.setattr(kiosk.renderer, "update", explode)
        with caplog.at_level(logging.ERROR):
            kiosk.step(1.0)
        assert "drawing a frame failed" in caplog.text
        assert pygame.image.tobytes(screen, "RGB") == before
    finally:
        pygame.display.quit()


def test_hot_reload_keeps_the_last_good_theme(theme_file, caplog):
    table = TableState()
    kiosk = Kiosk(ScriptedFeed(""), table, load_theme(theme_file), windowed=True, size=SIZE)
    try:
        kiosk.step(0.0)
        good = kiosk.renderer
        text = theme_file.read_text()
        theme_file.write_text(text.replace('background: "#e9e3d5"', 'background: "#zzzzzz"'))
        with caplog.at_level(logging.ERROR):
            assert kiosk.reload_theme(1.0, force=True) is False
        assert kiosk.renderer is good
        assert "colors.background" in caplog.text and "keeping classic" in caplog.text
        theme_file.write_text(text.replace('background: "#e9e3d5"', 'background: "#102030"'))
        assert kiosk.reload_theme(2.0, force=True) is True
        assert kiosk.renderer.theme.colors.background == (0x10, 0x20, 0x30)
        kiosk.step(3.0)
        screen = pygame.display.get_surface()
        assert screen.get_at((1, SIZE[1] // 2))[:3] == (0x10, 0x20, 0x30)
    finally:
        pygame.display.quit()


def test_the_watcher_notices_a_changed_file(theme_file):
    watcher = ThemeWatcher(load_theme(theme_file))
    assert watcher.check() is None  # unchanged
    theme_file.write_text(theme_file.read_text().replace("title: Classic", "title: Changed"))
    reloaded = watcher.check()
    assert reloaded is not None and reloaded.title.startswith("Changed")


MINUTE = 1_700_000_040.0  # a wall-clock time at hh:mm:00 (a multiple of 60 s since the epoch)


class Clocks:
    """A monotonic and a wall clock the test sets by hand, for a deterministic loop."""

    def __init__(self, monotonic: float, wall: float) -> None:
        self.monotonic, self.wall = monotonic, wall

    def advance(self, seconds: float) -> None:
        self.monotonic += seconds
        self.wall += seconds


def kiosk_at(clocks: Clocks, theme="classic", feed=None) -> Kiosk:
    theme = load_theme(theme) if isinstance(theme, str | Path) else theme
    return Kiosk(
        feed or ScriptedFeed(""),
        TableState(),
        theme,
        windowed=True,
        size=SIZE,
        clock=lambda: clocks.monotonic,
        wall_clock=lambda: clocks.wall,
    )


def test_the_loop_sleeps_until_the_next_deadline():
    clocks = Clocks(monotonic=100.0, wall=MINUTE + 30.0)
    kiosk = kiosk_at(clocks)
    try:
        kiosk.step(100.0)  # the next theme check is due at 102
        assert kiosk.timeout(100.0) == pytest.approx(2.0)
        kiosk.step(102.0)  # checked: the next check at 104, the minute turns at 130
        clocks.advance(2.0)
        assert kiosk.timeout(102.0) == pytest.approx(2.0)
    finally:
        pygame.display.quit()


def test_the_loop_wakes_when_the_displayed_minute_turns():
    """At hh:mm:59.8 the clock is due in 0.2 s, not a minute later."""
    clocks = Clocks(monotonic=100.0, wall=MINUTE + 59.8)
    kiosk = kiosk_at(clocks)
    try:
        kiosk.step(100.0)
        assert kiosk.timeout(100.0) == pytest.approx(0.2)
        clocks.advance(0.5)  # asked about a moment that has passed: still the same deadline
        assert kiosk.timeout(100.0) == pytest.approx(0.2)
        assert kiosk.timeout(100.5) == pytest.approx(1.5)  # turned: the theme check is next
    finally:
        pygame.display.quit()


def test_a_theme_without_a_clock_does_not_wake_for_the_minute(theme_file):
    clocks = Clocks(monotonic=100.0, wall=MINUTE + 59.8)
    theme_file.write_text(theme_file.read_text().replace("clock: true", "clock: false"))
    kiosk = kiosk_at(clocks, theme_file)
    try:
        kiosk.step(100.0)
        assert kiosk.clock_text() == ""
        assert kiosk.timeout(100.0) == pytest.approx(THEME_CHECK_SECONDS)
    finally:
        pygame.display.quit()


def test_the_header_clock_reads_the_wall_clock(monkeypatch):
    clocks = Clocks(monotonic=5.0, wall=MINUTE + 59.8)
    kiosk = kiosk_at(clocks)
    shown = []
    update = kiosk.renderer.update

    def spy(table, status, *, clock="", **rest):
        shown.append(clock)
        return update(table, status, clock=clock, **rest)

    monkeypatch.setattr(kiosk.renderer, "update", spy)
    try:
        kiosk.step(5.0)
        clocks.advance(0.2)
        kiosk.step(5.2)
        expected = [time.strftime("%H:%M", time.localtime(MINUTE + s)) for s in (59.8, 60.0)]
        assert shown == expected and expected[0] != expected[1]
    finally:
        pygame.display.quit()


def test_sighup_reloads_the_theme(theme_file, caplog):
    import os
    import signal
    import threading

    def hang_up_once_the_kiosk_listens() -> None:
        # A fixed delay raced the theme's probe and the window's setup on a loaded machine:
        # a SIGHUP before run_kiosk installs its handler ends the test process.
        deadline = time.monotonic() + 20
        while signal.getsignal(signal.SIGHUP) == signal.SIG_DFL and time.monotonic() < deadline:
            time.sleep(0.01)
        os.kill(os.getpid(), signal.SIGHUP)

    timer = threading.Thread(target=hang_up_once_the_kiosk_listens)
    timer.start()
    with caplog.at_level(logging.INFO, logger="scoreboard"):
        run_kiosk(ScriptedFeed(""), TableState(), theme_file, windowed=True, size=SIZE, run_for=1.2)
    timer.join()
    assert "theme classic reloaded" in caplog.text


# -- the theme owns the roads' rows ------------------------------------------------------------
def four_row_theme(path: Path) -> Path:
    """The classic theme with ``roads.rows: 4`` (shared with test_screenshot in spirit)."""
    text = (ROOT / "themes" / "classic.yaml").read_text(encoding="utf-8")
    assert "  rows: 6\n" in text
    path.write_text(text.replace("  rows: 6\n", "  rows: 4\n"), encoding="utf-8")
    return path


def colour_at(surface, point) -> tuple[int, int, int]:
    return tuple(surface.get_at((round(point[0]), round(point[1]))))[:3]


def near(a, b, tolerance: int = 40) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def ring_at(cell: pygame.Rect, fraction: float = 0.365) -> tuple[float, float]:
    """A point on a ring drawn in ``cell``: left of centre, between its edges."""
    return (cell.centerx - fraction * min(cell.size), cell.centery)


def shoe_of(results: str) -> TableState:
    table = TableState()  # six rows, as every table starts
    table.new_shoe("rows")
    for game in result_games(results):
        table.add_game(game)
    return table


def test_a_four_row_theme_turns_the_dragon_tail_on_row_four(tmp_path):
    table = shoe_of("BBBBB")
    theme = load_theme(four_row_theme(tmp_path / "four.yaml"))
    # Big enough that a big-road cell (50 columns across) carries a ring to sample.
    kiosk = Kiosk(ScriptedFeed(""), table, theme, windowed=True, size=(1280, 720))
    try:
        kiosk.step(0.0)
        assert table.roads.rows == 4
        frame, colors = kiosk.renderer.frame, theme.colors
        big = kiosk.renderer.layout.grids["big_road"]
        assert big.rows == 4
        for row in range(4):  # games 1-4 straight down column 0
            assert near(colour_at(frame, ring_at(big.cell(0, row))), colors.banker), row
        tail = big.cell(1, 3)  # game 5: one column right, still on row 4
        assert kiosk.renderer.views["big_road"].newest == tail
        assert near(colour_at(frame, ring_at(tail)), colors.banker)
        assert near(colour_at(frame, ring_at(big.cell(1, 0))), colors.panel, 8)
        bead = kiosk.renderer.layout.grids["bead_plate"]
        assert kiosk.renderer.views["bead_plate"].newest == bead.cell(1, 0)  # bead 5 starts col 1
    finally:
        pygame.display.quit()


def test_the_derived_roads_follow_the_four_row_engine(tmp_path):
    """P then eight B: big eye boy b r r r r r r, the reds turning right on row 4."""
    table = shoe_of("PBBBBBBBB")
    theme = load_theme(four_row_theme(tmp_path / "four.yaml"))
    kiosk = Kiosk(ScriptedFeed(""), table, theme, windowed=True, size=SIZE)
    try:
        kiosk.step(0.0)
        frame, colors = kiosk.renderer.frame, theme.colors
        eye = kiosk.renderer.layout.grids["big_eye_boy"]
        expected = {(0, 0): colors.player, **{(1, r): colors.banker for r in range(4)}}
        expected |= {(2, 3): colors.banker, (3, 3): colors.banker, (2, 0): colors.panel}
        for (col, row), color in expected.items():
            on_ring = ring_at(eye.cell(col, row), 0.33)
            assert near(colour_at(frame, on_ring), color, 60), (col, row)
        assert kiosk.renderer.views["big_eye_boy"].newest == eye.cell(3, 3)
    finally:
        pygame.display.quit()


def test_a_reloaded_theme_brings_its_rows_to_the_table(theme_file):
    table = shoe_of("BBBBB")
    kiosk = Kiosk(ScriptedFeed(""), table, load_theme(theme_file), windowed=True, size=SIZE)
    try:
        kiosk.step(0.0)
        assert table.roads.rows == 6
        version = table.version
        four_row_theme(theme_file)
        assert kiosk.reload_theme(1.0, force=True)
        assert table.roads.rows == 4 and table.version > version
        kiosk.step(1.0)
        big = kiosk.renderer.layout.grids["big_road"]
        assert kiosk.renderer.views["big_road"].newest == big.cell(1, 3)
    finally:
        pygame.display.quit()
