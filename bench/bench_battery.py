"""Benchmark: the battery of hostile inputs (issue 44) against check, build, search and show, in processes of their own.

Run: python bench/bench_battery.py [--sizes 262144,1048576] [--commands check,build,search,show] [--kinds cr-,faq-]
     [--timeout 120]   (about 15 minutes for the defaults on two cores)

Each kind of `tests/hostile.py`, and the normal input of its class, is written at each size into a content folder
(beside a small rules file), then each command runs on it in a fresh process (`python -m kb`), with a time limit.
For each run: exit status, a traceback or not, wall seconds and peak memory (the process's own maximum resident
size, from `wait4`). Printed: every run; per kind, the slowest run against the normal input of its class and size
(target: within 10x), and `kb check`'s memory per byte of input over a run on the small rules file alone (target for
text: under 10); then the counts of inputs, tracebacks, runs over their time limit, and the slowest and largest runs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import hostile  # noqa: E402 - the project's root first

COMMANDS = {
    "check": ["check"],
    "build": ["build", "--force", "--out", "{site}"],
    "search": ["search", "draw card"],
    "show": ["show", "100.1"],
}
TEXT = ("cr", "faq")
"""Classes whose inputs are text: their memory per byte is held to 10."""


@dataclass(frozen=True)
class Run:
    """One command on one input."""

    kind: str
    size: int
    command: str
    status: int | None
    """Exit status; None when it ran past its time limit."""
    traceback: bool
    seconds: float
    peak: int
    """Peak resident memory, bytes."""


def run(content: Path, command: str, kind: str, size: int, timeout: float) -> Run:
    """Run one command of kb on a content folder in a process of its own."""
    with tempfile.TemporaryDirectory() as out:
        args = [a.format(site=Path(out) / "site") for a in COMMANDS[command]]
        env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(Path(out) / "cache")}
        with tempfile.TemporaryFile() as stderr:
            start = time.perf_counter()
            child = subprocess.Popen(
                [sys.executable, "-m", "kb", *args, "--content", str(content)],
                stdout=subprocess.DEVNULL,
                stderr=stderr,
                env=env,
                start_new_session=True,
            )
            status, peak = _wait(child, timeout)
            seconds = time.perf_counter() - start
            stderr.seek(0)
            said = stderr.read()
    return Run(kind, size, command, status, b"Traceback" in said, seconds, peak)


def _wait(child: subprocess.Popen, timeout: float) -> tuple[int | None, int]:
    """Wait for a child within `timeout` (else kill its group): its exit status (None: killed) and peak memory."""
    deadline = time.monotonic() + timeout
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            child.returncode = os.waitstatus_to_exitcode(status)
            return child.returncode, usage.ru_maxrss * 1024
        if time.monotonic() > deadline:
            os.killpg(child.pid, signal.SIGKILL)
            pid, status, usage = os.wait4(child.pid, 0)
            child.returncode = -9
            return None, usage.ru_maxrss * 1024
        time.sleep(0.02)


def input_size(files: dict[str, bytes]) -> int:
    return sum(map(len, files.values()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="262144,1048576", help="input sizes in bytes (comma-separated)")
    parser.add_argument("--commands", default=",".join(COMMANDS), help="commands to run (comma-separated)")
    parser.add_argument("--kinds", default="", help="only the kinds whose names start with one of these")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds a run may take (default 120)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    commands = args.commands.split(",")
    prefixes = tuple(args.kinds.split(",")) if args.kinds else ("",)
    kinds = {name: spec for name, spec in hostile.KINDS.items() if name.startswith(prefixes)}
    runs: list[Run] = []
    bytes_of: dict[tuple[str, int], int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        base = hostile.make(Path(tmp) / "base", {})
        floor = {c: run(base, c, "base", 0, args.timeout) for c in commands}
        for size in sizes:
            makers = {
                f"{cls}-normal": (cls, fn)
                for cls, fn in hostile.CLASSES.items()
                if any(k[1][0] == cls for k in kinds.items())
            }
            for name, (_, fn) in {**makers, **kinds}.items():
                files = fn(size)
                content = hostile.make(Path(tmp) / name, files)
                bytes_of[name, size] = input_size(files)
                for command in commands:
                    done = run(content, command, name, size, args.timeout)
                    runs.append(done)
                    _print_run(done, bytes_of[name, size])
                shutil.rmtree(content.parent)
    _summary(runs, floor, bytes_of, kinds)


def _print_run(done: Run, size: int) -> None:
    said = "TIMEOUT" if done.status is None else f"exit {done.status}" + (" TRACEBACK" if done.traceback else "")
    print(
        f"{done.kind:28} {size / 1024:9.0f} KB  {done.command:7} {done.seconds:7.2f} s  "
        f"{done.peak / 1e6:8.1f} MB  {said}",
        flush=True,
    )


def _summary(runs: list[Run], floor: dict[str, Run], bytes_of: dict, kinds: dict) -> None:
    """Per kind: time against the normal input of its class, memory per byte; then the totals."""
    print("\nkind                          size KB   slowest vs normal   check MB/byte")
    by = {(r.kind, r.size, r.command): r for r in runs}
    for (name, size), nbytes in sorted(bytes_of.items(), key=lambda item: (item[0][1], item[0][0])):
        cls = kinds.get(name, (name.split("-")[0], None))[0]
        ratios = []
        for command in floor:
            mine, normal = by.get((name, size, command)), by.get((f"{cls}-normal", size, command))
            if mine and normal:
                ratios.append((mine.seconds / max(normal.seconds, 0.05), command))
        worst = max(ratios) if ratios else (0.0, "")
        check = by.get((name, size, "check"))
        per_byte = (check.peak - floor["check"].peak) / nbytes if check and "check" in floor else float("nan")
        flag = "  <- over 10" if per_byte > 10 and cls in TEXT else ""
        print(f"{name:28} {nbytes / 1024:9.0f}   {worst[0]:6.1f}x ({worst[1]:6})   {per_byte:8.2f}{flag}")
    timeouts = [r for r in runs if r.status is None]
    tracebacks = [r for r in runs if r.traceback]
    slowest = max(runs, key=lambda r: r.seconds)
    largest = max(runs, key=lambda r: r.peak)
    print(
        f"\n{len(bytes_of)} inputs, {len(runs)} runs: {len(tracebacks)} tracebacks, {len(timeouts)} over the time limit"
    )
    print(f"slowest: {slowest.kind} {slowest.size} {slowest.command} {slowest.seconds:.1f} s")
    print(f"largest: {largest.kind} {largest.size} {largest.command} {largest.peak / 1e6:.0f} MB")
    for r in tracebacks + timeouts:
        print(f"  {'traceback' if r.traceback else 'timeout'}: {r.kind} {r.size} {r.command}")


if __name__ == "__main__":
    main()
