"""Benchmark: `kb build` of the default content, cold (no site, no `.kb/` caches) and unchanged, wall and CPU.

Run: `python bench/bench_build.py [--peer CHECKOUT] [--runs N] [--jobs 1,2]`. Each run copies the bundled content
into a temporary folder and builds it in a process of its own; with `--peer` (another kb checkout, e.g. the previous
main) the two are alternated, so the machine's load hits them alike, and the medians are printed side by side, with
each build's peak memory (its process and the children it waited for). `--jobs 1,2` builds this checkout once per
value of `kb build --jobs` in each round (the peer is built as it builds by default); `--own-content` builds each
checkout's own bundled content (a change of the content measured with the code that reads it).
`--no-api` builds this checkout without its JSON API, for a peer older than the API (the same work).
Targets: cold no slower than the peer; unchanged under 0.3 s.
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


def run(checkout: Path, args: list[str], cwd: Path) -> tuple[float, float, float]:
    """(wall s, CPU s, peak MiB) of `python -m kb ARGS` run from a checkout (the peak: of the process and of the
    children it waited for)."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
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
) -> dict[str, tuple[float, float, float]]:
    """A cold build of a fresh copy of the bundled content (`own`: the checkout's own, else this one's), then an
    unchanged one (`extra`: more arguments)."""
    work = tmp / f"w-{time.monotonic_ns()}"
    shutil.copytree((checkout if own else ROOT) / "content", work / "content")
    args = ["build", "--content", str(work / "content"), "--out", str(work / "site"), *extra]
    args += ["--jobs", jobs] if jobs else []
    found = {"cold": run(checkout, args, work), "unchanged": run(checkout, args, work)}
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
        cold = [r["cold"] for r in runs]
        same = [r["unchanged"] for r in runs]
        wall, cpu = statistics.median(c[0] for c in cold), statistics.median(c[1] for c in cold)
        peak, again = statistics.median(c[2] for c in cold), statistics.median(u[0] for u in same)
        medians[name] = wall
        walls = ", ".join(f"{c[0]:.1f}" for c in cold)
        print(
            f"{name:7} cold build: wall {wall:.2f} s, CPU {cpu:.2f} s, peak {peak:.0f} MiB; "
            f"unchanged: wall {again:.2f} s (walls {walls})"
        )
    if "peer" in medians:
        for name, wall in medians.items():
            if name != "peer":
                print(f"{name:7} / peer: {wall / medians['peer']:.2f}x (cold wall, medians)")


if __name__ == "__main__":
    main()
