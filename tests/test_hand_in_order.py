"""The hand in order (issue 25): the winner banner names the coup whose cards are on
screen, and the roads, the counters and the ask road take a coup when its last card
has landed (at once with motion off), at a 1.5 s pace, a 3 s pace and in a burst.

First the pure timing model, then real renders compared pixel for pixel with boards
drawn from scratch before and after the coup."""

from __future__ import annotations

import pygame
import pytest

from scoreboard.game.cards import parse_cards
from scoreboard.game.rules import Coup, Game, record_coup
from scoreboard.screen.board._banner import banner_look
from scoreboard.screen.board._motion import Motion, MotionSettings
from scoreboard.screen.board.renderer import Renderer
from scoreboard.screen.theme.loading import load_theme
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState

SIZE = (1920, 1080)
SETTINGS = MotionSettings(enabled=True, deal_seconds=0.3, banner_seconds=3.0, draw_in_seconds=0.35)
#: Four, five and six cards: the reveal takes 1.2 s, 1.5 s and 1.8 s.
FOUR = record_coup(parse_cards(["9S", "KH"]), parse_cards(["4D", "3C"]))  # Player 9 – 7
FIVE = record_coup(parse_cards(["2S", "3H", "3D"]), parse_cards(["3C", "4C"]))  # Player 8 – 7
SIX = record_coup(parse_cards(["2S", "3H", "5H"]), parse_cards(["3D", "2C", "2D"]))  # Banker 7 – 0
HANDS = (FOUR, FIVE, SIX, FIVE, FOUR, SIX, SIX, FOUR)
WATCHED = ("big_road", "bead_plate", "counters", "predictions")

pytestmark = pytest.mark.usefixtures("pygame_display")


@pytest.fixture(scope="module")
def theme():
    return load_theme("classic")


def start_table(coups: int) -> TableState:
    table = TableState()
    table.new_shoe("S1")
    for n in range(1, coups + 1):
        table.add_game(Game(n, HANDS[n % len(HANDS)]))
    return table


def timeline(pace: float, count: int) -> list[tuple[float, Coup]]:
    return [(10.0 + i * pace, HANDS[i % len(HANDS)]) for i in range(count)]


def banner_of(motion: Motion, coup: Coup) -> str:
    return banner_look(motion.theme, coup).text


# -- the timing model ----------------------------------------------------------------------
@pytest.mark.parametrize("pace", [1.5, 3.0, 0.2])
def test_the_banner_only_names_the_coup_whose_cards_are_on_screen(theme, pace):
    renderer = Renderer(theme, SIZE, motion=False)
    motion = Motion(SETTINGS, renderer.panels, renderer.layout)
    table, arrivals = start_table(0), timeline(pace, 8)
    on_screen: Coup | None = None
    end = arrivals[-1][0] + 5.0
    named = 0
    for step in range(round(10.0 / 0.01), round(end / 0.01)):
        now = step * 0.01
        while arrivals and arrivals[0][0] <= now + 1e-9:
            _, coup = arrivals.pop(0)
            table.add_game(Game(table.last_number + 1, coup))
            motion.coup_arrived(table, now)
            on_screen = coup
        look = motion.banner_look(now)
        if look is None or motion.cards_shown(now) == 0:
            continue  # no banner, or no card of the newest coup on view yet
        assert on_screen is not None
        assert look.text == banner_of(motion, on_screen), f"at {now:.2f}s"
        named += 1
    assert named > 0 or pace < 1.0


@pytest.mark.parametrize("pace", [1.5, 3.0])
def test_each_coup_lands_and_is_named_before_the_next_is_due(theme, pace):
    """At a steady pace every coup's last card lands and its banner is up before the next
    coup arrives (at 1.5 s a six-card hand takes 1.8 s at the theme's deal step)."""
    renderer = Renderer(theme, SIZE, motion=False)
    motion = Motion(SETTINGS, renderer.panels, renderer.layout)
    table = start_table(0)
    for arrival, coup in timeline(pace, 8):
        due = arrival + pace
        table.add_game(Game(table.last_number + 1, coup))
        motion.coup_arrived(table, arrival)
        assert not motion.settled(arrival + 0.01)
        assert motion.cards_shown(arrival + 0.01) in (0, 1)
        before_next = due - 0.01
        assert motion.settled(before_next), f"coup at {arrival} not landed by {before_next}"
        assert motion.cards_shown(before_next) is None
        look = motion.banner_look(before_next)
        assert look is not None and look.text == banner_of(motion, coup)


