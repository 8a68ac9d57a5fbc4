"""Benchmark: full site build (load + render + Pagefind index) of the 2015 CR plus the French seeds.

Run: python bench/bench_build.py   (target: under 10 s, search index included; median of 3 runs)
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
from kb.site.write import build_site  # noqa: E402

RUNS = 3


def make_content(root: Path) -> Path:
    """`en/` = the 2015 official CR, `fr/` = the French seed files."""
    content = root / "content"
    (content / "en").mkdir(parents=True)
    shutil.copy(ROOT / "tests" / "fixtures" / "cr-en-20150926.txt", content / "en")
    shutil.copytree(ROOT / "content" / "fr", content / "fr")
    return content


def main() -> None:
    """Build RUNS times, print the median and the heaviest page."""
    with tempfile.TemporaryDirectory() as tmp:
        content = make_content(Path(tmp))
        out = Path(tmp) / "site"
        times, loads = [], []
        for _ in range(RUNS):
            start = time.perf_counter()
            kb = load(content)
            loads.append(time.perf_counter() - start)
            report = build_site(kb, out)
            times.append(time.perf_counter() - start)
        pages = [p for p in out.rglob("*.html") if not p.relative_to(out).parts[0].startswith("pagefind-")]
        heaviest = max(pages, key=lambda p: p.stat().st_size)
        total = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
        print(
            f"full build (load + render + search index), median of {RUNS}: {statistics.median(times):.2f} s "
            f"(runs: {', '.join(f'{t:.2f}' for t in times)}; load {statistics.median(loads):.2f} s)"
        )
        print(f"pages written: {report.pages} ({len(pages)} HTML incl. search sources); site size {total / 1e6:.1f} MB")
        print(f"heaviest page: {heaviest.relative_to(out).as_posix()} {heaviest.stat().st_size / 1024:.0f} KiB")
        print("target: < 10 s", "OK" if statistics.median(times) < 10 else "MISSED")


if __name__ == "__main__":
    main()
