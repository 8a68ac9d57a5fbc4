"""Benchmark: the whole CR on one page (`fr/cr.html`, `en/cr.html`) on a phone: its size, raw and gzipped, and the
time to its first paint (First Contentful Paint) and to its load in headless Chromium at 360 px, median of runs.

Run: `python bench/bench_onepage.py [SITE] [--runs N]` (SITE: a built site; default: build the bundled content in a
temporary folder). Served by `kb serve`'s server on 127.0.0.1; the CPU is slowed 4x (`--slowdown`), as a phone's.
"""

from __future__ import annotations

import argparse
import gzip
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def paint(browser, url: str, slowdown: float) -> tuple[float, float]:
    """(first contentful paint, load) in ms of one page, fresh, at 360 px with the CPU slowed."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2, is_mobile=True)
    page = context.new_page()
    session = context.new_cdp_session(page)
    session.send("Emulation.setCPUThrottlingRate", {"rate": slowdown})
    page.goto(url, wait_until="load")
    found = page.evaluate(
        "() => [performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1,"
        " performance.getEntriesByType('navigation')[0].loadEventEnd]"
    )
    context.close()
    return found[0], found[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", nargs="?", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--slowdown", type=float, default=4.0)
    args = parser.parse_args()
    from playwright import sync_api

    from tests.browsing import CHROMIUM, chromium, served

    if CHROMIUM is None:
        print("no chromium: apt-get install chromium")
        return
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site
        if site is None:
            site = Path(tmp) / "site"
            shutil.copytree(ROOT / "content", Path(tmp) / "content")
            kb = [sys.executable, "-m", "kb", "build", "--content", str(Path(tmp) / "content"), "--out", str(site)]
            subprocess.run(kb, check=True, capture_output=True, cwd=tmp)
        with served(site) as url, chromium(sync_api) as browser:
            for ui in ("fr", "en"):
                page = site / ui / "cr.html"
                raw = page.read_bytes()
                times = [paint(browser, f"{url}{ui}/cr.html", args.slowdown) for _ in range(args.runs)]
                fcp = statistics.median(t[0] for t in times)
                load = statistics.median(t[1] for t in times)
                print(f"{ui}/cr.html: {len(raw) / 1e6:.2f} MB raw, {len(gzip.compress(raw)) / 1e6:.2f} MB gzipped; "
                      f"at 360 px, CPU {args.slowdown:g}x slower: first paint {fcp:.0f} ms, load {load:.0f} ms "
                      f"(median of {args.runs})")  # fmt: skip


if __name__ == "__main__":
    main()
