"""Relevance scoring: hit@1, hit@3, hit@10 and MRR of rankers over questions.json, and the kb vs FTS5 table.

Run: `python bench/relevance/score.py [--content DIR] [--content-2015 DIR] [--misses]`.
A ranker maps a query to its ranked results; each result is an id or a tuple of ids (one result standing for
several records, such as kb's rule result grouping French and English), ids as in README.md.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from fts5 import baseline  # noqa: E402

QUESTIONS = HERE / "questions.json"
CUTOFFS = (1, 3, 10)
Result = str | tuple[str, ...]
Ranker = Callable[[str], Sequence[Result]]


def load_questions(path: Path = QUESTIONS) -> list[dict]:
    """Return the benchmark questions."""
    return json.loads(path.read_text(encoding="utf-8"))


def matches(expected: str, found: str) -> bool:
    """Tell whether a found id satisfies an expected one (`X*`: X or a subrule of X)."""
    if not expected.endswith("*"):
        return found == expected
    stem = expected[:-1]
    if found == stem:
        return True
    return found.startswith(stem) and len(found) > len(stem) and (found[len(stem)] == "." or found[len(stem)].isalpha())


def first_hit(expect: Sequence[str], ranked: Sequence[Result]) -> int | None:
    """Return the 1-based rank of the first result matching an expectation, None when none does."""
    for rank, result in enumerate(ranked, 1):
        ids = (result,) if isinstance(result, str) else result
        if any(matches(e, found) for e in expect for found in ids):
            return rank
    return None


def metrics(ranks: Sequence[int | None]) -> dict:
    """Return n, hit@k for each cutoff and MRR (0 for a miss) of some first-hit ranks."""
    n = len(ranks)
    out: dict = {"n": n}
    for k in CUTOFFS:
        out[f"hit@{k}"] = sum(1 for r in ranks if r is not None and r <= k) / n if n else 0.0
    out["mrr"] = sum(1 / r for r in ranks if r is not None) / n if n else 0.0
    return out


def pick(ranker: Ranker | Mapping[str | None, Ranker], question: dict) -> Ranker:
    """Return the ranker for a question: the ranker itself, or the one of its edition (else key None)."""
    if callable(ranker):
        return ranker
    return ranker.get(question["edition"]) or ranker[None]


def score(questions: Sequence[dict], ranker: Ranker | Mapping[str | None, Ranker]) -> dict:
    """Score a ranker (or {edition: ranker}, None as fallback): metrics overall, per language, half, edition, and
    for the questions asked across languages (`translated`: form `translation`) apart from the others."""
    ranks = {q["id"]: first_hit(q["expect"], pick(ranker, q)(q["q"])) for q in questions}

    def group(key: Callable[[dict], str]) -> dict:
        keys = sorted({key(q) for q in questions})
        return {k: metrics([ranks[q["id"]] for q in questions if key(q) == k]) for k in keys}

    return {
        "overall": metrics(list(ranks.values())),
        "lang": group(lambda q: q["lang"]),
        "half": group(lambda q: q["half"]),
        "edition": group(lambda q: q["edition"] or "undated"),
        "half_lang": group(lambda q: f"{q['half']}/{q['lang']}"),
        "across": group(lambda q: "translated" if q["form"] == "translation" else "as-typed"),
        "ranks": ranks,
    }


def result_ids(result: dict) -> tuple[str, ...]:
    """Map one `kb search --json` result to benchmark ids (a rule result covers each of its languages)."""
    kind, langs = result["kind"], result.get("langs") or []
    names = result.get("names") or {}
    name = names.get("en") or next(iter(names.values()), result.get("title") or "")
    if kind == "rule":  # each language's own number (French 120.4 sits in today's row 121.4)
        own = result.get("numbers") or {}
        return tuple(f"{lang}:{own.get(lang, result['number'])}" for lang in langs)
    if kind == "glossary":
        return tuple(f"glossary:{lang}:{result['title']}" for lang in langs)
    if kind in ("card", "ruling"):
        return (f"{kind}:{name}",)
    return (f"note:{result['title']}",)


def _kb() -> list[str]:
    """The kb command: on PATH, else this Python's (a virtual environment not activated)."""
    return [shutil.which("kb")] if shutil.which("kb") else [sys.executable, "-m", "kb"]


