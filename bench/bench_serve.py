"""Benchmark: `kb serve` under 200 looping clients, and with 300 idle and slow sockets held open (loopback only).

Run: python bench/bench_serve.py [--site DIR] [--seconds 20]   (about 70 s in all; prints figures)

Without --site, the four seed files of the bundled content are built into a temporary site. The server (`kb serve`'s)
runs in its own process, the clients in this one (asyncio, one task per client), so that they do
not share an interpreter lock. Phase 1: 200 clients, each sending GET after GET of the site's pages for a fixed
time; requests per second, latency p50 / p99 / max and failures (no complete 200 reply within 10 s). Phase 2:
50 sockets opened and left idle (half of them after half a request), while one client keeps asking for pages;
when the server closes the idle ones, and how fast the normal requests are answered meanwhile. Phase 3 (issue 44's
target): 300 sockets held open the whole time (each opened again as soon as the server closes it: a third silent,
a third after half a request, a third trickling a byte every second), while 200 clients loop as in phase 1; the
other clients' requests per second, p50 and p99 (target: p99 under 1 s), and how often the held sockets were closed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEEDS = (
    "fr/cr-120-piocher-une-carte.txt",
    "fr/cr-703-actions-obligatoires-du-tour.txt",
    "fr/faq-discorde-2006.txt",
    "en/cr-120-drawing-a-card.txt",
)
CLIENTS = 200
IDLE = 50
HELD = 300
"""Sockets held open during phase 3."""
CLIENT_TIMEOUT = 10.0
"""Seconds a client waits for a whole reply before counting a failure."""


def seed_content(tmp: Path) -> Path:
    """A content folder holding the four seed files."""
    content = tmp / "content"
    for name in SEEDS:
        (content / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / "content" / name, content / name)
    return content


SERVE = """
import sys
from pathlib import Path
from kb.site.serve import make_server
server = make_server(Path(sys.argv[1]), port=0, report=lambda line: print(line, file=sys.stderr))
print(server.server_address[1], flush=True)
server.serve_forever()
"""
"""`kb serve`'s server alone (`kb serve` itself would rebuild a site whose content it cannot see)."""


def build(content: Path, site: Path) -> None:
    """Build the site with `kb build`."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = [sys.executable, "-m", "kb", "build", "--content", str(content), "--out", str(site)]
    subprocess.run(args, check=True, env=env, stdout=subprocess.DEVNULL)


def start_server(site: Path) -> tuple[subprocess.Popen, int]:
    """Start the server on a free loopback port in a process of its own; the process and its port."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen([sys.executable, "-c", SERVE, str(site)], stdout=subprocess.PIPE, text=True, env=env)
    line = server.stdout.readline()
    if not line.strip().isdigit():
        raise SystemExit(f"the server did not start (exit {server.wait()})")
    return server, int(line)


def page_paths(site: Path, limit: int = 200) -> list[str]:
    """Up to `limit` addresses of the site's pages and assets, in a fixed random order."""
    files = sorted(p for p in site.rglob("*") if p.is_file() and p.suffix in (".html", ".css", ".js"))
    random.Random(1).shuffle(files)
    return ["/" + p.relative_to(site).as_posix() for p in files[:limit]]


async def fetch(port: int, path: str) -> float | None:
    """GET `path`; the seconds to the end of a 200 reply, or None on any failure."""
    start = time.perf_counter()
    try:
        async with asyncio.timeout(CLIENT_TIMEOUT):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(f"GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".encode())
            reply = await reader.read()
            writer.close()
    except (OSError, TimeoutError):
        return None
    return time.perf_counter() - start if reply.startswith(b"HTTP/1.0 200") else None


async def looping_client(port: int, paths: list[str], until: float, times: list[float], failures: list[str]) -> None:
    """GET page after page until `until`."""
    i = random.randrange(len(paths))
    while time.perf_counter() < until:
        path = paths[i % len(paths)]
        took = await fetch(port, path)
        if took is None:
            failures.append(path)
        else:
            times.append(took)
        i += 1


