"""Relevance of the question sets on the bundled content: kb (this checkout), a peer checkout and FTS5, side by side.

Run: `python bench/bench_questions.py [--set terms|natural|all] [--peer CHECKOUT] [--misses] [--kinds]`.

The sets are `bench/relevance/terms-fr.json` (French rules terms, each with its defining rule and glossary entry)
and `bench/relevance/questions-natural.json` (natural questions in English and French, by kind); both were written
from the rules text by people who had not read the search code, half of each held out from any tuning
(bench/relevance/README.md). Each checkout answers from its own bundled content (`CHECKOUT/content`), in one
process (the index opened once); the peer runs under its own virtual environment (`CHECKOUT/.venv`). FTS5 is the
BM25 baseline over this checkout's `kb export`.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench" / "relevance"))

from score import CUTOFFS, first_hit, fts5_ranker, metrics, result_ids  # noqa: E402

TERMS_HIT3 = 0.95
"""Target: the French rules terms' held-out hit@3."""
NATURAL_FR_HIT3 = 0.85
"""Target: the French natural questions' held-out hit@3."""
SETS = {
    "terms": ROOT / "bench" / "relevance" / "terms-fr.json",
    "natural": ROOT / "bench" / "relevance" / "questions-natural.json",
}
DRIVER = """
import json, sys
sys.path.insert(0, sys.argv[1])
from kb.search.index import open_index
index = open_index(__import__('pathlib').Path(sys.argv[1]) / 'content')
out = {}
for q in json.load(sys.stdin):
    try:
        found = index.search(q, limit=10)
    except Exception:
        found = []
    out[q] = [r.to_json() for r in found]
print(json.dumps(out))
"""
"""Answers every question in one process of a checkout (its own interpreter and bundled content)."""


def answers(checkout: Path, questions: list[str]) -> dict[str, list[tuple[str, ...]]]:
    """Each question -> the result ids of a checkout's `kb search` (its first 10), in one process."""
    python = checkout / ".venv" / "bin" / "python"
    python = python if python.exists() else Path(sys.executable)
    done = subprocess.run(
        [str(python), "-c", DRIVER, str(checkout)],
        input=json.dumps(questions),
        capture_output=True,
        text=True,
        check=True,
    )
    found = json.loads(done.stdout)
    return {q: [result_ids(r) for r in found[q]] for q in questions}


def scores(questions: list[dict], ranked: dict[str, list]) -> dict[str, dict]:
    """Metrics per slice (overall, half x language, half x kind) and each question's rank."""
    ranks = {q["id"]: first_hit(q["expect"], ranked[q["q"]]) for q in questions}
    slices: dict[str, list] = defaultdict(list)
    for q in questions:
        rank = ranks[q["id"]]
        slices["overall"].append(rank)
        slices[f"{q['half']}/{q['lang']}"].append(rank)
        slices[f"{q['half']}"].append(rank)
        slices[f"{q['half']}/{q.get('kind', q['form'])}"].append(rank)
    return {"slices": {k: metrics(v) for k, v in slices.items()}, "ranks": ranks}


