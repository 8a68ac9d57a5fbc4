"""Benchmark: `kb build` of the default content, cold (no site, no `.kb/` caches) and unchanged, wall and CPU.

Run: `python bench/bench_build.py [--peer CHECKOUT] [--runs N] [--jobs 1,2]`. Each run copies the bundled content
into a temporary folder and builds it in a process of its own; with `--peer` (another kb checkout, e.g. the previous
main) the two are alternated, so the machine's load hits them alike, and the medians are printed side by side, with
each build's peak memory (its process and the children it waited for). `--jobs 1,2` builds this checkout once per
value of `kb build --jobs` in each round (the peer is built as it builds by default); `--own-content` builds each
checkout's own bundled content (a change of the content measured with the code that reads it).
`--no-api` builds this checkout without its JSON API, for a peer older than the API (the same work).
Targets: a cold build at most 1.2x the peer's (8502699, the engine Whoosh replaced); an unchanged one under 0.15 s.
Every command runs as an installed kb runs, its modules' bytecode written on the first run (`installed_env`).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
UNCHANGED = 5
"""Unchanged builds after each cold one (each a fraction of a second: the machine's noise needs a median)."""
UNCHANGED_TARGET = 0.15
COLD_TARGET = 1.2
"""A cold build's wall time against the peer's (8502699, the engine Whoosh replaced), at most."""


BYTECODE = Path(tempfile.gettempdir()) / "kb-bench-bytecode"
"""Where the benchmarks' commands keep the bytecode of the modules they run (`installed_env`)."""


def installed_env() -> dict[str, str]:
    """The environment of a command run as an installed kb runs: its modules' bytecode written on the first run (into
    BYTECODE, not the checkouts), as pip's install or any first run writes it. A variable turning that off is dropped:
    it would have kb's own modules compiled from source at every start while the standard library's are read as
    bytecode, and so count against a command's start-up what no user's install pays."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPYCACHEPREFIX": str(BYTECODE)}


def run(checkout: Path, args: list[str], cwd: Path) -> tuple[float, float, float]:
    """(wall s, CPU s, peak MiB) of `python -m kb ARGS` run from a checkout as an installed kb runs (the peak: of the
    process and of the children it waited for)."""
    env = {**installed_env(), "PYTHONPATH": str(checkout)}
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "kb", *args], cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"kb {' '.join(args)} failed ({proc.returncode}): {proc.stderr.read().decode()[:500]}")
    proc.stderr.close()
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def build_twice(
    checkout: Path, tmp: Path, jobs: str | None, extra: list[str], own: bool = False
) -> dict[str, list[tuple[float, float, float]]]:
    """A cold build of a fresh copy of the bundled content (`own`: the checkout's own, else this one's), then UNCHANGED
    unchanged ones (`extra`: more arguments)."""
    work = tmp / f"w-{time.monotonic_ns()}"
    shutil.copytree((checkout if own else ROOT) / "content", work / "content")
    args = ["build", "--content", str(work / "content"), "--out", str(work / "site"), *extra]
    args += ["--jobs", jobs] if jobs else []
    found = {"cold": [run(checkout, args, work)], "unchanged": [run(checkout, args, work) for _ in range(UNCHANGED)]}
    shutil.rmtree(work)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", type=Path, help="another kb checkout built alongside (alternated runs)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", default="", help="comma-separated values of this checkout's kb build --jobs")
    parser.add_argument("--no-api", action="store_true", help="build this checkout with --no-api (a peer without one)")
    parser.add_argument(
        "--own-content", action="store_true", help="each checkout builds its own bundled content (content changed too)"
    )
    args = parser.parse_args()
    variants = {f"kb -j{j}": (ROOT, j) for j in args.jobs.split(",") if j} or {"kb": (ROOT, None)}
    variants |= {"peer": (args.peer.resolve(), None)} if args.peer else {}
    found: dict[str, list[dict]] = {name: [] for name in variants}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.runs):
            for name, (checkout, jobs) in variants.items():
                extra = ["--no-api"] if args.no_api and checkout == ROOT else []
                found[name].append(build_twice(checkout, Path(tmp), jobs, extra, args.own_content))
    medians = {}
    for name, runs in found.items():
        cold = [c for r in runs for c in r["cold"]]
        same = [u[0] for r in runs for u in r["unchanged"]]
        wall, cpu = statistics.median(c[0] for c in cold), statistics.median(c[1] for c in cold)
        peak, again = statistics.median(c[2] for c in cold), statistics.median(same)
        medians[name] = wall, again
        walls = ", ".join(f"{c[0]:.1f}" for c in cold)
        print(
            f"{name:7} cold build: wall {wall:.2f} s, CPU {cpu:.2f} s, peak {peak:.0f} MiB; "
            f"unchanged: wall {again:.3f} s, median of {len(same)} (cold walls {walls})"
        )
    for name, (wall, again) in medians.items():
        if name == "peer":
            continue
        met = _met(again < UNCHANGED_TARGET)
        print(f"{name:7} unchanged build {again:.3f} s (target < {UNCHANGED_TARGET} s: {met})")
        if "peer" in medians:
            ratio = wall / medians["peer"][0]
            met = _met(ratio <= COLD_TARGET)
            print(f"{name:7} / peer: {ratio:.2f}x (cold wall, medians; target <= {COLD_TARGET}x: {met})")


def _met(met: bool) -> str:
    return "met" if met else "NOT met"


if __name__ == "__main__":
    main()
