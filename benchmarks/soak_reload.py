"""Theme reloads of a running demo: resident memory and open files before and after.

An operator editing a theme saves it again and again, and each save (or SIGHUP)
reloads it in the running kiosk; what the old theme held must be given back or
a 2-4 GB Pi runs out after a few dozen edits.  This starts a real ``scoreboard
demo`` (the ``midnight`` theme, 1920x1080, dummy video driver), sends it a
SIGHUP every ``--gap`` seconds ``--reloads`` times, waits for the reloads to be
done, and prints VmRSS, the open file descriptors and those open on a font file.
SIGHUPs that arrive while a reload runs are one reload (the kiosk keeps one
request), so the reloads done are counted from the log; ``--each`` waits for
each reload before the next SIGHUP, for exactly ``--reloads`` of them.

Run: ``.venv/bin/python benchmarks/soak_reload.py [--reloads 150] [--gap 0.25]``;
``--tree DIR`` runs an older checkout's ``scoreboard`` (imported from DIR; the
themes stay this checkout's).  Not part of ``make bench`` (it takes minutes);
figures go to docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from scoreboard.bench.memory import status_mib

RELOADED = "reloaded from"


def font_files(pid: int) -> int:
    """How many of ``pid``'s descriptors are open on a font file."""
    found = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        found += target.endswith((".otf", ".ttf"))
    return found


def sample(pid: int, log: Path) -> str:
    reloads = log.read_text(errors="replace").count(RELOADED)
    rss = status_mib("VmRSS", pid)
    files = len(os.listdir(f"/proc/{pid}/fd"))
    return f"{reloads:4d} reloads  {rss:7.1f} MiB  {files:4d} files  {font_files(pid):3d} on fonts"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reloads", type=int, default=150)
    parser.add_argument("--gap", type=float, default=0.25)
    parser.add_argument("--tree", type=Path, default=Path.cwd())
    parser.add_argument("--each", action="store_true", help="wait for each reload")
    parser.add_argument("--pace", default="1", help="the demo's seconds per coup")
    parser.add_argument("--sighup", action=argparse.BooleanOptionalAction, default=True)
    args = parser.parse_args()
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    command = [sys.executable, "-m", "scoreboard", "demo", "--theme", "midnight", "--windowed"]
    command += ["--size", "1920x1080", "--pace", args.pace, "--seed", "3"]
    log = Path("/tmp/scoreboard-soak-reload.log")
    with log.open("w") as out:
        process = subprocess.Popen(
            command, cwd=args.tree, stdout=out, stderr=subprocess.STDOUT, env=env
        )
    try:
        while "demo: shoe" not in log.read_text(errors="replace"):
            if process.poll() is not None:
                print(f"demo exited {process.returncode}; see {log}")
                return 1
            time.sleep(0.2)
        time.sleep(1.0)
        print(f"start      {sample(process.pid, log)}")
        started = time.monotonic()
        for sent in range(1, args.reloads + 1):
            if args.sighup:  # --no-sighup: the same time, no reload (what dealing alone opens)
                process.send_signal(signal.SIGHUP)
            time.sleep(args.gap)
            while (
                args.each and args.sighup and log.read_text(errors="replace").count(RELOADED) < sent
            ):
                time.sleep(0.05)
            if sent % 25 == 0:
                print(f"{sent:3d} sent    {sample(process.pid, log)}")
        deadline = time.monotonic() + 120
        last = -1
        while time.monotonic() < deadline:  # the last reload requested has been done
            done = log.read_text(errors="replace").count(RELOADED)
            if done == last:
                break
            last = done
            time.sleep(3.0)
        elapsed = time.monotonic() - started
        print(f"end        {sample(process.pid, log)}  ({elapsed:.0f} s)")
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
