"""Benchmark: parse + link of both official CR editions, and parse time against input size.

Run: python bench/bench_parse.py   (prints figures; targets are in the README)
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.link.load import load  # noqa: E402
from kb.model import SourceText  # noqa: E402
from kb.parse.cr.rules import parse_rules  # noqa: E402
from kb.sources import read_source, split_lines  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures"
EDITIONS = ["cr-en-20150926.txt", "cr-en-20260116.txt"]
TEN = sorted([*(FIXTURES / "history").glob("cr-en-*.txt"), *(FIXTURES / name for name in EDITIONS)])


def median_time(fn, runs: int = 5) -> float:
    """Median wall time of `runs` calls, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def both_editions() -> None:
    """Load a content folder holding both official editions (read, decode, parse, link)."""
    with tempfile.TemporaryDirectory() as tmp:
        content = Path(tmp) / "content"
        (content / "en").mkdir(parents=True)
        for name in EDITIONS:
            shutil.copy(FIXTURES / name, content / "en" / name)
        kb = load(content)
        assert len(kb.rules) > 5000


def ten_editions() -> tuple[float, float]:
    """Median wall and CPU time of parsing the ten official editions (decoded beforehand), in seconds."""
    sources = [read_source(path, "en", path.name)[0] for path in TEN]
    walls, cpus = [], []
    for _ in range(5):
        wall, cpu = time.perf_counter(), time.process_time()
        for source in sources:
            parse_rules(source, "en/x")
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def synthetic(size: int) -> str:
    """Near-CR text of about `size` characters."""
    block = "".join(
        f"{n}.{k}. A player draws a card. See rule {n}.1 and rules 601.2f–h.\n\n"
        f"{n}.{k}a Example subrule text that goes on for a while.\nExample: An example.\n\n"
        for n in range(100, 999)
        for k in range(1, 4)
    )
    return (block * (size // len(block) + 1))[:size]


def main() -> None:
    both = median_time(both_editions)
    print(f"parse + link, 2015 + 2026 editions together: {both * 1000:.0f} ms median of 5 (target < 1000 ms)")
    for name in EDITIONS:
        source, _ = read_source(FIXTURES / name, "en", name)
        t = median_time(lambda s=source: parse_rules(s, "en/x"))
        print(f"  parse {name}: {t * 1000:.0f} ms")
    wall, cpu = ten_editions()
    print(f"parse of the {len(TEN)} official editions (2004-2026): {wall:.2f} s wall, {cpu:.2f} s CPU, median of 5")
    print("parse time by input size (linear growth expected):")
    base = None
    for size in (1_250_000, 2_500_000, 5_000_000, 10_000_000):
        source = SourceText("s.txt", "en", split_lines(synthetic(size)), "utf-8", "0")
        t = median_time(lambda s=source: parse_rules(s, "en/s"), runs=3)
        base = base or t / size
        rate = t / size
        print(f"  {size / 1e6:5.2f} MB: {t:6.2f} s   ({rate * 1e6:.2f} s/MB, x{rate / base:.2f} of the 1.25 MB rate)")


if __name__ == "__main__":
    main()
