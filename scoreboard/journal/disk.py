"""The durable file steps the journal and its archive share.

A write either reaches the disk whole (written, fsync'd, and for a created or
renamed file its directory entry fsync'd too) or leaves the file as it was: a
failed append is cut back, so no torn line stays for the next write to follow.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

#: A file as the journal last saw it: device, inode, size.
Identity = tuple[int, int, int]


def identity(seen: os.stat_result) -> Identity:
    return seen.st_dev, seen.st_ino, seen.st_size


def why(error: OSError) -> str:
    """The short reason a technician reads: "No space left on device".

    >>> why(OSError(28, "No space left on device"))
    'No space left on device'
    """
    return error.strerror or str(error) or type(error).__name__


def append_durably(fd: int, data: bytes) -> None:
    """Append ``data`` and fsync it; on failure cut the file back so no torn line stays."""
    size = os.fstat(fd).st_size
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    except OSError:
        with contextlib.suppress(OSError):  # else the next write sees the size differ
            os.ftruncate(fd, size)
        raise


def truncate(path: Path, size: int) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.ftruncate(fd, size)
        os.fsync(fd)
    finally:
        os.close(fd)


def remove_quietly(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink()


def replace_durably(path: Path, data: bytes) -> Identity:
    """Replace ``path`` by ``data`` at once: a temporary file, fsync'd, renamed.

    Returns the identity of the new file; on failure ``path`` is as it was.
    """
    temporary = path.with_name(path.name + ".tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o644)
    try:
        append_durably(fd, data)
        os.replace(temporary, path)
        written = identity(os.fstat(fd))
    except OSError:
        remove_quietly(temporary)
        raise
    finally:
        os.close(fd)
    fsync_dir(path.parent)
    return written


def free_name(folder: Path, stem: str, suffix: str) -> Path:
    """``folder/stem+suffix``, or with ``-2``, ``-3``... after the stem if that is taken."""
    target = folder / f"{stem}{suffix}"
    number = 1
    while target.exists():
        number += 1
        target = folder / f"{stem}-{number}{suffix}"
    return target


def fsync_dir(path: Path) -> None:
    """Make a created or renamed file's directory entry durable too."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def blocker(path: Path, inner: str) -> Path:
    """The file standing where ``path``, a parent, or ``path/inner`` should be a directory."""
    for each in [*reversed(path.parents), path, path / inner]:
        if each.exists() and not each.is_dir():
            return each
    return path