def kb_ranker(content_dir: str | Path, limit: int = 10) -> Ranker:
    """Return a ranker running `kb search --content DIR --json --limit N QUERY` (no result on exit status 2)."""

    def rank(question: str) -> list[tuple[str, ...]]:
        cmd = [*_kb(), "search", "--content", str(content_dir), "--json", "--limit", str(limit), question]
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            return []
        return [result_ids(r) for r in json.loads(done.stdout)["results"]]

    return rank


def fts5_ranker(content_dir: str | Path, workdir: Path) -> Ranker:
    """Export a content folder with `kb export` and return the FTS5 baseline over it."""
    out = workdir / f"export-{len(list(workdir.iterdir()))}.json"
    subprocess.run([*_kb(), "export", "--content", str(content_dir), "-o", str(out)], check=True, capture_output=True)
    return baseline(out)


def table(results: Mapping[str, dict]) -> str:
    """Format {ranker name: score} as a text table: one row per ranker and slice."""
    cols = ["n", *(f"hit@{k}" for k in CUTOFFS), "mrr"]
    lines = [f"{'slice':<14}{'ranker':<8}" + "".join(f"{c:>8}" for c in cols)]
    slices = [("overall", lambda s: s["overall"])]
    some = next(iter(results.values()))
    for group in ("half", "lang", "edition", "half_lang", "across"):
        slices += [(key, lambda s, g=group, k=key: s[g][k]) for key in some[group]]
    for label, get in slices:
        for name, result in results.items():
            m = get(result)
            cells = [f"{m['n']:>8}", *(f"{m[c]:>8.3f}" for c in cols[1:])]
            lines.append(f"{label:<14}{name:<8}" + "".join(cells))
    return "\n".join(lines)


def misses(questions: Sequence[dict], results: Mapping[str, dict], name: str = "kb") -> str:
    """List the questions `name` ranks worst (missed first, then by rank), with every ranker's rank."""
    ranks = results[name]["ranks"]
    order = sorted(questions, key=lambda q: (-(ranks[q["id"]] or 99), q["id"]))
    lines = []
    for q in order:
        if ranks[q["id"]] == 1:
            break
        cells = " ".join(f"{n}={r['ranks'][q['id']] or '-'}" for n, r in results.items())
        lines.append(f"{q['id']:<8}{cells:<16}{q['q']!r} -> {q['expect']}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    """Print the kb vs FTS5 table for both halves."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--content", default="/tmp/relcontent", help="content for 2026 and French questions")
    parser.add_argument("--content-2015", default="/tmp/rel2015/content", help="content for 2015 questions")
    parser.add_argument("--misses", action="store_true", help="also list kb's misses")
    args = parser.parse_args(argv)
    questions = load_questions()
    if not Path(args.content_2015).is_dir():
        questions = [q for q in questions if q["edition"] != "2015-09-26"]
    with tempfile.TemporaryDirectory() as tmp:
        folders = {None: args.content, "2015-09-26": args.content_2015}
        fts = {ed: fts5_ranker(folder, Path(tmp)) for ed, folder in folders.items() if Path(folder).is_dir()}
        kb = {ed: kb_ranker(folder) for ed, folder in folders.items()}
        results = {"kb": score(questions, kb), "fts5": score(questions, fts)}
    print(table(results))
    if args.misses:
        print("\nkb below rank 1 (rank per ranker, '-' = not in the top 10):")
        print(misses(questions, results))


if __name__ == "__main__":
    main()
