"""``scoreboard bench`` as a technician runs it: the real command in a subprocess, headless.

Speed is never asserted: only that every figure is there, sane (a median no
more than its p99, positive), the verdict agrees with its checks, bad
arguments are refused in one line, and nothing is left behind (no file
outside the temporary directory it removes, no broker of its own running),
also when mosquitto is not installed and when it is interrupted.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

SIZES = ("800x600", "1920x1080", "3840x2160")
FRAMES = ("frame_coup_ms", "frame_animation_ms", "frame_full_ms")
UNSHARE = shutil.which("unshare")


def bench_env(home: Path, **changes: str) -> dict[str, str]:
    """No display at all (the command picks the dummy driver itself); TMPDIR and HOME our own."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("SDL_")}
    for name in ("DISPLAY", "WAYLAND_DISPLAY"):
        env.pop(name, None)
    (home / "tmp").mkdir(parents=True, exist_ok=True)
    (home / "cwd").mkdir(exist_ok=True)
    env.update(TMPDIR=str(home / "tmp"), HOME=str(home / "cwd"), **changes)
    return env


def bench(
    home: Path, *args: str, prefix: tuple[str, ...] = (), **env: str
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*prefix, sys.executable, "-m", "scoreboard", "bench", *args],
        capture_output=True,
        text=True,
        timeout=240,
        env=bench_env(home, **env),
        cwd=home / "cwd",
        check=False,
    )


