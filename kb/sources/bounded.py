"""Files read within a bound: regular files only (a symbolic link followed only to one), never more than a limit.

A name kb reads back (a cache, an index's pointer, a site's stamp) or a content file may be a link to `/dev/zero`
or a FIFO planted there, or a sparse file of a terabyte: it is opened without blocking, its kind and size checked
on the open file (what was checked is what is read), and refused with an `OSError` whose `strerror` says why.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO


class NotRegular(OSError):
    """A name that leads to a FIFO, a device, a socket or a folder: never read."""


class TooLarge(OSError):
    """A regular file over the size kb reads of its kind."""

    size: int
    """Its size in bytes."""


def open_regular(path: Path | str, limit: int | None = None) -> BinaryIO:
    """Open a regular file for reading (`limit`: the most bytes it may hold, None for any); `NotRegular`,
    `TooLarge` or another `OSError` when it cannot be read."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)  # a FIFO opened without O_NONBLOCK waits for a writer
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegular(errno.EINVAL, f"not a regular file ({_kind(info.st_mode)})", str(path))
        if limit is not None and info.st_size > limit:
            error = TooLarge(errno.EFBIG, f"{info.st_size:,} bytes, over the limit of {limit:,}", str(path))
            error.size = info.st_size
            raise error
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular(path: Path | str, limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes (`open_regular`'s errors; `TooLarge` too when it grew
    past the limit while it was read)."""
    with open_regular(path, limit) as handle:
        data = read_all(handle, limit)
    if len(data) > limit:
        error = TooLarge(errno.EFBIG, f"over the limit of {limit:,} bytes", str(path))
        error.size = len(data)
        raise error
    return data


def read_all(handle: BinaryIO, limit: int) -> bytes:
    """What an open regular file holds, up to `limit` bytes and one more (the caller sees it grew past the limit).
    Read in one piece of the file's size: a read of `limit` bytes would set aside `limit` bytes first."""
    size = os.fstat(handle.fileno()).st_size
    data = handle.read(min(size, limit) + 1)
    if len(data) > size and len(data) <= limit:  # it grew while it was read
        data += handle.read(limit + 1 - len(data))
    return data


def _kind(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    kinds = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"))
    kinds += ((stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))
    return next((name for test, name in kinds if test(mode)), "a special file")
