"""Re-render the README screenshots in docs/images/ (``make screenshots``).

Every theme, landscape and portrait, from the same 75-coup simulated shoe and a
fixed clock, through the project's own ``scoreboard screenshot`` command (with
the demo's limits); the empty board is a display before its controller spoke,
so its limits are unknown.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHOTS = [
    (f"{theme}-{orientation}.png", ["--theme", theme, "--size", size])
    for theme in ("classic", "midnight", "contrast")
    for orientation, size in (("landscape", "1920x1080"), ("portrait", "1080x1920"))
] + [
    (
        "classic-empty.png",
        ["--theme", "classic", "--size", "1920x1080", "--coups", "0", "--no-limits"],
    ),
    ("midnight-shuffle.png", ["--theme", "midnight", "--size", "1280x720", "--shuffling"]),
]


def main() -> int:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    out = ROOT / "docs" / "images"
    out.mkdir(parents=True, exist_ok=True)
    for name, options in SHOTS:
        command = [sys.executable, "-m", "scoreboard", "screenshot", "-o", str(out / name)]
        command += ["--seed", "1", "--clock", "21:45"]
        if "--coups" not in options:
            command += ["--coups", "75"]
        subprocess.run(command + options, check=True, env=env)
        print(out / name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
