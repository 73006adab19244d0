"""What a figure needs beside it: the machine, its load, what draws on its screen; stop_all."""

from __future__ import annotations

import os
import platform
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

INVISIBLE_DRIVERS = frozenset({"dummy", "offscreen"})


def first_line(path: str, prefix: str = "") -> str | None:
    """The rest of ``path``'s first line starting with ``prefix`` (None: no file, no line)."""
    try:
        text = Path(path).read_text(errors="replace")
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith(prefix):
            return line[len(prefix) :].strip(' \t:="\x00') or None
    return None


def load_average() -> str:
    """The 1, 5 and 15 minute load averages: on a shared box they move p99 most."""
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def machine() -> dict[str, Any]:
    """Cores, CPU model, board model (a Raspberry Pi names itself), OS, Python, load now."""
    return {
        "cpus": os.cpu_count(),
        "cpu": first_line("/proc/cpuinfo", "model name") or platform.processor() or "?",
        "board": first_line("/proc/device-tree/model"),
        "os": first_line("/etc/os-release", "PRETTY_NAME") or platform.platform(),
        "arch": platform.machine(),
        "python": platform.python_version(),
        "load_average": load_average(),
    }


def display() -> dict[str, Any]:
    """pygame's and SDL's versions and the video driver (pygame's display must be initialised)."""
    import pygame  # here: the rest of this module serves benchmarks that never draw

    driver = pygame.display.get_driver()
    return {
        "pygame": pygame.version.ver,
        "sdl": ".".join(map(str, pygame.get_sdl_version())),
        "video_driver": driver,
        "display_copy": driver not in INVISIBLE_DRIVERS,
    }


def stop_all(processes: Sequence[subprocess.Popen[bytes]], timeout: float = 30.0) -> None:
    """SIGTERM to each process at once, then wait for each; kill one that outlives ``timeout``."""
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
