"""The good-road plate from outside: ``run --config``, ``demo --good-roads``, ``screenshot``.

The kiosk logs what the plate shows whenever it changes ("good roads shown:
One Banker two Players ×5"), which is how a subprocess's board is read here; a
screenshot is read as pixels.  The expected words are worked out from the same
seeded shoe with the core's :func:`good_roads`.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pygame
import pytest
from cli import scoreboard

from scoreboard.game.shoe import Dealer, opening
from scoreboard.roads.good_roads import GoodRoadRules, good_roads
from scoreboard.screen.board._good_road_plate import good_road_words
from scoreboard.settings.config import config_from_mapping
from scoreboard.settings.reader import ConfigError
from scoreboard.table.state import TableState, apply_event

STILL = ["--windowed", "--size", "640x360", "--pace", "60"]
#: Seed 4's shoe after 40 coups: one Banker two Players over 5 columns (and nothing else).
SEED, COUPS = "4", 40


def expected(rules: GoodRoadRules | None = None) -> str:
    table = TableState(table_id="T1")
    for event in opening(Dealer(seed=int(SEED)), COUPS):
        apply_event(table, event)
    found = good_roads(table.roads, rules)
    assert found, "the hand-picked shoe shows a good road"
    return "  ·  ".join(good_road_words(good, ("en",)) for good in found)


def test_demo_good_roads_shows_the_shoes_good_roads():
    done = scoreboard("demo", *STILL, "--duration", "1.5", "--seed", SEED, "--start-at", "40",
                      "--good-roads")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"good roads shown: {expected()}" in done.stderr
    assert "Traceback" not in done.stderr


def test_without_the_flag_the_demo_shows_none():
    done = scoreboard("demo", *STILL, "--duration", "1.5", "--seed", SEED, "--start-at", "40")
    assert done.returncode == 0, done.stderr
    assert "good roads shown" not in done.stderr


def run_until(config, wanted: str, timeout: float = 30.0, settle: float = 0.0) -> str:
    """``scoreboard run --config`` until its log says ``wanted`` (or the time is up), then
    ``settle`` seconds more; its whole log."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    process = subprocess.Popen(
        [sys.executable, "-m", "scoreboard", "run", "--config", str(config)],
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert process.stderr is not None
    log, deadline = [], time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            line = process.stderr.readline()
            if not line:
                break
            log.append(line)
            if wanted in line:
                time.sleep(settle)
                break
    finally:
        process.send_signal(signal.SIGTERM)
        rest = process.communicate(timeout=20)[1]
    return "".join(log) + rest


@pytest.fixture(scope="module")
def demo_journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The state dir of a demo of seed 4's shoe, 40 coups in (made once: each test copies it)."""
    state = tmp_path_factory.mktemp("demo") / "state"
    done = scoreboard("demo", *STILL, "--duration", "1", "--seed", SEED, "--start-at", "40",
                      "--state-dir", str(state))  # fmt: skip
    assert done.returncode == 0, done.stderr
    return state


def journal_copy(demo_journal: Path, tmp_path: Path) -> Path:
    """A state dir of its own for one display: the demo's journal, copied."""
    return Path(shutil.copytree(demo_journal, tmp_path / "state"))


@pytest.mark.parametrize("enabled", [True, False])
def test_run_shows_them_when_the_config_turns_them_on_with_its_thresholds(
    tmp_path, demo_journal, enabled
):
    """A keypad display replaying a journal the demo wrote: the board is that shoe's."""
    state = journal_copy(demo_journal, tmp_path)
    config = tmp_path / "display.yaml"
    config.write_text(
        "feed: keypad\n"
        f"display:\n  state_dir: {state}\n  windowed: true\n  size: 800x450\n"
        f"  good_roads: {{enabled: {str(enabled).lower()}, one_two: 5}}\n"
    )
    # Off, the board gets 3 s after the feed is up: on, its plate is logged within 0.5 s.
    if enabled:
        log = run_until(config, "good roads shown")
    else:
        log = run_until(config, "keypad:", settle=3.0)
    if enabled:
        assert f"good roads shown: {expected(GoodRoadRules(one_two=5))}" in log, log
    else:
        assert "good roads shown" not in log, log
    assert "Traceback" not in log


