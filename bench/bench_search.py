"""Search benchmark: index build, warm query latency (mixed queries and natural questions), cold `kb search` against
a bare interpreter, and the worst snippets (a rule with 40,000 matches, a 5 MB line).

Run: `python bench/bench_search.py [--peer CHECKOUT] [--runs N] [--stress-timeout SECONDS] [--pool [FOLDER]]` (2015
English CR + the French seeds and the lexicon, in a temporary folder; with `--pool`, the warm queries are asked of
the card pool of `bench_pool.py` instead, and the cold and extreme cases are left out). The natural questions are
those of bench/relevance/questions.json. `--peer` measures another checkout's engine in the same run, alternated
(targets: warm median <= 1.2x and p95 <= 1.5x the peer's, 8502699 being the engine Whoosh replaced; cold
`kb search` <= 5x a bare interpreter, each run as an installed kb runs: with its bytecode).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_build import installed_env  # noqa: E402  (commands run with their bytecode, as installed)
from bench_pool import CORPUS  # noqa: E402  (the card pool's folder and content, as bench_pool.py makes them)
from bench_pool import make_content as pool_content  # noqa: E402

QUERIES = [
    "120.2a",
    "règle 703.4k",
    "CR 120",
    "r120.2a",
    "1",
    "702.19",
    "deathtouch",
    "mulligan",
    "APNAP",
    "bibliotheque",
    "l'etape",
    "piochees",
    "drawn",
    "legend rule",
    "state-based actions",
    "first strike",
    '"combat damage step"',
    "pioche -bibliothèque",
    "deathtouch OR lifelink",
    "lang:fr pioche",
    "kind:glossary trample",
    "Isperia",
    "isper",
    "trample damage assignment",
    "ordre des blessures",
    "que se passe-t-il si je pioche dans une bibliothèque vide",
    "draw from an empty library",
    "maximum hand size",
    "hexproof",
    "layers continuous effects",
    "piétinement",
    "piétinement contact mortel",
    "forecast upkeep",
    "étape d'entretien",
]
STRESS = {
    "a rule with 40,000 matches": "999.1. " + "trample " * 40_000 + "\n",
    "a 5 MB line": "999.1. trample " + "x" * 5_000_000 + "\n",  # kb cuts a line at 100,000 characters (a warning)
}


def make_content(root: Path) -> Path:
    """The 2015 English CR plus the French seeds and the lexicon (French words also search their translations)."""
    content = root / "content"
    (content / "en").mkdir(parents=True)
    (content / "fr").mkdir()
    shutil.copy(ROOT / "tests" / "fixtures" / "cr-en-20150926.txt", content / "en")
    for path in (ROOT / "content" / "fr").glob("cr-*.txt"):
        shutil.copy(path, content / "fr")
    shutil.copy(ROOT / "content" / "fr" / "faq-discorde-2006.txt", content / "fr")
    shutil.copy(ROOT / "content" / "fr" / "lexique-cartes-mtgjson5.json", content / "fr")
    return content


def wall(cmds: dict[str, tuple[list[str], Path]], env: dict[str, str], runs: int = 9) -> dict[str, float]:
    """Median wall time of commands (each with its folder) run in turns, the machine's load hitting them alike, after
    one run each that is not counted (an index to make, modules to compile), in seconds."""
    times: dict[str, list[float]] = {name: [] for name in cmds}
    for round_ in range(runs + 1):
        for name, (cmd, cwd) in cmds.items():
            start = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True, cwd=cwd, env=env)
            if round_:
                times[name].append(time.perf_counter() - start)
    return {name: statistics.median(t) for name, t in times.items()}


def stress(root: Path, name: str, text: str, timeout: float) -> str:
    """Time (index build + one query) on content holding an extreme rule, in a child process bounded in time."""
    content = root / name.replace(" ", "-").replace(",", "") / "content"
    (content / "en").mkdir(parents=True)
    (content / "en" / "cr.txt").write_text("999. Stress\n\n" + text, encoding="utf-8")
    code = (
        "import sys, time; from pathlib import Path; from kb.search.index import open_index\n"
        "ix = open_index(Path(sys.argv[1])); t = time.perf_counter(); r = ix.search('trample')\n"
        "print(f'{(time.perf_counter() - t) * 1000:.1f} ms, ' + "
        "(f'snippet of {len(r[0].snippets[\"en\"])} characters' if r else 'no result'))"
    )
    start = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, "-c", code, str(content)], capture_output=True, text=True, timeout=timeout, cwd=ROOT
        )
    except subprocess.TimeoutExpired:
        return f"did not finish in {timeout:.0f} s"
    if done.returncode:
        return f"failed: {done.stderr.strip().splitlines()[-1]}"
    return f"build + query {time.perf_counter() - start:.2f} s; query {done.stdout.strip()}"


PROBE = """
import json, statistics, sys, time
from pathlib import Path
sys.path.insert(0, ".")
from kb.link.load import load
from kb.search.index import open_index
content, queries, questions = Path(sys.argv[1]), json.loads(sys.argv[2]), json.loads(sys.argv[3])
start = time.perf_counter()
index = open_index(content, load(content))
built = time.perf_counter() - start
def latency(qs, rounds):
    for q in qs:
        index.search(q)
    found = []
    for _ in range(rounds):
        for q in qs:
            t = time.perf_counter()
            index.search(q)
            found.append((time.perf_counter() - t) * 1000)
    found.sort()
    return statistics.median(found), found[int(len(found) * 0.95) - 1]
