"""What a lobby tile says matches what its table does (the review of the floor, round two).

Each case was found by an adversarial review with real processes, where the
tile and the lobby's status agreed with each other and both were wrong:

- limits scheduled for a time already past stayed "Limits —" for good, and
  limits scheduled ahead were never switched to;
- a stale retained will of an earlier session kept a dealing table OFFLINE;
- a controller restarted with shoe ids the lobby had seen kept its tile LIVE,
  frozen on the old shoe (the retained snapshot of a finished shoe counted as
  news of the table);
- a shuffling table advertised the finished shoe's good road;
- a stale tile kept the gold good-road border over its veiled data;
- the maximum bet was cut ("Max 100,…") where the numbers alone fit.

Driven through the lobby's own wall (``build_wall``, as ``scoreboard lobby``
builds it) on a real mosquitto, fed by a plain MQTT client publishing protocol
v2 payloads as a controller does; what is checked is what the screen shows.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import paho.mqtt.client as mqtt
import pygame
import pytest
from mqtt_broker import needs_mosquitto, running_broker, wait_for
from paho.mqtt.enums import CallbackAPIVersion

from scoreboard.cli import build_parser
from scoreboard.cli.commands.lobby import build_wall
from scoreboard.game.cards import parse_cards
from scoreboard.game.events import (
    ControllerStatus,
    CoupReceived,
    Event,
    LimitsReceived,
    NewShoe,
    Origin,
    Shuffle,
    Snapshot,
)
from scoreboard.game.limits import Limits
from scoreboard.game.rules import Game, deal_coup
from scoreboard.game.variants import VARIANTS
from scoreboard.protocol import Topics, wire
from scoreboard.screen.wall._tile import LobbyText

pytestmark = [needs_mosquitto, pytest.mark.usefixtures("pygame_display")]


def limits(low: int, high: int) -> Limits:
    bets = {"player": (low, high), "banker": (low, high), "tie": (5, 1000)}
    return Limits("USD", bets, VARIANTS["commission"].pays())


class Scene:
    """A lobby wall on a real broker, a controller's publisher, and what the screen says.

    The wall is stepped as its window steps it, on the lobby's own clocks (the times
    ``step`` is given); a test that waits for the lobby's time to pass (a table
    falling silent, limits coming due) moves those clocks ``ahead`` of the real ones
    instead of sleeping.  Messages still travel through the real broker in real time.
    """

    def __init__(self, wall: Any, publisher: mqtt.Client) -> None:
        self.wall, self.publisher = wall, publisher
        self.texts: dict[str, LobbyText] = {}  # the last drawn text of each part
        self.ahead = 0.0  # how far the lobby's clocks run ahead of the real ones
        self.handled = 0  # the messages the lobby's feed has applied so far
        poll = wall.feed.poll

        def counted(*args: Any) -> int:
            handled = poll(*args)
            self.handled += handled
            return handled

        wall.feed.poll = counted

    def send(self, table: str, event: Event, *, retain: bool = False) -> None:
        topic, payload = wire(Topics(f"baccarat/v2/{table}"), event)
        self.publisher.publish(topic, payload, qos=1, retain=retain).wait_for_publish(5)

    def step(self) -> dict[str, LobbyText]:
        self.wall.renderer.log = []
        self.wall.step(time.monotonic() + self.ahead, time.time() + self.ahead)
        self.texts.update({t.part: t for t in self.wall.renderer.log})
        return self.texts

    def says(self, part: str, text: str, timeout: float = 10.0) -> bool:
        return wait_for(lambda: self.step().get(part, _NONE).text == text, timeout)

    def heard(self) -> bool:
        """The lobby has applied one more message (the one just sent, nothing else is sent)."""
        goal = self.handled + 1
        return wait_for(lambda: bool(self.step()) and self.handled >= goal, 10)

    def later(self, part: str, text: str, seconds: float) -> bool:
        """The lobby's time passes, a quarter second a step, until ``part`` says ``text``."""
        end = self.ahead + seconds
        while self.step().get(part, _NONE).text != text:
            if self.ahead >= end:
                return False
            self.ahead += 0.25
        return True


_NONE = LobbyText("", "", pygame.Rect(0, 0, 0, 0), 0)


@contextmanager
def lobby_scene(tmp_path, *flags: str) -> Iterator[Scene]:
    with running_broker(tmp_path / "broker") as broker:
        publisher = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="controller-like")
        publisher.connect("127.0.0.1", broker.port)
        publisher.loop_start()
        args = ["lobby", "--mqtt", broker.address, "--windowed", "--size", "960x540"]
        wall = build_wall(build_parser().parse_args([*args, "--lobby-id", "W1", *flags]))
        wall.feed.start(wall.window.wake)
        try:
            assert wait_for(lambda: wall.feed.connected or bool(wall.step(0, time.time())), 10)
            yield Scene(wall, publisher)
        finally:
            wall.feed.stop()
            publisher.disconnect()  # at once; loop_stop alone waits out paho's 1 s poll
            publisher.loop_stop()


