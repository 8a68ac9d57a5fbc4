"""Benchmark: load six MTGJSON v5 set files (about 11 MB) as content and mine the lexicon, cold and unchanged.

Run: python bench/bench_cards.py   (prints figures; targets: cold < 2 s, nothing recomputed when unchanged)
"""

from __future__ import annotations

import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.link.load import load, load_fresh  # noqa: E402

SETS = ("DIS", "10E", "FUT", "C16", "C20", "MH2")


def timed(fn) -> float:
    """Wall time of one call, in seconds."""
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    """Print the cold and cached load times of the six set files."""
    with tempfile.TemporaryDirectory() as tmp:
        content = Path(tmp) / "content"
        (content / "en").mkdir(parents=True)
        for code in SETS:
            shutil.copy(ROOT / "tests" / "fixtures" / "mtgjson5" / f"{code}.json", content / "en" / f"{code}.json")
        size = sum(p.stat().st_size for p in (content / "en").iterdir()) / 1e6
        kb = load_fresh(content)
        print(
            f"{len(SETS)} set files, {size:.1f} MB: {len(kb.cards)} cards, lexicon of {len(kb.lexicon.entries)} terms"
        )
        cold = [timed(lambda: load_fresh(content)) for _ in range(3)]
        load(content)
        cached = [timed(lambda: load(content)) for _ in range(5)]
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"cold (stream + cards + lexicon): median {statistics.median(cold):.2f} s  (target < 2 s)")
        print(f"unchanged (cache):               median {statistics.median(cached):.3f} s")
        print(f"peak RSS of this process: {peak:.0f} MB")


if __name__ == "__main__":
    main()
