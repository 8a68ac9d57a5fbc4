"""Benchmark: kb on a whole card pool (the shared half of MTGJSON v5's 2022 sets, Dissension, the 2026 CR and the
bundled French files), cold and unchanged.

Each command runs in its own process (`python3 -m kb …`), timed, with its CPU time and peak memory (its own and
its waited-for children's, from `os.wait4`): first cold (no load cache, no site), then unchanged (the same command
again, through the load cache). Prints one row per run and the targets: cold `kb check` under 30 s of CPU, its
peak memory under twice the card data, an unchanged `kb check` under 3 s, a cold `kb build` under 60 s and 400 MiB.
A build's row says what its time went to, from what `kb build` prints: loading and checking the content, writing the
pages (Whoosh's index and its postings are written alongside them, in another process), then the search index's
tables and waiting for that process.

Run: python bench/bench_pool.py [--pool ../shared/corpus/mtgjson5-pool] [--commands check,search,build]
                                [--jobs 1,2] [--timeout 600] [--keep]
`--jobs 1,2` builds once per value of `kb build --jobs` (one process, or the search index in a second one), each
cold then unchanged, so the two can be compared in one run; without it, `kb build` chooses as it does by default
(a second process where a second core is free). The targets judge the last value's build.
Without the pool folder it says so and exits 0. `--commands check` runs the check alone (a build of the pool
writes tens of thousands of pages).
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
MB = 1_000_000
CHECK_CPU = 30.0
RERUN_WALL = 3.0
BUILD_WALL = 60.0
BUILD_PEAK_MIB = 400.0
MEMORY_FACTOR = 2.0
COMMANDS = {
    "check": ["check", "-q"],
    "search": ["search", "dégâts"],
    "build": ["build", "--force"],
}
"""The kb arguments of each command (the content and output options are added)."""


sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scale import Run, run  # noqa: E402  (one way of timing a kb command, for both benchmarks)


def make_content(root: Path, pool: Path) -> tuple[Path, int]:
    """A content folder of links to the pool, DIS, the 2026 CR and the bundled French files; its card data's bytes."""
    content = root / "content"
    (content / "en").mkdir(parents=True)
    (content / "fr").mkdir()
    (content / "en" / "cr-en-20260116.txt").symlink_to(CORPUS / "cr-en-20260116.txt")
    for path in sorted((ROOT / "content" / "fr").iterdir()):
        (content / "fr" / path.name).symlink_to(path)
    cards = [CORPUS / "mtgjson5" / "DIS.json", *sorted(pool.resolve().glob("*.json"))]  # links to absolute paths
    for path in cards:
        link = content / "en" / path.name
        if not link.exists():
            link.symlink_to(path)
    return content, sum(path.stat().st_size for path in cards)


def pool_content(pool: Path, prefix: str) -> tuple[Path, Path, int] | None:
    """A new temporary folder holding a content folder of the pool (`make_content`): (the folder, the content
    folder, its card data's bytes), said in one line; None, said too, when the pool or Dissension is missing."""
    if not pool.is_dir() or not (CORPUS / "mtgjson5" / "DIS.json").is_file():
        print(f"skipped: no card pool at {pool} (or no {CORPUS / 'mtgjson5' / 'DIS.json'})")
        return None
    root = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        content, card_bytes = make_content(root, pool)
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        raise
    print(f"content: {content} ({card_bytes / MB:.0f} MB of card data, {len(list(pool.glob('*.json')))} files)")
    return root, content, card_bytes


BUILT = re.compile(
    r"Built (\d+) pages into .* in ([\d.]+) s "
    r"\((?:with search index, ([\d.]+) s (?:of it|more) after the pages|without search index)(?:; [^)]*)?\)"
)
"""The line `kb build` ends with: pages, seconds of the site's build, of them those waiting for the search index."""