def game(number: int, tokens: str = "9H 2C KD 8S") -> Game:
    """Game ``number`` dealt from ``tokens`` in deal order (default: a natural Player 9 - 0)."""
    return Game(number, deal_coup(parse_cards(tokens.split())))


BANKER = "2H 9C 3D 8S KH"  # Player 5, draws a 0; Banker 7 stands: Banker wins


def coup(shoe: str, number: int, seq: int, session: int = 5) -> CoupReceived:
    return CoupReceived(shoe, game(number), origin=Origin(session, seq))


def test_limits_scheduled_in_the_past_show_at_once_and_ahead_switch_on_time(tmp_path):
    with lobby_scene(tmp_path) as scene:
        scene.send("X1", ControllerStatus(True, Origin(5, 1)), retain=True)
        scene.send("X1", Snapshot("X1-s1", (), origin=Origin(5, 2)), retain=True)
        past = LimitsReceived(limits(100, 50_000), Origin(5, 3), effective_at=time.time() - 3600)
        scene.send("X1", past, retain=True)
        assert scene.says("limits", "Min 100 · Max 50,000"), scene.texts.get("limits")
        soon = LimitsReceived(limits(25, 5_000), Origin(5, 4), effective_at=time.time() + 3)
        scene.send("X1", soon, retain=True)
        assert scene.heard()
        assert scene.step()["limits"].text == "Min 100 · Max 50,000"  # not yet
        assert scene.later("limits", "Min 25 · Max 5,000", 8)


def test_a_stale_retained_will_gives_way_to_the_table_dealing_live(tmp_path):
    with lobby_scene(tmp_path) as scene:
        scene.send("T2", Snapshot("T2-s1", (), origin=Origin(4, 8)), retain=True)
        scene.step()
        scene.send("T2", ControllerStatus(False, Origin(4, 9)), retain=True)  # session 4's will
        assert scene.says("state", "OFFLINE")
        scene.send("T2", NewShoe("T2-s2", origin=Origin(5, 1)))  # the restarted controller
        scene.send("T2", coup("T2-s2", 1, 2))
        assert scene.says("state", "LIVE"), scene.texts["state"]


def test_a_finished_shoe_named_again_is_no_news_of_the_table(tmp_path):
    with lobby_scene(tmp_path, "--stale-seconds", "5") as scene:
        scene.send("T3", ControllerStatus(True, Origin(5, 1)), retain=True)
        scene.send("T3", NewShoe("T3-s1", origin=Origin(5, 2)))
        scene.send("T3", coup("T3-s1", 1, 3))
        scene.send("T3", NewShoe("T3-s2", previous="T3-s1", origin=Origin(5, 4)))
        assert scene.says("state", "LIVE")
        deadline = scene.ahead + 7
        while scene.ahead < deadline:  # a controller naming the finished shoe again
            scene.send("T3", Snapshot("T3-s1", (game(1),), origin=Origin(6, 1)))
            assert scene.heard()
            scene.ahead += 0.3
        assert scene.later("state", "NO UPDATE", 3), scene.texts["state"]


def test_a_shuffling_table_shows_no_good_road_and_a_stale_one_no_gold_border(tmp_path):
    accent = None
    with lobby_scene(tmp_path, "--stale-seconds", "5") as scene:
        accent = scene.wall.renderer.theme.colors.accent
        scene.send("S1", ControllerStatus(True, Origin(5, 1)), retain=True)
        games = tuple(game(n, BANKER) for n in range(1, 9))
        scene.send("S1", Snapshot("S1-a", games, origin=Origin(5, 2)))
        assert scene.says("good", "Long Banker 長莊 8"), scene.texts.get("good")
        name = scene.texts["name"].rect
        corner = (name.left - 2, name.top - 2)
        assert wait_for(lambda: border_near(scene, corner, accent), 2)  # the gold border
        scene.send("S1", Shuffle("S1-a", origin=Origin(5, 3)))
        assert scene.says("state", "Shuffling")
        assert not any(v.good for v in scene.wall.floor.views(time.monotonic(), 5))
        assert not border_near(scene, corner, accent)
        scene.send("S1", Snapshot("S1-b", games, origin=Origin(5, 4)))  # a new shoe, 8 Bankers
        assert scene.says("good", "Long Banker 長莊 8")
        assert scene.later("state", "NO UPDATE", 8)  # then the table falls silent
        assert not border_near(scene, corner, accent)


def border_near(scene: Scene, point: tuple[int, int], color) -> bool:
    """Any pixel of ``color`` within a few pixels up-left of ``point``: the tile's border."""
    scene.step()
    frame = scene.wall.renderer.frame
    x0, y0 = point
    return any(
        tuple(frame.get_at((x, y)))[:3] == tuple(color)
        for x in range(max(0, x0 - 8), x0 + 1)
        for y in range(max(0, y0 - 8), y0 + 1)
    )


