"""Run the real ``scoreboard`` command in a subprocess, as a user would."""

from __future__ import annotations

import os
import subprocess
import sys


def scoreboard(
    *args: str, stdin: str | None = None, timeout: float = 60
) -> subprocess.CompletedProcess:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    return subprocess.run(
        [sys.executable, "-m", "scoreboard", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        check=False,
    )
