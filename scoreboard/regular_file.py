"""Files a person names (a config, a theme, a key, a font, a logo): only regular files are read.

A path typed by hand or written in a YAML file may name anything: a FIFO, whose
``open`` blocks until a writer comes (the kiosk would hang without a word),
``/dev/zero`` (endless), a directory, a socket.  Each is refused by its kind
before it is opened, in words that say so; and the file is opened without
blocking and looked at again, so one swapped in meanwhile cannot hang either.
A missing file is left to :class:`FileNotFoundError`, which says it is missing.

>>> try:
...     check_regular("/dev/null")
... except NotRegularFileError as error:
...     print(error.strerror)
not a regular file but a character device
"""

from __future__ import annotations

import errno
import os
import stat
from typing import BinaryIO

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


class NotRegularFileError(OSError):
    """The path is there but is not a regular file; ``strerror`` says what it is instead."""


def kind(mode: int) -> str:
    """What a file of this ``st_mode`` is, in a few words.

    >>> kind(os.stat("/").st_mode)
    'a directory'
    """
    for test, name in _KINDS:
        if test(mode):
            return name
    return "a regular file" if stat.S_ISREG(mode) else "not a file of a known kind"


def _refuse(path: str | os.PathLike[str], mode: int) -> NotRegularFileError:
    return NotRegularFileError(errno.EINVAL, f"not a regular file but {kind(mode)}", str(path))


def check_regular(path: str | os.PathLike[str]) -> os.stat_result:
    """The file's status when ``path`` (or what a link names) is a regular file; never opens it.

    Raises :class:`NotRegularFileError` for anything else, and the ``OSError`` of
    ``stat`` (``FileNotFoundError``...) when it cannot be looked at.
    """
    info = os.stat(path)
    if not stat.S_ISREG(info.st_mode):
        raise _refuse(path, info.st_mode)
    return info


def open_regular(path: str | os.PathLike[str]) -> BinaryIO:
    """``path`` opened for reading in binary, or :class:`NotRegularFileError`; never blocks.

    Checked before opening (a device is never opened at all), opened with
    ``O_NONBLOCK`` and checked again on the open file, so a FIFO put in its
    place in between is refused too, not waited on.
    """
    check_regular(path)
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise _refuse(path, mode)
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_all(path: str | os.PathLike[str]) -> bytes:
    """The whole of the regular file ``path`` (``Path.read_bytes`` that refuses a FIFO)."""
    with open_regular(path) as handle:
        return handle.read()


def read_regular(path: str | os.PathLike[str], limit: int) -> bytes:
    """At most ``limit`` + 1 bytes of the regular file ``path`` (so the caller sees it too long)."""
    with open_regular(path) as handle:
        return handle.read(limit + 1)