def percentile(values: list[float], p: float) -> float:
    """The `p` quantile of `values` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


async def load_test(port: int, paths: list[str], seconds: float) -> None:
    """Phase 1: CLIENTS clients for `seconds`."""
    times: list[float] = []
    failures: list[str] = []
    start = time.perf_counter()
    until = start + seconds
    await asyncio.gather(*(looping_client(port, paths, until, times, failures) for _ in range(CLIENTS)))
    wall = time.perf_counter() - start
    print(f"{CLIENTS} clients for {seconds:.0f} s, {len(paths)} distinct addresses")
    if times:
        print(f"  {len(times)} requests, {len(times) / wall:.0f} requests/s")
        print(f"  latency p50 {ms(percentile(times, 0.5))}, p99 {ms(percentile(times, 0.99))}, max {ms(max(times))}")
    print(f"  failures: {len(failures)}")


async def idle_socket(port: int, half_sent: bool, opened: float, closed: list[float]) -> None:
    """Open a socket, send nothing (or half a request), and note when the server closes it."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        if half_sent:
            writer.write(b"GET /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        async with asyncio.timeout(30):
            await reader.read()
        closed.append(time.perf_counter() - opened)
        writer.close()
    except (OSError, TimeoutError):
        closed.append(float("inf"))


async def idle_test(port: int, paths: list[str]) -> None:
    """Phase 2: IDLE idle sockets, normal requests meanwhile."""
    opened = time.perf_counter()
    closed: list[float] = []
    idle = [asyncio.create_task(idle_socket(port, i % 2 == 1, opened, closed)) for i in range(IDLE)]
    await asyncio.sleep(0.5)
    times, failures = [], 0
    while len(closed) < IDLE and time.perf_counter() - opened < 30:
        took = await fetch(port, paths[len(times) % len(paths)])
        failures += took is None
        times.append(took or CLIENT_TIMEOUT)
        await asyncio.sleep(0.05)
    await asyncio.gather(*idle)
    print(f"{IDLE} idle sockets ({IDLE // 2} silent, {IDLE // 2} with half a request)")
    shut = [t for t in closed if t != float("inf")]
    if shut:
        print(f"  {len(shut)} closed by the server after {min(shut):.1f} to {max(shut):.1f} s")
    if len(shut) < IDLE:
        print(f"  {IDLE - len(shut)} still open after 30 s")
    print(
        f"  meanwhile {len(times)} requests: p50 {ms(percentile(times, 0.5))}, max {ms(max(times))}, "
        f"failures {failures}"
    )


async def held_socket(port: int, kind: int, until: float, closed: list[int]) -> None:
    """Keep one socket open until `until`: silent, half a request, or a byte a second; open it again when the server
    closes it (counted in `closed`)."""
    request = b"GET /index.html HTTP/1.0\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 200
    while time.perf_counter() < until:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.1)
            continue
        try:
            if kind == 1:
                writer.write(request[:30])
            sent = 0
            while time.perf_counter() < until:
                if kind == 2 and sent < len(request):
                    writer.write(request[sent : sent + 1])
                    sent += 1
                try:
                    async with asyncio.timeout(1.0):
                        if not await reader.read(65536):
                            break  # closed by the server
                except TimeoutError:
                    continue
            closed.append(kind)
        except OSError:
            closed.append(kind)
        finally:
            writer.close()


async def held_test(port: int, paths: list[str], seconds: float) -> None:
    """Phase 3: HELD idle and slow sockets held open while CLIENTS clients loop."""
    until = time.perf_counter() + 2 + seconds
    closed: list[int] = []
    holders = [asyncio.create_task(held_socket(port, k % 3, until, closed)) for k in range(HELD)]
    await asyncio.sleep(2)  # every socket open first
    times: list[float] = []
    failures: list[str] = []
    start = time.perf_counter()
    await asyncio.gather(*(looping_client(port, paths, until, times, failures) for _ in range(CLIENTS)))
    wall = time.perf_counter() - start
    await asyncio.gather(*holders)
    print(f"{HELD} sockets held open (a third silent, a third half-sent, a third a byte a second), {CLIENTS} clients")
    if times:
        print(f"  {len(times)} requests, {len(times) / wall:.0f} requests/s")
        print(f"  latency p50 {ms(percentile(times, 0.5))}, p99 {ms(percentile(times, 0.99))}, max {ms(max(times))}")
    print(f"  failures: {len(failures)}; held sockets closed by the server and opened again: {len(closed)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, help="an already built site folder (default: build the seeds)")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of the load test (default 20)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site or Path(tmp) / "site"
        started = time.perf_counter()
        if args.site is None:
            build(seed_content(Path(tmp)), site)
        server, port = start_server(site)
        print(f"site ready and served on 127.0.0.1:{port} in {time.perf_counter() - started:.1f} s ({site})")
        try:
            paths = page_paths(site)
            asyncio.run(load_test(port, paths, min(args.seconds, 30.0)))
            asyncio.run(idle_test(port, paths))
            asyncio.run(held_test(port, paths, min(args.seconds, 30.0)))
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()