print(json.dumps({"build": built, "mixed": latency(queries, 5), "questions": latency(questions, 2)}))
"""


def probe(checkout: Path, content: Path, questions: list[str]) -> dict:
    """Index build and warm latencies of one checkout's engine, in a process of its own (its caches removed)."""
    shutil.rmtree(content.parent / ".kb", ignore_errors=True)
    args = [sys.executable, "-c", PROBE, str(content), json.dumps(QUERIES), json.dumps(questions)]
    done = subprocess.run(args, capture_output=True, text=True, check=True, cwd=checkout)
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stress-timeout", type=float, default=120.0, help="seconds allowed to each extreme case")
    parser.add_argument("--peer", type=Path, help="another kb checkout (e.g. an earlier commit) measured alongside")
    parser.add_argument("--runs", type=int, default=3, help="alternated runs of each engine")
    pool = CORPUS / "mtgjson5-pool"
    parser.add_argument("--pool", type=Path, nargs="?", const=pool, help="warm queries on the card pool (a folder)")
    args = parser.parse_args()
    questions = [q["q"] for q in json.loads((ROOT / "bench" / "relevance" / "questions.json").read_text("utf-8"))]
    checkouts = {"kb": ROOT, **({"peer": args.peer.resolve()} if args.peer else {})}
    with tempfile.TemporaryDirectory() as tmp:
        if args.pool:
            content, card_bytes = pool_content(Path(tmp), args.pool)
            print(f"the card pool: {card_bytes / 1e6:.0f} MB of card data ({args.pool})")
        else:
            content = make_content(Path(tmp))
        found: dict[str, list[dict]] = {name: [] for name in checkouts}
        for _ in range(args.runs):  # alternated: the machine's load hits both alike
            for name, checkout in checkouts.items():
                found[name].append(probe(checkout, content, questions))
        figures = {}
        for name, runs in found.items():
            build = statistics.median(r["build"] for r in runs)
            mixed = [statistics.median(r["mixed"][k] for r in runs) for k in (0, 1)]
            natural = [statistics.median(r["questions"][k] for r in runs) for k in (0, 1)]
            figures[name] = {"mixed": mixed, "natural questions": natural}
            print(
                f"{name:5} load + index build {build:.2f} s; warm mixed ({len(QUERIES)}) median {mixed[0]:.2f} ms, "
                f"p95 {mixed[1]:.2f} ms; natural questions ({len(questions)}) median {natural[0]:.2f} ms, "
                f"p95 {natural[1]:.2f} ms   (medians of {args.runs} alternated runs)"
            )
        if "peer" in figures:
            for what in ("natural questions", "mixed"):
                (median, p95), (theirs, theirs_p95) = figures["kb"][what], figures["peer"][what]
                met = median <= 1.2 * theirs and p95 <= 1.5 * theirs_p95
                print(
                    f"warm {what}: median {median / theirs:.2f}x the peer's, p95 {p95 / theirs_p95:.2f}x "
                    f"(targets <= 1.2x, <= 1.5x: {'met' if met else 'NOT met'})"
                )
        if args.pool:
            return
        cmds: dict[str, tuple[list[str], Path]] = {"bare": ([sys.executable, "-c", "pass"], ROOT)}
        for name, checkout in checkouts.items():  # each its own copy of the content: its own build folder
            own = shutil.copytree(content, Path(tmp) / f"cold-{name}" / "content")
            kb_cmd = [sys.executable, "-m", "kb", "search", "--content", str(own)]
            cmds[f"{name} word"] = ([*kb_cmd, "trample"], checkout)
            cmds[f"{name} question"] = ([*kb_cmd, "what happens when I draw from an empty library"], checkout)
        cold = wall(cmds, installed_env())
        bare = cold.pop("bare")
        for name, seconds in cold.items():
            met = "met" if seconds <= 5 * bare else "NOT met"
            target = f" (target <= 5x: {met})" if name.startswith("kb ") else ""
            print(
                f"cold `kb search` ({name}): {seconds * 1000:.0f} ms vs bare python {bare * 1000:.0f} ms: "
                f"{seconds / bare:.1f}x{target}"
            )
        for name, text in STRESS.items():
            print(f"{name}: {stress(Path(tmp), name, text, args.stress_timeout)}")


if __name__ == "__main__":
    main()
