"""Benchmark: what holds a card pool's build in memory, stage by stage, in one process.

The card pool of `bench_pool.py` (the shared half of MTGJSON v5's sets, Dissension, the 2026 CR and the bundled
French files) is loaded and built here, in this process, one stage after the other as `kb build --jobs 1` runs
them: load (parse and link), the site's data (`gather`) and its plan of pages (`plan`), the JSON API's files,
the search entries and their index (Whoosh's half, then the tables' half), the pages. After each stage it prints
the process's resident memory (`VmRSS`) and its peak so far (`VmHWM`), and, with `--trace`, what Python holds
(tracemalloc: the memory allocated during the stage and still held, the stage's peak, and the source lines holding
the most of it, with `--top` lines). Tracing costs time (about three times as long) and some memory of its own:
the resident figures are read with it on, the traced ones are Python's own allocations only.

Run: python bench/bench_memory.py [--pool ../shared/corpus/mtgjson5-pool] [--trace] [--top 12] [--pages]
`--pages` renders the pages too (tens of thousands of files, in a temporary folder): without it the build stops
before the pages, whose rendering frees what it allocates page by page.
Without the pool folder it says so and exits 0.
"""

from __future__ import annotations

import argparse
import gc
import shutil
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_pool import CORPUS, pool_content  # noqa: E402  (the same content as the pool's benchmark)

MIB = 1 << 20


def status(field: str) -> int:
    """A field of /proc/self/status in bytes (`VmRSS`, `VmHWM`), 0 where there is none."""
    try:
        with open("/proc/self/status", encoding="ascii") as lines:
            for line in lines:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


class Stages:
    """Prints a row per stage: its time, the resident memory after it and the peak so far, and with tracing what
    Python allocated during it and still holds, its peak, and the lines holding most."""

    def __init__(self, trace: bool, top: int) -> None:
        self.trace, self.top = trace, top
        if trace:
            tracemalloc.start(1)
        print(f"{'stage':<28} {'wall':>8} {'RSS':>9} {'peak RSS':>9}" + (f" {'held':>9} {'peak':>9}" if trace else ""))
        self.row("interpreter and imports", 0.0)

    def run(self, name: str, work):
        """Run one stage's work and print its row; its result."""
        before = tracemalloc.take_snapshot() if self.trace else None
        if self.trace:
            tracemalloc.reset_peak()
            held_before = tracemalloc.get_traced_memory()[0]
        start = time.perf_counter()
        result = work()
        wall = time.perf_counter() - start
        gc.collect()
        if not self.trace:
            self.row(name, wall)
            return result
        held, peak = tracemalloc.get_traced_memory()
        self.row(name, wall, held - held_before, peak - held_before)
        after = tracemalloc.take_snapshot()
        ours = (tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, "<frozen importlib*"))
        for stat in after.filter_traces(ours).compare_to(before.filter_traces(ours), "lineno")[: self.top]:
            if stat.size_diff <= 0:
                break
            frame = stat.traceback[0]
            where = _short(frame.filename)
            print(f"    {stat.size_diff / MIB:8.1f} MiB {stat.count_diff:>10,} blocks  {where}:{frame.lineno}")
        return result

    def row(self, name: str, wall: float, held: int | None = None, peak: int | None = None) -> None:
        """One stage's line."""
        traced = f" {held / MIB:7.0f} Mi {peak / MIB:7.0f} Mi" if held is not None and peak is not None else ""
        rss, hwm = status("VmRSS") / MIB, status("VmHWM") / MIB
        print(f"{name:<28} {wall:7.1f}s {rss:7.0f} Mi {hwm:7.0f} Mi{traced}", flush=True)


def _short(path: str) -> str:
    """A source file's path from its package (`kb/link/load.py`, `whoosh/writing.py`, `json/decoder.py`)."""
    parts = Path(path).parts
    for anchor in ("kb", "whoosh", "jinja2", "markdown_it", "ijson", "numpy"):
        if anchor in parts:
            return "/".join(parts[len(parts) - 1 - parts[::-1].index(anchor) :])
    return "/".join(parts[-2:])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pool", type=Path, default=CORPUS / "mtgjson5-pool")
    parser.add_argument("--trace", action="store_true", help="tracemalloc: what each stage allocates and holds")
    parser.add_argument("--top", type=int, default=12, help="source lines shown per stage with --trace")
    parser.add_argument("--pages", action="store_true", help="render the pages too")
    args = parser.parse_args()
    made = pool_content(args.pool, "kb-bench-memory-")
    if made is None:
        return 0
    root, content, card_bytes = made
    try:
        stages = Stages(args.trace, args.top)
        from kb.export.api import api_files
        from kb.link.load import load
        from kb.search.build import tables_half, whoosh_half
        from kb.search.entries import entries, vocabulary
        from kb.search.writer import own_numbering
        from kb.site.gather import gather
        from kb.site.pages import plan

        kb = stages.run("load (parse, link)", lambda: load(content, use_cache=False))
        data = stages.run("site data (gather)", lambda: gather(kb))
        jobs = stages.run("plan of pages", lambda: plan(data))
        api = stages.run("JSON API files", lambda: list(api_files(kb, None)))
        print(f"    {len(jobs):,} pages planned, {len(api):,} API files ({sum(len(t) for _, t in api) / MIB:.0f} MiB)")
        del api
        items = stages.run("search entries", lambda: list(entries(kb)))
        words = stages.run("vocabulary", lambda: vocabulary(kb))
        index = root / "index"
        index.mkdir()
        postings = stages.run("index: Whoosh's half", lambda: whoosh_half(index, items, words))
        stages.run("index: the tables' half", lambda: tables_half(index, items, words, own_numbering(kb))(postings))
        if args.pages:
            from kb.site.write import write_pages

            stages.run("pages", lambda: write_pages(data, jobs, root / "site", _Bar()))
        print(f"peak resident memory: {status('VmHWM') / MIB:.0f} MiB (card data {card_bytes / MIB:.0f} MiB)")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


class _Bar:
    def update(self, n: int) -> None:
        """No progress shown."""


if __name__ == "__main__":
    sys.exit(main())
