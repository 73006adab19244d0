"""The dealer keypad through the real kiosk: pygame key events in, coups on the screen.

Each test posts KEYDOWN/KEYUP events to pygame's queue (SDL_VIDEODRIVER=dummy)
and lets the kiosk take them and step at times set on its clock (see
tests/keypad_kiosk.py); one test runs the loop itself in real time.
"""

from __future__ import annotations

import threading
import time

import pygame
import pytest
from keypad_kiosk import WALL, keypad_kiosk

from scoreboard.game.rules import Winner
from scoreboard.journal import Journal
from scoreboard.keypad.feed import KeypadFeed
from scoreboard.kiosk.loop import KEY_IDLE_SECONDS, KEY_POLL_SECONDS, Kiosk
from scoreboard.screen.theme.loading import load_theme
from scoreboard.settings.keypad import KeypadAction, read_keypad
from scoreboard.settings.reader import Reader
from scoreboard.table.applied import FeedStatus
from scoreboard.table.state import TableState


def winners(table: TableState) -> str:
    return "".join(game.coup.winner.value for game in table.games)


def bead_colour(driver, number: int) -> tuple[int, int, int]:
    """The colour on screen beside the letter of game ``number``'s bead."""
    grid = driver.kiosk.renderer.layout.grids["bead_plate"]
    rows = driver.table.roads.rows
    cell = grid.cell((number - 1) // rows, (number - 1) % rows)
    point = (round(cell.centerx - 0.34 * min(cell.size)), cell.centery)
    return tuple(pygame.display.get_surface().get_at(point))[:3]


def near(a, b, tolerance: int = 40) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def config(**keys):
    reader = Reader("kiosk.yaml")
    keypad = read_keypad(reader, keys)
    reader.check()
    return keypad


def test_result_keys_enter_coups_with_the_modifiers_pressed_before_them():
    with keypad_kiosk() as pad:
        pad.type("[6] [5] [3] [1] [4] [4] [2]")
        games = pad.table.games
        assert [game.number for game in games] == [1, 2, 3]
        assert winners(pad.table) == "BPT"
        first, second, third = (game.coup for game in games)
        assert first.banker_pair and first.banker_natural and not first.player_pair
        assert not (second.player_pair or second.banker_pair or second.player_natural)
        assert not third.player_pair  # pressed twice: taken back
        assert first.player_total is None and first.banker_total is None  # results only
        colors = pad.kiosk.renderer.theme.colors
        assert near(bead_colour(pad, 1), colors.banker)
        assert near(bead_colour(pad, 2), colors.player)
        assert near(bead_colour(pad, 3), colors.tie)
        assert pad.feed.status(0.0) is FeedStatus.LIVE  # no broker: the keypad is the feed


def test_the_first_coup_starts_a_shoe_named_for_the_table_and_the_time():
    with keypad_kiosk() as pad:
        assert pad.table.shoe_id is None
        pad.type("[3]")
        assert pad.table.shoe_id == "T1-K20260528-202640"  # WALL, UTC
        assert pad.table.shoe_number == 1


def test_the_prompt_shows_the_pending_modifiers_until_the_result():
    with keypad_kiosk() as pad:
        pad.tap("[6]", 0.0)
        assert pad.prompt == "Banker pair +"
        pad.tap("[5]", 1.0)
        assert pad.prompt == "Banker pair + Natural +"
        pad.tap("[3]", 2.0)
        assert pad.prompt is None
        assert pad.table.games[0].coup.banker_pair


def test_the_clear_key_drops_the_modifiers():
    with keypad_kiosk() as pad:
        pad.type("[4] [0] [1]")
        assert winners(pad.table) == "P" and not pad.table.games[0].coup.player_pair
        assert pad.prompt is None  # the coup replaced the "cancelled" line
        pad.tap("[4]", 10.0)
        pad.tap("[0]", 11.0)
        assert pad.prompt == "Player pair cancelled"


def test_forgotten_modifiers_lapse_instead_of_landing_on_a_later_coup():
    with keypad_kiosk() as pad:
        pad.tap("[6]", 0.0)
        assert pad.feed.next_deadline(1.0) == pytest.approx(60.0)
        pad.at(60.5)
        assert pad.prompt == "Banker pair cancelled: no result key within 60 s"
        pad.tap("[3]", 61.0)
        assert not pad.table.games[0].coup.banker_pair


def test_void_last_asks_then_a_second_press_voids_the_last_game():
    with keypad_kiosk() as pad:
        t = pad.type("[3] [1] [3]")
        pad.tap("[-]", t)
        assert pad.prompt == "Void game 3 (Banker)? Press - again or hold it"
        assert winners(pad.table) == "BPB" and pad.table.voided == ()
        pad.tap("[-]", t + 1.0)
        assert winners(pad.table) == "BP" and pad.table.voided == (3,)
        assert pad.prompt is None
        pad.tap("[2]", t + 2.0)  # the next coup follows the voided game's number
        assert [game.number for game in pad.table.games] == [1, 2, 4]
        assert near(bead_colour(pad, 3), pad.kiosk.renderer.theme.colors.tie)  # game 4's bead


def test_holding_void_last_two_seconds_confirms_it_once():
    with keypad_kiosk() as pad:
        t = pad.type("[3] [1]")
        pad.down("[-]", t)
        assert pad.feed.next_deadline(t) == pytest.approx(t + 2.0)
        pad.at(t + 1.9)
        assert winners(pad.table) == "BP"
        pad.at(t + 2.0)
        assert winners(pad.table) == "B" and pad.table.voided == (2,)
        pad.at(t + 6.0)  # still held: one hold, one void
        pad.up("[-]", t + 7.0)
        assert winners(pad.table) == "B"


def test_an_unconfirmed_void_is_cancelled_after_the_window():
    with keypad_kiosk() as pad:
        t = pad.type("[3] [1]")
        pad.tap("[-]", t)
        pad.at(t + 0.5)  # the release is past its debounce: the question waits for a press
        assert pad.feed.next_deadline(t + 0.5) == pytest.approx(t + 4.0)
        pad.at(t + 4.1)
        assert pad.prompt == "Void cancelled: not confirmed within 4 s"
        pad.tap("[-]", t + 5.0)  # a new first press: it asks again
        assert winners(pad.table) == "BP"
        assert pad.prompt.startswith("Void game 2 (Player)?")


def test_another_key_cancels_the_question_and_does_its_own_work():
    with keypad_kiosk() as pad:
        t = pad.type("[3]")
        pad.tap("[-]", t)
        pad.tap("[1]", t + 0.5)
        pad.tap("[-]", t + 1.0)  # asks again (game 2 now), does not void
        assert winners(pad.table) == "BP"
        assert pad.prompt.startswith("Void game 2 (Player)?")


def test_void_with_nothing_to_void_says_so():
    with keypad_kiosk() as pad:
        pad.tap("[-]", 0.0)
        assert pad.prompt == "Nothing to void in this shoe"
        pad.tap("[-]", 0.5)
        assert pad.table.voided == () and pad.table.shoe_id is None


def test_new_shoe_needs_its_confirmation_and_clears_the_board():
    with keypad_kiosk(KeypadFeed(wall_clock=lambda: WALL, decks=6)) as pad:
        t = pad.type("[3] [1] [2]")
        first = pad.table.shoe_id
        pad.tap("[*]", t)
        assert pad.prompt == "End this shoe (3 games), start a new one? Press * again or hold it"
        assert pad.table.shoe_id == first
        pad.tap("[*]", t + 1.0)
        assert pad.table.shoe_number == 2 and pad.table.games == ()
        assert pad.table.is_archived(first) and pad.table.decks == 6  # the new shoe said so
        assert pad.table.shoe_id != first and pad.table.shoe_id.startswith("T1-K")
        assert near(bead_colour(pad, 1), pad.kiosk.renderer.theme.colors.panel, 8)


def test_key_repeat_and_a_stuck_key_enter_one_coup():
    with keypad_kiosk() as pad:
        for step in range(6):  # KEYDOWN again and again, no KEYUP: repeat, or a stuck key
            pad.down("[3]", step * 2.0)
        assert winners(pad.table) == "B"
        pad.tap("[1]", 13.0)  # the stuck key does not block the others
        assert winners(pad.table) == "BP"
        pad.up("[3]", 14.0)
        pad.tap("[3]", 15.0)  # released and pressed again: a new coup
        assert winners(pad.table) == "BPB"


def test_losing_the_keyboard_releases_a_held_key():
    with keypad_kiosk() as pad:
        pad.down("[3]", 0.0)
        pygame.event.post(pygame.event.Event(pygame.WINDOWFOCUSLOST))
        pad.at(0.5)
        pad.down("[3]", 1.0)
        assert winners(pad.table) == "BB"


def test_numlock_off_keys_are_the_same_keys():
    with keypad_kiosk() as pad:
        pad.type("left pgdn end")
        assert winners(pad.table) == "BP"
        assert pad.table.games[0].coup.player_pair


def test_a_key_of_no_action_does_nothing():
    with keypad_kiosk() as pad:
        pad.type("x [9]")
        assert pad.table.games == () and pad.prompt is None


def test_banker_six_goes_with_banker_only():
    feed = KeypadFeed(config(banker_six="[9]"), wall_clock=lambda: WALL)
    with keypad_kiosk(feed) as pad:
        pad.type("[9] [1]")
        assert pad.table.games == ()
        assert pad.prompt == "Banker 6 is a Banker win: nothing entered"
        pad.type("[9] [3]", 10.0)
        coup = pad.table.games[0].coup
        assert coup.winner is Winner.BANKER and coup.banker_six and coup.banker_total == 6


def test_rebound_keys_from_the_config_are_the_ones_that_work():
    feed = KeypadFeed(config(player="x", void_last=["[1]"]), wall_clock=lambda: WALL)
    with keypad_kiosk(feed) as pad:
        pad.type("x [1] [1]")
        assert winners(pad.table) == "" and pad.table.voided == (1,)


def test_the_prompt_is_drawn_on_the_kiosk_screen_until_it_is_answered():
    """The question reaches the pixels (the prompt plate over the board), then goes."""
    with keypad_kiosk() as pad:
        t = pad.type("[3]")
        renderer = pad.kiosk.renderer
        assert renderer.notices.prompt.area(t) is None
        t = pad.tap("[-]", t + 0.5)
        area = renderer.notices.prompt.area(t)
        assert area is not None and renderer.frame.get_rect().contains(area)
        points = [
            (x, y) for x in range(area.left, area.right, 7) for y in range(area.top, area.bottom, 5)
        ]
        covered = sum(renderer.frame.get_at(xy) != renderer.base.get_at(xy) for xy in points)
        assert covered > len(points) / 2  # the plate covers the board there
        t = pad.type("[0]", t + 0.5)
        pad.at(t + 30.0)  # past the "cancelled" line too
        assert pad.prompt is None and renderer.notices.prompt.area(t + 30.0) is None
        assert winners(pad.table) == "B"  # the clear key cancelled the void


def test_keypad_entries_are_journaled_and_replayed_after_a_restart(tmp_path):
    table = TableState()
    with Journal(tmp_path) as journal:
        journal.replay(table)
        feed = KeypadFeed(journal=journal, wall_clock=lambda: WALL)
        with keypad_kiosk(feed, table) as pad:
            t = pad.type("[6] [3] [1] [5] [2] [3]")
            pad.type("[-] [-]", t)
    shoe, games, voided = table.shoe_id, table.games, table.voided
    assert voided == (4,) and len(games) == 3
    again = TableState()
    with Journal(tmp_path) as journal:
        journal.replay(again)
        assert (again.shoe_id, again.games, again.voided) == (shoe, games, voided)
        feed = KeypadFeed(journal=journal, wall_clock=lambda: WALL + 60)
        with keypad_kiosk(feed, again) as pad:
            pad.type("[1]")  # the shoe goes on after the restart
    assert again.shoe_id == shoe and [g.number for g in again.games] == [1, 2, 3, 5]
    assert winners(again) == "BPTP"
    assert again.games[0].coup.banker_pair and again.games[2].coup.player_natural


DOWN, UP = pygame.KEYDOWN, pygame.KEYUP


def typed_into_the_real_loop(strokes, run_for: float) -> tuple[TableState, KeypadFeed]:
    """kiosk.run itself, in real time, while another thread posts ``strokes``: each a wait,
    then key events posted back to back."""
    table = TableState()
    feed = KeypadFeed(wall_clock=time.time)
    kiosk = Kiosk(feed, table, load_theme("classic"), windowed=True, size=(640, 360))
    pygame.event.clear()

    def typist() -> None:
        for wait, events in strokes:
            time.sleep(wait)
            for kind, key in events:
                pygame.event.post(pygame.event.Event(kind, key=key))

    thread = threading.Thread(target=typist)
    try:
        thread.start()
        kiosk.run(run_for=run_for)
    finally:
        thread.join()
        pygame.display.quit()
    return table, feed


def test_the_real_loop_takes_a_held_destructive_key():
    table, feed = typed_into_the_real_loop(
        [
            (0.3, [(DOWN, pygame.K_KP3)]),
            (0.1, [(UP, pygame.K_KP3)]),
            (0.2, [(DOWN, pygame.K_KP1)]),
            (0.1, [(UP, pygame.K_KP1)]),
            (0.3, [(DOWN, pygame.K_KP_MINUS)]),
            (2.6, [(UP, pygame.K_KP_MINUS)]),  # held 2.6 s: confirmed after 2
        ],
        run_for=4.5,
    )
    assert winners(table) == "B" and table.voided == (2,)
    assert feed.input.asking is None


def test_the_feed_tells_the_kiosk_it_takes_keys():
    feed = KeypadFeed()
    assert feed.prompt(0.0) is None
    feed.key("[6]", True, 0.0)
    feed.poll(TableState(), 0.0)
    assert feed.prompt(0.0) == "Banker pair +"
    assert feed.input.modifiers == {KeypadAction.BANKER_PAIR}


# -- contact bounce: one press is one press -----------------------------------
def bounce(pad, key: str, t: float, gap: float = 0.008) -> float:
    """One press whose contacts chatter (down, up, down ``gap`` apart, each taken at once),
    released 0.1 s after it began; returns when."""
    pad.down(key, t)
    pad.up(key, t + gap)
    pad.down(key, t + 2 * gap)
    pad.up(key, t + 0.1)
    return t + 0.1


def test_a_bouncing_banker_press_enters_one_coup():
    with keypad_kiosk() as pad:
        t = bounce(pad, "[3]", 0.0)
        pad.at(t + 0.5)
        assert winners(pad.table) == "B"
        t = bounce(pad, "[3]", t + 0.5)  # the next press is a press
        pad.at(t + 0.5)
        assert winners(pad.table) == "BB"


def test_a_bounce_taken_all_at_once_after_a_slow_frame_is_one_press():
    with keypad_kiosk() as pad:
        for down in (True, False, True):
            pad.queue("[3]", down)
        pad.at(0.3)
        pad.up("[3]", 0.4)
        pad.at(1.0)
        assert winners(pad.table) == "B"


def test_a_bouncing_void_press_only_asks():
    with keypad_kiosk() as pad:
        t = bounce(pad, "[-]", pad.type("[3] [1]"))
        pad.at(t + 0.5)
        assert pad.table.voided == () and winners(pad.table) == "BP"
        assert pad.prompt == "Void game 2 (Player)? Press - again or hold it"
        pad.tap("[-]", t + 1.0)  # a distinct press after the release confirms
        assert pad.table.voided == (2,) and winners(pad.table) == "B"


def test_a_bouncing_new_shoe_press_only_asks():
    with keypad_kiosk() as pad:
        t = bounce(pad, "[*]", pad.type("[3] [1]"))
        first = pad.table.shoe_id
        pad.at(t + 0.5)
        assert pad.table.shoe_id == first and winners(pad.table) == "BP"
        assert pad.prompt == "End this shoe (2 games), start a new one? Press * again or hold it"
        pad.tap("[*]", t + 1.0)
        assert pad.table.shoe_number == 2 and pad.table.games == ()


def test_a_bouncing_confirmation_voids_once_and_asks_nothing_more():
    with keypad_kiosk() as pad:
        t = pad.tap("[-]", pad.type("[3] [1]"))
        t = bounce(pad, "[-]", t + 0.5)
        pad.at(t + 0.5)
        assert pad.table.voided == (2,) and winners(pad.table) == "B"
        assert pad.feed.input.asking is None  # the bounce did not ask to void game 1


def test_two_clean_presses_120_ms_apart_are_still_two():
    with keypad_kiosk() as pad:
        for key, t in (("[3]", 0.0), ("[3]", 0.12), ("[-]", 1.0), ("[-]", 1.12)):
            pad.down(key, t)
            pad.up(key, t + 0.06)
        pad.at(2.0)
        assert winners(pad.table) == "B" and pad.table.voided == (2,)


def test_keys_are_judged_by_when_the_kiosk_took_them_not_when_the_feed_polled():
    """The loop takes keys between steps (and while it sleeps); a slow step after them
    neither merges two presses nor splits a bounce."""
    with keypad_kiosk() as pad:
        for down, t in ((True, 0.0), (False, 0.008), (True, 0.016), (False, 0.1)):
            pad.take("[3]", down, t)
        pad.at(0.4)  # the feed polls 0.3 s after the last of them
        assert winners(pad.table) == "B"
        for down, t in ((True, 1.0), (False, 1.06), (True, 1.12), (False, 1.18)):
            pad.take("[1]", down, t)
        pad.at(1.5)
        pad.at(2.0)
        assert winners(pad.table) == "BPP"


class CountedWaits(threading.Event):
    """The kiosk's wake-up event, keeping how long each of its waits was asked to be."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[float] = []

    def wait(self, timeout: float | None = None) -> bool:
        self.asked.append(timeout)
        return super().wait(timeout)


def test_a_sleeping_kiosk_looks_for_keys_every_few_ms_where_sdl_cannot_wait():
    """On KMSDRM (and dummy) the loop sleeps on a thread event and a key is stamped when
    taken: the keypad kiosk looks for one every 20 ms, every 5 ms while a key is in play."""

    def looks(t: float) -> list[float]:
        """How the kiosk slices a long sleep at ``t`` (it ends at the idle poll, 0.1 s)."""
        waits.asked.clear()
        waits.clear()  # the wake-up each key gave, taken by the loop's last sleep
        pad.clock.now = t
        pad.kiosk.sleep(30.0)
        return waits.asked

    with keypad_kiosk() as pad:
        assert not pad.kiosk.native_wait
        pad.kiosk.window._woken = waits = CountedWaits()
        assert looks(0.0) == [pytest.approx(KEY_IDLE_SECONDS)] * 5
        pad.queue("[3]", True)
        assert looks(0.0) == [pytest.approx(KEY_IDLE_SECONDS)]  # the first look sees it
        pad.at(0.0)
        assert winners(pad.table) == "B"
        assert looks(0.1) == [pytest.approx(KEY_POLL_SECONDS)] * 20  # held
        pad.up("[3]", 0.5)
        assert looks(0.52) == [pytest.approx(KEY_POLL_SECONDS)] * 20  # released, in doubt
        pad.at(0.6)
        assert looks(0.6) == [pytest.approx(KEY_IDLE_SECONDS)] * 5  # past doubt: idle


def test_a_held_void_repeated_as_release_press_pairs_is_still_a_hold():
    """Some X servers and remote desktops repeat a held key as KEYUP + KEYDOWN at once."""
    with keypad_kiosk() as pad:
        start = pad.type("[3]")
        pad.down("[-]", start)
        t = start + 0.5
        while t < start + 2.5:
            pad.queue("[-]", False)
            pad.queue("[-]", True)
            pad.at(t)
            if t < start + 1.95:
                assert pad.table.voided == ()
            t += 0.033
        assert pad.table.voided == (1,) and pad.feed.input.asking is None
        pad.up("[-]", t)
        pad.at(t + 1.0)
        assert pad.table.voided == (1,) and pad.prompt is None


def test_the_real_loop_takes_bouncing_and_fast_presses_as_pressed():
    """Bounces posted back to back are one press; two presses 80 ms apart are two."""
    bounce = [(DOWN, pygame.K_KP3), (UP, pygame.K_KP3), (DOWN, pygame.K_KP3)]
    void_bounce = [(DOWN, pygame.K_KP_MINUS), (UP, pygame.K_KP_MINUS), (DOWN, pygame.K_KP_MINUS)]
    table, feed = typed_into_the_real_loop(
        [
            (0.3, bounce),  # one Banker
            (0.1, [(UP, pygame.K_KP3)]),
            (0.3, [(DOWN, pygame.K_KP1)]),  # two Players: released 80 ms before the second
            (0.06, [(UP, pygame.K_KP1)]),
            (0.08, [(DOWN, pygame.K_KP1)]),
            (0.06, [(UP, pygame.K_KP1)]),
            (0.3, void_bounce),
            (0.1, [(UP, pygame.K_KP_MINUS)]),  # void asked, never confirmed
        ],
        run_for=2.0,
    )
    assert winners(table) == "BPP" and table.voided == ()
    assert feed.input.asking is KeypadAction.VOID_LAST


def test_a_void_released_just_before_the_hold_ends_is_not_a_hold():
    """The release waits out its debounce; the hold is judged on what the keys did."""
    with keypad_kiosk() as pad:
        t = pad.type("[3] [1]")
        pad.down("[-]", t)
        pad.up("[-]", t + 1.97)
        pad.at(t + 2.0)  # the release is still in doubt here
        pad.at(t + 2.1)
        assert pad.table.voided == () and pad.prompt.startswith("Void game 2 (Player)?")
        pad.tap("[-]", t + 2.5)  # the second press confirms
        assert pad.table.voided == (2,)


def test_a_void_held_through_a_bounce_at_the_end_of_the_hold_is_a_hold():
    with keypad_kiosk() as pad:
        t = pad.type("[3] [1]")
        pad.down("[-]", t)
        pad.up("[-]", t + 1.98)
        pad.down("[-]", t + 1.99)  # the contact came back: still held
        pad.at(t + 2.0)
        assert pad.table.voided == (2,)
        pad.up("[-]", t + 3.0)
        pad.at(t + 4.0)
        assert pad.table.voided == (2,) and pad.feed.input.asking is None
