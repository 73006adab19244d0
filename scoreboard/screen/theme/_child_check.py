"""A file tried in a child process: the verdict on the file, or why there is none.

Fonts and images (:mod:`~scoreboard.screen.theme.fonts`, :mod:`~scoreboard.screen.theme.images`)
are loaded first in a ``python -c`` child with a timeout, since a hostile file can abort
the process that loads it.  A child that cannot start (a process limit, low
memory, too many open files) says nothing about the file: that is
:attr:`ChildRun.unchecked`, tried again after :data:`RETRY_SECONDS`, never
reported as a bad file.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

RETRY_SECONDS = (0.2, 0.5)
"""The waits before trying again a check whose child could not start (a process table or
memory full for a moment): three tries in all."""

CANNOT_RUN = 3
"""The child's exit status when it could not set itself up (pygame would not load or start)."""


@dataclass(frozen=True, slots=True)
class ChildRun:
    """What one check's child said: its output, why the file is unusable, or no verdict.

    ``unchecked``: why the child could not run at all; then nothing is known of the
    file, neither good nor bad.
    """

    stdout: str = ""
    error: str | None = None
    unchecked: str | None = None


def run_child(probe: str, path: Path, *, library: str, timeout: float, text: str = "") -> ChildRun:
    """Run ``probe`` (Python source, given ``path`` as argv[1] and ``text`` on stdin) once.

    ``library`` names what a crash of the child blames ("font", "image").  The
    probe exits :data:`CANNOT_RUN` when it could not set itself up.
    """
    try:
        done = subprocess.run(
            [sys.executable, "-c", probe, str(path)],
            input=text,
            capture_output=True,
            encoding="utf-8",
            errors="replace",
            timeout=timeout,
            env={**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONDONTWRITEBYTECODE": "1"},
            check=False,
        )
    except subprocess.TimeoutExpired:
        return ChildRun(error=f"loading it took over {timeout:g} s")
    except OSError as error:  # fork, the pipes or exec: EAGAIN, ENOMEM, EMFILE, ENOENT
        return ChildRun(unchecked=f"cannot start a process ({error.strerror or error})")
    if done.returncode == -signal.SIGKILL:  # not what a file does: the OOM killer's sign
        return ChildRun(unchecked="the check's process was killed (SIGKILL: out of memory?)")
    if done.returncode < 0:
        name = signal.Signals(-done.returncode).name
        return ChildRun(error=f"the {library} library crashed on it ({name})")
    if done.returncode == CANNOT_RUN:
        return ChildRun(unchecked=f"the check could not start ({last_line(done.stderr)})")
    if done.returncode != 0:
        return ChildRun(error=last_line(done.stderr) or f"exit status {done.returncode}")
    return ChildRun(stdout=done.stdout)


def run_child_tries(
    probe: str, path: Path, *, library: str, timeout: float, text: str = ""
) -> ChildRun:
    """:func:`run_child`, tried again after each :data:`RETRY_SECONDS` while it cannot run.

    Still unable after the last try: ``unchecked`` names the file and the tries.
    """
    found = run_child(probe, path, library=library, timeout=timeout, text=text)
    for wait in RETRY_SECONDS:
        if found.unchecked is None:
            return found
        time.sleep(wait)
        found = run_child(probe, path, library=library, timeout=timeout, text=text)
    if found.unchecked is None:
        return found
    tries = len(RETRY_SECONDS) + 1
    return ChildRun(unchecked=f"{path.name}: {found.unchecked}, tried {tries} times")


def last_line(text: str, limit: int = 80) -> str:
    """The last non-empty line of a child's stderr, short (the exception, not the traceback).

    >>> last_line("Traceback ...\\n  File x\\npygame.error: Passed a NULL pointer\\n")
    'pygame.error: Passed a NULL pointer'
    """
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    last = lines[-1] if lines else ""
    return last if len(last) <= limit else last[: limit - 1] + "…"
