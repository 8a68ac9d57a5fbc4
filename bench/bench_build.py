"""Benchmark: `kb build` of the default content, cold (no site, no `.kb/` caches) and unchanged, wall and CPU.

Run: `python bench/bench_build.py [--peer CHECKOUT] [--runs N]`. Each run copies the bundled content into a
temporary folder and builds it in a process of its own; with `--peer` (another kb checkout, e.g. the previous
main) the two are alternated, so the machine's load hits them alike, and the medians are printed side by side.
Targets: cold no slower than the peer; unchanged under 0.3 s.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(checkout: Path, args: list[str], cwd: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of `python -m kb ARGS` run from a checkout."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "kb", *args], check=True, capture_output=True, cwd=cwd, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def build_twice(checkout: Path, tmp: Path) -> dict[str, tuple[float, float]]:
    """A cold build of a fresh copy of the bundled content, then an unchanged one."""
    work = tmp / f"w-{time.monotonic_ns()}"
    shutil.copytree(ROOT / "content", work / "content")
    args = ["build", "--content", str(work / "content"), "--out", str(work / "site")]
    found = {"cold": run(checkout, args, work), "unchanged": run(checkout, args, work)}
    shutil.rmtree(work)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", type=Path, help="another kb checkout built alongside (alternated runs)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    checkouts = {"kb": ROOT, **({"peer": args.peer.resolve()} if args.peer else {})}
    found: dict[str, list[dict]] = {name: [] for name in checkouts}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.runs):
            for name, checkout in checkouts.items():
                found[name].append(build_twice(checkout, Path(tmp)))
    for name, runs in found.items():
        cold = [r["cold"] for r in runs]
        same = [r["unchanged"] for r in runs]
        wall, cpu = statistics.median(w for w, _ in cold), statistics.median(c for _, c in cold)
        again = statistics.median(w for w, _ in same)
        walls = ", ".join(f"{w:.1f}" for w, _ in cold)
        print(f"{name:5} cold build: wall {wall:.2f} s, CPU {cpu:.2f} s; unchanged: wall {again:.2f} s (walls {walls})")


if __name__ == "__main__":
    main()