# -- real renders --------------------------------------------------------------------------
def pixels(surface: pygame.Surface, rect: pygame.Rect) -> bytes:
    return pygame.image.tobytes(surface.subsurface(rect), "RGB")


class Board:
    """A kiosk's renderer dealt coups at given times, and boards drawn from scratch."""

    def __init__(self, theme, motion: bool, first: int = 20) -> None:
        self.theme = theme
        self.renderer = Renderer(theme, SIZE, motion=motion)
        self.table = start_table(first)
        self.renderer.render(self.table, FeedStatus.DEMO, now=0.0)
        self.plain: dict[int, pygame.Surface] = {}
        self.now = 0.0

    def drawn(self, coups: int) -> pygame.Surface:
        """The board of the first ``coups`` coups, drawn from scratch without motion."""
        if coups not in self.plain:
            fresh = Renderer(self.theme, SIZE, motion=False)
            self.plain[coups] = fresh.render(start_table(coups), FeedStatus.DEMO).copy()
        return self.plain[coups]

    def advance(self, now: float) -> None:
        """Run the board's animations to ``now`` as the kiosk's loop does: a blink at each
        moment the renderer names, then one at ``now``."""
        due = self.renderer.next_blink(self.now)
        while due is not None and due <= now:
            self.renderer.blink(due)
            self.now = due
            due = self.renderer.next_blink(due)
        self.renderer.blink(now)
        self.now = now

    def shows(self, now: float, coups: int) -> list[str]:
        """The watched panels that differ from the board of ``coups`` coups at ``now``."""
        self.advance(now)
        board, plain = self.renderer.base, self.drawn(coups)
        rects = {name: self.renderer.layout.panels[name].rect for name in WATCHED}
        return [name for name, rect in rects.items() if pixels(board, rect) != pixels(plain, rect)]

    def deal(self, now: float) -> None:
        self.advance(now)
        n = self.table.last_number + 1
        self.table.add_game(Game(n, HANDS[n % len(HANDS)]))
        self.renderer.update(self.table, FeedStatus.DEMO, now=now)


@pytest.mark.parametrize("first", [20, 150], ids=["fits", "scrolled"])
@pytest.mark.parametrize("pace", [1.5, 3.0])
def test_the_roads_take_the_coup_when_its_last_card_has_landed(theme, pace, first):
    board = Board(theme, motion=True, first=first)
    board.deal(10.0 - 2 * pace)  # the board learns the pace
    board.deal(10.0 - pace)
    for i in range(5):
        arrival = 10.0 + i * pace
        board.deal(arrival)
        n = board.table.last_number
        motion = board.renderer.motion
        assert motion is not None
        # the cards of coup n are being dealt: the board still shows the coups before it
        assert board.shows(arrival + 0.05, n - 1) == [], f"coup {n} at {arrival + 0.05}"
        assert motion.banner_look(arrival + 0.05) is None  # coup n - 1's banner is down
        reveal = motion._reveal
        assert reveal is not None and reveal.result < arrival + pace
        assert board.shows(reveal.result - 0.01, n - 1) == []
        look = motion.banner_look(reveal.result + 0.01)
        assert look is not None and look.text == banner_of(motion, HANDS[n % len(HANDS)])
        # landed: the counters and the ask road have it; the roads' marks are drawn in
        assert board.shows(reveal.result + 0.01, n)[:2] == ["big_road", "bead_plate"]
    board.advance(100.0)  # every draw-in and blink over
    assert board.shows(100.0, board.table.last_number) == []


def test_a_burst_shows_each_coup_at_once(theme):
    board = Board(theme, motion=True)
    board.deal(10.0)
    for i in range(1, 5):
        board.deal(10.0 + i * 0.2)
        assert board.shows(10.0 + i * 0.2 + 0.01, board.table.last_number) == []


def test_with_motion_off_the_roads_take_the_coup_at_once(theme):
    board = Board(theme, motion=False)
    for i in range(3):
        board.deal(10.0 + i * 1.5)
        assert board.shows(10.0 + i * 1.5, board.table.last_number) == []


def test_a_redraw_while_the_cards_are_dealt_keeps_the_roads_where_they_were(theme):
    """The kiosk redraws for other reasons (the clock, the feed's status) while a hand is
    dealt: the roads keep their scroll until its last card has landed."""
    board = Board(theme, motion=True, first=150)
    board.deal(10.0)
    board.deal(13.0)
    n = board.table.last_number
    board.renderer.update(board.table, FeedStatus.LIVE, clock="21:46", now=13.2)
    assert board.shows(13.3, n - 1) == []
    board.advance(100.0)
    assert board.shows(100.0, n) == []
