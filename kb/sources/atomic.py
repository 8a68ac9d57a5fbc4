"""Files replaced whole: written beside under a temporary name, then renamed over the old one (`os.replace`).

A reader sees the old file or the new one, never half of one, and a failure leaves the old one as it was. Each
temporary name carries the id of the process writing it (`.NAME.tmp-PID-TOKEN`), so the next run removes what a
process killed mid-write left behind (`remove_stale`), and never what a live process is still writing (`alive`).
Every file kb writes atomically goes through here: the load cache and its key, the search index's pointer, the
output of `kb export -o` and `kb lexicon -o`; folders (an index being built, a site being swapped in) name their
process the same way and are cleaned with the same test.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
import sys
from collections.abc import Iterator
from hashlib import sha256
from pathlib import Path
from typing import IO

TEMPORARY = re.compile(r"\..*\.tmp-(?P<pid>\d+)-[0-9a-f]+")
"""The name of a temporary file `replacing` writes: `.NAME.tmp-PID-TOKEN`."""
NAME_MAX = 200
"""Longest name kept whole inside a temporary name (a file name has at most 255 bytes)."""


def alive(pid: int) -> bool:
    """Whether a process with this id runs on this machine (this very process included: it may be writing)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):
        return False
    except PermissionError:
        return True  # another user's process
    return True


def temporary(path: Path) -> Path:
    """A fresh temporary name beside `path`, naming this process."""
    return path.with_name(f".{_short(path.name)}.tmp-{os.getpid()}-{secrets.token_hex(4)}")


def temporaries(path: Path) -> re.Pattern[str]:
    """The temporary names of `path` (`temporary`), any process's."""
    return re.compile(rf"\.{re.escape(_short(path.name))}\.tmp-(?P<pid>\d+)-[0-9a-f]+")


def _short(name: str) -> str:
    """A file name short enough to go inside a temporary name (a long one cut, with a hash of it)."""
    if len(os.fsencode(name)) <= NAME_MAX:
        return name
    return os.fsdecode(os.fsencode(name)[: NAME_MAX - 11]) + "-" + sha256(os.fsencode(name)).hexdigest()[:10]


@contextlib.contextmanager
def replacing(path: Path, mode: str = "wb", perms: int = 0o666, encoding: str | None = None) -> Iterator[IO]:
    """A file open for writing in place of `path` (`mode`: `wb`, `w+b` or `w`): it replaces `path` when the block
    ends, and is removed when the block fails. `perms` before the umask (0o600: the user's alone). What dead processes
    left of earlier writes of `path` is removed first."""
    remove_stale(path.parent, temporaries(path))
    tmp = temporary(path)
    fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), perms)
    try:
        with os.fdopen(fd, mode, encoding=encoding) as handle:
            yield handle
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def write_bytes(path: Path, data: bytes, perms: int = 0o666) -> None:
    """Replace `path` with `data`, atomically."""
    with replacing(path, "wb", perms) as handle:
        handle.write(data)


def write_text(path: Path, text: str, perms: int = 0o666) -> None:
    """Replace `path` with `text` in UTF-8, atomically."""
    with replacing(path, "w", perms, encoding="utf-8") as handle:
        handle.write(text)


def stale(folder: Path, pattern: re.Pattern[str] = TEMPORARY) -> list[Path]:
    """The entries of `folder` named by `pattern` (its group `pid`: the process that made them) whose process is
    gone, sorted by name."""
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    found = []
    for name in names:
        m = pattern.fullmatch(name)
        if m is not None and not alive(int(m.group("pid"))):
            found.append(folder / name)
    return found


def remove_stale(folder: Path, pattern: re.Pattern[str] = TEMPORARY) -> None:
    """Remove what processes now gone were writing in `folder` (files or folders named by `pattern`)."""
    for path in stale(folder, pattern):
        remove(path)


def remove(path: Path) -> bool:
    """Delete a file, link or folder (its read-only subfolders too); whether it is gone."""
    try:
        if path.is_dir() and not path.is_symlink():
            _rmtree(path)
        else:
            path.unlink(missing_ok=True)
    except OSError:
        pass
    return not (path.exists() or path.is_symlink())


def _rmtree(folder: Path | str) -> None:
    """`shutil.rmtree`, making a read-only folder writable when it keeps its entries."""
    if sys.version_info >= (3, 12):
        shutil.rmtree(folder, onexc=_writable_then_retry)
    else:
        shutil.rmtree(folder, onerror=lambda function, name, info: _writable_then_retry(function, name, info[1]))


def _writable_then_retry(function, name: str, error: BaseException) -> None:
    """Make the folder holding `name` writable (a read-only folder keeps its entries), then try again once."""
    if isinstance(error, FileNotFoundError):
        return  # removed meanwhile
    if not isinstance(error, PermissionError):
        raise error
    parent = os.path.dirname(name)
    os.chmod(parent, os.stat(parent).st_mode | 0o700)
    if function in (os.rmdir, os.unlink, os.remove):
        function(name)
    else:  # a folder that could not be listed: make it readable, and remove it from the top
        os.chmod(name, os.stat(name).st_mode | 0o700)
        _rmtree(name)
