"""Lobby pages drawn for real (SDL dummy driver): layout, text sizes, pixels, dirty tiles.

Sizes: 1080p and 4K landscape and a 1080 x 1920 portrait wall; 4, 16 and 48
tables on a page and 200 tables over pages of 48.  The rule on text chosen for
a wall read from a few metres: at 16 tables on 1080p, a table's name and its
minimum bet have capitals at least 2.5 % of the screen's height (27 px); at any
size and count, at least 1.2 % of the shorter side.
"""

from __future__ import annotations

import functools
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from scoreboard.game.events import ControllerStatus, Origin, Snapshot
from scoreboard.lobby import Floor, Listing, SortKey, TileState, arrange, paged
from scoreboard.lobby.sample import dealt_games, sample_floor
from scoreboard.screen.theme.loading import load_theme
from scoreboard.screen.wall.renderer import LobbyRenderer

NOW = 1_800_000_000.0
SIZES = [(1920, 1080), (3840, 2160), (1080, 1920)]


@pytest.fixture(scope="module", autouse=True)
def display():
    pygame.display.init()
    pygame.display.set_mode((1, 1))
    yield


@functools.cache
def floor_of(count: int) -> Floor:
    return sample_floor(count, now=NOW)


@functools.cache
def theme(name: str = "classic"):
    return load_theme(name)


def drawn(size, views, page=0, pages=1, theme_name="classic"):
    renderer = LobbyRenderer(theme(theme_name), size)
    renderer.log = []
    renderer.draw(views, page=page, pages=pages, connected=True)
    return renderer


def pixel(renderer: LobbyRenderer, x: int, y: int) -> tuple[int, int, int]:
    return tuple(renderer.frame.get_at((x, y)))[:3]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("count", [4, 16, 48, 200])
def test_tiles_lie_inside_the_screen_apart_with_readable_text(size, count) -> None:
    views = arrange(floor_of(count).views(NOW, 300), SortKey.NAME)
    pages = paged(views, 48)
    last = len(pages) - 1
    renderer = drawn(size, pages[last], page=last, pages=len(pages))
    screen = pygame.Rect((0, 0), size)
    tiles = renderer.layout.tiles
    assert len(tiles) == max(4, len(pages[last]))
    for index, tile in enumerate(tiles):
        assert screen.contains(tile)
        assert not renderer.layout.header.colliderect(tile)
        assert not renderer.layout.footer.colliderect(tile)
        assert tile.collidelist(tiles[index + 1 :]) == -1
        assert tile.width > tile.height  # landscape tiles, whatever the screen
    log = renderer.log
    for text in log:
        assert screen.contains(text.rect), text
    by_part: dict[str, list] = {}
    for text in log:
        by_part.setdefault(text.part, []).append(text)
    shown = len(pages[last])
    assert len(by_part["name"]) == shown and len(by_part["limits"]) == shown
    for text in [*by_part["name"], *by_part["limits"]]:
        assert any(tile.contains(text.rect) for tile in tiles)  # each text inside a tile
        assert text.cap >= 0.012 * min(size), text
    assert [t.text for t in by_part["disclaimer"]] == [
        "Past results do not predict future results."
    ]
    if len(pages) > 1:
        assert [t.text for t in by_part["page"]] == [f"Page {last + 1} / {len(pages)}"]


def test_at_16_tables_on_1080p_name_and_minimum_are_read_from_metres_away() -> None:
    renderer = drawn((1920, 1080), floor_of(16).views(NOW, 300))
    parts = [t for t in renderer.log if t.part in ("name", "limits")]
    assert len(parts) == 32
    assert min(t.cap for t in parts) >= 0.025 * 1080
    assert all("…" not in t.text for t in parts)  # nothing cut