def test_a_threshold_the_config_makes_stricter_hides_a_shorter_pattern(tmp_path, demo_journal):
    state = journal_copy(demo_journal, tmp_path)
    config = tmp_path / "display.yaml"
    config.write_text(
        f"feed: keypad\ndisplay:\n  state_dir: {state}\n  windowed: true\n  size: 800x450\n"
        "  good_roads: {enabled: true, one_two: 6, double: 9, red: 9, chop: 9, streak: 9}\n"
    )
    log = run_until(config, "keypad:", settle=3.0)
    assert "good roads shown" not in log, log


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ("{enabled: maybe}", "display.good_roads.enabled"),
        ("{enabled: true, streak: 1}", "display.good_roads.streak"),
        ("{enabled: true, chop: 100}", "display.good_roads.chop"),
        ("{enabled: true, steak: 6}", "display.good_roads"),
        ("[streak, 6]", "display.good_roads"),
    ],
)
def test_a_bad_good_roads_section_is_one_line_naming_file_and_key(tmp_path, section, message):
    config = tmp_path / "display.yaml"
    config.write_text(f"display:\n  good_roads: {section}\n")
    done = scoreboard("run", "--config", str(config), "--headless")
    assert done.returncode == 2
    assert f"{config}: {message}" in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_the_section_is_off_by_default_and_shares_the_lobbys_thresholds():
    assert config_from_mapping({}).good_roads is None
    assert config_from_mapping({"display": {"good_roads": {"streak": 7}}}).good_roads is None
    on = config_from_mapping({"display": {"good_roads": {"enabled": True, "streak": 7}}})
    assert on.good_roads == GoodRoadRules(streak=7)
    with pytest.raises(ConfigError, match=r"lobby\.good_roads\.red"):
        from scoreboard.lobby.settings import lobby_from_mapping

        lobby_from_mapping({"lobby": {"good_roads": {"red": 0}}})
    with pytest.raises(ConfigError, match=r"display\.good_roads: expected lobby\.good_roads"):
        lobby_from_mapping({"display": {"good_roads": {"enabled": True}}})


def test_screenshot_good_roads_draws_the_plate_in_the_title_row(tmp_path):
    shots = {}
    for name, extra in (("on", ["--good-roads"]), ("off", [])):
        out = tmp_path / f"{name}.png"
        shot = ["screenshot", "-o", str(out), "--results", "B B B B B B B", "--clock", "12:00"]
        done = scoreboard(
            *shot, *extra
        )  # one clock: a minute turning between the shots is no plate
        assert done.returncode == 0, done.stderr
        shots[name] = pygame.image.load(str(out))
    diff = differing(shots["on"], shots["off"], step_x=4, step_y=2)
    assert diff, "no plate on the screenshot"
    ys = {y for _, y in diff}
    assert max(ys) - min(ys) < 0.04 * 1080  # one title row, nothing below it


def differing(
    one: pygame.Surface, other: pygame.Surface, step_x: int, step_y: int
) -> list[tuple[int, int]]:
    """The points of a ``step_x`` by ``step_y`` grid where the two pictures' pixels differ.

    What comparing ``get_at`` point by point finds (row by row), but a row both
    pictures share byte for byte is passed over whole.
    """
    width, height = one.get_size()
    assert other.get_size() == (width, height)
    a, b = pygame.image.tobytes(one, "RGBA"), pygame.image.tobytes(other, "RGBA")
    found = []
    for y in range(0, height, step_y):
        start, end = y * width * 4, (y + 1) * width * 4
        if a[start:end] == b[start:end]:
            continue
        found += [
            (x, y)
            for x in range(0, width, step_x)
            if a[start + 4 * x : start + 4 * x + 4] != b[start + 4 * x : start + 4 * x + 4]
        ]
    return found