def our_brokers(home: Path) -> list[int]:
    """Pids of mosquitto processes started with a config under ``home`` (ours, nobody else's)."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if argv and b"mosquitto" in argv[0] and any(str(home).encode() in a for a in argv):
            found.append(int(proc.name))
    return found


def left_behind(home: Path) -> list[str]:
    return [str(path) for path in (home / "tmp").rglob("*")] + [
        str(path) for path in (home / "cwd").rglob("*")
    ]


@pytest.fixture(scope="module")
def json_run(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[dict, subprocess.CompletedProcess, Path]]:
    home = tmp_path_factory.mktemp("bench-json")
    done = bench(home, "--json", "--quick", "--size", "800x600")
    assert done.returncode in (0, 1), done.stderr
    yield json.loads(done.stdout), done, home


def sane(figure: dict, low: str = "median") -> None:
    assert 0 < figure[low] <= figure["p99"], figure
    assert figure["samples"] >= 1, figure


@pytest.mark.mosquitto
def test_json_has_every_figure_at_every_size(json_run) -> None:
    report, _, _ = json_run
    sane(report["road_append_us"])
    for key in FRAMES:
        assert set(report[key]) == set(SIZES), key
        for size in SIZES:
            sane(report[key][size])
    assert report["screen"] == {"size": "800x600", "rotate": 0}
    assert 0 < report["idle_cpu_percent"] < 100
    assert report["idle_seconds"] >= 2
    memory = report["memory"]
    assert memory["peak_rss_mib"] >= memory["rss_after_last_shoe_mib"] > 0
    assert memory["shoes"] >= 2


@pytest.mark.mosquitto
def test_json_has_publish_to_flip_through_its_own_broker(json_run) -> None:
    report, _, _ = json_run
    sane(report["publish_flip_ms"], "p50")
    sane(report["publish_applied_ms"], "p50")
    assert report["publish_flip_ms"]["p50"] >= report["publish_applied_ms"]["p50"]
    assert report["publish_flip_skipped"] is None and report["publish_flip_failed"] is None
    coups = report["publish_flip_coups"]
    assert coups["shown"] == coups["published"] == report["publish_flip_ms"]["samples"] > 0


@pytest.mark.mosquitto
def test_json_names_the_machine_and_says_the_copy_went_nowhere(json_run) -> None:
    report, done, _ = json_run
    machine = report["machine"]
    assert machine["cpus"] >= 1 and machine["python"].startswith("3.")
    assert machine["pygame"] and machine["sdl"].count(".") == 2
    assert machine["video_driver"] == "dummy" and machine["display_copy"] is False
    assert "dummy driver: no real display copy" in done.stderr
    assert "bench: frames at 3840x2160" in done.stderr  # progress on stderr, JSON alone on stdout


@pytest.mark.mosquitto
def test_the_verdict_agrees_with_its_checks_and_the_exit_status(json_run) -> None:
    report, done, _ = json_run
    checks = report["checks"]
    names = {check["name"] for check in checks}
    assert {"per-coup update p99 at 800x600", "full frame p99 at 800x600", "idle CPU"} <= names
    assert "publish→flip p99" in names
    for check in checks:
        if check["value"] is None:  # not measured here: the copy to a screen (dummy driver)
            assert check["status"] == "skipped", check
            continue
        assert check["status"] == ("pass" if check["value"] <= check["limit"] else "fail"), check
    failed = [check["name"] for check in checks if check["status"] == "fail"]
    verdict = report["verdict"]
    assert verdict["pass"] is (not failed)
    assert done.returncode == (0 if verdict["pass"] else 1)
    if failed:
        assert verdict["line"].startswith("FAIL: ")
        assert all(name.split(" at ")[0] in verdict["line"] for name in failed)
    else:  # the dummy driver here: frames never reached a screen, so never "ready"
        assert verdict["line"].startswith("PASS as far as measured (not measured: copy to the ")


@pytest.mark.mosquitto
def test_nothing_is_left_behind(json_run) -> None:
    _, _, home = json_run
    assert left_behind(home) == []
    assert our_brokers(home) == []


@pytest.mark.mosquitto
def test_a_human_run_prints_each_figure_and_the_verdict_last(tmp_path: Path) -> None:
    done = bench(tmp_path, "--quick", "--size", "640x480")
    assert done.returncode in (0, 1), done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines[-1].startswith("PASS as far as measured" if done.returncode == 0 else "FAIL: ")
    for row in ("road append (µs)", "  640x480 (screen)", "  1920x1080", "  3840x2160"):
        assert any(line.startswith(row) for line in lines), row
    assert any(line.startswith("idle CPU") for line in lines)
    assert "dummy driver: no real display copy" in done.stdout
    assert left_behind(tmp_path) == []


@pytest.mark.parametrize("size", ["abc", "0x0", "99999x99999"])
def test_a_bad_size_is_refused_in_one_line(tmp_path: Path, size: str) -> None:
    done = bench(tmp_path, "--size", size)
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "--size" in done.stderr and size in done.stderr


def test_a_display_nobody_answers_is_refused_before_measuring(tmp_path: Path) -> None:
    """DISPLAY names a screen that is not there: exit 1 and why, not figures from nowhere."""
    unused = next(n for n in range(93, 200) if not Path(f"/tmp/.X11-unix/X{n}").exists())
    done = bench(tmp_path, "--quick", DISPLAY=f":{unused}")
    assert done.returncode == 1, done.stderr
    assert done.stdout == ""
    assert "no display to show the board on" in done.stderr
    assert "Traceback" not in done.stderr and "bench: memory" not in done.stderr


def test_without_mosquitto_publish_to_flip_is_skipped_with_the_reason(tmp_path: Path) -> None:
    """Mosquitto gone for this process: off PATH, and Debian's /usr/sbin hidden by a mount."""
    assert UNSHARE, "unshare (util-linux) is needed to hide /usr/sbin/mosquitto"
    path = os.pathsep.join(
        folder
        for folder in os.environ.get("PATH", "").split(os.pathsep)
        if folder and not os.path.exists(os.path.join(folder, "mosquitto"))
    )
    hide = ('mount -t tmpfs scoreboard-bench-test /usr/sbin && exec "$@"',)
    prefix = (UNSHARE, "--mount", "--propagation", "private", "sh", "-c", *hide, "sh")
    done = bench(tmp_path, "--json", "--quick", "--size", "800x600", prefix=prefix, PATH=path)
    assert done.returncode in (0, 1), done.stderr
    report = json.loads(done.stdout)
    assert report["publish_flip_ms"] is None and report["publish_applied_ms"] is None
    assert report["publish_flip_skipped"] == "mosquitto not installed"
    check = next(c for c in report["checks"] if c["name"] == "publish→flip p99")
    assert check == {
        **check,
        "value": None,
        "status": "skipped",
        "reason": "mosquitto not installed",
    }
    if report["verdict"]["pass"]:
        assert "publish→flip p99: mosquitto not installed" in report["verdict"]["line"]
    assert "publish→flip: skipped: mosquitto not installed" in done.stderr
    sane(report["frame_full_ms"]["800x600"])  # the rest was measured as usual
    assert our_brokers(tmp_path) == [] and left_behind(tmp_path) == []


@pytest.mark.mosquitto
def test_ctrl_c_stops_its_broker_and_removes_its_files(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "scoreboard", "bench", "--quick", "--size", "800x600"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=bench_env(tmp_path),
        cwd=tmp_path / "cwd",
    )
    try:
        deadline = time.monotonic() + 120
        while not our_brokers(tmp_path) and time.monotonic() < deadline:
            assert process.poll() is None, process.communicate()
            time.sleep(0.05)
        assert our_brokers(tmp_path), "the broker never started"
        time.sleep(0.5)  # the deal under way
        process.send_signal(signal.SIGINT)
        _out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, err
    assert b"Traceback" not in err
    assert our_brokers(tmp_path) == []
    assert left_behind(tmp_path) == []
