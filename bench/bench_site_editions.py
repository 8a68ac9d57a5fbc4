"""Benchmark: what rule histories and changes pages cost a site build, alternating runs in one process.

The bundled content (both English editions, the French extracts, the Dissension cards) is loaded once, then
the site is rendered (search index aside) in turn with and without the editions' pages: without, the rule
pages' histories and the changes pages are left out. Prints the medians, the difference and the largest page.

Run: python bench/bench_site_editions.py [--runs 7]
Target: every page < 5 MB. The cost is reported as measured; most of it is `kb.link.editions.history.compare`
(the word diffs of every changed rule), computed once per build and shared by histories and changes pages.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.link.load import load  # noqa: E402
from kb.site import gather  # noqa: E402
from kb.site.write import build_site  # noqa: E402


def render(kb, out: Path, editions: bool) -> float:
    """Seconds to build the site into `out` (no search index), with or without the editions' pages."""
    shutil.rmtree(out, ignore_errors=True)
    start = time.perf_counter()
    if editions:
        build_site(kb, out, search=False)
    else:
        with (
            mock.patch.object(gather, "page_history", lambda *a: None),
            mock.patch.object(gather, "changes_pages", lambda kb: []),
        ):
            build_site(kb, out, search=False)
    return time.perf_counter() - start


def main() -> None:
    """Alternate builds with and without the editions' pages; print medians and the largest page."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    kb = load(ROOT / "content")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "site"
        without, with_ = [], []
        for _ in range(args.runs):
            without.append(render(kb, out, editions=False))
            with_.append(render(kb, out, editions=True))
        pages = sorted(out.rglob("*.html"), key=lambda p: p.stat().st_size, reverse=True)
        a, b = statistics.median(without), statistics.median(with_)
        print(f"render without histories and changes pages: median {a:.2f} s")
        print(f"render with them: median {b:.2f} s  (+{b - a:.2f} s, +{100 * (b - a) / a:.0f} %)")
        print(f"changes pages: {sum(1 for p in pages if '/changes/' in p.as_posix())}")
        for page in pages[:3]:
            print(f"  {page.relative_to(out).as_posix():45} {page.stat().st_size / 1024:8.0f} KiB")


if __name__ == "__main__":
    main()
