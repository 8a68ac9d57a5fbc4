"""Benchmark: `kb check` of a content folder of many editions of the rules (110 by default), cold, against a peer.

The content is the normal input of the hostile battery's rules class (`tests/hostile.py`, `cr_normal`): the 2015
rules as many times as asked, each copy dated a year later, beside the battery's small base rules. Each run checks it
cold (no load cache, no build folder) in a process of its own, this checkout and, with `--peer`, another checkout
in turn; it prints each run's wall time, CPU time and peak memory (the process's and its waited-for children's, from
`os.wait4`), then the medians and the target: a peak of at most 700 MiB, and no more than the peer's.

Run: python bench/bench_many_editions.py [--editions 110] [--runs 2] [--peer ../peer]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_build import run  # noqa: E402  (one process per run, its peak from wait4)

from tests import hostile  # noqa: E402

TARGET_MIB = 700


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--editions", type=int, default=110)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--peer", type=Path, help="another kb checkout, checked in turn")
    args = parser.parse_args()
    checkouts = {"kb": ROOT} | ({args.peer.name or "peer": args.peer.resolve()} if args.peer else {})
    figures: dict[str, list[tuple[float, float, float]]] = {name: [] for name in checkouts}
    with tempfile.TemporaryDirectory(prefix="kb-bench-editions-") as tmp:
        root = Path(tmp)
        os.environ["XDG_CACHE_HOME"] = str(root / "user-cache")  # the load cache's key: made anew each run
        files = hostile.cr_normal(args.editions * len(hostile.CR2015))
        content = hostile.make(root, files)
        size = sum(map(len, files.values())) / (1 << 20)
        print(f"content: {len(files)} editions of the 2015 rules and the base rules ({size:.0f} MiB)")
        print(f"{'checkout':<10} {'run':>3} {'wall':>9} {'CPU':>9} {'peak':>10}")
        for k in range(args.runs):
            for name, checkout in checkouts.items():
                for cold in (root / ".kb", root / "user-cache"):
                    shutil.rmtree(cold, ignore_errors=True)
                wall, cpu, peak = run(checkout, ["check", "--content", str(content), "--quiet"], root)
                figures[name].append((wall, cpu, peak))
                print(f"{name:<10} {k + 1:>3} {wall:8.1f}s {cpu:8.1f}s {peak:6.0f} MiB", flush=True)
    print("medians:")
    peaks = {}
    for name, rows in figures.items():
        wall, cpu, peaks[name] = (statistics.median(col) for col in zip(*rows, strict=True))
        print(f"  {name:<10} wall {wall:6.1f} s  CPU {cpu:6.1f} s  peak {peaks[name]:6.0f} MiB")
    met = peaks["kb"] <= TARGET_MIB
    print(f"target: peak <= {TARGET_MIB} MiB: {peaks['kb']:.0f} MiB {'met' if met else 'NOT met'}")
    for name, peak in peaks.items():
        if name != "kb":
            print(f"  against {name}: {peaks['kb'] / peak:.2f}x its peak ({peak:.0f} MiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
