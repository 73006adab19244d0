"""The real kiosk against the hostile themes of issue 9: refused with one line, never a crash.

Each theme here made ``scoreboard demo`` crash (OverflowError, SIGABRT in
SDL_ttf), freeze (NUL in a title) or hang (an alias bomb) at start and on hot
reload.  Now it refuses to start with a one-line error, and a running kiosk
keeps its last good theme when the file turns into one of them.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CLASSIC = (ROOT / "themes" / "classic.yaml").read_text(encoding="utf-8")
NOT_A_FONT = ROOT / "docs" / "images" / "classic-landscape.png"
BOMB = "\n".join(
    ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    + [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)]
)
ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}


def edit(old: str, new: str) -> str:
    assert old in CLASSIC
    return CLASSIC.replace(old, new, 1)


HOSTILE = {
    "text_scale_inf": (
        edit("  gap: 0.008", "  gap: 0.008\n  text_scale: .inf"),
        "style.text_scale",
    ),
    "text_scale_1e9": (edit("  gap: 0.008", "  gap: 0.008\n  text_scale: 1e9"), "style.text_scale"),
    "border_width_inf": (edit("border_width: 0.0015", "border_width: .inf"), "style.border_width"),
    "nul_in_title": (edit("header_title: Baccarat", 'header_title: "Bac\\0carat"'), "U+0000"),
    "not_a_font": (
        edit("bold: NotoSansCJK-Bold-subset.otf", f"bold: {NOT_A_FONT}"),
        "is not a usable font",
    ),
    "gap_1e9": (edit("gap: 0.008", "gap: 1e9"), "style.gap"),
    "empty_columns_negative": (
        edit("empty_columns: 2", "empty_columns: -5"),
        "roads.empty_columns",
    ),
    "blink_seconds_inf": (edit("blink_seconds: 2.5", "blink_seconds: .inf"), "roads.blink_seconds"),
    "alias_bomb": (BOMB, "YAML aliases are not allowed"),
}


def demo(theme: Path, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "scoreboard",
        "demo",
        "--theme",
        str(theme),
        "--windowed",
        "--size",
        "640x360",
        "--pace",
        "0.3",
        *extra,
    ]


@pytest.mark.slow
def test_the_kiosk_refuses_each_hostile_theme_at_start_with_one_line(tmp_path):
    started = {}
    for name, (text, _) in HOSTILE.items():
        path = tmp_path / f"{name}.yaml"
        path.write_text(text, encoding="utf-8")
        started[name] = subprocess.Popen(
            demo(path, "--duration", "3"),
            env=ENV,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    for name, process in started.items():
        _out, err = process.communicate(timeout=60)
        lines = err.splitlines()
        assert process.returncode == 2, (name, process.returncode, err[-500:])
        assert len(lines) == 1 and "Traceback" not in err, (name, err[-500:])
        assert lines[0].startswith(f"scoreboard demo: {tmp_path / name}.yaml: ")
        assert HOSTILE[name][1] in lines[0], (name, lines[0])


def wait_for(path: Path, text: str, count: int, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.read_text(encoding="utf-8", errors="replace").count(text) >= count:
            return
        time.sleep(0.1)
    raise AssertionError(f"{text!r} x{count} not logged; log:\n{path.read_text()[-2000:]}")


@pytest.mark.slow
def test_a_hot_reload_to_a_hostile_theme_keeps_the_last_good_one_running(tmp_path):
    theme, log = tmp_path / "live.yaml", tmp_path / "kiosk.log"
    theme.write_text(CLASSIC, encoding="utf-8")
    with log.open("w") as sink:
        process = subprocess.Popen(
            demo(theme, "--duration", "60"), env=ENV, stdout=sink, stderr=sink
        )
    try:
        # The loop is running (SIGHUP handled) once the demo's first shoe is dealt.
        wait_for(log, "demo: shoe 1", 1, timeout=60.0)
        for refused, (text, _) in enumerate(HOSTILE.values(), start=1):
            theme.write_text(text, encoding="utf-8")
            process.send_signal(signal.SIGHUP)
            wait_for(log, "theme reload refused, keeping classic", refused)
            assert process.poll() is None, log.read_text()[-2000:]
        theme.write_text(edit("header_title: Baccarat", "header_title: Good again"), "utf-8")
        process.send_signal(signal.SIGHUP)
        wait_for(log, "theme classic reloaded", 1)
        assert process.poll() is None
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=20)
    text = log.read_text()
    assert "Traceback" not in text and process.returncode >= 0, text[-2000:]
