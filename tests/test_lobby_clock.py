"""The lobby's ages never follow a wall clock that is stepped (NTP at boot, a hand-set clock).

Found by the session's own review: the lobby aged its tables on the wall clock,
so a wall clock stepped back an hour made every table look freshly heard of for
that hour (a table that fell silent stayed LIVE), and one stepped forward made
every live table STALE "1 h".  Driven from outside the core: ``scoreboard lobby``'s
own wall (``build_wall``, as ``run`` builds it), a real mosquitto and a real
``scoreboard shoe`` process, which is SIGSTOPped to fall silent without a will
(its keepalive is long); only the wall clock handed to the lobby's step is stepped.
The lobby's own (monotonic) clock, the other time its step is given, is moved
ahead while the table is silent instead of slept through.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from mqtt_broker import needs_mosquitto, running_broker, wait_for

from scoreboard.cli import build_parser
from scoreboard.cli.commands.lobby import build_wall

pytestmark = [needs_mosquitto, pytest.mark.usefixtures("pygame_display")]
STALE = 5.0  # --stale-seconds, the least the lobby takes


def wall_for(address: str):
    flags = ["--windowed", "--size", "640x360", "--lobby-id", "W1", "--stale-seconds", f"{STALE:g}"]
    args = build_parser().parse_args(["lobby", "--mqtt", address, *flags])
    return build_wall(args)


@pytest.mark.parametrize("jump", [-3600.0, 3600.0], ids=["stepped back", "stepped forward"])
def test_a_stepped_wall_clock_does_not_change_what_the_tiles_say(tmp_path, jump):
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    with running_broker(tmp_path / "broker") as broker:
        command = [sys.executable, "-m", "scoreboard", "shoe", "--mqtt", broker.address]
        command += ["--table", "Q1", "--pace", "0.3", "--seed", "4", "--keepalive", "120"]
        with open(tmp_path / "shoe.log", "wb") as log:
            shoe = subprocess.Popen(command, stderr=log)
        wall = wall_for(broker.address)
        wall.feed.start(wall.window.wake)
        offset = 0.0  # what the wall clock handed to the lobby is off by
        ahead = 0.0  # how far the lobby's own clock has been moved ahead of the real one
        shown: list[str] = []  # the state plate's words, as drawn

        def step() -> str | None:
            wall.renderer.log = []
            wall.step(time.monotonic() + ahead, time.time() + offset)
            shown.extend(t.text for t in wall.renderer.log if t.part == "state")
            return shown[-1] if shown else None

        try:
            assert wait_for(lambda: step() == "LIVE", 20), shown[-3:]
            offset = jump  # the wall clock is stepped here
            time.sleep(0.5)
            assert step() == "LIVE"  # heard of a moment ago, not stale "1 h"
            shoe.send_signal(signal.SIGSTOP)  # silent, still connected: no will
            silent_from = time.monotonic() + ahead
            ahead += 0.5
            assert step() == "LIVE"
            while step() != "NO UPDATE" and ahead < STALE + 5:
                ahead += 0.25  # the lobby's time passes
            assert shown[-1] == "NO UPDATE", shown[-3:]
            assert time.monotonic() + ahead - silent_from >= STALE - 1.0  # by its own clock
            ages = [t.text for t in wall.renderer.log if t.part == "age"]
            assert ages and ages[-1].endswith(" s"), ages  # "No update for 6 s", not "1 h"
        finally:
            shoe.send_signal(signal.SIGCONT)
            shoe.terminate()
            shoe.wait(20)
            wall.feed.stop()
