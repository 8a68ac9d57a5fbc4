"""`kill -9` at random moments of `kb build` (issue 44): the previous site stays whole, the next build leaves nothing
behind, and no process of the killed build outlives it (`tests/test_kill.py`, `bench/bench_kill.py`).

Each round changes the content (so that the build has everything to do, the search index too), starts `kb build` in
a process of its own, kills it with SIGKILL after a random delay (the processes it started noted just before), checks
that the site folder holds a whole site (the previous one, or the new one when the build was done first), waits for
the processes it started to end, then builds again and looks for what any build left beside the site, in the build
folder and in the index's slot.
"""

from __future__ import annotations

import hashlib
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTLIVE = 2.0
"""Seconds a process of a killed build may take to notice and stop."""


@dataclass
class Report:
    """What the rounds found."""

    kills: int = 0
    survived: int = 0
    """Rounds after which the site was whole, nothing was left behind and no process outlived its build."""
    orphans: list[float] = field(default_factory=list)
    """Seconds each process of a killed build lived after the kill."""
    problems: list[str] = field(default_factory=list)


def tree(site: Path) -> str:
    """A hash of a site folder's files (names and bytes)."""
    digest = hashlib.sha256()
    for path in sorted(p for p in site.rglob("*") if p.is_file()):
        digest.update(path.relative_to(site).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def descendants(pid: int) -> set[int]:
    """The processes started by `pid`, their own too (from /proc)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def running(pid: int) -> bool:
    """Whether a process runs (a zombie does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def leftovers(content: Path, site: Path) -> list[str]:
    """What builds left behind: temporary sites beside the site, unfinished indexes, temporary cache files."""
    found = [p.name for p in site.parent.iterdir() if p.name.startswith(f".{site.name}.")]
    build = content.parent / ".kb"
    found += [p.name for p in build.glob("index/*/tmp-*")]
    found += [p.name for p in build.glob("index/*/.CURRENT.tmp-*")]
    found += [p.name for p in build.glob("cache/.*tmp*")]
    return found


def build(content: Path, site: Path, env: dict, extra: list[str] | None = None) -> subprocess.Popen:
    """Start `kb build` (with `extra` arguments) in a process (and session) of its own."""
    args = [sys.executable, "-m", "kb", "build", "--content", str(content), "--out", str(site), "--force"]
    args += extra or []
    return subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)


def change(content: Path, round_: int) -> None:
    """Change the content a little, so that the next build has everything to do."""
    path = content / "en" / "kill-round.txt"
    path.write_text(f"100. General\n\n100.1. Round {round_} of the kill test.\n", encoding="utf-8")


def rounds(
    content: Path, site: Path, kills: int, seed: int = 1, env: dict | None = None, args: list[str] | None = None
) -> Report:
    """Kill `kb build` (with `args`) `kills` times at random moments; what was found."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    rng = random.Random(seed)
    report = Report()
    change(content, 0)
    whole = build(content, site, env, args)
    assert whole.wait(600) == 0, whole.stderr.read()
    change(content, -1)
    start = time.monotonic()  # how long a whole build takes: the kills fall anywhere in it
    full = build(content, site, env, args)
    assert full.wait(600) == 0, full.stderr.read()
    span = time.monotonic() - start
    for k in range(1, kills + 1):
        report.kills += 1
        before = tree(site)
        change(content, k)
        child = build(content, site, env, args)
        time.sleep(rng.uniform(0.0, span * 1.1))
        started = descendants(child.pid)
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        killed = time.monotonic()
        ok = _check_round(k, before, site, started, killed, report)
        again = build(content, site, env, args)
        if again.wait(600) != 0:
            report.problems.append(f"round {k}: the next build failed: {again.stderr.read()[-300:]!r}")
            ok = False
        if left := leftovers(content, site):
            report.problems.append(f"round {k}: left behind after the next build: {left}")
            ok = False
        report.survived += ok
    return report


def _check_round(k: int, before: str, site: Path, started: set[int], killed: float, report: Report) -> bool:
    """The site whole and every process of the killed build gone in time; problems noted."""
    from kb.site.seal import untouched

    ok = True
    olds = list(site.parent.glob(f".{site.name}.old-*"))
    if not site.exists() and any(tree(old) == before for old in olds):
        pass  # killed between the swap's two renames: the previous site, whole, is put back by the next build
    elif tree(site) != before and not untouched(site):
        report.problems.append(f"round {k}: the site is neither the previous one nor a whole new one")
        ok = False
    alive = set(started)
    while alive and time.monotonic() - killed < OUTLIVE + 3:
        for pid in list(alive):
            if not running(pid):
                alive.discard(pid)
                report.orphans.append(time.monotonic() - killed)
        time.sleep(0.02)
    late = [t for t in report.orphans[-len(started) :] if t > OUTLIVE] if started else []
    if alive or late:
        report.problems.append(f"round {k}: {len(alive)} processes still running, {len(late)} ended late")
        for pid in alive:
            os.kill(pid, signal.SIGKILL)
        ok = False
    return ok