def test_a_live_tile_shows_its_state_colour_and_limits() -> None:
    classic = theme()
    renderer = drawn((1920, 1080), floor_of(4).views(NOW, 300))
    state = next(t for t in renderer.log if t.part == "state")
    assert state.text == "LIVE"
    left_of_word = (state.rect.left - 4, state.rect.centery)
    assert pixel(renderer, *left_of_word) == classic.colors.ok
    limits = [t.text for t in renderer.log if t.part == "limits"]
    assert limits[0] == "Min 10 · Max 2,000"
    outside = renderer.layout.tiles[0].bottomright
    assert pixel(renderer, outside[0] + 2, outside[1] + 2) == classic.colors.background


def table(table_id: str, *, games: int = 10, online: bool | None = True) -> Floor:
    floor = Floor([Listing(table_id, name="Hall 1", pit="VIP")])
    entry = floor.entry(table_id)
    if online is not None:
        entry.take(ControllerStatus(True, Origin(5, 1)), NOW)
    shoe, dealt = dealt_games(11, games)
    entry.take(Snapshot(shoe, dealt, origin=Origin(5, 1)), NOW)
    if online is False:
        entry.take(ControllerStatus(False, Origin(5, 0)), NOW)
    return floor


def test_a_stale_tile_says_how_long_and_veils_its_road() -> None:
    fresh = drawn((1920, 1080), table("T1").views(NOW, 300))
    old = drawn((1920, 1080), table("T1").views(NOW + 241, 240))
    words = {t.part: t.text for t in old.log}
    assert words["state"] == "NO UPDATE"
    assert words["age"] == "No update for 5 min"  # 4 min 1 s, rounded up: never younger
    assert words["name"] == "Hall 1"  # its last good data stays, under the age
    top = next(t for t in fresh.log if t.part == "limits").rect.bottom
    bottom = next(t for t in fresh.log if t.part == "info").rect.top
    panel = theme().colors.panel
    marks = [
        (x, y)
        for y in range(top, bottom, 2)
        for x in range(20, 400, 2)
        if pixel(fresh, x, y) not in (panel, theme().colors.grid)
    ]
    assert marks, "the fresh tile's road has marks"
    assert all(pixel(old, x, y) != pixel(fresh, x, y) for x, y in marks)  # veiled


def test_a_tile_names_its_pit_first_so_the_pit_sort_reads_as_groups() -> None:
    listed = drawn((1920, 1080), table("T1").views(NOW, 300))
    info = next(t for t in listed.log if t.part == "info")
    assert info.text == "Pit VIP · Game 10 · Shoe 1"
    shoe_id = listed_floor_shoe(table("T1"))
    assert not [t.text for t in listed.log if shoe_id in t.text]  # ids are for machines
    discovered = Floor([])  # heard of on the feed, no pit in any config
    discovered.entry("T9").take(ControllerStatus(True, Origin(5, 1)), NOW)
    unlisted = drawn((1920, 1080), discovered.views(NOW, 300))
    assert next(t for t in unlisted.log if t.part == "info").text.startswith("Game 0 · ")


def listed_floor_shoe(floor: Floor) -> str:
    (view,) = floor.views(NOW, 300)
    assert view.shoe is not None
    return view.shoe


@pytest.mark.parametrize("pages", [1, 3])
def test_the_header_shows_the_clock_at_its_right_end_past_the_page(pages) -> None:
    renderer = LobbyRenderer(theme(), (1920, 1080))
    renderer.log = []
    views = table("T1").views(NOW, 300)
    renderer.draw(views, page=0, pages=pages, connected=True, clock="21:45")
    clock = next(t for t in renderer.log if t.part == "clock")
    assert clock.text == "21:45"
    assert renderer.layout is not None and renderer.layout.header.contains(clock.rect)
    assert 1920 - clock.rect.right < 60  # at the right end
    if pages > 1:
        page = next(t for t in renderer.log if t.part == "page")
        assert page.rect.right < clock.rect.left  # apart, never over it
    renderer.log = []
    renderer.draw(views, page=0, pages=pages, connected=True, clock="21:46")
    assert [t.text for t in renderer.log if t.part == "clock"] == ["21:46"]  # redrawn


