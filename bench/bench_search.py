"""Search benchmark: index build time, warm query latency, cold `kb search` start vs a bare interpreter.

Run: `python bench/bench_search.py` (2015 English CR + the French seeds, in a temporary folder).
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.link.load import load  # noqa: E402
from kb.search.index import entries, index_key, index_root, open_index, publish  # noqa: E402

QUERIES = [
    "120.2a",
    "règle 703.4k",
    "CR 120",
    "r120.2a",
    "1",
    "702.19",
    "deathtouch",
    "mulligan",
    "APNAP",
    "bibliotheque",
    "l'etape",
    "piochees",
    "drawn",
    "legend rule",
    "state-based actions",
    "first strike",
    '"combat damage step"',
    "pioche -bibliothèque",
    "deathtouch OR lifelink",
    "lang:fr pioche",
    "kind:glossary trample",
    "Isperia",
    "isper",
    "trample damage assignment",
    "ordre des blessures",
    "que se passe-t-il si je pioche dans une bibliothèque vide",
    "draw from an empty library",
    "maximum hand size",
    "hexproof",
    "layers continuous effects",
]


def make_content(root: Path) -> Path:
    """The 2015 English CR plus the French seeds."""
    content = root / "content"
    (content / "en").mkdir(parents=True)
    (content / "fr").mkdir()
    shutil.copy(ROOT / "tests" / "fixtures" / "cr-en-20150926.txt", content / "en")
    for path in (ROOT / "content" / "fr").glob("*.txt"):
        shutil.copy(path, content / "fr")
    return content


def wall(cmd: list[str], runs: int = 5) -> float:
    """Median wall time of a command, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        content = make_content(Path(tmp))
        runs = []
        for _ in range(3):  # the machine is noisy: report the median of three builds
            start = time.perf_counter()
            kb = load(content)
            parsed = time.perf_counter()
            publish(index_root(content), index_key(content), entries(kb))
            runs.append((time.perf_counter() - start, parsed - start))
        total, parse = sorted(runs)[1]
        counts = f"{len(kb.rules)} rules, {len(kb.glossary)} glossary, {len(kb.cards)} cards"
        print(
            f"index build (2015 CR + seeds, {counts}), median of 3: {total:.2f} s "
            f"(parse {parse:.2f} s, index {total - parse:.2f} s; runs {', '.join(f'{t:.2f}' for t, _ in runs)})"
        )
        index = open_index(content)
        for q in QUERIES:
            index.search(q)
        lat = []
        for i in range(200):
            q = QUERIES[i % len(QUERIES)]
            t = time.perf_counter()
            index.search(q)
            lat.append((time.perf_counter() - t) * 1000)
        lat.sort()
        print(
            f"warm query latency over 200 mixed queries: median {statistics.median(lat):.2f} ms, "
            f"p95 {lat[int(len(lat) * 0.95) - 1]:.2f} ms"
        )
        index.close()
        bare = wall([sys.executable, "-c", "pass"])
        cold = wall([sys.executable, "-m", "kb", "search", "trample", "--content", str(content)])
        print(f"cold `kb search`: {cold * 1000:.0f} ms vs bare python {bare * 1000:.0f} ms: {cold / bare:.1f}x")


if __name__ == "__main__":
    main()
