"""Benchmark: how `kb check`, the search index and `kb build` scale with the size of the content.

Three shapes of synthetic content (many rules; many FAQ cards; one giant rule), at 5, 10, 20 and 40 MB by
default; each command runs in its own process, timed, with its peak memory (its own and its children's, from
`os.wait4`). Prints one row per shape, command and size, the doubling ratios, and the targets:
doubling the input at most 2.3x the time, peak memory at most 15x the content size, no page over 5 MB.

Run: python bench/bench_scale.py [--sizes 5,10,20,40] [--shapes rules,faq,giant] [--commands check,search,build]
                                 [--timeout 120] [--budget 540] [--repeat 3]
The default run stays near 10 minutes: a run is stopped at --timeout seconds, and no run starts after --budget
seconds; use `--budget 0 --timeout 900` for the whole table. Ratios use CPU time: wall time on a shared machine
varies with the other processes. Each command runs --repeat times at each size, in turn with the other commands,
and the run of median CPU time is kept (on this 2-core machine one run was seen a third off the others).
"""

from __future__ import annotations

import argparse
import collections
import functools
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MB = 1_000_000
TIME_RATIO = 2.3
MEMORY_FACTOR = 15
PAGE_LIMIT = 5 * MB
TIMEOUT = 120
BUDGET = 540
REPEAT = 3
"""Runs of each command at each size: the machine is shared, and one run's time can be a third off the others."""
CLIENT_TIMEOUT = 60
"""Seconds a `kb serve` client waits for its reply in the burst (a client that gets none is counted as failed)."""
SYLLABLES = ["ka", "lo", "mir", "ta", "vel", "dor", "shi", "ran", "qu", "el", "zo", "bra", "nim", "th", "ul", "ve"]
WORDS = [
    "le",
    "joueur",
    "pioche",
    "une",
    "carte",
    "de",
    "sa",
    "bibliothèque",
    "pendant",
    "l’étape",
    "de",
    "pioche",
    "puis",
    "défausse",
    "jusqu’à",
    "sept",
    "cartes",
    "en",
    "main",
    "créature",
    "ciblée",
    "gagne",
    "marqueur",
    "blessure",
    "sort",
    "capacité",
    "déclenchée",
    "résolution",
    "pile",
]


def _name(i: int) -> str:
    """A pronounceable, unique card name for index `i` (`Kalo Mirta`)."""
    parts = []
    for _ in range(2):
        word = ""
        for _ in range(3):
            word += SYLLABLES[i % len(SYLLABLES)]
            i //= len(SYLLABLES)
        parts.append(word.capitalize())
    return " ".join(parts) + (f" {i}" if i else "")


def _prose(i: int, words: int) -> str:
    """Deterministic French-looking prose."""
    return " ".join(WORDS[(i * 7 + k * 3) % len(WORDS)] for k in range(words))


