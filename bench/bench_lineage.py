"""Benchmark: rule lineage over the ten official English editions (2004-2026), parse time excluded.

Run: python bench/bench_lineage.py   (prints time per consecutive pair, counts per status, the total;
target: well under 1.5 s for the nine pairs on the 2-core machine)
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.link.editions.lineage import build_lineage  # noqa: E402
from kb.link.editions.matcher import Matcher  # noqa: E402
from kb.link.editions.similar import prepare  # noqa: E402
from kb.model import Rule  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures"
FILES = {
    **{p.stem.removeprefix("cr-en-"): p for p in sorted((FIXTURES / "history").glob("cr-en-*.txt"))},
    "2015-09-26": FIXTURES / "cr-en-20150926.txt",
    "2026-01-16": FIXTURES / "cr-en-20260116.txt",
}
STATUSES = ("same", "changed", "renumbered", "split", "merged", "added", "removed")


def parse(path: Path) -> tuple[Rule, ...]:
    """Parse one edition with the project's parser."""
    from kb.sources import read_source

    try:
        from kb.parse.cr import parse_rules
    except ImportError:
        from kb.parse.cr.rules import parse_rules
    source, _ = read_source(path, "en", path.name)
    assert source is not None
    return parse_rules(source, f"en/{path.stem}").rules


def timed(fn, runs: int = 3) -> tuple[float, float, object]:
    """Median wall and CPU time of `runs` calls (seconds), and the last result."""
    walls, cpus, result = [], [], None
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        result = fn()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus), result


def main() -> None:
    start = time.perf_counter()
    editions = [(date, parse(FILES[date])) for date in sorted(FILES)]
    print(f"parsed {len(editions)} editions in {time.perf_counter() - start:.2f} s (not counted): "
          + ", ".join(f"{d} {len(r)}" for d, r in editions))  # fmt: skip
    wall, cpu, lineage = timed(lambda: build_lineage(editions))
    print(f"lineage of all {len(editions) - 1} pairs: {wall:.3f} s wall, {cpu:.3f} s CPU (median of 3)")
    prep_wall, _, prepared = timed(lambda: [prepare(rules) for _, rules in editions])
    print(f"  of which preparing the 10 editions: {prep_wall:.3f} s")
    print(f"{'pair':23} {'ms':>5}  " + " ".join(f"{s:>10}" for s in STATUSES))
    for k, step in enumerate(lineage.steps):
        pair_wall, _, _ = timed(lambda k=k: Matcher(prepared[k], prepared[k + 1]).run())
        counts = step.counts()
        label = f"{editions[k][0]} > {editions[k + 1][0]}"
        print(f"{label:23} {pair_wall * 1000:5.0f}  " + " ".join(f"{counts.get(s, 0):>10}" for s in STATUSES))
    low = sum(1 for step in lineage.steps for li in step.links if li.status == "renumbered" and li.confidence < 0.7)
    print(f"renumbered links with confidence < 0.7: {low}")


if __name__ == "__main__":
    main()