@pytest.mark.parametrize("tables", [11, 12])  # where "Max 100,000" was cut
def test_a_tiles_limits_never_cut_a_number(tables):
    from scoreboard.lobby.floor import Floor
    from scoreboard.screen.theme.loading import load_theme
    from scoreboard.screen.wall.renderer import LobbyRenderer

    floor = Floor()
    for n in range(1, tables + 1):
        entry = floor.entry(f"T{n}")
        entry.take(ControllerStatus(True, Origin(1, 1)), 1000.0)
        low = (10, 25, 50, 100, 500)[n % 5]
        entry.take(LimitsReceived(limits(low, low * 200), Origin(1, 2)), 1000.0)
        entry.take(Snapshot(f"T{n}-s", (game(1),), origin=Origin(1, 3)), 1000.0)
    renderer = LobbyRenderer(load_theme("classic"), (1920, 1080))
    renderer.log = []
    renderer.draw(floor.views(1000.0, 300), page=0, pages=1, connected=True)
    shown = [t.text for t in renderer.log if t.part == "limits"]
    assert len(shown) == tables and not [s for s in shown if "…" in s], shown
    for n, text in zip(range(1, tables + 1), shown, strict=True):
        low = (10, 25, 50, 100, 500)[n % 5]
        assert f"{low:,}" in text and f"{low * 200:,}" in text


def test_a_road_longer_than_its_tile_shows_its_newest_columns_inside_the_road_area():
    from scoreboard.game.rules import Winner, result_coup
    from scoreboard.lobby.floor import Floor
    from scoreboard.screen.theme.loading import load_theme
    from scoreboard.screen.wall._layout import tile_layout
    from scoreboard.screen.wall.renderer import LobbyRenderer

    theme = load_theme("classic")
    chop = tuple(  # Banker, Player, Banker...: 999 columns of one mark each
        Game(n, result_coup(Winner.BANKER if n % 2 else Winner.PLAYER)) for n in range(1, 1000)
    )
    floor = Floor()
    entry = floor.entry("M1")
    entry.take(ControllerStatus(True, Origin(1, 1)), 1000.0)
    entry.take(Snapshot("M1-s", chop, origin=Origin(1, 2)), 1000.0)
    renderer = LobbyRenderer(theme, (1920, 1080))
    renderer.draw(floor.views(1000.0, 300), page=0, pages=1, connected=True)
    tile = renderer.layout.tiles[0]
    road = tile_layout(tile).road
    frame = renderer.frame
    beside = [  # right of the road area, inside the tile, on the road's rows
        tuple(frame.get_at((x, y)))[:3]
        for x in range(road.right + 1, tile.right - 3)
        for y in range(road.top + 2, road.bottom - 2, 3)
    ]
    edges = {theme.colors.panel, theme.colors.border, theme.colors.accent}  # (a chop: gold)
    assert set(beside) <= edges, set(beside)
    inked = [  # the road's last column holds the newest mark (game 999: Banker, red)
        x
        for x in range(road.left, road.right)
        for y in range(road.top, road.top + 12)
        if tuple(frame.get_at((x, y)))[:3] == tuple(theme.colors.banker)
    ]
    assert inked and max(inked) > road.right - 24, (inked[-1:], road)


def test_a_forged_far_ahead_session_does_not_keep_the_real_table_live(tmp_path):
    """An unsigned stranger's snapshot under session 2^53-2: the real table deals on, ignored.

    The lobby reads a table's games from its snapshots (the controller publishes
    one after every coup), so the real controller dealing is its snapshots.
    """
    with lobby_scene(tmp_path) as scene:
        scene.send("T7", ControllerStatus(True, Origin(5, 1)), retain=True)
        scene.send("T7", Snapshot("T7-s1", (game(1),), origin=Origin(5, 2)), retain=True)
        assert scene.says("state", "LIVE")
        forged = tuple(game(n, BANKER) for n in range(1, 11))
        scene.send("T7", Snapshot("T7-x", forged, origin=Origin(2**53 - 2, 1)))
        assert scene.says("good", "Long Banker 長莊 10")  # the forgery took the tile...
        dealt = 1
        deadline = scene.ahead + 8  # ...while the real controller deals on
        while scene.ahead < deadline and scene.step()["state"].text == "LIVE":
            dealt += 1
            games = tuple(game(n) for n in range(1, dealt + 1))
            scene.send("T7", Snapshot("T7-s1", games, origin=Origin(5, dealt + 1)), retain=True)
            assert scene.heard()
            scene.ahead += 0.3
        assert scene.step()["state"].text == "OFFLINE", scene.texts["state"]  # as its board does
