"""``--side-bets`` from outside: the demo journals the side bets it offers, a bad one is
one line and exit 2, and a simulated shoe controller publishes them to a real display."""

from __future__ import annotations

import json

from cli import scoreboard
from mqtt_broker import DisplayProcess, Recorder, needs_mosquitto, running_broker, wait_for
from test_demo_options import STILL, shown
from test_shoe_limits import PREFIX, shoe

from scoreboard.game.side_bets import SIDE_BETS


def test_the_demo_offers_the_side_bets_it_is_given(tmp_path):
    board = shown(tmp_path / "s", "--side-bets", "small_6,lucky_7=10-1000", "--seed", "2")
    assert dict(board.limits.side_bets) == {
        "small_6": dict(SIDE_BETS["small_6"].pays),
        "lucky_7": dict(SIDE_BETS["lucky_7"].pays),
    }
    assert board.limits.bets["small_6"] == (5, 500)  # the pairs' limits of 25-10,000
    assert board.limits.bets["lucky_7"] == (10, 1000)
    assert board.limits.pays["lucky_7"] == "6/15:1"


def test_by_default_the_demo_offers_none(tmp_path):
    assert shown(tmp_path / "s", "--seed", "2").limits.side_bets == {}


def test_a_bad_side_bet_is_one_line_and_exit_2():
    for value, message in (
        ("lucky_8", "--side-bets: no side bet 'lucky_8' (one of small_6, big_6"),
        ("small_6,small_6", "--side-bets: small_6 is given twice"),
        ("lucky_7=9-1", "--side-bets: lucky_7: expected 0 <= minimum <= maximum"),
    ):
        done = scoreboard("demo", *STILL, "--side-bets", value)
        assert done.returncode == 2, done.stderr
        assert message in done.stderr and done.stderr.count("\n") == 1, done.stderr


def test_a_shoe_needs_limits_for_its_side_bets():
    done = scoreboard("shoe", "--mqtt", "127.0.0.1:9", "--side-bets", "small_6")
    assert done.returncode == 2
    assert "--side-bets needs --limits and --currency" in done.stderr
    assert "Traceback" not in done.stderr


@needs_mosquitto
def test_a_shoe_publishes_its_side_bets_and_the_display_shows_them(tmp_path):
    with running_broker(tmp_path / "broker") as broker:
        display = DisplayProcess(tmp_path, broker, PREFIX).start()
        recorder = Recorder(broker.settings(), f"{PREFIX}/limits").start()
        try:
            flags = ["--limits", "25-5000", "--currency", "MOP", "--side-bets", "big_6,lucky_7"]
            done = shoe(broker, *flags)
            assert done.returncode == 0, done.stderr
            published = json.loads(recorder.on(f"{PREFIX}/limits")[-1])
            assert published["side_bets"] == {
                "big_6": {"big_6": 50},
                "lucky_7": {"lucky_7_2": 6, "lucky_7_3": 15},
            }
            assert wait_for(
                lambda: (
                    {"big_6", "lucky_7"} <= set(display.status().get("limits", {}).get("bets", {}))
                )
            ), display.status()
        finally:
            recorder.stop()
            display.stop()


def test_a_screenshot_offers_side_bets_with_limits_only(tmp_path):
    done = scoreboard(
        "screenshot", "-o", str(tmp_path / "a.png"), "--no-limits", "--side-bets", "small_6"
    )
    assert done.returncode == 2 and "--no-limits drops" in done.stderr, done.stderr
    done = scoreboard(
        "screenshot", "-o", str(tmp_path / "b.png"), "--coups", "31", "--seed", "7",
        "--side-bets", "lucky_7",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "b.png").stat().st_size > 0
