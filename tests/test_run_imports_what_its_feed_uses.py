"""``scoreboard run`` imports what its feed uses: a keypad display, no MQTT feed.

A display fed by the dealer's keypad (or its own shoe) has no use for the MQTT
feed and its session's policies.  The real command runs in a fresh interpreter
up to the kiosk, which lists the modules the process holds instead of opening
its window.  (The keypad's feed still imports its publisher, and with it the
link and paho, broker or not: ``scoreboard.keypad.feed``.)
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SCRIPT = """
import sys
import scoreboard.kiosk.loop as loop

def listed(*args, **kwargs):
    print("\\n".join(sorted(sys.modules)))
    return 0

loop.run_kiosk = listed
from scoreboard.cli import main

sys.exit(main(["run", "--feed", "keypad", "--windowed", "--state-dir", sys.argv[1]]))
"""


def test_a_keypad_display_imports_no_mqtt_feed(tmp_path: Path) -> None:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    modules = set(done.stdout.split())
    assert "scoreboard.keypad.feed" in modules  # the run reached the kiosk
    assert sorted(name for name in modules if name.startswith("scoreboard.feeds")) == []
