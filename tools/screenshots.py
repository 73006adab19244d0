"""Re-render the README screenshots in docs/images/ (``make screenshots``).

Every theme, landscape and portrait, from the same whole simulated shoe (seed 1:
82 coups, up to the last hand) and a fixed clock, through the project's own
``scoreboard screenshot`` command (with the demo's limits); the empty board is a
display before its controller spoke, so its limits are unknown; the lobby is the
first page of 24 simulated tables.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WHOLE_SHOE = "82"
LONG_SHOE = (
    "PPPTPTBPTPPBPBPPBBBTPBPBPBBPBBTPBTPPBTPTPBBBBBBPBPBBPPBPPBTBPPBPBPBBBTBPTTBBPP"
    "BPPPBTBBPTBTPBBBBBPTBBTPBBPPBBBTBPPBPTPPBBBPBBTPTBPPPBBBBTTPPBBBPPBPPPPP"
)
"""150 results (more than any 8-deck shoe): the roads scroll together, with the marker."""
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
    (
        "classic-scrolled.png",
        ["--theme", "classic", "--size", "1920x1080", "--results", LONG_SHOE],
    ),
    ("midnight-lobby.png", ["--theme", "midnight", "--size", "1920x1080", "--lobby", "24"]),
]
# Each shipped language but English as the main one, English second (docs/display.md, "Languages")
SHOTS += [
    (
        f"language-{code}.png",
        ["--theme", "classic", "--size", "1280x720", "--languages", f"{code},en"],
    )
    for code in ("zh-Hant", "zh-Hans", "ja", "ko", "vi", "th")
]


def main() -> int:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    out = ROOT / "docs" / "images"
    out.mkdir(parents=True, exist_ok=True)
    for name, options in SHOTS:
        command = [sys.executable, "-m", "scoreboard", "screenshot", "-o", str(out / name)]
        command += ["--clock", "21:45"]
        if "--results" not in options and "--lobby" not in options:
            command += ["--seed", "1"]
            if "--coups" not in options:
                command += ["--coups", WHOLE_SHOE]
        subprocess.run(command + options, check=True, env=env)
        print(out / name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