def many_rules(content: Path, size: int) -> None:
    """A complete-looking CR in French and English (half the size each): sections, the 900 three-digit rules
    with their titles, then as many numbered rules and subrules under each as the size asks for."""
    block = len(f"100.1. {_prose(0, 20)} See rule 100.1.\n\n100.1a {_prose(1, 12)}\n\n".encode())
    per_head = max(1, size // 2 // (900 * block))
    for lang, word in (("fr", "règle"), ("en", "rule")):
        lines = []
        for head in range(100, 1000):
            if head % 100 == 0:
                lines.append(f"{head // 100}. Section {head // 100}\n\n")
            lines.append(f"{head}. Titre {_name(head)}\n\n")
            for k in range(1, per_head + 1):
                n = head * per_head + k
                lines.append(f"{head}.{k}. {_prose(n, 20)} See {word} {head}.1.\n\n{head}.{k}a {_prose(n + 1, 12)}\n\n")
        (content / lang).mkdir(parents=True, exist_ok=True)
        (content / lang / f"cr-{lang}.txt").write_text("".join(lines), encoding="utf-8")


def many_cards(content: Path, size: int) -> None:
    """One French FAQ with card blocks, each printed with its text and two rulings."""
    head = (
        "Foire aux questions : Synthèse\n\nDocument modifié pour la dernière fois le 17 mars 2006\n-----\n\n"
        "NOTES GÉNÉRALES\n\nMécanique\n\nUne note générale.\n-----\n\nNOTES SUR DES CARTES SPÉCIFIQUES\n\n"
    )
    blocks, total, i = [head], len(head), 0
    while total < size:
        other = _name(random.Random(i).randrange(max(i, 1)))  # an earlier card, spread evenly
        block = (
            f"\n{_name(i)}\n{{{1 + i % 5}}}{{G}}\nCréature : elfe\n{1 + i % 4}/{1 + i % 3}\n{_prose(i, 18)}\n\n"
            f"* {_prose(i + 1, 25)} Voir la règle 120.{1 + i % 4}.\n\n"
            f"* Si le {other} quitte le jeu, {_prose(i + 2, 15)}.\n-----\n"
        )
        blocks.append(block)
        total += len(block.encode())
        i += 1
    (content / "fr").mkdir(parents=True, exist_ok=True)
    (content / "fr" / "faq-synthese.txt").write_text("".join(blocks), encoding="utf-8")


def giant_rule(content: Path, size: int) -> None:
    """One rule whose text is the whole file (a few normal rules around it)."""
    body = " ".join(_prose(i, 40) + "." for i in range(size // 280 + 1))[:size]
    text = f"100.1. A rule.\n\n100.2. {body}\n\n100.3. Another rule. See rule 100.2.\n"
    (content / "en").mkdir(parents=True, exist_ok=True)
    (content / "en" / "cr-giant.txt").write_text(text, encoding="utf-8")


SHAPES = {"rules": many_rules, "faq": many_cards, "giant": giant_rule}
COMMANDS = {
    "check": lambda content, out: ["check", "--content", str(content), "--quiet"],
    "search": lambda content, out: ["search", "joueur", "--content", str(content)],
    "build": lambda content, out: ["build", "--content", str(content), "--out", str(out), "--force"],
}


@dataclass(frozen=True, slots=True)
class Run:
    """One command on one content folder."""

    wall: float
    """Elapsed seconds."""
    cpu: float
    """User + system seconds of the process and its children (steadier than `wall` on a busy machine)."""
    peak: int
    """Peak resident memory in bytes (the process or a child, whichever is larger)."""
    status: int | None
    """Exit status; None when it was stopped at the timeout."""
    error: str = ""
    """The last line of its error output when it failed."""
    page: tuple[str, int] = ("", 0)
    """The largest generated page and its size (build only)."""
    output: str = ""
    """What it printed on its standard output."""


@dataclass(slots=True)
class Limits:
    """When to stop a run, and when to start no more."""

    timeout: float
    """Seconds before a run is stopped (the larger sizes of its shape and command are then skipped)."""
    deadline: float
    """`time.perf_counter()` after which no run starts (the budget of the whole benchmark)."""
    skip: set[tuple[str, str]] = field(default_factory=set)
    """(shape, command) pairs whose larger sizes are skipped."""


def run(args: list[str], timeout: float) -> Run:
    """Run `kb ARGS` in a new process, stopping it after `timeout` seconds."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "kb", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    stdout: list[bytes] = []
    stderr: list[bytes] = []
    readers = [
        threading.Thread(target=lambda: stdout.append(proc.stdout.read()), daemon=True),
        threading.Thread(target=lambda: stderr.append(proc.stderr.read()), daemon=True),
    ]
    for reader in readers:
        reader.start()
    status = None
    while True:
        pid, wait_status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            status = os.waitstatus_to_exitcode(wait_status)
            break
        if time.perf_counter() - start > timeout:
            proc.kill()
            _, _, usage = os.wait4(proc.pid, 0)
            break
        time.sleep(0.05)
    proc.returncode = status if status is not None else -9  # reaped here: keep Popen from waiting again
    wall = time.perf_counter() - start
    for reader in readers:
        reader.join(5)
    lines = b"".join(stderr).decode(errors="replace").strip().splitlines()
    output = b"".join(stdout).decode(errors="replace")
    cpu = usage.ru_utime + usage.ru_stime
    return Run(wall, cpu, usage.ru_maxrss * 1024, status, lines[-1] if lines else "", output=output)


def largest_page(site: Path) -> tuple[str, int]:
    """The largest generated HTML page (Pagefind's own files aside) and its size."""
    pages = [p for p in site.rglob("*.html") if "pagefind" not in p.relative_to(site).as_posix()]
    if not pages:
        return "-", 0
    page = max(pages, key=lambda p: p.stat().st_size)
    return page.relative_to(site).as_posix(), page.stat().st_size


def measure(shape: str, size_mb: int, commands: list[str], limits: Limits, repeat: int) -> tuple[int, dict[str, Run]]:
    """Generate content of the shape and size, then run each command on it `repeat` times, the commands in turn
    (unless skipped or out of time): the run of median CPU time stands for them, with the largest peak."""
    found: dict[str, list[Run]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        content = Path(tmp) / "content"
        SHAPES[shape](content, size_mb * MB)
        real = sum(p.stat().st_size for p in content.rglob("*") if p.is_file())
        for _ in range(repeat):
            for command in commands:
                if (shape, command) in limits.skip or time.perf_counter() > limits.deadline:
                    if command not in found:  # (a run stopped at this size is not run again)
                        stopped = (shape, command) in limits.skip
                        why = "a smaller size was stopped" if stopped else "out of the time budget"
                        print(f"{shape:6} {command:6} {size_mb:3d} MB: not run ({why})", flush=True)
                    continue
                shutil.rmtree(Path(tmp) / ".kb", ignore_errors=True)  # no cache: the index and the load start afresh
                done = run(COMMANDS[command](content, Path(tmp) / "site"), limits.timeout)
                if command == "build":
                    done = replace(done, page=largest_page(Path(tmp) / "site"))
                    shutil.rmtree(Path(tmp) / "site", ignore_errors=True)
                if done.status is None:
                    limits.skip.add((shape, command))
                found.setdefault(command, []).append(done)
    medians = {command: median_run(runs) for command, runs in found.items()}
    for command, done in medians.items():
        print(_row(shape, command, size_mb, real, done, limits.timeout, found[command]), flush=True)
    return real, medians


def median_run(runs: list[Run]) -> Run:
    """The run of median CPU time (the stopped one, if any), with the largest peak and page of them all."""
    stopped = [r for r in runs if r.status is None]
    middle = stopped[0] if stopped else sorted(runs, key=lambda r: r.cpu)[(len(runs) - 1) // 2]
    return replace(middle, peak=max(r.peak for r in runs), page=max((r.page for r in runs), key=lambda p: p[1]))


def _row(shape: str, command: str, size_mb: int, real: int, done: Run, timeout: float, runs: list[Run]) -> str:
    """One line of the table: the median run, and the range of the CPU times when there are several."""
    head = f"{shape:6} {command:6} {size_mb:3d} MB ({real / MB:5.1f})"
    if done.status is None:
        return f"{head}: stopped at {timeout:.0f} s ({done.cpu:.0f} s cpu, {done.peak / MB:.0f} MB peak so far)"
    failed = done.status != 0 and not (command == "check" and done.status == 1)  # check: 1 = content errors
    page = f"  largest page {done.page[0]} {done.page[1] / MB:.2f} MB" if done.page[1] else ""
    cpus = [r.cpu for r in runs]
    spread = f" ({min(cpus):.1f}-{max(cpus):.1f}, {len(cpus)} runs)" if len(cpus) > 1 else ""
    return (
        f"{head}: {done.wall:7.1f} s wall {done.cpu:7.1f} s cpu{spread}  {done.peak / MB:6.0f} MB peak "
        f"({done.peak / real:4.1f}x){page}" + (f"  FAILED ({done.status}): {done.error}" if failed else "")
    )


def summary(results: dict, sizes: list[int], commands: list[str]) -> None:
    """Doubling ratios (CPU time, and wall time in brackets) and whether each target is met."""
    print("\nshape  command  cpu (wall) time ratio per doubling   peak/content  targets")
    for shape, by_size in results.items():
        for command in commands:
            runs = [(by_size[s][0], by_size[s][1].get(command)) for s in sizes if s in by_size]
            done = [(real, r) for real, r in runs if r is not None and r.status is not None]
            ratios = [(b.cpu / a.cpu, b.wall / a.wall) for (_, a), (_, b) in zip(done, done[1:], strict=False)]
            memory = max((r.peak / real for real, r in done), default=0.0)
            page = max((r.page[1] for _, r in done), default=0)
            complete = len(done) == len(sizes)
            verdict = [
                f"time {'OK' if all(c <= TIME_RATIO for c, _ in ratios) else 'MISSED'}",
                f"memory {'OK' if memory <= MEMORY_FACTOR else 'MISSED'}",
            ]
            if command == "build":
                verdict.append(f"pages {'OK' if page <= PAGE_LIMIT else 'MISSED'} (max {page / MB:.1f} MB)")
            if not complete:
                verdict.append(f"only {len(done)} of {len(sizes)} sizes")
            shown = " ".join(f"{c:4.2f} ({w:4.2f})" for c, w in ratios)
            print(f"{shape:6} {command:7}  {shown:36}  {memory:5.1f}x max   {', '.join(verdict)}")


def burst(clients: int = 200) -> None:
    """`kb serve`'s server under a burst of simultaneous clients: the slowest reply, and with the default backlog."""
    from kb.site.serve import QuietHandler, SiteServer, make_server

    class DefaultBacklog(SiteServer):
        request_queue_size = 5  # socketserver's default

    failed: list[str] = []

    def slowest(server) -> float:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        times: list[float] = []

        def one() -> None:
            start = time.perf_counter()
            try:
                with socket.create_connection(server.server_address[:2], timeout=CLIENT_TIMEOUT) as sock:
                    sock.sendall(b"GET /index.html HTTP/1.0\r\n\r\n")
                    while sock.recv(65536):
                        pass
            except OSError as err:  # refused, reset or timed out: counted, never a thread traceback
                failed.append(type(err).__name__)
                return
            times.append(time.perf_counter() - start)

        threads = [threading.Thread(target=one) for _ in range(clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        server.shutdown()
        server.server_close()
        return max(times, default=float("nan"))  # nan: no client got a reply

    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "index.html").write_text("ok", encoding="utf-8")
        ours = statistics.median(slowest(make_server(Path(tmp), port=0)) for _ in range(3))
        ours_failed, failed[:] = _counted(failed), []
        handler = functools.partial(QuietHandler, directory=tmp)
        default = statistics.median(slowest(DefaultBacklog(("127.0.0.1", 0), handler)) for _ in range(3))
    backlog = SiteServer.request_queue_size
    print(f"serve: {clients} simultaneous clients, slowest reply {ours:.2f} s (backlog {backlog}; median of 3);")
    print(f"       {default:.2f} s with the default backlog of 5")
    print(f"       clients without a reply in 3 bursts: {ours_failed}; with the default backlog: {_counted(failed)}\n")


def _counted(errors: list[str]) -> str:
    """`0`, or `12 (TimeoutError 10, ConnectionResetError 2)`."""
    if not errors:
        return "0"
    kinds = ", ".join(f"{kind} {count}" for kind, count in collections.Counter(errors).most_common())
    return f"{len(errors)} ({kinds})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="5,10,20,40", help="content sizes in MB, comma-separated")
    parser.add_argument("--shapes", default=",".join(SHAPES), help="rules, faq, giant")
    parser.add_argument("--commands", default=",".join(COMMANDS), help="check, search, build")
    parser.add_argument("--timeout", type=float, default=TIMEOUT, help="seconds before a run is stopped")
    parser.add_argument("--budget", type=float, default=BUDGET, help="seconds after which no run starts (0: none)")
    parser.add_argument("--repeat", type=int, default=REPEAT, help="runs of each command at each size (median kept)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    commands = args.commands.split(",")
    limits = Limits(args.timeout, time.perf_counter() + (args.budget or float("inf")))
    burst()
    print(f"targets: doubling the input <= {TIME_RATIO}x the time; peak memory <= {MEMORY_FACTOR}x the content;")
    print(f"no page over {PAGE_LIMIT / MB:.0f} MB. One process per command, no cache; peak = max RSS of it or a child.")
    print(f"A run over {args.timeout:.0f} s is stopped and the larger sizes of that shape and command are skipped;")
    print(f"no run starts after {args.budget:.0f} s (--budget 0: no limit). Smaller sizes of every shape run first.")
    print(f"Each command runs {args.repeat} times at each size, in turn with the others; the median CPU time is kept.")
    print()
    results: dict[str, dict[int, tuple[int, dict[str, Run]]]] = {}
    for size in sizes:
        for shape in args.shapes.split(","):
            results.setdefault(shape, {})[size] = measure(shape, size, commands, limits, max(1, args.repeat))
    summary(results, sizes, commands)


if __name__ == "__main__":
    main()
