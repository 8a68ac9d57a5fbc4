"""Benchmark: parse, link and lineage of the ten official editions plus the French extracts, cold and cached.

Run: python bench/bench_editions.py   (prints figures; targets: cold < 3 s, unchanged < 0.3 s)
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

from kb.link.load import load, load_fresh  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures"
TEN = sorted(
    [*(FIXTURES / "history").glob("cr-en-*.txt"), FIXTURES / "cr-en-20150926.txt", FIXTURES / "cr-en-20260116.txt"]
)


def timed(fn) -> float:
    """Wall time of one call, in seconds."""
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    """Print the cold and cached load times of the ten editions and the French extracts."""
    with tempfile.TemporaryDirectory() as tmp:
        content = Path(tmp) / "content"
        (content / "en").mkdir(parents=True)
        shutil.copytree(ROOT / "content" / "fr", content / "fr", ignore=shutil.ignore_patterns("*.json", "faq-*"))
        for path in TEN:
            shutil.copy(path, content / "en" / path.name)
        size = sum(p.stat().st_size for p in content.rglob("*") if p.is_file()) / 1e6
        kb = load_fresh(content)
        steps = kb.links.lineage["en"].steps
        print(f"{len(TEN)} English editions + French extracts, {size:.1f} MB, {len(kb.rules)} rules")
        print(f"lineage: {len(steps)} consecutive pairs; French matches {kb.links.alignment.counterparts['fr'][0]}")
        cold = [timed(lambda: load_fresh(content)) for _ in range(3)]
        load(content)  # fills the cache
        cached = [timed(lambda: load(content)) for _ in range(5)]
        print(f"cold (parse + link + lineage): median {statistics.median(cold):.2f} s  (target < 3 s)")
        print(f"unchanged (cache):             median {statistics.median(cached):.3f} s  (target < 0.3 s)")


if __name__ == "__main__":
    main()
