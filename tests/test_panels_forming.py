"""The last hand while a hand is dealt: card backs in the seats dealt, faces only with the coup;
the shoe's staff mark in the footer; both in the display status."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pygame
import pytest
from cli import scoreboard
from dealt import dealt_shoe
from jsonschema import Draft202012Validator

from scoreboard.game.events import CardDealt, ShoeHealth
from scoreboard.protocol import CoupReceived, NewShoe, apply_event, display_status
from scoreboard.screen.board._card_back import card_back
from scoreboard.screen.board._hand import (
    card_areas,
    card_face,
    card_height,
    card_places,
    corner_radius,
    draw_last_coup,
    turned,
)
from scoreboard.screen.board.panels import DrawnText
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.loading import available_themes, load_theme, parse_theme
from scoreboard.table.applied import FeedStatus
from scoreboard.table.shoe_watch import deals_of
from scoreboard.table.state import TableState

pytestmark = pytest.mark.usefixtures("pygame_display")

SHOE = dealt_shoe(5)
#: A hand where both sides draw a third card: every seat is dealt.
GAME = next(g for g in SHOE.games if len(g.coup.player) == 3 and len(g.coup.banker) == 3)
SIZE = (1920, 1080)


def table_before() -> TableState:
    table = TableState(table_id="T1")
    apply_event(table, NewShoe(SHOE.shoe))
    for game in SHOE.games[: GAME.number - 1]:
        apply_event(table, CoupReceived(SHOE.shoe, game))
    return table


def layout(renderer: Renderer, dealt: set[str]) -> dict[str, pygame.Rect]:
    """Where each seat's card lies in the last hand with ``dealt`` seats (a hand is laid out
    for two cards, or three once its third is dealt, as for its coup)."""
    p = renderer.panels
    areas = card_areas(p, p.layout.panels["last_coup"].body)
    counts = [3 if f"{side}3" in dealt else 2 for side in "PB"]
    card_h = min(card_height(area, count) for area, count in zip(areas, counts, strict=True))
    return {
        f"{side}{n + 1}": place
        for side, area, count in zip("PB", areas, counts, strict=True)
        for n, place in enumerate(card_places(area, count, card_h))
    }


def faces(renderer: Renderer, dealt: set[str]) -> list[tuple[pygame.Rect, pygame.Surface]]:
    """Each of GAME's cards as :func:`card_face` draws it, where its seat lies."""
    p = renderer.panels
    hands = {"P": GAME.coup.player, "B": GAME.coup.banker}
    found = []
    for seat, place in layout(renderer, dealt).items():
        card = hands[seat[0]][int(seat[1]) - 1]
        third = seat.endswith("3")
        face, _ = card_face(p, card, (place.height, place.width) if third else place.size)
        found.append((place, turned(p, card, face) if third else face))
    return found


def inner(surface: pygame.Surface, rect: pygame.Rect, radius: int) -> bytes:
    """The pixels of ``rect`` within ``surface`` but its rounded corners."""
    return pygame.image.tobytes(surface.subsurface(rect.inflate(-2 * radius, -2 * radius)), "RGB")


def shows(frame: pygame.Surface, place: pygame.Rect, drawn: pygame.Surface) -> bool:
    """Whether ``frame`` holds ``drawn`` at ``place`` (its corners aside)."""
    radius = corner_radius(min(place.size))
    alone = pygame.Surface(place.size)
    alone.blit(frame.subsurface(place), (0, 0))
    alone.blit(drawn, (0, 0))
    return inner(frame, place, radius) == inner(alone, alone.get_rect(), radius)


@pytest.mark.parametrize("name", available_themes())
def test_the_hand_forms_face_down_and_its_faces_come_only_with_its_coup(name):
    renderer = Renderer(load_theme(name), SIZE, motion=False)
    table = table_before()
    p = renderer.panels
    for n, event in enumerate(deals_of(SHOE.shoe, GAME, faces=True)):  # a Bee-Tek: faces known
        assert event.card is not None
        apply_event(table, event)
        frame = renderer.render(table, FeedStatus.LIVE).copy()
        dealt = {str(d.seat) for d in deals_of(SHOE.shoe, GAME)[: n + 1]}
        for place, face in faces(renderer, dealt):
            assert not shows(frame, place, face), (name, n, event.seat)
        for seat, place in layout(renderer, dealt).items():
            back = card_back(p, place.size, corner_radius(min(place.size)))
            assert shows(frame, place, back) is (seat in dealt), (name, seat, dealt)
    apply_event(table, CoupReceived(SHOE.shoe, GAME))
    assert table.forming is None
    frame = renderer.render(table, FeedStatus.LIVE)
    every = {str(d.seat) for d in deals_of(SHOE.shoe, GAME)}
    assert all(shows(frame, place, face) for place, face in faces(renderer, every))  # it can see


def test_no_rank_is_written_while_the_hand_forms():
    renderer = Renderer(load_theme("classic"), SIZE, motion=False)
    table = table_before()
    for event in deals_of(SHOE.shoe, GAME, faces=True):
        apply_event(table, event)
    log: list[DrawnText] = []
    renderer.panels.log = log
    draw_last_coup(renderer.panels, renderer.static.copy(), table)
    renderer.panels.log = None
    texts = [d.text for d in log]
    assert f"#{GAME.number}" in " ".join(texts) and texts.count("–") == 2  # no total either
    ranks = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"}
    assert not ranks & set(texts)


