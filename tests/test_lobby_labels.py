"""The lobby's words are theme labels: renamed by a theme, checked by check-theme.

The promise under test: a theme that ``scoreboard check-theme`` passes draws in
the lobby without error, whatever its (valid) lobby labels say; one it refuses
is refused naming the file and the key.
"""

from __future__ import annotations

import json
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from pathlib import Path

import pygame
import pytest
from cli import scoreboard

from scoreboard.lobby import Floor, Listing, SortKey, arrange
from scoreboard.lobby.sample import sample_floor
from scoreboard.screen.theme.loading import load_theme, themes_dir
from scoreboard.screen.theme.values import Labels
from scoreboard.screen.wall._labels import LOBBY_LABELS, LobbyWords
from scoreboard.screen.wall.renderer import LobbyRenderer

NOW = 1_800_000_000.0

#: Odd but valid: placeholders reordered, repeated, beside braces-free punctuation, long.
ODD = {
    "lobby_title": "Salle ★ 百家樂 — tables de jeu, toutes ouvertes",
    "lobby_page": "{pages}:{page} ({page}/{pages})",
    "lobby_stale": "[{age}] silent",
    "lobby_stale_badge": "ZZZ",
    "lobby_waiting": "…",
    "lobby_waiting_badge": "W8",
    "lobby_no_tables": "Personne — nobody yet",
    "lobby_offline": "FEED DOWN!",
    "lobby_seconds": "{n}″",
    "lobby_minutes": "{n}′",
    "lobby_hours": "{n} hrs ({n})",
    "lobby_pit": "«{pit}»",
}


@pytest.fixture(scope="module", autouse=True)
def display():
    pygame.display.init()
    pygame.display.set_mode((1, 1))
    yield


def theme_file(tmp_path: Path, labels: dict[str, str], base: str = "classic") -> Path:
    """The shipped ``base`` theme with its English lobby labels replaced by ``labels``
    (and no header title of its own, so the lobby's title is its ``lobby_title``)."""
    lines = (themes_dir() / f"{base}.yaml").read_text(encoding="utf-8").splitlines()
    kept = [line for line in lines if not line.strip().startswith("lobby_")]
    kept = [line.replace("header_title: Baccarat", 'header_title: ""') for line in kept]
    at = kept.index("  en:") + 1
    for key, value in labels.items():
        kept.insert(at, f"    {key}: {json.dumps(value, ensure_ascii=False)}")  # YAML too
    path = tmp_path / "odd.yaml"
    path.write_text("\n".join(kept) + "\n", encoding="utf-8")
    return path


def test_every_lobby_word_is_a_theme_label_with_the_old_words_as_defaults():
    labels = Labels()
    assert set(LOBBY_LABELS.values()) <= {name for name in Labels.__dataclass_fields__}
    assert labels.lobby_page == "Page {page} / {pages}"
    assert labels.lobby_stale_badge == "NO UPDATE" and labels.lobby_offline == "NO FEED"
    midnight = LobbyWords(load_theme("midnight"))
    assert midnight.say("page", page="2", pages="5") == "Page 2 / 5 · 第 2 / 5 頁"
    assert midnight.age((4, "min")) == "No update for 4 min · 4分鐘未更新"


@pytest.mark.parametrize(
    ("key", "value", "problem"),
    [
        ("lobby_page", '"Page {page} / {pages"', "missing {pages}"),
        ("lobby_page", '"Page {page} / {pages} {foo}"', "unknown placeholder '{foo}'"),
        ("lobby_stale", '"No update"', "missing {age}"),
        ("lobby_minutes", '"{m} min"', "unknown placeholder '{m}'"),
        ("lobby_title", "[1, 2]", "lobby_title"),
        ("lobby_offline", "7", "lobby_offline"),
        # Blank: the header or a plate would show nothing (the review's combo.yaml).
        ("lobby_offline", '""', "expected a word to show"),
        ("lobby_stale_badge", '" "', "expected a word to show"),
        ("lobby_waiting_badge", '""', "expected a word to show"),
    ],
)
def test_check_theme_refuses_a_broken_lobby_label_naming_file_and_key(
    tmp_path, key, value, problem
):
    path = tmp_path / "broken.yaml"
    text = (themes_dir() / "classic.yaml").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if not line.strip().startswith(f"{key}:")]
    lines.insert(lines.index("  en:") + 1, f"    {key}: {value}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = scoreboard("check-theme", str(path))
    assert done.returncode != 0
    assert f"{path}: labels.en.{key}: " in done.stdout + done.stderr
    assert problem in done.stdout + done.stderr
    assert "Traceback" not in done.stderr


def states_floor() -> tuple[Floor, Floor]:
    """Live tables, a listed table never heard (waiting), all of them stale later."""
    floor = sample_floor(6, now=NOW)
    waiting = Floor([Listing("W1", name="Never heard")])
    return floor, waiting


@pytest.mark.parametrize("size", [(1920, 1080), (1080, 1920)], ids=["landscape", "portrait"])
def test_a_theme_check_theme_passes_draws_the_lobby_with_its_odd_words(tmp_path, size):
    path = theme_file(tmp_path, ODD)
    done = scoreboard("check-theme", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    theme = load_theme(path)
    live, waiting = states_floor()
    drawn: list[str] = []
    pages = [
        (arrange(live.views(NOW, 300), SortKey.NAME), True),  # live tiles
        (arrange(live.views(NOW + 90, 60), SortKey.NAME), True),  # stale: 90 s -> "2′"
        (arrange(live.views(NOW + 3 * 3600, 60), SortKey.NAME), True),  # 3 hrs
        (arrange(waiting.views(NOW, 300), SortKey.NAME), True),  # waiting
        ([], True),  # no tables
        ([], False),  # the lobby's own feed down
    ]
    for views, connected in pages:
        renderer = LobbyRenderer(theme, size)
        renderer.log = []
        renderer.draw(views, page=1, pages=3, connected=connected)
        drawn += [text.text for text in renderer.log]
    shown = "\n".join(drawn)
    for words in ("3:2 (2/3)", "ZZZ", "W8", "FEED DOWN!", "Personne", "Salle"):
        assert words in shown, (words, shown)
    assert "[2′] silent" in shown or "[2′]" in shown
    assert "[3 hrs (3)] silent" in shown or "[3 hrs" in shown
    for default in ("Page 2 / 3", "NO UPDATE", "WAITING", "NO FEED"):
        assert default not in shown
