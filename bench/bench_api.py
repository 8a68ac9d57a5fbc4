"""Benchmark: what the JSON API (`api/v1/`) adds to the site: its size, and the cold `kb build` time with and without
it (`kb build --no-api`), alternated runs, medians. Also each path's files and bytes.

Run: `python bench/bench_api.py [--runs N]`. Each run copies the bundled content into a temporary folder and builds
it cold (no site, no `.kb/` caches) in a process of its own, with and without the API in turn, so the machine's load
hits both alike. Targets: the API adds no more than 25% to the site's size and 15% to its cold build time.
"""

from __future__ import annotations

import argparse
import gzip
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build(tmp: Path, api: bool) -> tuple[float, float, Path]:
    """A cold build of a fresh copy of the bundled content: (wall seconds, CPU seconds, the site)."""
    work = tmp / f"w-{time.monotonic_ns()}"
    shutil.copytree(ROOT / "content", work / "content")
    args = ["build", "--content", str(work / "content"), "--out", str(work / "site"), *([] if api else ["--no-api"])]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "kb", *args], check=True, capture_output=True, cwd=work, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), work / "site"


def sizes(site: Path, under: str = "") -> tuple[int, int]:
    """(files, bytes) of the site's files (under a folder of it): their own sizes, not the disk's blocks."""
    files = [p for p in (site / under).rglob("*") if p.is_file()] if (site / under).exists() else []
    return len(files), sum(p.stat().st_size for p in files)


def by_path(site: Path) -> Counter:
    """Files and bytes of the API by kind of path (`api/v1/en/rules/`, `api/v1/index.json`…)."""
    found: Counter = Counter()
    for file in (site / "api").rglob("*"):
        if file.is_file():
            parts = file.relative_to(site).parts
            key = "/".join(parts[:4]) + "/" if len(parts) > 4 else "/".join(parts)
            key = "api/v1/cards/" if parts[:3] == ("api", "v1", "cards") and len(parts) == 4 else key
            found[(key, "files")] += 1
            found[(key, "bytes")] += file.stat().st_size
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    walls: dict[bool, list[float]] = {True: [], False: []}
    cpus: dict[bool, list[float]] = {True: [], False: []}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.runs):
            for api in (True, False):
                wall, cpu, site = build(Path(tmp), api)
                walls[api].append(wall)
                cpus[api].append(cpu)
                if api:
                    with_api, api_only, paths = sizes(site), sizes(site, "api"), by_path(site)
                    gz = sum(len(gzip.compress(p.read_bytes())) for p in (site / "api").rglob("*") if p.is_file())
                else:
                    without = sizes(site)
                shutil.rmtree(site.parent)
    cold = {api: statistics.median(found) for api, found in walls.items()}
    print(f"site without the API: {without[0]} files, {without[1] / 1e6:.2f} MB")
    print(f"site with the API:    {with_api[0]} files, {with_api[1] / 1e6:.2f} MB")
    grown = with_api[1] - without[1]
    share = 100 * grown / without[1]
    print(f"  the API: {api_only[0]} files, {api_only[1] / 1e6:.2f} MB ({gz / 1e6:.2f} MB gzipped file by file);")
    print(f"  with the manifest's lines, +{grown / 1e6:.2f} MB: {share:.1f}% of the site (target <= 25%)")
    for key in sorted({k for k, _ in paths}):
        print(f"    {key:32} {paths[(key, 'files')]:5} files {paths[(key, 'bytes')] / 1e3:8.0f} KB")
    said = ", ".join(f"{w:.1f}" for w in walls[False]), ", ".join(f"{w:.1f}" for w in walls[True])
    grown = 100 * (cold[True] / cold[False] - 1)
    print(f"cold kb build, median of {args.runs} alternated runs: without the API {cold[False]:.2f} s ({said[0]}),")
    print(f"  with it {cold[True]:.2f} s ({said[1]}): {grown:+.1f}% (target <= 15%)")
    cpu = {api: statistics.median(found) for api, found in cpus.items()}
    print(
        f"  CPU (the search index's process too): without {cpu[False]:.2f} s, with {cpu[True]:.2f} s: "
        f"{100 * (cpu[True] / cpu[False] - 1):+.1f}%"
    )


if __name__ == "__main__":
    main()