def build_parts(result: Run) -> dict[str, float] | None:
    """What a build's wall time went to (`load`: loading and checking, `pages`, with the search index built alongside,
    `search`: waiting for it after them), from its output; None when it built nothing (an unchanged site)."""
    found = BUILT.search(result.output)
    if found is None:
        return None
    site, search = float(found.group(2)), float(found.group(3) or 0)
    return {"pages_count": int(found.group(1)), "load": result.wall - site, "pages": site - search, "search": search}


def build_note(result: Run) -> str:
    """The parts of a build's time, in words."""
    parts = build_parts(result)
    if parts is None:
        return ""
    return (f"{parts['pages_count']} pages: load and check {parts['load']:.1f} s, pages {parts['pages']:.1f} s, "
            f"then the search index {parts['search']:.1f} s more")  # fmt: skip


def row(command: str, state: str, result: Run, note: str = "") -> str:
    """One line of the table."""
    status = "ok" if result.status in (0, 1) else f"status {result.status}"
    return (
        f"{command:<7} {state:<10} {result.wall:8.1f} s {result.cpu:8.1f} s {result.peak / MB:8.0f} MB  {status}"
        f"{'  ' + note if note else ''}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pool", type=Path, default=CORPUS / "mtgjson5-pool")
    parser.add_argument("--commands", default="check,search,build", help="comma-separated: check, search, build")
    parser.add_argument("--jobs", default="", help="comma-separated values of kb build --jobs, each built in turn")
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (its path is printed)")
    args = parser.parse_args()
    commands = [c for c in args.commands.split(",") if c]
    unknown = [c for c in commands if c not in COMMANDS]
    if unknown:
        parser.error(f"unknown command(s): {', '.join(unknown)}")
    made = pool_content(args.pool, "kb-bench-pool-")
    if made is None:
        return 0
    root, content, card_bytes = made
    try:
        print(f"{'command':<7} {'state':<10} {'wall':>10} {'CPU':>10} {'peak':>11}")
        results: dict[tuple[str, str], Run] = {}
        judged: dict[str, str] = {}
        runs = [(c, j) for c in commands for j in (args.jobs.split(",") if c == "build" else [""])]
        for command, jobs in runs:
            shutil.rmtree(root / ".kb", ignore_errors=True)
            shutil.rmtree(root / "site", ignore_errors=True)
            extra = ["--out", str(root / "site"), *(["--jobs", jobs] if jobs else [])] if command == "build" else []
            name = f"{command}/{jobs}" if jobs else command
            for state in ("cold", "unchanged"):
                result = run([*COMMANDS[command], "--content", str(content), *extra], args.timeout)
                results[(command, state)] = result  # a build's targets: its last --jobs value's
                judged[command] = name
                note = result.error if result.status not in (0, 1) else build_note(result) if command == "build" else ""
                print(row(name, state, result, note), flush=True)
        print(f"targets ({', '.join(judged.values())}):")
        for (command, state), limit, what, value in (
            (("check", "cold"), CHECK_CPU, "cold check CPU", lambda r: r.cpu),
            (("check", "cold"), MEMORY_FACTOR * card_bytes / MB, "cold check peak MB", lambda r: r.peak / MB),
            (("check", "unchanged"), RERUN_WALL, "unchanged check wall", lambda r: r.wall),
            (("build", "cold"), BUILD_WALL, "cold build wall", lambda r: r.wall),
            (("build", "cold"), BUILD_PEAK_MIB, "cold build peak MiB", lambda r: r.peak / (1 << 20)),
        ):
            if (command, state) in results:
                got = value(results[(command, state)])
                print(f"  {what}: {got:.1f} (target < {limit:.1f}) {'met' if got < limit else 'NOT met'}")
        if ("build", "cold") in results and (parts := build_parts(results[("build", "cold")])) is not None:
            load, pages, search = parts["load"], parts["pages"], parts["search"]
            print(f"  of the cold build: load and check {load:.1f} s + pages {pages:.1f} s (the search index built "
                  f"alongside) = {load + pages:.1f} s; then waiting for the search index {search:.1f} s")  # fmt: skip
    finally:
        if args.keep:
            print(f"kept: {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
