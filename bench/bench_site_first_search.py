"""Benchmark: the site's first search in Chromium, this checkout's site against a peer's, side by side.

For each question, a fresh browser context (nothing cached) opens the French search page, the question is typed
as a fast typist does (a key every 40 ms), and two figures are taken:
- **after the last keystroke**: the time from the last key's `input` event to the results list answering that
  question (its `data-query`), the site served on 127.0.0.1 (the page's own 200 ms pause for typing included);
- **sequential round trips** after the last keystroke: the search files fetched one after another, counted in
  the page. Each fetch of a file of `search/` waits `--delay` ms before it goes out (as over a network; the
  browser's own limit of connections per host, which HTTP/2 hosts lift, plays no part); its round is one more
  than the highest round of the fetches made since the last keystroke and answered before it was made, and the
  question's figure is its highest round (the index's `core.json` counts when it is read then: a site that reads
  it as the page opens, or the words' files as they are typed, has them before). The files fetched after the last
  keystroke follow in brackets, then the time after the last keystroke at that delay.

Targets (issue on speed): at most 350 ms after the last keystroke, at most 5 sequential round trips.

Run: `python bench/bench_site_first_search.py [--peer CHECKOUT] [--runs N] [--delay MS]`. Each checkout builds its
own bundled content. Needs Debian's chromium and Playwright.
"""

from __future__ import annotations

import argparse
import functools
import shutil
import statistics
import subprocess
import sys
import tempfile
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_site_search import QUESTIONS  # noqa: E402

TARGET_MS = 350
TARGET_ROUNDS = 5
WATCH = """delay => {
  window.__rounds = 0; window.__files = 0;
  let answered = 0, typed = 0; /* rounds counted from the last keystroke on */
  const restart = () => { typed += 1; answered = 0; window.__rounds = 0; window.__files = 0; };
  document.addEventListener("input", restart, true);
  const fetch = window.fetch;
  window.fetch = async (url, ...rest) => {
    if (!String(url).includes("/search/")) { return fetch(url, ...rest); }
    const [mine, when] = [answered + 1, typed];
    window.__files += 1;
    if (delay) { await new Promise((r) => setTimeout(r, delay)); }
    const res = await fetch(url, ...rest);
    const body = await res.arrayBuffer();
    if (when === typed) { answered = Math.max(answered, mine); window.__rounds = Math.max(window.__rounds, mine); }
    return new Response(body, { status: res.status, headers: res.headers });
  };
  window.__keys = [];
  document.addEventListener("input", () => window.__keys.push(performance.now()), true);
  window.__answered = {};
  new MutationObserver(() => {
    const list = document.getElementById("results");
    if (list && list.dataset.query && !(list.dataset.query in window.__answered)) {
      window.__answered[list.dataset.query] = performance.now();
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-query"], childList: true });
}"""


def served(site: Path):
    """A site served on 127.0.0.1 by threads (HTTP/1.0, as `kb serve`: Python's HTTP/1.1 server waits on delayed
    acknowledgements, 40 ms a file); its base url."""
    from tests.browsing import serving

    handler = type("Handler", (SimpleHTTPRequestHandler,), {"log_message": lambda *args: None})
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(site)))
    server.daemon_threads = True
    return serving(server)


def build(checkout: Path, work: Path) -> Path:
    """A checkout's site of its own bundled content."""
    shutil.copytree(checkout / "content", work / "content")
    site = work / "site"
    python = checkout / ".venv" / "bin" / "python"
    kb = [str(python if python.exists() else Path(sys.executable)), "-m", "kb", "build", "--force"]
    subprocess.run(
        [*kb, "--content", str(work / "content"), "--out", str(site)], check=True, capture_output=True, cwd=checkout
    )
    return site


def ask(browser, url: str, question: str, delay: float = 0) -> tuple[float, int, int]:
    """(milliseconds from the last keystroke to the results, sequential round trips, files fetched) of a question
    typed on a fresh search page, each search file held `delay` ms."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.add_init_script(f"({WATCH})({delay})")
        page.goto(url + "/fr/search.html", wait_until="load")
        page.click("#q")
        page.keyboard.type(question, delay=40)
        page.wait_for_function(
            "q => document.getElementById('results').dataset.query === q", arg=question, timeout=30_000
        )
        return page.evaluate(
            "q => [window.__answered[q] - window.__keys[window.__keys.length - 1], window.__rounds, window.__files]",
            question,
        )
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", type=Path, help="another kb checkout measured alongside")
    parser.add_argument("--runs", type=int, default=3, help="alternated runs of each site")
    parser.add_argument("--delay", type=float, default=50.0, help="ms each search fetch waits, to count rounds")
    args = parser.parse_args()
    from playwright import sync_api

    from tests.browsing import CHROMIUM, chromium

    if CHROMIUM is None:
        print("skipped: no chromium (apt-get install chromium)")
        return
    checkouts = {"kb": ROOT, **({"peer": args.peer.resolve()} if args.peer else {})}
    with tempfile.TemporaryDirectory() as tmp:
        sites = {name: build(path, Path(tmp) / name) for name, path in checkouts.items()}
        times: dict[str, dict[str, list[float]]] = {n: {q: [] for q in QUESTIONS} for n in sites}
        rounds: dict[str, dict[str, tuple[int, int, float]]] = {n: {} for n in sites}
        with chromium(sync_api) as browser:
            for name, site in sites.items():  # rounds: each fetch held, once per question
                with served(site) as url:
                    for q in QUESTIONS:
                        took, *counted = ask(browser, url, q, args.delay)
                        rounds[name][q] = (*counted, took)
            for _ in range(args.runs):  # times: nothing held, the sites alternated
                for name, site in sites.items():
                    with served(site) as url:
                        for q in QUESTIONS:
                            times[name][q].append(ask(browser, url, q)[0])
        print(f"first search in Chromium, French search page, 127.0.0.1; median of {args.runs} runs")
        print(f"{'question':<46}" + "".join(f"{n:>8} ms  rounds (files, ms at {args.delay:.0f})" for n in sites))
        for q in QUESTIONS:
            cells = "".join(
                f"{statistics.median(times[n][q]):>11.0f} {rounds[n][q][0]:>7} ({rounds[n][q][1]:>3}, "
                f"{rounds[n][q][2]:>4.0f})         "
                for n in sites
            )
            print(f"{q[:45]:<46}{cells}")
        for name in sites:
            each = [statistics.median(times[name][q]) for q in QUESTIONS]
            worst = max(r for r, _, _ in rounds[name].values())
            print(
                f"{name}: after the last keystroke median {statistics.median(each):.0f} ms, slowest {max(each):.0f} ms "
                f"(target <= {TARGET_MS} ms: {'met' if max(each) <= TARGET_MS else 'NOT met'}); sequential round "
                f"trips at most {worst} (target <= {TARGET_ROUNDS}: {'met' if worst <= TARGET_ROUNDS else 'NOT met'})"
            )
        if "peer" in sites:
            mine = statistics.median(statistics.median(times["kb"][q]) for q in QUESTIONS)
            theirs = statistics.median(statistics.median(times["peer"][q]) for q in QUESTIONS)
            print(f"ratio of the medians, kb / peer: {mine / theirs:.2f}x")


if __name__ == "__main__":
    main()