def report(name: str, questions: list[dict], results: dict[str, dict], kinds: bool, show_misses: bool, heldout: bool):
    """Print one set's table, rankers side by side; kb's misses of the tuning half (`show_misses`), and of the
    held-out half (`heldout`: never to tune on)."""
    some = next(iter(results.values()))["slices"]
    order = [k for k in ("overall", "tune", "heldout") if k in some]
    order += sorted(k for k in some if k.count("/") and k.split("/")[1] in ("en", "fr"))
    if kinds:
        order += sorted(k for k in some if k.count("/") and k.split("/")[1] not in ("en", "fr"))
    cols = ["n", *(f"hit@{k}" for k in CUTOFFS), "mrr"]
    print(f"\n== {name}")
    print(f"{'slice':<26}{'ranker':<8}" + "".join(f"{c:>8}" for c in cols))
    for key in order:
        for ranker, result in results.items():
            m = result["slices"][key]
            print(f"{key:<26}{ranker:<8}" + f"{m['n']:>8}" + "".join(f"{m[c]:>8.3f}" for c in cols[1:]))
    if show_misses or heldout:
        mine = results["kb"]["ranks"]
        print(f"\nkb outside the top 3 ({name}; rank per ranker, '-' = not in the top 10):")
        for q in sorted(questions, key=lambda q: (q["half"], -(mine[q["id"]] or 99), q["id"])):
            if mine[q["id"]] is not None and mine[q["id"]] <= 3 or q["half"] == "heldout" and not heldout:
                continue
            if q["half"] == "tune" and not show_misses:
                continue
            cells = " ".join(f"{n}={r['ranks'][q['id']] or '-'}" for n, r in results.items())
            print(f"  {q['half']:<8}{q['id']:<11}{cells:<22}{q['q']!r} -> {q['expect']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=[*SETS, "all"], default="all")
    parser.add_argument("--peer", type=Path, help="another checkout (with its .venv) measured alongside")
    parser.add_argument("--no-fts5", action="store_true", help="leave the FTS5 baseline out")
    parser.add_argument("--misses", action="store_true", help="list kb's tuning questions outside the top 3")
    parser.add_argument("--heldout-misses", action="store_true", help="list the held-out ones too (report only)")
    parser.add_argument("--kinds", action="store_true", help="also a row per half and kind of question")
    parser.add_argument("--half", choices=["tune", "heldout"], help="only this half's questions (tuning: tune)")
    args = parser.parse_args()
    chosen = list(SETS) if args.set == "all" else [args.set]
    sets = {name: json.loads(SETS[name].read_text(encoding="utf-8")) for name in chosen}
    if args.half:
        sets = {name: [q for q in qs if q["half"] == args.half] for name, qs in sets.items()}
    every = sorted({q["q"] for qs in sets.values() for q in qs})
    rankers = {"kb": answers(ROOT, every)}
    if args.peer:
        rankers["peer"] = answers(args.peer.resolve(), every)
    if not args.no_fts5:
        with tempfile.TemporaryDirectory() as tmp:
            fts = fts5_ranker(ROOT / "content", Path(tmp))
            rankers["fts5"] = {q: fts(q) for q in every}
    for name, questions in sets.items():
        results = {ranker: scores(questions, ranked) for ranker, ranked in rankers.items()}
        report(name, questions, results, args.kinds, args.misses, args.heldout_misses)
        if not args.half:
            targets(name, questions, results, rankers["kb"])


def targets(name: str, questions: list[dict], results: dict[str, dict], ranked: dict[str, list]) -> None:
    """Print the set's targets (issue: French for the rules themselves), each met or not."""
    mine = results["kb"]["slices"]
    lines = []
    if name == "terms":
        hit3 = mine["heldout"]["hit@3"]
        lines.append((f"held-out hit@3 >= {TERMS_HIT3}: {hit3:.3f}", hit3 >= TERMS_HIT3))
        empty = [q["q"] for q in questions if not ranked[q["q"]]]
        lines.append((f"terms without a result: {len(empty)} {empty[:5]}", not empty))
    if name == "natural":
        hit3 = mine["heldout/fr"]["hit@3"]
        lines.append((f"held-out French hit@3 >= {NATURAL_FR_HIT3}: {hit3:.3f}", hit3 >= NATURAL_FR_HIT3))
        if "peer" in results:
            theirs = results["peer"]["slices"]
            lower = [
                f"{k} {c} {mine[k][c]:.3f} < {theirs[k][c]:.3f}"
                for k in mine
                if k.endswith("/en")
                for c in (*(f"hit@{x}" for x in CUTOFFS), "mrr")
                if mine[k][c] < theirs[k][c]
            ]
            lines.append((f"no English metric below the peer's: {'; '.join(lower) or 'none lower'}", not lower))
    for text, met in lines:
        print(f"target {'met' if met else 'NOT met'}: {text}")


if __name__ == "__main__":
    main()
