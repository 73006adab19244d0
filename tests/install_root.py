"""kiosk/install.sh run for real into a scratch ``--root DIR``, and a NOTIFY_SOCKET to watch.

The source is a copy of the checkout with a ``.venv`` and a ``.git`` planted in it
(what ``make demo`` and a clone leave), so a test can tell whether anything of them
reached the install.  The scratch roots live under /tmp with mode 755 rather than in
pytest's private tmp directory, because the cage test runs the installed board as an
unprivileged user that must be able to reach it.
"""

from __future__ import annotations

import atexit
import hashlib
import os
import shutil
import socket
import stat
import struct
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
#: Written into the planted .venv and .git: found anywhere in a root, they were copied.
PLANTED = "planted-by-the-install-tests-3f9c"
CHECKOUT = ("pyproject.toml", "README.md", "LICENSE", "Makefile", "scoreboard", "themes", "kiosk")
SKIPPED_BY_COPY = (".venv", ".git", "__pycache__", ".pytest_cache", ".hypothesis",
                   ".ruff_cache", ".mypy_cache", "build", "dist", "*.egg-info")  # fmt: skip


def source_copy(dest: Path) -> Path:
    """A checkout as a technician has it: the installer's files, a planted .venv and .git.

    Only what install.sh reads is copied (the package, its themes, kiosk/): the
    rest of the repository would only slow every copy and tree listing down.
    """
    dest.mkdir(parents=True)
    ignore = shutil.ignore_patterns(*SKIPPED_BY_COPY)
    for name in CHECKOUT:
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, dest / name, ignore=ignore)
        else:
            shutil.copy2(REPO / name, dest / name)
    venv_bin = dest / ".venv" / "bin"
    venv_bin.mkdir(parents=True)
    (venv_bin / "python").write_text(f"#!/bin/sh\necho {PLANTED}\n")
    (venv_bin / "python").chmod(0o755)
    (venv_bin / "scoreboard").write_text(f"#!{venv_bin / 'python'}\n# {PLANTED}\n")
    (dest / ".git").mkdir()
    (dest / ".git" / "HEAD").write_text(f"ref: refs/heads/{PLANTED}\n")
    return dest


def scratch_dir(prefix: str) -> Path:
    """An empty directory under /tmp any user may traverse (see the module docstring)."""
    path = Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))
    path.chmod(0o755)
    return path


def install(
    root: Path, *args: str, source: Path = REPO, env: dict[str, str] | None = None,
    timeout: float = 600,
) -> subprocess.CompletedProcess:  # fmt: skip
    """``bash SOURCE/kiosk/install.sh --root ROOT ARGS...``; every run's output is kept."""
    result = subprocess.run(
        ["bash", str(source / "kiosk" / "install.sh"), "--root", str(root), *args],
        capture_output=True, text=True, timeout=timeout, env=env, check=False,
    )  # fmt: skip
    return result


