"""Work done in a forked child process while this one goes on (`kb build --jobs 2`: the search index written while
the pages render).

A forked child starts with this process's memory: nothing is pickled or imported again, so a script calling
`build_site` without an `if __name__ == "__main__":` guard works. It only ever speeds things up: it reports success
or one line of failure, and the caller then does whatever is left in its own process (where a real error is raised
as usual). It never outlives its parent: the kernel kills it when the parent dies (Linux's `PR_SET_PDEATHSIG`),
and it ends at once if the parent was gone before that was armed. It writes nothing to the terminal and leaves
through `os._exit`, so the parent's buffers and exit handlers are never run twice. Where any of this cannot be
promised (no `fork`, not Linux, other threads running whose locks a child would inherit), `can_fork` says no and the
work is done in this process.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import os
import signal
import sys
import threading
from collections.abc import Callable

PR_SET_PDEATHSIG = 1
"""Linux's `prctl` option: the signal the kernel sends this process when its parent ends."""
LONGEST = 4000
"""Bytes of a child's failure message kept."""
DONE = "done\n"
"""What a child says first when its work is done; what its work returned (a string) follows."""


def can_fork() -> bool:
    """Whether work can go to a forked child here: Linux, and no thread but this one."""
    return sys.platform.startswith("linux") and hasattr(os, "fork") and threading.active_count() == 1


def usable_jobs() -> int:
    """Processes a build may use when not told: 2 where a child can be forked and a second core is free to run it,
    else 1. Measured again at a1a3053, cold builds side by side (`bench/bench_pool.py --commands build --jobs 1,2`;
    `bench/bench_build.py --jobs 1,2 --runs 3`, medians): card pool 86.2 s against 133.8 s in one process (0.64×; CPU
    131.9 against 133.6 s; peak 396 against 454 MB: one process holds the pages' memory and the index's at once),
    bundled content 12.87 s against 18.46 s (0.70×, CPU 17.3 against 18.8 s, peak 116 against 144 MiB). In one
    process the pool's build spends 68.4 of its 133.8 s making the search index after the pages: work that needs
    nothing the pages make; with the child it waits 18.6 s for it. (After 9119143: 92.1 against 139.0 s, 15.1
    against 20.9 s; at 0dee2aa: 65.0 against 93.7 s, 7.9 against 10.8 s.)"""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return 2 if can_fork() and cores >= 2 else 1


class Child:
    """A forked child doing some work; `wait` for how it ended, `stop` to end it first."""

    def __init__(self, pid: int, reader: int) -> None:
        self.pid, self._reader, self._ended = pid, reader, None
        self.result = ""
        """What the work returned (a string), once `wait` said it was done."""

    def wait(self) -> str | None:
        """Wait for the child: None when its work was done (`result` then holds what it returned), else why not (one
        line)."""
        if self._ended is None:
            chunks = []
            while chunk := os.read(self._reader, 1 << 16):
                chunks.append(chunk)
            os.close(self._reader)
            _, status = os.waitpid(self.pid, 0)
            said, code = b"".join(chunks).decode("utf-8", "replace"), os.waitstatus_to_exitcode(status)
            if code == 0 and said.startswith(DONE):
                self._ended, self.result = "", said[len(DONE) :]
            else:
                self._ended = said[:LONGEST] or f"the worker process ended with status {code}"
        return self._ended or None

    def stop(self) -> None:
        """End the child now (its parent gave up on its work) and reap it."""
        if self._ended is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            self.wait()


def fork(work: Callable[[], object]) -> Child:
    """Run `work` in a forked child; this process goes on at once. Call `can_fork` first. What `work` returns, when
    a string, is the child's `result`."""
    parent = os.getpid()
    reader, writer = os.pipe()
    gc.freeze()  # the objects both share are not touched by the child's collector: fewer pages copied
    try:
        pid = os.fork()
    finally:
        if os.getpid() == parent:
            gc.unfreeze()
    if pid:
        os.close(writer)
        return Child(pid, reader)
    _child(parent, reader, writer, work)  # never returns


def _child(parent: int, reader: int, writer: int, work: Callable[[], object]) -> None:
    """The child's life: die with the parent, do the work, say how it went, leave without cleaning up after the
    parent's objects."""
    code = 1
    try:
        os.close(reader)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it stops the child
        _die_with(parent)
        result = work()
        said = (DONE + (result if isinstance(result, str) else "")).encode()
        while said:
            said = said[os.write(writer, said) :]
        code = 0
    except BaseException as err:  # the parent redoes the work and raises the real error
        with contextlib.suppress(BaseException):  # nothing more can be said
            os.write(writer, f"{type(err).__name__}: {err}".splitlines()[0].encode()[:LONGEST])
    finally:
        os._exit(code)


def _die_with(parent: int) -> None:
    """Have the kernel kill this process when its parent ends; end now if it already has."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)
