"""Search index build benchmark: the site's search files and the CLI's SQLite index of the default content.

The knowledge base is loaded once; each run then builds, in process and cold (the stemming and token caches
cleared, as in the forked process of `kb build`), what `kb.site.searchpages.write_search` builds (the current
entries, `build_data`, `write_static` into a temporary folder) and what `kb search` builds (every entry,
`build_data`, `kb.search.db.write` to a file). Prints the median CPU seconds of each step over the runs, then
the peak of Python allocations of each build (tracemalloc, one extra run each, slower, not timed).

Run: `python bench/bench_search_build.py [--content DIR] [--runs 5]`
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.link.load import load  # noqa: E402
from kb.search import text  # noqa: E402
from kb.search.db import write  # noqa: E402
from kb.search.entries import entries  # noqa: E402
from kb.search.index import build_data, lang_text  # noqa: E402
from kb.search.static import write_static  # noqa: E402

TARGET = 0.8
"""CPU seconds the site's search index should take (the pages, rendered beside it, take about 0.9 s)."""


def _cold() -> None:
    """Forget what earlier runs analysed (a build in a fresh process starts with empty caches)."""
    lang_text.cache_clear()
    text.analyse.cache_clear()


def site_run(kb, folder: Path) -> dict[str, float]:
    """CPU seconds of each step of the site's search index."""
    _cold()
    t0 = time.process_time()
    items = [e for e in entries(kb) if e.current]
    t1 = time.process_time()
    data = build_data(items, kb.lexicon)
    t2 = time.process_time()
    write_static(folder, data, lambda n: f"page-{n}.html")
    t3 = time.process_time()
    return {"entries": t1 - t0, "build_data": t2 - t1, "write_static": t3 - t2, "site total": t3 - t0}


def cli_run(kb, path: Path) -> dict[str, float]:
    """CPU seconds of each step of the CLI's SQLite index."""
    _cold()
    path.unlink(missing_ok=True)
    t0 = time.process_time()
    items = list(entries(kb))
    data = build_data(items, kb.lexicon)
    t1 = time.process_time()
    write(path, data).close()
    t2 = time.process_time()
    return {"cli build_data": t1 - t0, "cli db.write": t2 - t1, "cli total": t2 - t0}


def peak(run, *args) -> float:
    """Peak MB of Python allocations during one run."""
    tracemalloc.start()
    run(*args)
    found = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return found / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--content", type=Path, default=ROOT / "content")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    kb = load(args.content)
    rows: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(args.runs):
            for name, value in (site_run(kb, Path(tmp) / f"site{k}") | cli_run(kb, Path(tmp) / "x.sqlite")).items():
                rows.setdefault(name, []).append(value)
        site_mb = peak(site_run, kb, Path(tmp) / "site-peak")
        cli_mb = peak(cli_run, kb, Path(tmp) / "peak.sqlite")
    print(f"search index build of {args.content}, {args.runs} cold runs (CPU seconds: median [min-max])")
    for name, values in rows.items():
        print(f"  {name:<14} {statistics.median(values):6.3f} s  [{min(values):.3f}-{max(values):.3f}]")
    site = statistics.median(rows["site total"])
    print(f"  site search index: {site:.3f} s, target {TARGET} s: {'met' if site <= TARGET else 'NOT met'}")
    print(f"peak Python allocations (tracemalloc): site {site_mb:.1f} MB, cli {cli_mb:.1f} MB")


if __name__ == "__main__":
    main()