def installed(result: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert result.returncode == 0, f"install.sh failed:\n{result.stdout}\n{result.stderr}"
    return result


#: How old a file's last change must be for its digest to be kept: a change within
#: the same tick of the file system's clock would not show in its ctime (git's "racy" case).
SETTLED_NS = 2_000_000_000
_digests: dict[tuple[int, ...], str] = {}


def _digest(path: Path, info: os.stat_result) -> str:
    """The sha256 of a file, hashed again whenever its inode, size, mtime or ctime moved.

    Any write or chmod sets the ctime to the time of the change, so a file whose
    stat is the same as when it was hashed, long enough ago, has the same bytes.
    """
    key = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
    digest = _digests.get(key)
    if digest is None:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if info.st_ctime_ns < time.time_ns() - SETTLED_NS:
            _digests[key] = digest
    return digest


def tree(root: Path) -> dict[str, str]:
    """Every path under ``root``: a file's mode and sha256, a link's target, a directory."""
    listing: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            info = path.lstat()
            key = str(path.relative_to(root))
            if stat.S_ISLNK(info.st_mode):
                listing[key] = "-> " + os.readlink(path)
            elif stat.S_ISDIR(info.st_mode):
                listing[key] = f"dir {info.st_mode & 0o7777:o}"
            else:
                listing[key] = f"{info.st_mode & 0o7777:o} {_digest(path, info)}"
    return listing


#: Where the releases' venvs live in a root (about 80 MB each).
RELEASES = Path("opt/scoreboard/releases")


def copy_root(root: Path, prefix: str) -> Path:
    """A new scratch directory holding a copy of the install ``root`` (``cp -a``).

    The releases' files are hard links rather than copies: install.sh never writes
    into an existing release (a new release is a new folder; a rollback, a prune
    and an uninstall only switch links or delete), so the copy and the original
    may share them, and the 80 MB of each venv is not copied again.  Everything
    else (the configs, units, secrets and journals a test changes) is copied.
    """
    copy = scratch_dir(prefix)
    levels = [(root, copy)]
    here, there = root, copy
    for part in RELEASES.parts:
        if not (here / part).is_dir() or (here / part).is_symlink():
            subprocess.run(["cp", "-a", f"{here}/.", str(there)], check=True)
            break
        others = [str(entry) for entry in here.iterdir() if entry.name != part]
        if others:
            subprocess.run(["cp", "-a", *others, str(there)], check=True)
        here, there = here / part, there / part
        there.mkdir()
        levels.append((here, there))
    else:
        subprocess.run(["cp", "-al", f"{here}/.", str(there)], check=True)
    for original, made in reversed(levels):  # as cp -a: a folder's times after its content
        shutil.copystat(original, made)
    return copy


def files_mentioning(root: Path, text: str) -> list[str]:
    """Files under ``root`` whose bytes or path contain ``text``."""
    needle = text.encode()
    found = []
    for dirpath, _dirs, filenames in os.walk(root):
        for name in filenames:
            path = Path(dirpath) / name
            if path.is_symlink():
                continue
            if text in str(path) or needle in path.read_bytes():
                found.append(str(path.relative_to(root)))
    return found


@dataclass(frozen=True)
class Install:
    """One scratch install: the root, and the first run's output."""

    root: Path
    first_run: subprocess.CompletedProcess

    @property
    def opt(self) -> Path:
        return self.root / "opt" / "scoreboard"

    @property
    def environment(self) -> dict[str, str]:
        values = {}
        for line in (self.root / "etc/scoreboard/environment").read_text().splitlines():
            if line and not line.startswith("#"):
                key, _, value = line.partition("=")
                values[key] = value.strip('"')
        return values

    def releases(self) -> list[str]:
        return sorted(path.name for path in (self.opt / "releases").iterdir())

    def current(self) -> str:
        return os.readlink(self.opt / "current")


_shared: list[Install] = []


def shared_install(factory: pytest.TempPathFactory) -> Install:
    """One real install of this checkout for the whole test run (building it takes a while).

    Built from a source copy that is deleted right after, so every test runs the
    install without its checkout. Test modules take it through a module fixture;
    a test that changes it puts it back.
    """
    if not _shared:
        source = source_copy(factory.mktemp("source") / "scoreboard")
        root = scratch_dir("scoreboard-root-")
        atexit.register(shutil.rmtree, root, True)
        first = installed(install(root, "--live", source=source))
        shutil.rmtree(source)
        _shared.append(Install(root, first))
    return _shared[0]


# --- systemd's side of the notify protocol ---------------------------------------
# systemd credits a notification to the unit of the *sending process* (the pid the
# socket's credentials carry), which is why the kiosk relays the board's messages;
# so every message recorded here carries the sender's pid, as systemd sees it.

UCRED = struct.Struct("3i")  # pid, uid, gid


@dataclass(frozen=True)
class Notification:
    pid: int
    fields: tuple[str, ...]

    def has(self, field: str) -> bool:
        return field in self.fields


class NotifySocket:
    """A datagram socket at ``directory/notify`` that records every message and its sender."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / "notify"
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(self.path))
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        self.sock.settimeout(0.05)
        os.chmod(self.path, 0o777)  # the cage test's board runs as another user
        self.received: list[Notification] = []

    def drain(self) -> list[Notification]:
        """Everything that arrived since the last call."""
        fresh = []
        while True:
            try:
                data, ancillary, _flags, _address = self.sock.recvmsg(
                    65536, socket.CMSG_SPACE(UCRED.size)
                )
            except (TimeoutError, BlockingIOError):
                break
            pid = next(
                (UCRED.unpack(cdata)[0] for level, kind, cdata in ancillary
                 if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS),
                -1,
            )  # fmt: skip
            fresh.append(Notification(pid, tuple(data.decode().split("\n"))))
        self.received += fresh
        return fresh

    def wait_for(
        self, field: str, timeout: float = 30.0, extra: Callable[[], None] | None = None
    ) -> Notification:
        """The first message with ``field`` (e.g. ``READY=1``), waiting up to ``timeout`` s."""
        deadline = time.monotonic() + timeout
        seen = [n for n in self.received if n.has(field)]
        while not seen and time.monotonic() < deadline:
            seen = [n for n in self.drain() if n.has(field)]
            if extra is not None:
                extra()
        assert seen, f"no {field} within {timeout} s; received {self.received}"
        return seen[0]

    def close(self) -> None:
        self.sock.close()
