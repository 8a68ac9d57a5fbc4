"""Benchmark: `kb serve`'s search endpoint, `GET /api/v1/search?q=&lang=&kind=&limit=`, warm, from a bounded local
client on 127.0.0.1: median and p95 latency over mixed queries, and what each malformed request gets (a 400 with
`{"error": …}`, never a traceback or a 5xx). Targets: median < 10 ms, p95 < 30 ms.

Run: `python bench/bench_api_search.py [SITE] [--rounds N]` (SITE: a built site; default: build the bundled content
in a temporary folder). Starts `kb serve --port 0` on that site and stops it at the end. While `kb serve` answers the
endpoint with 404 (before it is merged), says so and stops.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUERIES = [
    {"q": "trample"}, {"q": "702.19b"}, {"q": "règle 120.4"}, {"q": "pioche bibliothèque vide"},
    {"q": "deathtouch trample", "lang": "en"}, {"q": "draw -replacement", "kind": "rule"}, {"q": "pile", "limit": "3"},
    {"q": '"combat damage step"'}, {"q": "dégâts", "lang": "fr"}, {"q": "isperia", "kind": "card"},
    {"q": "mulligan", "limit": "50"}, {"q": "stack OR pile"}, {"q": "CR 120"}, {"q": "piétinement"},
]  # fmt: skip
"""Queries as a user types them: numbers, words in both languages, phrases, filters."""
MALFORMED = [
    "", "?", "?q=", "?lang=en", "?q=trample&lang=xx", "?q=trample&kind=zzz", "?q=trample&limit=0",
    "?q=trample&limit=abc", "?q=trample&limit=-1", "?q=trample&limit=99999", "?q=%22unbalanced", "?q=a%20OR",
    "?q=-only", "?q=edition:1999", "?q=%ff%fe", "?q=" + "x" * 5000, "?q=trample&q=flying", "?q=%00",
]  # fmt: skip
"""Requests a client gets wrong: missing or empty parameters, unknown values, bad numbers, malformed queries."""
NO_FILTER = ["?q=trample&lang=", "?q=trample&kind="]
"""An empty `lang` or `kind`, as a form's "any" choice sends it: no filter (docs/json.md), answered 200."""


def get(url: str) -> tuple[int, bytes, float]:
    """(status, body, milliseconds) of one GET, on a connection of its own."""
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=10) as reply:
            body, status = reply.read(), reply.status
    except urllib.error.HTTPError as err:
        body, status = err.read(), err.code
    return status, body, (time.perf_counter() - start) * 1000


def serve(site: Path) -> tuple[subprocess.Popen, str]:
    """`kb serve` on a free port of 127.0.0.1 for a built site: (its process, its address)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = [sys.executable, "-m", "kb", "serve", "--out", str(site), "--port", "0"]
    server = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        line = server.stdout.readline()
        found = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
        if found:
            return server, found.group(1)
        if server.poll() is not None:
            break
    server.kill()
    raise SystemExit("kb serve did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", nargs="?", type=Path)
    parser.add_argument("--rounds", type=int, default=20, help="times each query is asked (bounded)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site
        if site is None:
            site = Path(tmp) / "site"
            shutil.copytree(ROOT / "content", Path(tmp) / "content")
            build = [sys.executable, "-m", "kb", "build", "--content", str(Path(tmp) / "content"), "--out", str(site)]
            subprocess.run(build, check=True, capture_output=True, cwd=tmp, env={**os.environ, "PYTHONPATH": str(ROOT)})
        server, base = serve(site)
        try:
            measure(base + "api/v1/search", args.rounds)
        finally:
            server.terminate()
            server.wait(timeout=10)


def measure(endpoint: str, rounds: int) -> None:
    """Print the latencies of the queries (warm) and what each malformed request got."""
    status, body, _ = get(f"{endpoint}?q=trample")
    if status == 404:
        print(f"skipped: kb serve answers {endpoint} with 404 (the endpoint is not in this checkout yet)")
        return
    for query in QUERIES:  # warm: the index opened, the first answers made
        get(f"{endpoint}?{urllib.parse.urlencode(query)}")
    times, wrong = [], []
    for _ in range(rounds):
        for query in QUERIES:
            status, body, ms = get(f"{endpoint}?{urllib.parse.urlencode(query)}")
            times.append(ms)
            if status != 200 or "results" not in json.loads(body):
                wrong.append(f"{query}: {status}")
    times.sort()
    p95 = times[int(0.95 * (len(times) - 1))]
    median = statistics.median(times)
    print(f"{len(times)} searches, warm: median {median:.1f} ms, p95 {p95:.1f} ms, max {times[-1]:.1f} ms")
    print("  (targets: median < 10 ms, p95 < 30 ms)")
    print(f"  not answered 200 with results: {len(wrong)}" + (f": {wrong[:5]}" if wrong else ""))
    for request in MALFORMED:
        status, body, ms = get(endpoint + request)
        try:
            said = json.loads(body).get("error")
        except (ValueError, AttributeError):
            said = None
        verdict = "ok" if status == 400 and isinstance(said, str) else "WRONG"
        shown = request if len(request) < 40 else request[:37] + "…"
        print(f"  {verdict:5} {status} {shown!r}: {said if said is not None else body[:80]!r}")
    for request in NO_FILTER:
        status, body, ms = get(endpoint + request)
        found = status == 200 and json.loads(body).get("results")
        print(f"  {'ok' if found else 'WRONG':5} {status} {request!r}: no filter")


if __name__ == "__main__":
    main()
