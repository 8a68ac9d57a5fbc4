"""Benchmark: what the site's first search downloads, on the bundled content and on a card pool.

A built site's search (templates/static/kbsearch.js over the exported index) is run in Node on questions as a
reader types them, each in a fresh page (nothing cached): the files it fetches, counted as written and gzipped (as
static hosts serve JSON), plus the search page's jump map (`jump.json`, read on Enter), and the sequential round
trips they take (core.json the first). Target: under 500 KB.

Run: `python bench/bench_site_search.py [--pool ../shared/corpus/mtgjson5-pool] [--site DIR]`. Without `--site`,
the bundled content is built into a temporary folder; `--pool` builds the card pool (with DIS, the 2026 CR and the
French files) too (a few minutes). Needs Node.js (skipped with a message without it).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
TARGET_KB = 500
QUESTIONS = [
    "trample",
    "isperia",
    "pioche",
    "dégâts de combat",
    "can a tapped creature block",
    "que se passe-t-il si je pioche dans une bibliothèque vide",
    "tramle",
]
RUNNER = """
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
const [site, module, questions] = process.argv.slice(2);
const { Index } = await import(module);
const jump = readFileSync(`${site}/jump.json`);
const out = [];
for (const q of JSON.parse(questions)) {
  let raw = jump.length, gz = gzipSync(jump).length, files = 1, answered = 0, rounds = 0;
  const load = async (name) => {
    const mine = answered + 1; /* one more than the rounds answered before it was asked */
    await new Promise((r) => setTimeout(r, 2));
    const text = readFileSync(`${site}/search/${name}`);
    raw += text.length; gz += gzipSync(text).length; files += 1;
    answered = Math.max(answered, mine); rounds = Math.max(rounds, mine);
    return JSON.parse(text.toString("utf8"));
  };
  const index = await Index.open(load);
  await index.search(q, 30);
  out.push([q, raw, gz, files, rounds]);
}
console.log(JSON.stringify(out));
"""


def measure(site: Path) -> list[tuple[str, int, int, int, int]]:
    """(question, bytes, gzipped bytes, files, sequential round trips with core.json) of a first search of each
    question on a built site."""
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "run.mjs"
        script.write_text(RUNNER, encoding="utf-8")
        module = (ROOT / "templates" / "static" / "kbsearch.js").as_uri()
        done = subprocess.run(
            ["node", str(script), str(site), module, json.dumps(QUESTIONS)], capture_output=True, text=True, check=True
        )
    return [tuple(row) for row in json.loads(done.stdout)]


def build(content: Path, out: Path) -> None:
    """Build a site with this checkout's kb."""
    subprocess.run(
        [sys.executable, "-m", "kb", "build", "--force", "--content", str(content), "--out", str(out)],
        check=True,
        capture_output=True,
        cwd=ROOT,
    )


def report(name: str, site: Path) -> None:
    """Print one site's figures."""
    rows = measure(site)
    print(f"{name}: {sum(1 for _ in (site / 'search').iterdir())} search files")
    for question, raw, gz, files, rounds in rows:
        print(f"  {question:<58} {raw / 1024:6.0f} KB  (gzip {gz / 1024:4.0f} KB)  {files:3} files in {rounds} rounds")
    worst = max(raw for _, raw, _, _, _ in rows) / 1024
    print(f"  largest: {worst:.0f} KB (target < {TARGET_KB} KB) {'met' if worst < TARGET_KB else 'NOT met'}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="a site already built")
    parser.add_argument("--pool", type=Path, help="also build and measure this card pool (MTGJSON v5 set files)")
    args = parser.parse_args()
    if shutil.which("node") is None:
        print("skipped: Node.js is not installed")
        return 0
    if args.site:
        report(str(args.site), args.site)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        shutil.copytree(ROOT / "content", root / "bundled" / "content")
        build(root / "bundled" / "content", root / "bundled" / "site")
        report("bundled content", root / "bundled" / "site")
        if args.pool:
            from bench_pool import make_content

            content, _ = make_content(root / "pool", args.pool.resolve())
            build(content, root / "pool" / "site")
            report(f"card pool ({args.pool})", root / "pool" / "site")
    return 0


if __name__ == "__main__":
    sys.exit(main())
