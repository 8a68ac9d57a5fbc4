"""A process a build starts stops when the build is gone: a build killed with SIGKILL leaves no worker behind.

A worker (`concurrent.futures`, started afresh: `multiprocessing`'s spawn) holds both ends of the pipe its task
comes by, so a build killed before sending it would leave it waiting for ever, and one killed later, writing an
index nobody will use. `stop_with_parent` (the pool's initializer, run before the worker waits for its task) checks
every EVERY seconds, on a SIGALRM timer of the worker's only working thread, that its parent is still the process
that started it (whose id the build passes: it may be gone before the worker starts); when it is not, it removes the
folders the worker was writing (`remove_when_orphaned`) and ends.
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
from pathlib import Path

EVERY = 0.2
"""Seconds between two checks that the build is still there."""
_PARENT: list[int] = []
"""The process that started this one, once `stop_with_parent` is armed."""
_FOLDERS: list[Path] = []
"""What this process is writing, removed when it stops for want of its build."""


def spawned() -> bool:
    """Whether this process is a worker `multiprocessing` started afresh (its command line says so)."""
    return sys.argv[1:2] == ["--multiprocessing-fork"]


def stop_with_parent(parent: int | None = None) -> None:
    """From now on, end this process soon after `parent` (the process that started it: its id passed by that process,
    since it may be gone before this one runs) is gone. Armed once."""
    if _PARENT:
        return
    _PARENT.append(parent or os.getppid())
    signal.signal(signal.SIGALRM, _check)
    signal.setitimer(signal.ITIMER_REAL, EVERY, EVERY)


def remove_when_orphaned(folder: Path) -> None:
    """Remove `folder` if this process stops for want of its parent (in a worker; nothing otherwise)."""
    if spawned():
        stop_with_parent()
        _FOLDERS.append(folder)


def _check(signum, frame) -> None:
    """End this process when its parent changed (the build was killed: the worker now belongs to init)."""
    if os.getppid() != _PARENT[0]:
        for folder in _FOLDERS:
            shutil.rmtree(folder, ignore_errors=True)
        os._exit(1)