def test_an_offline_tile_says_so_in_the_error_colour() -> None:
    floor = table("T1", online=False)
    assert floor.tables["T1"].state(NOW, 300) is TileState.OFFLINE
    renderer = drawn((1920, 1080), floor.views(NOW, 300))
    state = next(t for t in renderer.log if t.part == "state")
    assert state.text == "OFFLINE"
    assert pixel(renderer, state.rect.left - 4, state.rect.centery) == theme().colors.error


def test_unknown_limits_are_never_made_up() -> None:
    renderer = drawn((1920, 1080), table("T1").views(NOW, 300))
    assert [t.text for t in renderer.log if t.part == "limits"] == ["Limits —"]


def test_a_coup_on_one_table_redraws_only_its_tile() -> None:
    floor = sample_floor(16, now=NOW)
    renderer = LobbyRenderer(theme(), (1920, 1080))
    renderer.draw(floor.views(NOW, 300), page=0, pages=1, connected=True)
    before = renderer.frame.copy()
    assert renderer.draw(floor.views(NOW + 1, 300), page=0, pages=1, connected=True) == []
    entry = floor.tables["T6"]
    shoe, games = dealt_games(6, len(entry.table.games) + 1)  # the same shoe, one more coup
    entry.take(Snapshot(shoe, games, origin=Origin(1, 9)), NOW + 2)
    dirty = renderer.draw(floor.views(NOW + 2, 300), page=0, pages=1, connected=True)
    slot = renderer.layout.tiles[5]
    assert dirty == [slot]
    after = renderer.frame.copy()

    def tile(frame: pygame.Surface) -> bytes:
        return pygame.image.tobytes(frame.subsurface(slot).copy(), "RGB")

    assert tile(after) != tile(before)
    for frame in (before, after):
        frame.fill((0, 0, 0), slot)
    assert pygame.image.tobytes(after, "RGB") == pygame.image.tobytes(before, "RGB")


def test_a_bilingual_theme_names_good_roads_in_english_and_chinese() -> None:
    views = floor_of(48).views(NOW, 300)
    good = [v for v in views if v.good]
    assert good, "the sample floor has good roads"
    renderer = drawn((1920, 1080), good[:4], theme_name="midnight")
    texts = [t.text for t in renderer.log if t.part == "good"]
    assert texts and all(any("\u4e00" <= c <= "\u9fff" for c in t) for t in texts)
    assert any("Past results" in t.text and "過往" in t.text for t in renderer.log)


def test_an_empty_lobby_says_it_waits_until_the_first_table_comes() -> None:
    renderer = LobbyRenderer(theme(), (1920, 1080))
    renderer.log = []
    renderer.draw([], page=0, pages=1, connected=False)
    words = {t.part: t.text for t in renderer.log}
    assert words["waiting"] == "Waiting for the tables" and words["feed"] == "NO FEED"
    renderer.log = []
    dirty = renderer.draw(table("T1").views(NOW, 300), page=0, pages=1, connected=True)
    assert dirty == [renderer.frame.get_rect()]  # the message goes with the whole page
    assert "waiting" not in {t.part for t in renderer.log}


@pytest.mark.parametrize("count", [4, 8, 16])
def test_a_few_tiles_on_a_portrait_wall_stay_tiles_and_keep_the_minimum(count) -> None:
    views = floor_of(16).views(NOW, 300)[:count]
    renderer = drawn((1080, 1920), views, theme_name="midnight")
    for tile in renderer.layout.tiles:
        assert 1.5 <= tile.width / tile.height <= 2.6
    for view, text in zip(views, [t for t in renderer.log if t.part == "limits"], strict=True):
        low, high = view.bets
        # The words, or where they would cut a number the numbers alone: never cut.
        assert text.text in (f"Min {low:,} · Max {high:,}", f"{low:,} – {high:,}"), text.text
    states = [t.text for t in renderer.log if t.part == "state"]
    assert states and all("…" not in state for state in states)  # one language, never cut