def footer_warning(renderer: Renderer, frame: pygame.Surface) -> int:
    box = renderer.layout.panels["footer"].rect
    right = pygame.Rect(box.centerx, box.y, box.right - box.centerx, box.h)
    mask = pygame.mask.from_threshold(
        frame.subsurface(right), renderer.theme.colors.warning, (8, 8, 8, 255)
    )
    return mask.count()


@pytest.mark.parametrize("name", available_themes())
def test_the_shoe_mark_appears_and_clears(name):
    renderer = Renderer(load_theme(name), SIZE, motion=False)
    table = table_before()
    log: list[DrawnText] = []
    renderer.panels.log = log
    renderer.update(table, FeedStatus.LIVE)
    assert footer_warning(renderer, renderer.frame) == 0
    for condition, words in (("device", "SHOE OFFLINE"), ("error:E05", "SHOE ERROR E05")):
        apply_event(table, ShoeHealth(condition, "raised", "for the test"))
        log.clear()
        renderer.update(table, FeedStatus.LIVE)
        assert footer_warning(renderer, renderer.frame) > 40
        assert words in [d.text for d in log], (condition, [d.text for d in log])
        apply_event(table, ShoeHealth(condition, "cleared"))
        log.clear()
        renderer.update(table, FeedStatus.LIVE)
        assert footer_warning(renderer, renderer.frame) == 0, condition
    renderer.panels.log = None


def test_the_display_status_says_the_shoes_health_and_the_hand_dealt():
    table = table_before()
    apply_event(table, ShoeHealth("device", "raised", "/dev/ttyUSB0 is gone"))
    apply_event(table, ShoeHealth("bad_bytes", "seen", "05 ff"))
    apply_event(table, CardDealt(SHOE.shoe, GAME.number, deals_of(SHOE.shoe, GAME)[0].seat))
    status = display_status("d1", table, rejected=0, feed="connected")
    assert status["shoe_health"] == {
        "mark": "offline",
        "raised": [{"condition": "device", "detail": "/dev/ttyUSB0 is gone"}],
        "seen": {"bad_bytes": 1, "device": 1},
    }
    assert status["dealing"] == {"game": GAME.number, "seats": ["P1"]}
    text = resources.files("scoreboard.schemas").joinpath("display_status.json").read_text()
    assert list(Draft202012Validator(json.loads(text)).iter_errors(status)) == []


def test_screenshot_draws_a_hand_being_dealt_and_the_shoe_mark(tmp_path):
    """``scoreboard screenshot --dealing N --shoe-health C`` as a process: what staff see."""
    shots = {}
    for name, extra in (("plain", []), ("dealt", ["--dealing", "3", "--shoe-health", "device"])):
        out = tmp_path / f"{name}.png"
        done = scoreboard("screenshot", "-o", str(out), "--seed", "5", "--coups", "9", *extra)
        assert done.returncode == 0, done.stderr
        shots[name] = pygame.image.load(str(out))
    renderer = Renderer(load_theme("classic"), SIZE, motion=False)
    dealt = shots["dealt"]
    for seat, place in layout(renderer, {"P1", "B1", "P2"}).items():
        back = card_back(renderer.panels, place.size, corner_radius(min(place.size)))
        assert shows(dealt, place, back) is (seat in {"P1", "B1", "P2"}), seat
    assert footer_warning(renderer, dealt) > 40 and footer_warning(renderer, shots["plain"]) == 0
    refused = scoreboard("screenshot", "-o", str(tmp_path / "x.png"), "--shoe-health", "Bad!")
    assert refused.returncode == 2 and "expected a key such as device" in refused.stderr
    assert "Traceback" not in refused.stderr


def test_with_motion_the_coup_turns_the_hand_over_card_by_card():
    """A hand dealt face down is turned over in deal order: the cards not yet shown stay backs."""
    renderer = Renderer(load_theme("classic"), SIZE)
    assert renderer.motion is not None
    table = table_before()
    for event in deals_of(SHOE.shoe, GAME, faces=True):
        apply_event(table, event)
    renderer.update(table, FeedStatus.LIVE, now=100.0)
    apply_event(table, CoupReceived(SHOE.shoe, GAME))
    order = [str(d.seat) for d in deals_of(SHOE.shoe, GAME)]
    places = layout(renderer, set(order))
    face_of = dict(zip(places, (face for _, face in faces(renderer, set(order))), strict=True))
    step = renderer.motion.settings.deal_seconds
    for shown in (1, 3, 6):
        now = 200.0 + (shown - 1) * step + step / 3
        if shown == 1:
            renderer.update(table, FeedStatus.LIVE, now=now)  # the coup arrives
        else:
            renderer.blink(now)
        for seat, place in places.items():
            back = card_back(renderer.panels, place.size, corner_radius(min(place.size)))
            up = seat in order[:shown]
            assert shows(renderer.frame, place, back) is not up, (shown, seat)
            assert shows(renderer.frame, place, face_of[seat]) is up, (shown, seat)


def test_a_layout_without_a_footer_carries_the_shoe_mark_in_the_header(tmp_path):
    classic = load_theme("classic")
    source = Path(classic.source).read_text(encoding="utf-8")
    source = re.sub(r"\n +- \{name: footer,[^\n]*", "", source)
    renderer = Renderer(parse_theme(source, tmp_path / "no-footer.yaml"), SIZE, motion=False)
    assert "footer" not in renderer.layout.panels
    table = table_before()
    apply_event(table, ShoeHealth("error:7", "raised"))
    log: list[DrawnText] = []
    renderer.panels.log = log
    renderer.render(table, FeedStatus.LIVE, clock="21:45")
    renderer.panels.log = None
    assert "SHOE ERROR 7" in [d.text for d in log]
